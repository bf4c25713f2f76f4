"""Brackets are complete and consistent for 2..64 entrants and always produce one champion."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.formats.helpers import field, win
from tournaments.formats import (
    Bracket,
    FormatError,
    MatchResult,
    MatchStatus,
    Outcome,
    SlotKind,
    bracket_state,
    double_elimination,
    next_matches,
    seeding_order,
    single_elimination,
)

SIZES = range(2, 65)


def test_seeding_order_pairs_seeds_adding_to_size_plus_one() -> None:
    assert seeding_order(2) == (1, 2)
    assert seeding_order(4) == (1, 4, 2, 3)
    order = seeding_order(16)
    assert order == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)
    for size in (2, 4, 8, 16, 32, 64):
        o = seeding_order(size)
        assert sorted(o) == list(range(1, size + 1))
        assert all(o[i] + o[i + 1] == size + 1 for i in range(0, size, 2))
        # Seeds 1 and 2 can only meet in the final.
        assert o.index(1) < size // 2 <= o.index(2)
    with pytest.raises(FormatError, match="power of two"):
        seeding_order(12)


def check_structure(b: Bracket) -> None:
    """Every slot refers to an earlier match, and the feeding links mirror the slots."""
    seen: set[str] = set()
    entered: Counter[str] = Counter()
    ids = [m.id for m in b.matches]
    assert len(ids) == len(set(ids))
    for m in b.matches:
        for i, s in enumerate(m.slots):
            if s.kind is SlotKind.ENTRANT:
                entered[s.ref] += 1
            else:
                assert s.ref in seen, f"{m.id} slot {i} fed by later match {s.ref}"
                if not m.conditional:
                    src = b.match(s.ref)
                    link = src.winner_to if s.kind is SlotKind.WINNER else src.loser_to
                    assert link == (m.id, i)
        seen.add(m.id)
    assert entered == Counter(e.id for e in b.entrants)
    # Each match output feeds at most one slot.
    for m in b.matches:
        for target in (m.winner_to, m.loser_to):
            if target is not None:
                assert b.match(target[0]).slots[target[1]].ref == m.id


def expected_byes(n: int) -> list[str]:
    size = 1 << (n - 1).bit_length()
    return [f"e{i}" for i in range(1, size - n + 1)]


@pytest.mark.parametrize("n", SIZES)
def test_single_elimination_structure_and_byes(n: int) -> None:
    b = single_elimination(field(n), third_place=True)
    check_structure(b)
    main = [m for m in b.matches if m.id != "3P"]
    assert len(main) == n - 1
    assert b.third_place == (n >= 4)
    assert sorted(b.byes, key=lambda e: int(e[1:])) == expected_byes(n)
    # First round matches pair seeds adding to bracket size + 1 (1 v 16, 8 v 9, ...).
    for m in b.matches:
        if m.round == 1 and m.id != "3P":
            a, c = (int(s.ref[1:]) for s in m.slots)
            assert a + c == b.size + 1


@pytest.mark.parametrize("n", SIZES)
def test_double_elimination_structure_and_byes(n: int) -> None:
    b = double_elimination(field(n))
    check_structure(b)
    assert sorted(b.byes, key=lambda e: int(e[1:])) == expected_byes(n)
    # Every entrant but the champion loses twice: 2n - 2 matches plus GF and its reset.
    assert len(b.matches) == 2 * n - 2 + 1
    assert b.matches[-1].id == "GF2" and b.matches[-1].conditional
    assert len(double_elimination(field(n), reset=False).matches) == 2 * n - 2


def play_out(b: Bracket, rng: random.Random) -> tuple[dict[str, MatchResult], Counter[str]]:
    results: dict[str, MatchResult] = {}
    losses: Counter[str] = Counter()
    for _ in range(4 * len(b.matches)):
        ready = next_matches(b, results)
        if not ready:
            break
        p = rng.choice(ready)
        a, c = p.present
        w, lo = (a, c) if rng.random() < 0.5 else (c, a)
        outcome = Outcome.FORFEIT if rng.random() < 0.05 else Outcome.WIN
        assert p.match is not None
        results[p.match] = MatchResult(1, p.table, (a, c), (500, 100), outcome, (w,))
        losses[lo] += 1
    return results, losses


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 64), seed=st.integers(0, 2**32), third=st.booleans())
def test_single_elimination_random_paths_end_with_one_champion(
    n: int, seed: int, third: bool
) -> None:
    b = single_elimination(field(n), third_place=third)
    results, losses = play_out(b, random.Random(seed))
    state = bracket_state(b, results)
    assert state.finished and state.champion is not None
    assert len(results) == len(b.matches)
    assert state.champion not in losses
    assert state.runner_up is not None and state.runner_up != state.champion
    assert (state.third is not None) == b.third_place
    # Everyone except the champion lost exactly once (third-place match aside).
    main_losers = Counter(
        r.entrants[0] if r.winners[0] == r.entrants[1] else r.entrants[1]
        for mid, r in results.items()
        if mid != "3P"
    )
    assert set(main_losers) == {e.id for e in b.entrants} - {state.champion}
    assert set(main_losers.values()) == {1}


@settings(max_examples=80, deadline=None)
@given(n=st.integers(2, 64), seed=st.integers(0, 2**32), reset=st.booleans())
def test_double_elimination_every_path_ends_with_one_champion(
    n: int, seed: int, reset: bool
) -> None:
    b = double_elimination(field(n), reset=reset)
    results, losses = play_out(b, random.Random(seed))
    state = bracket_state(b, results)
    assert state.finished
    assert state.champion is not None
    assert all(m.status in (MatchStatus.DONE, MatchStatus.VOID) for m in state.matches)
    others = {e.id for e in b.entrants} - {state.champion}
    if reset:
        # Everyone else is out with exactly two losses; the champion lost at most once.
        assert all(losses[e] == 2 for e in others)
        assert losses[state.champion] <= 1
    else:
        assert all(1 <= losses[e] <= 2 for e in others)
    if n >= 3:
        assert state.third in others and state.third != state.runner_up


def test_double_elimination_reset_only_when_losers_finalist_wins_grand_final() -> None:
    b = double_elimination(field(2))
    r1 = {"W1-1": win(1, 1, "e1", "e2")}
    assert [p.match for p in next_matches(b, r1)] == ["GF"]
    wb_wins = {**r1, "GF": win(2, 1, "e1", "e2")}
    state = bracket_state(b, wb_wins)
    assert state.champion == "e1" and state.state("GF2").status is MatchStatus.VOID
    lb_wins = {**r1, "GF": win(2, 1, "e2", "e1")}
    ready = next_matches(b, lb_wins)
    assert [(p.match, p.entrants) for p in ready] == [("GF2", ("e1", "e2"))]
    assert "losers'-bracket finalist won the grand final" in ready[0].reason
    assert bracket_state(b, lb_wins).champion is None
    done = {**lb_wins, "GF2": win(3, 1, "e2", "e1")}
    assert bracket_state(b, done).champion == "e2"
    with pytest.raises(FormatError, match=r"results\[GF2\]: the bracket reset is not played"):
        bracket_state(b, {**wb_wins, "GF2": win(3, 1, "e2", "e1")})


def test_single_elimination_eight_hand_traced() -> None:
    b = single_elimination(field(6), third_place=True)
    assert b.byes == ("e1", "e2")
    first = next_matches(b, {})
    assert [(p.match, p.entrants) for p in first] == [
        ("R1-2", ("e4", "e5")),
        ("R1-4", ("e3", "e6")),
    ]
    assert first[0].reason == "R1-2 (round 1): e4 v e5"
    res = {"R1-2": win(1, 1, "e5", "e4"), "R1-4": win(1, 2, "e3", "e6")}
    second = next_matches(b, res)
    assert [(p.match, p.entrants, p.table) for p in second] == [
        ("R2-1", ("e1", "e5"), 1),
        ("R2-2", ("e2", "e3"), 2),
    ]
    res |= {"R2-1": win(2, 1, "e1", "e5"), "R2-2": win(2, 2, "e3", "e2")}
    final = next_matches(b, res)
    assert [(p.match, p.entrants) for p in final] == [("R3-1", ("e1", "e3")), ("3P", ("e5", "e2"))]
    assert final[0].reason.startswith("R3-1 (final)")
    res |= {"R3-1": win(3, 1, "e3", "e1"), "3P": win(3, 2, "e2", "e5")}
    state = bracket_state(b, res)
    assert (state.champion, state.runner_up, state.third) == ("e3", "e1", "e2")


def test_bracket_results_are_checked() -> None:
    b = single_elimination(field(4))
    with pytest.raises(FormatError, match=r"results\[R9-9\]: no such match"):
        bracket_state(b, {"R9-9": win(1, 1, "e1", "e4")})
    with pytest.raises(
        FormatError, match=r"results\[R2-1\]: match is not ready: waiting for winner of R1-1"
    ):
        bracket_state(b, {"R2-1": win(2, 1, "e1", "e2")})
    with pytest.raises(FormatError, match=r"results\[R1-1\]: result is between \['e1', 'e2'\]"):
        bracket_state(b, {"R1-1": win(1, 1, "e1", "e2")})
    draw = MatchResult(1, 1, ("e1", "e4"), (300, 300), Outcome.DRAW)
    with pytest.raises(FormatError, match="an elimination match needs a winner, got draw"):
        bracket_state(b, {"R1-1": draw})
    with pytest.raises(FormatError, match=r"results\[R1-1\]: expected a MatchResult"):
        bracket_state(b, {"R1-1": "e1"})  # type: ignore[dict-item]


@settings(max_examples=30, deadline=None)
@given(n=st.integers(5, 64), seed=st.integers(0, 2**32))
def test_first_drops_into_losers_bracket_are_never_rematches(n: int, seed: int) -> None:
    """The reversed drop order keeps losers' rounds 1 and 2 free of rematches (from a bracket
    of eight up; in a bracket of four, losers' round 2 is the losers' final and a rematch
    there can be forced)."""
    rng = random.Random(seed)
    b = double_elimination(field(n))
    results: dict[str, MatchResult] = {}
    met: set[frozenset[str]] = set()
    while ready := next_matches(b, results):
        for p in ready:
            pair = frozenset(p.present)
            if p.match is not None and p.match.startswith(("L1-", "L2-")):
                assert pair not in met, (p.match, pair)
            met.add(pair)
            a, c = p.present
            assert p.match is not None
            results[p.match] = win(1, p.table, *((a, c) if rng.random() < 0.5 else (c, a)))
