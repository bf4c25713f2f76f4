"""Golden records written by ``tests/golden/make_golden.py``: they verify as they did when
written, and together they cover every contract type, player count and feature of the format."""

from __future__ import annotations

from typing import Any

import pytest

from fivehundred.record import loads, verify
from tests.record.conftest import RECORDS, load_json

EXPECTED: dict[str, dict[str, Any]] = load_json(RECORDS / "expected.json")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_golden_record_verifies(name: str) -> None:
    verdict = verify((RECORDS / f"{name}.json").read_bytes())
    assert verdict.errors == []
    got = verdict.to_json()
    for key, value in EXPECTED[name].items():
        assert got[key] == value, key


def _all() -> list[dict[str, Any]]:
    return [loads((RECORDS / f"{name}.json").read_bytes()) for name in sorted(EXPECTED)]


def _bids() -> set[str]:
    bids = set()
    for record in _all():
        for hand in record["hands"]:
            result = hand.get("result")
            if result and result["contract"]:
                bids.add(result["contract"]["bid"])
    return bids


def test_every_contract_type_is_covered() -> None:
    bids = _bids()
    assert any(b[-1] in "SCDH" and "/" not in b for b in bids), "suit contract"
    assert any(b.endswith("NT") for b in bids), "no trumps"
    assert {"MIS", "OM", "BM"} <= bids
    assert any(b.endswith("/SK") for b in bids), "sans kitty"


def test_every_player_count_and_feature_is_covered() -> None:
    records = _all()
    assert {r["rules"]["players"] for r in records} == {2, 3, 4, 5, 6}
    hands = [h for r in records for h in r["hands"]]
    assert any("deal" not in h for h in hands), "summary hands"
    assert any("seed" in h.get("deal", {}) for h in hands), "seeded deals"
    assert any(h.get("result") and h["result"]["contract"] is None for h in hands), "thrown in"
    contracts = [(h.get("result") or {}).get("contract") or {} for h in hands]
    assert any("partner" in c for c in contracts), "five-player called partner"
    assert {r["termination"]["reason"] for r in records if "termination" in r} >= {
        "timeout",
        "crash",
        "illegal_action",
        "adjudicated",
    }
    assert any("variation" in note for r in records for note in r.get("annotations", ())), (
        "annotations with variations"
    )
    assert any(r["rules"]["options"] for r in records), "options"
    assert any("nominate" in a for h in hands for a in h.get("actions", ())), "joker nomination"
    statuses = {verify(r).status for r in records}
    assert statuses == {"complete", "in_progress"}
