"""Swiss pairing: no rematch or second bye while avoidable, forbidden pairs, reasons."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.formats.helpers import field, random_results, win
from tournaments.formats import (
    Entrant,
    FormatError,
    MatchResult,
    Outcome,
    Round,
    SwissOptions,
    swiss_round,
)


def matchings(nodes: list[str], allowed: set[frozenset[str]]) -> Iterator[list[tuple[str, str]]]:
    """Every perfect matching of `nodes` using only `allowed` pairs (brute force, small n)."""
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for i, other in enumerate(rest):
        if frozenset((first, other)) in allowed:
            for m in matchings(rest[:i] + rest[i + 1 :], allowed):
                yield [(first, other), *m]


def best_possible(
    ids: list[str], results: list[MatchResult], forbidden: frozenset[frozenset[str]]
) -> tuple[int, int]:
    """The fewest (second byes, rematches) any legal pairing of this round can have."""
    byes = Counter(r.entrants[0] for r in results if r.outcome is Outcome.BYE)
    met = Counter(frozenset(r.entrants) for r in results if r.outcome is not Outcome.BYE)
    nodes = list(ids) + (["BYE"] if len(ids) % 2 else [])
    allowed = {frozenset(p) for p in combinations(nodes, 2)} - forbidden
    best = (10**9, 10**9)
    for m in matchings(nodes, allowed):
        second = sum(byes[a if b == "BYE" else b] for a, b in m if "BYE" in (a, b))
        rematches = sum(met[frozenset(p)] for p in m if "BYE" not in p)
        best = min(best, (second, rematches))
    return best


def cost_of(rnd: Round, results: list[MatchResult]) -> tuple[int, int]:
    byes = Counter(r.entrants[0] for r in results if r.outcome is Outcome.BYE)
    met = Counter(frozenset(r.entrants) for r in results if r.outcome is not Outcome.BYE)
    return (
        sum(byes[p.present[0]] for p in rnd.byes),
        sum(met[frozenset(p.present)] for p in rnd.tables),
    )


def check_round(rnd: Round, ids: list[str], forbidden: frozenset[frozenset[str]]) -> None:
    seated = sorted(e for p in rnd.pairings for e in p.present)
    assert seated == sorted(ids)
    assert len(rnd.byes) == len(ids) % 2
    assert [p.table for p in rnd.tables] == list(range(1, len(ids) // 2 + 1))
    for p in rnd.tables:
        assert frozenset(p.present) not in forbidden
        assert p.reason


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(2, 9),
    rounds=st.integers(1, 8),
    seed=st.integers(0, 2**32),
    n_forbidden=st.integers(0, 3),
)
def test_swiss_is_optimal_on_byes_then_rematches(
    n: int, rounds: int, seed: int, n_forbidden: int
) -> None:
    """Against brute force: a second bye only if unavoidable, then the fewest rematches."""
    rng = random.Random(seed)
    entrants = field(n)
    ids = [e.id for e in entrants]
    all_pairs = [frozenset(p) for p in combinations(ids, 2)]
    forbidden = frozenset(rng.sample(all_pairs, min(n_forbidden, len(all_pairs) // 3)))
    options = SwissOptions(rounds=rounds, forbidden=forbidden)
    results: list[MatchResult] = []
    for number in range(1, rounds + 1):
        if best_possible(ids, results, forbidden)[0] >= 10**9:
            with pytest.raises(FormatError, match="forbidden"):
                swiss_round(entrants, results, round_number=number, options=options)
            return
        rnd = swiss_round(entrants, results, round_number=number, options=options)
        check_round(rnd, ids, forbidden)
        assert cost_of(rnd, results) == best_possible(ids, results, forbidden)
        results += random_results(rnd, rng)


@settings(max_examples=15, deadline=None)
@given(n=st.integers(10, 40), seed=st.integers(0, 2**32))
def test_swiss_large_fields_never_rematch_or_double_bye_in_few_rounds(n: int, seed: int) -> None:
    """With rounds < n / 2 a rematch-free, single-bye pairing always exists (the pairing
    graph stays dense), so none may appear."""
    rng = random.Random(seed)
    entrants = field(n)
    rounds = min(7, n // 2 - 1)
    options = SwissOptions(rounds=rounds)
    results: list[MatchResult] = []
    for number in range(1, rounds + 1):
        rnd = swiss_round(entrants, results, round_number=number, options=options)
        check_round(rnd, [e.id for e in entrants], frozenset())
        assert cost_of(rnd, results) == (0, 0)
        assert all("rematch unavoidable" not in p.reason for p in rnd.pairings)
        results += random_results(rnd, rng)
    byes = Counter(r.entrants[0] for r in results if r.outcome is Outcome.BYE)
    assert all(c == 1 for c in byes.values())


def test_round_one_folds_top_half_against_bottom_half() -> None:
    rnd = swiss_round(field(8), [], round_number=1, options=SwissOptions(rounds=3))
    assert [p.entrants for p in rnd.pairings] == [
        ("e1", "e5"),
        ("e2", "e6"),
        ("e3", "e7"),
        ("e4", "e8"),
    ]
    assert rnd.pairings[0].reason == "score group 1 (0 points)"


def test_bye_goes_to_lowest_ranked_without_a_previous_bye() -> None:
    es = field(5)
    opts = SwissOptions(rounds=3)
    r1 = swiss_round(es, [], round_number=1, options=opts)
    assert r1.byes[0].entrants == ("e5", None)
    assert r1.byes[0].reason == "bye: lowest ranked"
    # e5 took the bye (2 points); e1 beat e3, e2 beat e4.
    results = [
        MatchResult(1, 0, ("e5",), (0,), Outcome.BYE),
        win(1, 1, "e1", "e3"),
        win(1, 2, "e2", "e4"),
    ]
    r2 = swiss_round(es, results, round_number=2, options=opts)
    # e4 is the lowest ranked (0 points, seed 4 below e3): it gets the bye.
    assert r2.byes[0].entrants == ("e4", None)
    results += [MatchResult(2, 0, ("e4",), (0,), Outcome.BYE)]
    for p in r2.tables:
        a, b = p.present
        results.append(win(2, p.table, a, b))
    r3 = swiss_round(es, results, round_number=3, options=opts)
    bye = r3.byes[0]
    assert bye.entrants[0] not in ("e4", "e5")
    assert bye.reason in ("bye: lowest ranked", "bye: lowest ranked without a previous bye")


def test_float_down_and_rematch_reasons() -> None:
    es = field(4)
    opts = SwissOptions(rounds=3)
    # Round 1: e1 beat e3, e2 beat e4. Score groups: {e1, e2} on 2, {e3, e4} on 0.
    r1 = [win(1, 1, "e1", "e3"), win(1, 2, "e2", "e4")]
    r2 = swiss_round(es, r1, round_number=2, options=opts)
    assert [p.entrants for p in r2.pairings] == [("e1", "e2"), ("e3", "e4")]
    assert [p.reason for p in r2.pairings] == [
        "score group 1 (2 points)",
        "score group 2 (0 points)",
    ]
    # Round 2: e1 beat e2, e4 beat e3. Now e1 4; e2, e4 2; e3 0. e2 and e4 met: e2 floats.
    results = [*r1, win(2, 1, "e1", "e2"), win(2, 2, "e4", "e3")]
    r3 = swiss_round(es, results, round_number=3, options=opts)
    assert [p.entrants for p in r3.pairings] == [("e1", "e4"), ("e2", "e3")]
    assert r3.pairings[0].reason == "e1 floated down from score group 1 to score group 2"
    assert r3.pairings[1].reason == "e2 floated down from score group 2 to score group 3"
    # A fourth round of four entrants can only repeat a pairing.
    results += [win(3, 1, "e1", "e4"), win(3, 2, "e2", "e3")]
    r4 = swiss_round(es, results, round_number=4, options=SwissOptions(rounds=4))
    assert all("rematch unavoidable (met in round" in p.reason for p in r4.pairings)


def test_forbidden_pairs_are_respected_or_reported() -> None:
    es = field(4)
    forbid = frozenset({frozenset({"e1", "e3"})})
    rnd = swiss_round(es, [], round_number=1, options=SwissOptions(rounds=1, forbidden=forbid))
    # Without the ban e1 v e3, e2 v e4 (the fold); with it, either other pairing is as good.
    assert {frozenset(p.present) for p in rnd.pairings} in (
        {frozenset({"e1", "e4"}), frozenset({"e2", "e3"})},
        {frozenset({"e1", "e2"}), frozenset({"e3", "e4"})},
    )
    free = swiss_round(es, [], round_number=1, options=SwissOptions(rounds=1))
    assert [p.entrants for p in free.pairings] == [("e1", "e3"), ("e2", "e4")]
    impossible = frozenset(frozenset({"e1", x}) for x in ("e2", "e3", "e4"))
    with pytest.raises(FormatError, match=r"options\.forbidden: no pairing of this round"):
        swiss_round(es, [], round_number=1, options=SwissOptions(rounds=1, forbidden=impossible))


def test_seat_balance_alternates_seats() -> None:
    es = field(6)
    opts = SwissOptions(rounds=5, balance_seats=True)
    rng = random.Random(7)
    results: list[MatchResult] = []
    for number in range(1, 6):
        rnd = swiss_round(es, results, round_number=number, options=opts)
        results += random_results(rnd, rng)
    seat0 = Counter(r.entrants[0] for r in results)
    # Five games each: 2 or 3 in seat 0, never more.
    assert all(seat0[e.id] in (2, 3) for e in es), seat0


def test_withdrawn_entrants_results_still_count() -> None:
    es = field(4)
    gone = Entrant("x", 9)
    results = [
        win(1, 1, "e1", "x"),
        win(1, 2, "e2", "e3"),
        MatchResult(1, 0, ("e4",), (0,), Outcome.BYE),
    ]
    rnd = swiss_round(es, results, round_number=2, options=SwissOptions(rounds=3), former=[gone])
    seated = sorted(e for p in rnd.pairings for e in p.present)
    assert seated == ["e1", "e2", "e3", "e4"]
    with pytest.raises(FormatError, match="unknown entrant 'x'"):
        swiss_round(es, results, round_number=2, options=SwissOptions(rounds=3))


@pytest.mark.parametrize(("n", "k"), [(9, 3), (10, 3), (11, 3), (15, 5), (17, 5), (24, 3)])
def test_groups_seat_tables_of_k_with_fair_byes(n: int, k: int) -> None:
    rng = random.Random(n * k)
    es = field(n)
    rounds = 4
    opts = SwissOptions(rounds=rounds, table_size=k)
    results: list[MatchResult] = []
    ids = sorted(e.id for e in es)
    for number in range(1, rounds + 1):
        rnd = swiss_round(es, results, round_number=number, options=opts)
        assert sorted(e for p in rnd.pairings for e in p.present) == ids
        assert all(len(p.present) == k for p in rnd.tables)
        assert len(rnd.byes) == n % k
        assert [p.table for p in rnd.tables] == list(range(1, n // k + 1))
        results += random_results(rnd, rng)
    byes = Counter(r.entrants[0] for r in results if r.outcome is Outcome.BYE)
    # Byes spread out: nobody gets a second before everyone has had one.
    total = sum(byes.values())
    assert max(byes.values(), default=0) <= -(-total // n)


def test_groups_avoid_rematches_when_possible() -> None:
    es = field(9)
    opts = SwissOptions(rounds=3, table_size=3)
    r1 = swiss_round(es, [], round_number=1, options=opts)
    assert [p.entrants for p in r1.pairings] == [
        ("e1", "e2", "e3"),
        ("e4", "e5", "e6"),
        ("e7", "e8", "e9"),
    ]
    results = [
        MatchResult(1, p.table, p.present, (500, 300, 100), Outcome.WIN, (p.present[0],))
        for p in r1.pairings
    ]
    r2 = swiss_round(es, results, round_number=2, options=opts)
    met = {frozenset(pair) for p in r1.pairings for pair in combinations(p.present, 2)}
    for p in r2.pairings:
        assert not any(frozenset(pair) in met for pair in combinations(p.present, 2))
        assert "rematch" not in p.reason
    # Winners e1, e4, e7 make score group 1 and share a table.
    assert r2.pairings[0].entrants == ("e1", "e4", "e7")
    assert r2.pairings[0].reason == "score group 1 (2 points)"


def test_groups_keep_forbidden_pairs_apart() -> None:
    es = field(6)
    forbid = frozenset({frozenset({"e1", "e2"}), frozenset({"e4", "e5"})})
    opts = SwissOptions(rounds=1, table_size=3, forbidden=forbid)
    rnd = swiss_round(es, [], round_number=1, options=opts)
    for p in rnd.pairings:
        assert not any(frozenset(pair) in forbid for pair in combinations(p.present, 2))
