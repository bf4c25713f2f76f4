"""Standings and tie-breaks on hand-computed examples."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.formats import (
    Entrant,
    FormatError,
    MatchResult,
    Outcome,
    Scoring,
    TieBreak,
    standings,
)

ALL = [t.value for t in TieBreak]


def res(rnd: int, a: str, b: str, pa: int, pb: int, winner: str | None) -> MatchResult:
    if winner is None:
        return MatchResult(rnd, 1, (a, b), (pa, pb), Outcome.DRAW)
    return MatchResult(rnd, 1, (a, b), (pa, pb), Outcome.WIN, (winner,))


ABCD = [Entrant("A", 1), Entrant("B", 2), Entrant("C", 3), Entrant("D", 4)]

# R1: A beat B 500-300, C drew D 400-400; R2: A drew C 450-450, B beat D 520-100;
# R3: A beat D 510-200, C beat B 500-480.
EVENT = [
    res(1, "A", "B", 500, 300, "A"),
    res(1, "C", "D", 400, 400, None),
    res(2, "A", "C", 450, 450, None),
    res(2, "B", "D", 520, 100, "B"),
    res(3, "A", "D", 510, 200, "A"),
    res(3, "C", "B", 500, 480, "C"),
]


def test_every_tiebreak_by_hand() -> None:
    table = standings(ABCD, EVENT, tiebreaks=ALL)
    assert [(s.rank, s.entrant, s.points) for s in table] == [
        (1, "A", 5),
        (2, "C", 4),
        (3, "B", 2),
        (4, "D", 1),
    ]
    by = {s.entrant: s for s in table}
    # Points: A 5, B 2, C 4, D 1. Buchholz = sum of opponents' points.
    assert [by[e].tiebreak("buchholz") for e in "ABCD"] == [7, 10, 8, 11]
    # Median: drop the best and worst of three opponents.
    assert [by[e].tiebreak("median_buchholz") for e in "ABCD"] == [2, 4, 2, 4]
    # SB: A beat B (2) + half of C (4) + beat D (1) = 5; C: half D (1) + half A (5) + B (2).
    assert [by[e].tiebreak("sonneborn_berger") for e in "ABCD"] == [5, 1, 5, 2]
    assert [by[e].tiebreak("points_for") for e in "ABCD"] == [1460, 1300, 1350, 700]
    assert [by[e].tiebreak("points_against") for e in "ABCD"] == [950, 1100, 1330, 1430]
    assert [by[e].tiebreak("points_difference") for e in "ABCD"] == [510, 200, 20, -730]
    assert [by[e].tiebreak("wins") for e in "ABCD"] == [2, 1, 1, 0]
    a = by["A"]
    assert (a.played, a.wins, a.draws, a.losses, a.byes) == (3, 2, 1, 0, 0)
    assert [t for t, _ in a.tiebreaks] == list(TieBreak)


def test_sonneborn_berger_uses_exact_fractions_with_other_scoring() -> None:
    table = standings(
        ABCD, EVENT, scoring=Scoring(win=3, draw=1, loss=0, bye=3), tiebreaks=["sonneborn_berger"]
    )
    by = {s.entrant: s for s in table}
    # Points: A 7, B 3, C 5, D 1. A: B 3 + C 5/3 + D 1; C: D 1/3 + A 7/3 + B 3.
    assert by["A"].points == 7
    assert by["A"].tiebreak("sonneborn_berger") == Fraction(17, 3)
    assert by["C"].tiebreak("sonneborn_berger") == Fraction(17, 3)
    row = by["A"].as_dict()
    assert row["points"] == 7 and row["tiebreaks"] == {"sonneborn_berger": pytest.approx(17 / 3)}


# A beat B, B beat C, C beat A, and all three beat D.
CYCLE = [
    res(1, "A", "B", 500, 400, "A"),
    res(1, "C", "D", 500, 100, "C"),
    res(2, "B", "C", 500, 300, "B"),
    res(2, "A", "D", 500, 100, "A"),
    res(3, "C", "A", 510, 490, "C"),
    res(3, "B", "D", 500, 100, "B"),
]


def test_full_ties_share_a_rank_and_list_by_seed() -> None:
    table = standings(ABCD, CYCLE, tiebreaks=["buchholz", "head_to_head"])
    assert [(s.rank, s.entrant) for s in table] == [(1, "A"), (1, "B"), (1, "C"), (4, "D")]
    assert all(s.tiebreak("head_to_head") == 2 for s in table[:3])


def test_points_against_ranks_lower_first() -> None:
    table = standings(ABCD, CYCLE, tiebreaks=["buchholz", "head_to_head", "points_against"])
    # PA: A 400+100+510 = 1010, B 500+300+100 = 900, C 100+500+490 = 1090.
    assert [(s.rank, s.entrant, s.tiebreak("points_against")) for s in table[:3]] == [
        (1, "B", 900),
        (2, "A", 1010),
        (3, "C", 1090),
    ]


def test_head_to_head_is_computed_among_those_still_tied() -> None:
    # As CYCLE but B beat C 500-450 and C beat A 500-400: points for A 1400, B 1400, C 1450.
    results = [
        *CYCLE[:2],
        res(2, "B", "C", 500, 450, "B"),
        CYCLE[3],
        res(3, "C", "A", 500, 400, "C"),
        CYCLE[5],
    ]
    pf_first = standings(ABCD, results, tiebreaks=["points_for", "head_to_head"])
    # C leads on points for; A and B stay tied and A beat B.
    assert [(s.rank, s.entrant) for s in pf_first] == [(1, "C"), (2, "A"), (3, "B"), (4, "D")]
    assert [s.tiebreak("head_to_head") for s in pf_first[:3]] == [0, 2, 0]
    h2h_first = standings(ABCD, results, tiebreaks=["head_to_head", "points_for"])
    # Among all three, head to head is 2 each; points for then separates C from A = B.
    assert [(s.rank, s.entrant) for s in h2h_first] == [(1, "C"), (2, "A"), (2, "B"), (4, "D")]


def test_byes_forfeits_and_withdrawn_entrants() -> None:
    es = [Entrant("A", 1), Entrant("B", 2), Entrant("C", 3)]
    gone = Entrant("X", 4)
    results = [
        res(1, "A", "X", 500, 100, "A"),
        MatchResult(1, 0, ("B",), (0,), Outcome.BYE),
        MatchResult(2, 1, ("B", "C"), (0, 0), Outcome.FORFEIT, ("B",)),
        res(2, "X", "A", 520, 300, "X"),
    ]
    table = standings(es, results, tiebreaks=["buchholz", "points_for", "wins"], former=[gone])
    by = {s.entrant: s for s in table}
    assert [s.entrant for s in table] == ["B", "A", "C"]  # B: bye 2 + forfeit win 2
    assert (by["B"].points, by["B"].byes, by["B"].wins, by["B"].played) == (4, 1, 1, 1)
    # A's opponent X (withdrawn) has 2 points, met twice; the bye adds nothing to B's Buchholz.
    assert by["A"].tiebreak("buchholz") == 4
    assert by["B"].tiebreak("buchholz") == 0
    assert by["B"].tiebreak("points_for") == 0  # a forfeit is not a game played for points
    assert by["A"].tiebreak("points_for") == 800
    assert by["C"].losses == 1


def test_tables_of_three_count_every_other_player_as_an_opponent() -> None:
    es = [Entrant("A", 1), Entrant("B", 2), Entrant("C", 3)]
    r = MatchResult(1, 1, ("A", "B", "C"), (500, 200, -100), Outcome.WIN, ("A",))
    table = standings(es, [r], tiebreaks=["points_against", "buchholz"])
    by = {s.entrant: s for s in table}
    assert by["A"].tiebreak("points_against") == 100
    assert by["B"].tiebreak("buchholz") == 2
    # B and C on 0 points: B conceded 500 - 100 = 400, C 500 + 200 = 700.
    assert by["B"].tiebreak("points_against") == 400
    assert [s.entrant for s in table] == ["A", "B", "C"]


def test_bad_tiebreak_names() -> None:
    with pytest.raises(FormatError, match=r"tiebreaks\[1\]: unknown tie-break 'elo'"):
        standings(ABCD, EVENT, tiebreaks=["wins", "elo"])
    with pytest.raises(FormatError, match=r"tiebreaks\[1\]: tie-break 'wins' is listed twice"):
        standings(ABCD, EVENT, tiebreaks=["wins", "wins"])
    with pytest.raises(FormatError, match="former A: is also a current entrant"):
        standings(ABCD, EVENT, former=[Entrant("A", 9)])
