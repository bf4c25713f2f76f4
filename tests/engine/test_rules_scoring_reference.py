"""Whole games of summary hands against a small reference of the scoring and end rules written
from the rules text (R-9, R-11, with their options).

Seeded random contracts and trick counts, 2 to 6 players: after every hand the running totals
and the end of the game (who wins, and why) must be the reference's.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from fivehundred.engine import Call, Contract, GameState, Rules

TABLE = {6: 40, 7: 140, 8: 240, 9: 340, 10: 440}
STEP = {"S": 0, "C": 20, "D": 40, "H": 60, "NT": 80}


def value(bid: str) -> int:
    """R-9.1."""
    plain = bid.removesuffix("/SK")
    if plain == "MIS":
        return 250
    if plain in ("OM", "BM"):
        return 500
    strain = "NT" if plain.endswith("NT") else plain[-1]
    return TABLE[int(plain[: -len(strain)])] + STEP[strain]


def ref_score(
    o: dict[str, Any], ours: list[int], bid: str, tricks: list[int], totals: list[int]
) -> tuple[list[int], bool]:
    """R-9.2 to R-9.6: points per side and whether the contract was made."""
    score = [0] * len(tricks)
    won = sum(tricks[s] for s in ours)
    v = value(bid)
    if bid.removesuffix("/SK") in ("MIS", "OM", "BM"):
        made = won == 0
        for s in ours:
            score[s] = v if made else -v
        return score, made
    n = int(bid.removesuffix("/SK")[:-2] if "NT" in bid else bid.removesuffix("/SK")[:-1])
    made = won >= n
    points = (250 if won == 10 and o.get("slam_bonus", True) and v < 250 else v) if made else -v
    for s in ours:
        score[s] = points
    mode = o.get("defender_trick_points", "always")
    if mode == "always" or (mode == "on_fail_only" and not made):
        cap = o.get("defender_points_cap")
        for s in range(len(tricks)):
            if s in ours:
                continue
            old = totals[s]
            new = old + 10 * tricks[s]
            if cap is not None:
                new = old if old >= cap else min(new, cap)
            score[s] = new - old
    return score, made


def best(sides: list[int], totals: list[int]) -> tuple[int, ...]:
    top = max(totals[s] for s in sides)
    return tuple(sorted(s for s in sides if totals[s] == top))


def ref_end(
    o: dict[str, Any], ours: list[int], made: bool, totals: list[int]
) -> tuple[tuple[int, ...], str] | None:
    """R-11.1, R-11.3, R-11.4."""
    target, lose_at = o.get("target", 500), o.get("lose_at", -500)
    if made:
        reached = [s for s in ours if totals[s] >= target]
        if reached:
            return tuple(sorted(reached)), "contract"
    if not o.get("win_requires_contract", True):
        reached = [s for s in range(len(totals)) if totals[s] >= target]
        if reached:
            return best(reached, totals), "target"
    if not made and any(totals[s] <= lose_at for s in ours):
        losers = {s for s in range(len(totals)) if totals[s] <= lose_at}
        others = [s for s in range(len(totals)) if s not in losers]
        if o.get("back_door_needs_nonnegative_opponent") and any(totals[s] < 0 for s in others):
            return None
        if len(totals) == 2:
            # R-11.1(b): "it loses ... and the other side wins — regardless of that side's
            # score" (the other side may itself be at or below lose_at, kept in the game by
            # back_door_needs_nonnegative_opponent).
            return tuple(s for s in range(2) if s not in ours), "backdoor"
        if not others:
            return (), "undefined"  # every side at or below lose_at: the rules say nothing
        return best(others, totals), "backdoor"
    return None


OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"slam_bonus": False},
    {"defender_trick_points": "on_fail_only"},
    {"defender_trick_points": "never"},
    {"defender_points_cap": 490},
    {"defender_points_cap": 480, "win_requires_contract": False},
    {"win_requires_contract": False},
    {"back_door_needs_nonnegative_opponent": True},
    {"target": 300, "lose_at": -300},
    {"six_player_teams": "three_of_two"},
]
BIDS = [f"{n}{s}" for n in range(6, 11) for s in STEP] + ["MIS", "OM"]

CASES = [
    pytest.param(p, i, seed, id=f"{p}p-opt{i}-{seed}")
    for p, i, seed in itertools.product(range(2, 7), range(len(OPTION_SETS)), range(6))
]


@pytest.mark.parametrize(("players", "opt_index", "seed"), CASES)
def test_random_game_against_reference(players: int, opt_index: int, seed: int) -> None:
    o = OPTION_SETS[opt_index]
    rules = Rules.create(players, o)
    nsides = len(rules.sides)
    rng = random.Random(f"score-{players}-{opt_index}-{seed}")
    game = GameState.new(rules)
    totals = [0] * nsides
    dealer = rng.randrange(players)
    for _ in range(60):
        seat = rng.randrange(players)
        bid = rng.choice(BIDS)
        partner = None
        if players == 5 and bid not in ("MIS", "OM") and rng.random() < 0.7:
            partner = rng.choice([s for s in range(5) if s != seat])
        contract = Contract(seat, Call.parse(bid), partner)
        ours = sorted(
            {rules.side_of(seat)} | ({rules.side_of(partner)} if partner is not None else set())
        )
        # Ten tricks shared out at random, leaning towards the contracting side.
        tricks = [0] * nsides
        for _ in range(10):
            side = rng.choice(ours) if rng.random() < 0.6 else rng.randrange(nsides)
            tricks[side] += 1
        score, made = ref_score(o, ours, bid, tricks, totals)
        totals = [t + s for t, s in zip(totals, score, strict=True)]
        game = game.apply_summary(dealer, contract, tricks)
        dealer = (dealer + 1) % players
        assert list(game.totals) == totals, (bid, tricks, score)
        end = ref_end(o, ours, made, totals)
        if end is None:
            assert not game.is_over
            continue
        assert game.is_over and game.result is not None
        if end[1] == "undefined":
            break  # more than two sides, all at or below lose_at: not specified
        winner = game.result.winner
        got = (
            tuple(sorted(winner))
            if isinstance(winner, tuple)
            else (winner,)
            if winner is not None
            else ()
        )
        assert (got, game.result.reason) == end
        break
