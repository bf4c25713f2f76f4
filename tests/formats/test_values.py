"""Bad input gets a FormatError naming what and where."""

from __future__ import annotations

import pytest

from tournaments.formats import (
    Entrant,
    FormatError,
    MatchResult,
    Outcome,
    Scoring,
    SwissOptions,
    round_robin,
    single_elimination,
    standings,
    swiss_round,
)


def test_entrant_needs_id_and_positive_seed() -> None:
    with pytest.raises(FormatError, match="id must be a non-empty string"):
        Entrant("", 1)
    with pytest.raises(FormatError, match=r"entrant x: seed must be an integer >= 1"):
        Entrant("x", 0)


def test_duplicate_ids_and_seeds_are_named() -> None:
    with pytest.raises(FormatError, match=r"entrants\[1\]: id 'a' is already entrants\[0\]"):
        round_robin([Entrant("a", 1), Entrant("a", 2)])
    with pytest.raises(FormatError, match=r"entrants\[1\]: seed 1 is already used by entrant 'a'"):
        single_elimination([Entrant("a", 1), Entrant("b", 1)])
    with pytest.raises(FormatError, match="need at least 2 entrants"):
        single_elimination([Entrant("a", 1)])
    with pytest.raises(FormatError, match=r"entrants\[0\]: expected an Entrant"):
        round_robin(["a", "b"])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(entrants=("a", "b"), points_for=(1,), outcome="win", winners=("a",)), "points_for"),
        (dict(entrants=("a", "a"), points_for=(1, 2), outcome="win", winners=("a",)), "twice"),
        (dict(entrants=("a", "b"), points_for=(1, 2), outcome="win", winners=("c",)), "not at"),
        (dict(entrants=("a", "b"), points_for=(1, 2), outcome="win"), "must name its winner"),
        (dict(entrants=("a", "b"), points_for=(1, 2), outcome="draw", winners=("a",)), "no winn"),
        (dict(entrants=("a", "b"), points_for=(1, 2), outcome="bye"), "exactly one entrant"),
        (dict(entrants=("a",), points_for=(1,), outcome="win", winners=("a",)), "at least two"),
        (dict(entrants=("a", "b"), points_for=(1, 2), outcome="won"), "unknown outcome 'won'"),
        (
            dict(entrants=("a", "b"), points_for=(1, 2), outcome="win", winners=("a", "b")),
            "at least one loser",
        ),
    ],
)
def test_match_result_validation(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(FormatError, match=message) as err:
        MatchResult(round=3, table=2, **kwargs)  # type: ignore[arg-type]
    assert err.value.where == "result round 3 table 2"


def test_results_naming_unknown_or_doubled_entrants_are_rejected() -> None:
    es = [Entrant("a", 1), Entrant("b", 2)]
    r1 = MatchResult(1, 1, ("a", "zz"), (1, 2), Outcome.WIN, ("a",))
    with pytest.raises(FormatError, match=r"results\[0\]: unknown entrant 'zz'"):
        standings(es, [r1])
    r2 = MatchResult(1, 1, ("a", "b"), (1, 2), Outcome.WIN, ("a",))
    r3 = MatchResult(1, 2, ("b",), (0,), Outcome.BYE)
    with pytest.raises(
        FormatError, match=r"results\[1\]: entrant 'b' already has a result in round 1"
    ):
        standings(es, [r2, r3])


def test_swiss_rejects_results_from_the_round_being_paired_and_bad_options() -> None:
    es = [Entrant("a", 1), Entrant("b", 2)]
    r = MatchResult(2, 1, ("a", "b"), (1, 2), Outcome.WIN, ("a",))
    with pytest.raises(FormatError, match="result for round 2 given while pairing round 2"):
        swiss_round(es, [r], round_number=2, options=SwissOptions(rounds=3))
    with pytest.raises(FormatError, match="round_number: must be between 1 and 3"):
        swiss_round(es, [], round_number=4, options=SwissOptions(rounds=3))
    with pytest.raises(FormatError, match=r"options\.rounds"):
        SwissOptions(rounds=0)
    with pytest.raises(FormatError, match=r"options\.table_size"):
        SwissOptions(rounds=2, table_size=1)
    with pytest.raises(FormatError, match=r"options.forbidden\[0\]: unknown entrant 'q'"):
        swiss_round(
            es,
            [],
            round_number=1,
            options=SwissOptions(rounds=1, forbidden=frozenset({frozenset({"a", "q"})})),
        )


def test_scoring_validation() -> None:
    with pytest.raises(FormatError, match=r"scoring\.win: a win must score more than a loss"):
        Scoring(win=0, loss=0)
    with pytest.raises(FormatError, match=r"scoring\.draw: must be an integer"):
        Scoring(draw=0.5)  # type: ignore[arg-type]
