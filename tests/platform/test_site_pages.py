"""The site's pages: home, record list with filters, a record rendered as text."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from fivehundred.record.show import render_text
from replays.models import StoredRecord
from replays.services import record_ingest

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_records(make_record: Any) -> list[StoredRecord]:
    first, _ = record_ingest(data=make_record(4, "page-1", name="Club night", date="2026-11-03"))
    second, _ = record_ingest(data=make_record(3, "page-2", name="Ladder", date="2026-11-04"))
    return [first, second]


def test_home_links_to_what_exists(client: Client, two_records: list[StoredRecord]) -> None:
    response = client.get("/")
    html = response.content.decode()
    assert response.status_code == 200
    for link in (
        'href="/records/"',
        'href="/api/v1/docs/"',
        f'href="/records/{two_records[0].pk}/"',
    ):
        assert link in html
    assert "<strong>2</strong> stored" in html
    assert '<meta name="viewport"' in html
    assert "/static/css/site.css" in html


def test_record_list_filters(client: Client, two_records: list[StoredRecord]) -> None:
    html = client.get("/records/").content.decode()
    assert "2 records" in html and "Club night" in html and "Ladder" in html
    html = client.get("/records/", {"players": "3"}).content.decode()
    assert "1 record" in html and "Ladder" in html and "Club night" not in html
    bad = client.get("/records/", {"date_from": "not-a-date"})
    assert bad.status_code == 200 and "Enter a valid date" in bad.content.decode()


def test_record_page_shows_the_text_rendering(
    client: Client, two_records: list[StoredRecord]
) -> None:
    record = two_records[0]
    response = client.get(f"/records/{record.pk}/")
    html = response.content.decode()
    assert response.status_code == 200
    assert record.digest in html
    assert '<pre class="record-text">' in html
    first_line = render_text(record.data).splitlines()[0]
    from django.utils.html import escape

    assert escape(first_line) in html
    assert f'href="/api/v1/records/{record.pk}/download/"' in html


def test_missing_record_is_a_404_page(client: Client) -> None:
    response = client.get("/records/999999/")
    assert response.status_code == 404
    assert "text/html" in response["Content-Type"]


def test_static_stylesheet_is_served(client: Client) -> None:
    response = client.get("/static/css/site.css")
    assert response.status_code == 200
    assert b"--accent" in b"".join(response.streaming_content)  # type: ignore[attr-defined]
