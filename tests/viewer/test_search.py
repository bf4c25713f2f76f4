"""The records list's search: bot, contract, result and digest prefix, next to the older filters."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from replays.models import StoredRecord
from replays.selectors import CONTRACT_KINDS, record_list
from replays.services import record_ingest
from tests.viewer.helpers import example, played

pytestmark = pytest.mark.django_db


@pytest.fixture
def library(db: None) -> dict[str, StoredRecord]:
    games = {
        "heuristic": played(4, "search-1"),
        "random": played(4, "search-2", "random"),
        "summary": example("two-players-with-summary-hands.json"),
        "forfeit": example("three-players-forfeit.json"),
    }
    games["heuristic"]["event"] = {"name": "Club night", "date": "2026-11-03"}
    return {name: record_ingest(data=data)[0] for name, data in games.items()}


def _bids(record: StoredRecord) -> set[str]:
    return {
        h["result"]["contract"]["bid"]
        for h in record.data["hands"]
        if h.get("result") and h["result"].get("contract")
    }


def _pks(**filters: Any) -> set[int]:
    return {r.pk for r in record_list(**filters)}


@pytest.mark.parametrize("kind", sorted(CONTRACT_KINDS))
def test_contract_kind_matches_the_hands_played(
    library: dict[str, StoredRecord], kind: str
) -> None:
    pattern = re.compile(CONTRACT_KINDS[kind][1].removeprefix('"bid": "').rstrip('"') + "$")
    expected = {r.pk for r in library.values() if any(pattern.match(b) for b in _bids(r))}
    assert _pks(contract=kind) == expected


def test_bot_result_and_digest(library: dict[str, StoredRecord]) -> None:
    assert _pks(bot="heuristic") == {library["heuristic"].pk}
    assert _pks(bot="bot:random") == {library["random"].pk, library["forfeit"].pk}
    assert _pks(bot="greedy") == {library["summary"].pk, library["forfeit"].pk}
    assert _pks(bot="Alice") == {r.pk for r in library.values()}  # a bot seat named Alice
    assert _pks(bot="nobody") == set()
    forfeit = library["forfeit"]
    assert _pks(reason="forfeit") == {forfeit.pk}
    assert forfeit.pk in _pks(winner=forfeit.winner)
    winners = {r.pk for r in library.values() if r.winner == 0}
    assert _pks(winner=0) == winners
    summary = library["summary"]
    assert _pks(digest=summary.digest[:9].upper()) == {summary.pk}
    assert _pks(digest=summary.digest) == {summary.pk}


def test_the_list_page_filters(client: Client, library: dict[str, StoredRecord]) -> None:
    html = client.get("/records/", {"bot": "heuristic", "event": "club"}).content.decode()
    assert "1 record" in html and f'href="/records/{library["heuristic"].pk}/"' in html
    html = client.get("/records/", {"winner": "0", "reason": "contract"}).content.decode()
    count = len({r.pk for r in library.values() if r.winner == 0 and r.result_reason == "contract"})
    assert f"{count} record" in html
    short = client.get("/records/", {"digest": "abc"})
    assert "at least 8 hexadecimal characters" in short.content.decode()
    dated = client.get("/records/", {"date_from": "2026-11-01", "date_to": "2026-11-30"})
    assert "1 record" in dated.content.decode()
