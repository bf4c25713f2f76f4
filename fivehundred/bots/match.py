"""Play games and duplicate matches between seat players, writing version 1 records.

A *board* is a game to the target whose deals all come from one board seed (hand ``k`` is dealt
from the seed ``"<board seed>/<k>"``, written into the record so anyone can check it). A *match* is
a set of boards between entrants; each board is played once per rotation of the entrants through
the seats, so that every entrant holds every seat's cards: with two sides (four players, six in two
teams) that is the partnerships' seats swapped; with 3, 5 or 6 one-seat-or-pair sides the seats
rotate through all positions. The match result is the total score difference over the boards.

The engine is driven directly (``GameState``) rather than through a generic game loop because a
fault must stop the game at the exact decision and leave a record that still verifies: the hand in
progress keeps its actions (without the faulty one) and no result, and the game ends with
``termination`` and a ``forfeit`` result (record format, section 5).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fivehundred import __version__ as _version
from fivehundred.bots.players import SeatPlayer
from fivehundred.bots.protocol import BotFault, Fault
from fivehundred.engine import GameState, Rules, action_to_json, deal_from_seed

DEFAULT_MAX_HANDS = 200


@dataclass
class GameOutcome:
    """One finished game: its record, and the fault that ended it, if any."""

    record: dict[str, Any]
    fault: Fault | None = None
    fault_seat: int | None = None

    @property
    def scores(self) -> list[int]:
        return list(self.record["result"]["scores"])


def play_game(
    players: Sequence[SeatPlayer],
    *,
    rules: Rules,
    seed: str,
    first_dealer: int = 0,
    seats: Sequence[Mapping[str, Any]] | None = None,
    event: Mapping[str, str] | None = None,
    max_hands: int = DEFAULT_MAX_HANDS,
) -> GameOutcome:
    """Play one game to the end (or to the first fault) and return its record.

    ``players[s]`` plays seat ``s``; ``seats`` are the record's seat objects (default: the
    players' names, kind ``bot``). Players are started here and always closed, whatever happens;
    ``SandboxUnavailable`` from a sandboxed player propagates before any game is played.
    """
    if len(players) != rules.players:
        raise ValueError(f"{len(players)} players for a {rules.players}-player game")
    seat_objects = (
        [dict(s) for s in seats] if seats else [{"name": p.name, "kind": "bot"} for p in players]
    )
    record: dict[str, Any] = {
        "format": "fivehundred-record",
        "version": 1,
        "rules": rules.to_json(),
        "generator": {"name": "fivehundred", "version": _version},
        "seats": seat_objects,
        "hands": [],
    }
    if event:
        record["event"] = dict(event)
    names = [s["name"] for s in seat_objects]
    game = GameState.new(rules)
    outcome = GameOutcome(record)
    try:
        for seat, player in enumerate(players):
            try:
                player.start(rules=record["rules"], seat=seat, seats=names)
            except BotFault as exc:
                return _forfeit(outcome, game, seat, exc.fault)
        dealer = first_dealer
        for k in range(max_hands):
            deal = deal_from_seed(rules, f"{seed}/{k}", dealer)
            game = game.start_hand(dealer, deal)
            actions: list[dict[str, Any]] = []
            record["hands"].append({"dealer": dealer, "deal": deal.to_json(), "actions": actions})
            while game.in_hand:
                to_act = game.to_act
                assert to_act is not None
                seat = to_act
                # Bots pick up their cards before deciding, so blind misère is never
                # theirs to bid: a bot is always given its hand.
                game = game.look(seat)
                legal = game.legal_actions()
                try:
                    index = players[seat].act(seat=seat, view=game.view(seat), legal=legal)
                except BotFault as exc:
                    return _forfeit(outcome, game, seat, exc.fault)
                action = legal[index]
                actions.append(action_to_json(seat, action))
                game = game.apply(action, seat)
            record["hands"][-1]["result"] = game.hand_results[-1].to_json()
            if game.is_over:
                assert game.result is not None
                record["result"] = game.result.to_json()
                return outcome
            next_dealer = game.next_dealer
            assert next_dealer is not None
            dealer = next_dealer
        # Bots that never finish a game (it takes a few dozen hands at most in practice).
        record["termination"] = {
            "reason": "adjudicated",
            "seat": dealer,
            "detail": f"stopped after {max_hands} hands without an end",
        }
        best = max(game.totals)
        winners = [s for s, t in enumerate(game.totals) if t == best]
        record["result"] = {
            "scores": list(game.totals),
            "winner": winners[0] if len(winners) == 1 else winners,
            "reason": "agreed",
        }
        return outcome
    finally:
        for player in players:
            with contextlib.suppress(BotFault):
                player.end(result=record.get("result"), termination=record.get("termination"))
        for player in players:
            player.close()


def _forfeit(outcome: GameOutcome, game: GameState, seat: int, fault: Fault) -> GameOutcome:
    outcome.fault = fault
    outcome.fault_seat = seat
    outcome.record["termination"] = fault.termination(seat)
    outcome.record["result"] = game.forfeit(seat).to_json()
    return outcome


# ---------------------------------------------------------------------------------------------
# Duplicate matches.


@dataclass
class MatchOutcome:
    """A duplicate match: every game, the score of each entrant summed over them, and any fault."""

    entrants: list[str]
    games: list[GameOutcome] = field(default_factory=list)
    # Per entrant: the sum over the games of its side's final score (the mean of its sides'
    # scores when it holds several, so that both entrants are measured per side).
    totals: list[float] = field(default_factory=list)
    fault: Fault | None = None
    fault_entrant: int | None = None

    @property
    def difference(self) -> float:
        """Entrant 0's total minus the best of the others (two entrants: the score difference)."""
        return self.totals[0] - max(self.totals[1:])

    @property
    def wins(self) -> list[int]:
        """Games won by each entrant."""
        counts = [0] * len(self.entrants)
        for game, assignment in zip(self.games, self.assignments, strict=True):
            winner = game.record["result"]["winner"]
            winners = winner if isinstance(winner, list) else [winner]
            for side in winners:
                if side is not None:
                    counts[assignment[side]] += 1
        return counts

    assignments: list[list[int]] = field(default_factory=list)


