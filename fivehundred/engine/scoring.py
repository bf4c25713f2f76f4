"""Scoring a hand (R-9) and deciding the end of the game (R-11)."""

from __future__ import annotations

from collections.abc import Sequence

from .contract import Contract, GameResult
from .rules import Rules


def contracting_sides(rules: Rules, contract: Contract) -> tuple[int, ...]:
    """Sides that score the contract: the contractor's, and in five players the partner's."""
    sides = [rules.side_of(contract.seat)]
    if contract.partner is not None and rules.side_of(contract.partner) not in sides:
        sides.append(rules.side_of(contract.partner))
    return tuple(sides)


def hand_score(
    rules: Rules, contract: Contract, tricks: Sequence[int], totals: Sequence[int]
) -> tuple[tuple[int, ...], bool]:
    """Points per side for a hand and whether the contract was made.

    ``tricks`` are per side; ``totals`` are the running totals before the hand (needed for the
    defenders' cap of R-9.6).

    >>> from fivehundred.engine.calls import Call
    >>> hand_score(Rules.create(4), Contract(0, Call.parse("7H")), [8, 2], [0, 0])
    ((200, 20), True)
    """
    call = contract.call
    ours = contracting_sides(rules, contract)
    won = sum(tricks[s] for s in ours)
    score = [0] * len(rules.sides)
    opts = rules.options
    if call.is_misere:
        # the misère contractor's side scores +/- value; defenders score nothing.
        made = won == 0
        for s in ours:
            score[s] = call.value if made else -call.value
        return tuple(score), made
    assert call.tricks is not None
    made = won >= call.tricks
    if made:
        value = call.value
        # all ten tricks score at least 250 (the slam).
        if won == 10 and opts["slam_bonus"] and value < 250:
            value = 250
    else:
        value = -call.value
    for s in ours:
        score[s] = value
    mode = opts["defender_trick_points"]
    if mode == "always" or (mode == "on_fail_only" and not made):
        cap = opts["defender_points_cap"]
        for s in range(len(score)):
            if s in ours:
                continue
            points = 10 * tricks[s]
            if cap is not None:
                # a capped defender side stops at the cap (and above it gains nothing).
                old = totals[s]
                points = 0 if old >= cap else min(old + points, cap) - old
            score[s] = points
    return tuple(score), made


def _winners(sides: Sequence[int], totals: Sequence[int]) -> int | tuple[int, ...] | None:
    """The side with the highest total among ``sides``; ties share (a tuple)."""
    if not sides:
        return None
    best = max(totals[s] for s in sides)
    top = tuple(s for s in sides if totals[s] == best)
    return top[0] if len(top) == 1 else top


def _as_winner(sides: Sequence[int]) -> int | tuple[int, ...]:
    return sides[0] if len(sides) == 1 else tuple(sorted(sides))


def game_end(
    rules: Rules, contract: Contract, made: bool, totals: Sequence[int]
) -> GameResult | None:
    """Whether the game ends after a scored hand (R-11), and how."""
    opts = rules.options
    target, lose_at = opts["target"], opts["lose_at"]
    ours = contracting_sides(rules, contract)
    scores = tuple(totals)
    nsides = len(totals)
    if made:
        # R-11.1(a): checked per contracting player; several reaching the target share the win.
        won = [s for s in ours if totals[s] >= target]
        if won:
            return GameResult(scores, _as_winner(won), "contract")
    if not opts["win_requires_contract"]:
        reached = [s for s in range(nsides) if totals[s] >= target]
        if reached:
            return GameResult(scores, _winners(reached, totals), "target")
    if not made and any(totals[s] <= lose_at for s in ours):
        # R-11.1(b), R-11.4: every side at or below the losing score loses; the highest of
        # the others wins.
        if nsides == 2:
            # R-11.1(b): the other side wins "regardless of that side's score", even when it
            # is itself at or below the losing score (kept in by the option below earlier).
            losers = set(ours)
        else:
            losers = {s for s in range(nsides) if totals[s] <= lose_at}
        others = [s for s in range(nsides) if s not in losers]
        # option: only sides still above the losing score must have at least 0.
        if opts["back_door_needs_nonnegative_opponent"] and any(
            lose_at < totals[s] < 0 for s in others
        ):
            return None
        return GameResult(scores, _winners(others, totals), "backdoor")
    return None


def forfeit_result(rules: Rules, seat: int, totals: Sequence[int]) -> GameResult:
    """The game result when ``seat`` broke the game: its side loses (record section 5)."""
    loser = rules.side_of(seat)
    others = [s for s in range(len(totals)) if s != loser]
    return GameResult(tuple(totals), _winners(others, totals), "forfeit")
