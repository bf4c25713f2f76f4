"""The specification's example records, with the verdicts its README gives."""

from __future__ import annotations

import pytest

from fivehundred.record import verify
from tests.record.conftest import EXAMPLES

VALID = [
    ("four-players-complete", "complete", [-680, 180], 1),
    ("four-players-in-progress-seeded", "in_progress", [80, -380], None),
    ("options-and-annotations", "complete", [-220, 900], 1),
    ("five-players-complete", "complete", [50, 40, -520, -210, 120], 4),
    ("five-players-called-partner", "complete", [120, 220, 180, 550, 130], 3),
    ("two-players-with-summary-hands", "complete", [530, -20], 0),
    ("six-players-three-teams-in-progress", "in_progress", [-460, 210, -150], None),
    ("three-players-forfeit", "complete", [-240, -380, 70], 2),
]

INVALID = [
    ("invalid-not-following", "illegal_action", "/hands/2/actions/14"),
    ("invalid-wrong-totals", "totals_mismatch", "/hands/9/result/totals"),
    ("invalid-wrong-dealer", "dealer_mismatch", "/hands/3/dealer"),
    ("invalid-card-notation", "schema", "/hands/0/deal/hands/0/8"),
]


@pytest.mark.parametrize(("name", "status", "scores", "winner"), VALID)
def test_valid_examples(name: str, status: str, scores: list[int], winner: int | None) -> None:
    verdict = verify((EXAMPLES / f"{name}.json").read_bytes())
    assert verdict.errors == []
    assert verdict.valid
    assert verdict.status == status
    assert verdict.scores == scores
    assert verdict.winner == winner
    assert verdict.digest is not None and len(verdict.digest) == 64


@pytest.mark.parametrize(("name", "code", "pointer"), INVALID)
def test_invalid_examples(name: str, code: str, pointer: str) -> None:
    verdict = verify((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    assert not verdict.valid
    assert verdict.status == "invalid"
    first = verdict.errors[0]
    assert (first.code, first.pointer) == (code, pointer)
    assert first.message
    assert verdict.scores is None and verdict.winner is None


def test_schema_errors_have_no_digest() -> None:
    verdict = verify((EXAMPLES / "invalid-card-notation.json").read_bytes())
    assert verdict.digest is None


def test_replay_errors_keep_the_digest() -> None:
    verdict = verify((EXAMPLES / "invalid-not-following.json").read_bytes())
    assert verdict.digest is not None


def test_illegal_action_message_names_the_rule() -> None:
    verdict = verify((EXAMPLES / "invalid-not-following.json").read_bytes())
    assert verdict.errors[0].message == "seat 0 must follow hearts (holds QH) (R-6.2)"


def test_wrong_dealer_is_one_error() -> None:
    # The verifier goes on as the rules say the hand was dealt: the seed and the seats to act
    # then agree with the record, so the one wrong number gives one error.
    verdict = verify((EXAMPLES / "invalid-wrong-dealer.json").read_bytes())
    assert [(e.code, e.pointer) for e in verdict.errors] == [("dealer_mismatch", "/hands/3/dealer")]
