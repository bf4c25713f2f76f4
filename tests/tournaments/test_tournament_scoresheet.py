"""Score sheets into records of summary hands: the arithmetic is the engine's, and bad sheets are
refused with the field named, whatever is sent."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fivehundred.record import verify
from tournaments.scoresheet import ScoreSheetError, scoresheet_record

FOUR = {"ruleset": "australian", "players": 4, "options": {}}
SEATS4 = [{"name": n} for n in ("Ann", "Bob", "Al", "Bo")]


def test_five_player_sheet_with_a_called_partner() -> None:
    rules = {"ruleset": "australian", "players": 5, "options": {"target": 200}}
    seats = [{"name": f"P{i}"} for i in range(5)]
    # Seat 2 bids 8 hearts with seat 4 as partner; they take 8 tricks between them.
    hand = {"contract": "8H", "contractor": 2, "partner": 4, "tricks": [1, 1, 4, 0, 4]}
    record = scoresheet_record(rules=rules, seats=seats, hands=[hand], first_dealer=1)
    assert record["hands"][0]["result"]["contract"] == {"seat": 2, "bid": "8H", "partner": 4}
    verdict = verify(record)
    assert verdict.valid, verdict.errors
    assert record["result"]["winner"] == [2, 4]


def test_three_player_sheet_runs_to_the_end() -> None:
    rules = {"ruleset": "australian", "players": 3, "options": {}}
    seats = [{"name": n} for n in "XYZ"]
    hands = [{"contract": "10NT", "contractor": 1, "tricks": [0, 10, 0]}]
    record = scoresheet_record(rules=rules, seats=seats, hands=hands, event={"round": 2})
    assert record["event"] == {"round": "2"}
    assert record["result"]["winner"] == 1 and verify(record).valid


@pytest.mark.parametrize(
    ("hands", "where"),
    [
        ("10NT", "hands"),
        ([], "hands"),
        ([5], "hands[0]"),
        ([{"contract": 7, "contractor": 0, "tricks": [7, 3]}], "hands[0].contract"),
        ([{"contract": "7X", "contractor": 0, "tricks": [7, 3]}], "hands[0].contract"),
        ([{"contract": "7H", "contractor": "north", "tricks": [7, 3]}], "hands[0].contractor"),
        ([{"contract": "7H", "contractor": 0, "tricks": "7-3"}], "hands[0].tricks"),
        ([{"contract": "7H", "contractor": 0, "tricks": [7, 3, 0]}], "hands[0].tricks"),
        ([{"contract": "7H", "contractor": 0, "tricks": [7, -3]}], "hands[0].tricks[1]"),
        ([{"contract": "7H", "contractor": 0, "partner": 2, "tricks": [7, 3]}], "hands[0].partner"),
        ([{"contract": "", "tricks": [4, 6]}], "hands[0].tricks"),
        ([{"contract": "10NT", "contractor": 0, "tricks": [10, 0]}] * 2, "hands[1]"),
    ],
)
def test_bad_sheets_name_the_field(hands: Any, where: str) -> None:
    with pytest.raises(ScoreSheetError) as err:
        scoresheet_record(rules=FOUR, seats=SEATS4, hands=hands)
    assert err.value.where == where


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-20, 20) | st.text(max_size=5)
    | st.sampled_from(["7H", "MIS", "10NT", "PASS", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["contract", "contractor", "partner", "tricks"]), inner, max_size=4
    ),
    max_leaves=12,
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(hands=JSONISH, dealer=JSONISH)
def test_any_input_is_a_record_or_a_score_sheet_error(hands: Any, dealer: Any) -> None:
    try:
        record = scoresheet_record(rules=FOUR, seats=SEATS4, hands=hands, first_dealer=dealer)
    except ScoreSheetError as exc:
        assert exc.where.startswith(("hands", "first_dealer"))
    else:
        assert verify(record).valid
