"""Round robin meets every pair exactly once per cycle, with even sit-outs and numbered tables."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tests.formats.helpers import field
from tournaments.formats import FormatError, Round, round_robin


def pairs_of(rounds: tuple[Round, ...]) -> Counter[frozenset[str]]:
    return Counter(frozenset(p.present) for r in rounds for p in r.tables)


@pytest.mark.parametrize("n", range(2, 65))
@pytest.mark.parametrize("cycles", [1, 2])
def test_every_pair_meets_exactly_once_per_cycle(n: int, cycles: int) -> None:
    rounds = round_robin(field(n), cycles=cycles)
    per_cycle = n - 1 if n % 2 == 0 else n
    assert [r.number for r in rounds] == list(range(1, per_cycle * cycles + 1))
    ids = [f"e{i}" for i in range(1, n + 1)]
    for c in range(cycles):
        cycle = rounds[c * per_cycle : (c + 1) * per_cycle]
        met = pairs_of(cycle)
        assert met == Counter({frozenset(p): 1 for p in combinations(ids, 2)})
        sat_out = Counter(p.entrants[0] for r in cycle for p in r.byes)
        # Odd fields: each entrant sits out exactly once per cycle; even: never.
        assert sat_out == (Counter(ids) if n % 2 else Counter())
    for r in rounds:
        seated = [e for p in r.pairings for e in p.present]
        assert sorted(seated) == sorted(ids)  # everyone exactly once per round
        assert [p.table for p in r.tables] == list(range(1, n // 2 + 1))
        assert all(p.table == 0 and p.entrants[1] is None for p in r.byes)


@pytest.mark.parametrize("n", [4, 7, 10, 16])
def test_seats_are_balanced(n: int) -> None:
    single = round_robin(field(n))
    seat0 = Counter(p.entrants[0] for r in single for p in r.tables)
    games = Counter(e for r in single for p in r.tables for e in p.present)
    for e, g in games.items():
        assert abs(2 * seat0[e] - g) <= 2, (e, seat0[e], g)
    double = round_robin(field(n), cycles=2)
    seat0 = Counter(p.entrants[0] for r in double for p in r.tables)
    games = Counter(e for r in double for p in r.tables for e in p.present)
    assert all(2 * seat0[e] == g for e, g in games.items())  # exactly balanced over two cycles


@pytest.mark.parametrize(
    ("n", "k"),
    [(3, 3), (6, 3), (7, 3), (9, 3), (10, 3), (12, 3), (5, 5), (11, 5), (16, 5), (25, 5)],
)
def test_groups_seat_everyone_and_spread_sit_outs_evenly(n: int, k: int) -> None:
    rounds = round_robin(field(n), table_size=k)
    assert len(rounds) == -(-(n - 1) // (k - 1))
    ids = sorted(f"e{i}" for i in range(1, n + 1))
    sat_out: Counter[str] = Counter()
    for r in rounds:
        assert sorted(e for p in r.pairings for e in p.present) == ids
        assert all(len(p.entrants) == k for p in r.pairings)
        assert all(len(p.present) == k for p in r.tables)
        assert len(r.byes) == n % k
        assert [p.table for p in r.tables] == list(range(1, n // k + 1))
        sat_out.update(p.present[0] for p in r.byes)
    counts = [sat_out[e] for e in ids]
    assert max(counts) - min(counts) <= 1


def test_groups_of_three_for_nine_never_repeat_a_pair() -> None:
    # Nine entrants in four rounds of three tables can meet every pair exactly once (the affine
    # plane of order 3).
    rounds = round_robin(field(9), table_size=3)
    met = Counter(
        frozenset(pair) for r in rounds for p in r.tables for pair in combinations(p.present, 2)
    )
    assert max(met.values()) == 1
    assert len(met) == 36  # every pair met: the greedy finds the exact design here


def test_groups_reasons_count_new_pairs() -> None:
    rounds = round_robin(field(6), table_size=3)
    assert rounds[0].pairings[0].reason == (
        "balanced round robin for tables of 3: 3 of 3 pairs meet for the first time"
    )


def test_bad_arguments() -> None:
    with pytest.raises(FormatError, match="cycles: must be an integer >= 1"):
        round_robin(field(4), cycles=0)
    with pytest.raises(FormatError, match="table_size: must be an integer >= 2"):
        round_robin(field(4), table_size=1)
    with pytest.raises(FormatError, match="4 entrants cannot fill a table of 5"):
        round_robin(field(4), table_size=5)
    with pytest.raises(FormatError, match="fixed"):
        round_robin(field(4), rounds=3)
