"""A person's path through the pages in a real browser (headless Chromium driven by Playwright).

Uses the system's Chromium (``/usr/bin/chromium``, installed by ``.ci/run``); without it the test is
skipped, except under ``CI=true``, where it fails.
"""

from __future__ import annotations

from typing import Any

import pytest

from fivehundred.record.show import render_text
from replays.models import StoredRecord
from replays.services import record_ingest
from tests.browser import chromium

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]


@pytest.fixture
def club_records(make_record: Any) -> list[StoredRecord]:
    """The records the pages show, stored before the browser starts (see ``browser_page``)."""
    club, _ = record_ingest(data=make_record(4, "browser-1", name="Club night", date="2026-11-03"))
    ladder, _ = record_ingest(data=make_record(3, "browser-2", name="Ladder", date="2026-11-04"))
    return [club, ladder]


@pytest.fixture
def browser_page(club_records: list[StoredRecord]) -> Any:
    # Playwright's sync API switches greenlets inside this thread, and Django would see database
    # calls made meanwhile as coming from another context, opening a second connection that is
    # never closed. So every database write happens before it starts, in ``club_records``.
    with chromium() as browser:
        yield browser.new_page(viewport={"width": 390, "height": 844})  # a phone


def test_home_to_a_record_and_filtering(
    club_records: list[StoredRecord], browser_page: Any, live_server: Any
) -> None:
    club = club_records[0]
    page = browser_page

    page.goto(live_server.url + "/")
    assert page.locator("h1").inner_text() == "Five Hundred, in the open"
    # The stylesheet loaded: the header is dark, not the browser's default white.
    header_colour = page.locator(".site-header").evaluate(
        "e => getComputedStyle(e).backgroundColor"
    )
    assert header_colour == "rgb(29, 35, 42)"
    # Nothing is wider than the phone's screen except inside the scrollable table.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    page.get_by_role("link", name="Game records").click()
    page.wait_for_url("**/records/")
    assert "2 records" in page.locator(".count").inner_text()

    page.select_option("select[name=players]", "3")
    page.get_by_role("button", name="Filter").click()
    page.wait_for_url("**/records/?*players=3*")
    assert "1 record" in page.locator(".count").inner_text()
    assert page.get_by_role("link", name="Ladder").count() == 1
    assert page.get_by_role("link", name="Club night").count() == 0

    page.goto(live_server.url + f"/records/{club.pk}/")
    text = page.locator("pre.record-text").inner_text()
    assert text.strip() == render_text(club.data).strip()
    with page.expect_download() as download:
        page.get_by_role("link", name="Download JSON").click()
    assert download.value.suggested_filename == f"record-{club.pk}.json"