PlayerFactory = Callable[[int, str], SeatPlayer]
"""Makes a fresh seat player for an entrant: ``factory(seat, game_seed)``."""


def rotations(rules: Rules, entrants: int) -> list[list[int]]:
    """For each play of a board, which entrant holds each side (index: side, value: entrant)."""
    sides = len(rules.sides)
    if entrants != sides and not (entrants == 2 and sides >= 2):
        raise ValueError(f"{entrants} entrants for a game of {sides} sides")
    if entrants == sides:
        return [[(side + shift) % sides for side in range(sides)] for shift in range(sides)]
    # Two entrants, more sides (3, 5 players; 6 in three teams): entrant 0 holds one side
    # against entrant 1 everywhere else, in turn in every position.
    return [[0 if side == shift else 1 for side in range(sides)] for shift in range(sides)]


def play_match(
    entrants: Sequence[tuple[str, PlayerFactory]],
    *,
    rules: Rules,
    boards: Sequence[str],
    max_hands: int = DEFAULT_MAX_HANDS,
    event: Mapping[str, str] | None = None,
    stop_on_fault: bool = True,
    seat_objects: Sequence[Mapping[str, Any]] | None = None,
) -> MatchOutcome:
    """Play each board once per rotation of the entrants through the sides.

    ``entrants`` are (name, factory) pairs; a factory makes the seat player for one seat of one
    game. ``seat_objects`` optionally gives each entrant's record seat object (``name``, ``id``,
    ``rating``...; default ``{"name": name, "kind": "bot"}``). With ``stop_on_fault`` the match
    stops at the first fault, and the faulting entrant forfeits it (``outcome.fault_entrant``).
    """
    if seat_objects is not None and len(seat_objects) != len(entrants):
        raise ValueError(f"{len(seat_objects)} seat objects for {len(entrants)} entrants")
    names = [name for name, _ in entrants]
    match = MatchOutcome(entrants=names, totals=[0.0] * len(entrants))
    plan = rotations(rules, len(entrants))
    for b, board in enumerate(boards):
        for r, assignment in enumerate(plan):
            players: list[SeatPlayer] = []
            seats: list[dict[str, Any]] = []
            game_seed = f"{board}"
            for seat in range(rules.players):
                entrant = assignment[rules.side_of(seat)]
                name, factory = entrants[entrant]
                players.append(factory(seat, f"{board}/{r}/{seat}"))
                seat_object = seat_objects[entrant] if seat_objects else None
                seats.append(dict(seat_object) if seat_object else {"name": name, "kind": "bot"})
            game_event = dict(event or {})
            game_event.update({"board": str(b + 1), "round": str(r + 1)})
            outcome = play_game(
                players,
                rules=rules,
                seed=game_seed,
                seats=seats,
                event=game_event,
                max_hands=max_hands,
            )
            match.games.append(outcome)
            match.assignments.append(assignment)
            scores = outcome.scores
            for entrant in range(len(entrants)):
                held = [scores[side] for side, e in enumerate(assignment) if e == entrant]
                match.totals[entrant] += sum(held) / len(held)
            if outcome.fault is not None:
                assert outcome.fault_seat is not None
                match.fault = outcome.fault
                match.fault_entrant = assignment[rules.side_of(outcome.fault_seat)]
                if stop_on_fault:
                    return match
    return match
