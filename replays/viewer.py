"""The replay viewer's steps: a record walked through the engine, one position per action.

Pure (no Django): a record goes in, positions come out. A position ``(hand, action)`` is hand
``hand`` after its first ``action`` actions (``action=0``: just dealt); a summary hand has the one
position ``(hand, 0)``. Each step is a plain dict that the pages and the API render as they are.

A step for one seat is built from the engine's ``view(seat)`` only, so it holds nothing that
seat could not know then (other hands, the kitty it did not take, someone else's discard). A step
with ``seat=None`` shows every hand open.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fivehundred.engine import (
    CARDS,
    Call,
    Contract,
    Deal,
    Discard,
    EngineError,
    GameState,
    HandState,
    Phase,
    Play,
    Rules,
    action_from_json,
    action_to_json,
    format_action,
)
from fivehundred.engine.cards import cards_of

SUIT_SYMBOLS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
SUIT_NAMES = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"}


class ViewerError(ValueError):
    """A request for a position or seat the record does not have; ``member`` names the input."""

    def __init__(self, member: str, message: str) -> None:
        super().__init__(message)
        self.member = member
        self.message = message


@dataclass(frozen=True)
class HandWalk:
    """One hand of the record, replayed: every state from the deal to the last action."""

    index: int
    dealer: int
    summary: bool
    states: tuple[
        HandState, ...
    ]  # ``len(actions) + 1`` states for a full hand; empty for a summary
    actions: tuple[dict[str, Any], ...]  # the record's action objects that could be applied
    totals_before: tuple[int, ...]
    result: dict[str, Any] | None  # the engine's result once the hand is over
    totals_after: tuple[int, ...] | None
    error: str | None  # why the replay stopped in this hand (only for records that are invalid)
    trick_starts: tuple[int, ...]  # positions (action counts) where a trick is complete or begins

    @property
    def positions(self) -> int:
        return len(self.states) if not self.summary else 1


@dataclass(frozen=True)
class GameWalk:
    """The whole record replayed, plus what the table needs that never changes."""

    rules: Rules
    seats: tuple[dict[str, Any], ...]
    hands: tuple[HandWalk, ...]
    result: dict[str, Any] | None
    termination: dict[str, Any] | None
    event: dict[str, Any]

    @property
    def positions(self) -> list[tuple[int, int]]:
        """Every position of the game in order (the slider's scale)."""
        return [(h.index, k) for h in self.hands for k in range(h.positions)]

    def hand(self, index: int) -> HandWalk:
        if not 0 <= index < len(self.hands):
            raise ViewerError(
                "hand", f"hand {index} does not exist: the record has {len(self.hands)} hands"
            )
        return self.hands[index]

    def side_of(self, seat: int) -> int:
        return int(self.rules.side_of(seat))

    def table_json(self) -> dict[str, Any]:
        """What the viewer needs to navigate: seats, sides and each hand's shape (no cards)."""
        return {
            "players": self.rules.players,
            "seats": [
                {"seat": s, "name": seat.get("name", f"seat {s}"), "side": self.side_of(s)}
                for s, seat in enumerate(self.seats)
            ],
            "sides": [list(side) for side in self.rules.sides],
            "hands": [
                {
                    "hand": h.index,
                    "summary": h.summary,
                    "actions": len(h.actions),
                    "tricks": list(h.trick_starts),
                }
                for h in self.hands
            ],
        }


def _contract_from_json(obj: Any) -> Contract | None:
    if obj is None:
        return None
    return Contract(int(obj["seat"]), Call.parse(obj["bid"]), obj.get("partner"))


def walk(record: dict[str, Any], key: str | None = None) -> GameWalk:
    """Replay ``record`` through the engine, keeping every state.

    ``key`` (a stored record's digest) lets repeated requests for one game share the walk: a
    stored record never changes, and stepping through a game asks for it once per step.
    Records are verified before they are stored, so replay errors are rare; when one happens (a
    record stored as invalid) the walk stops there and the hand carries the engine's message.
    """
    if key is None:
        return _walk(record)
    found = _WALKS.get(key)
    if found is None:
        found = _walk(record)
        _WALKS[key] = found
        while len(_WALKS) > _WALKS_MAX:
            _WALKS.pop(next(iter(_WALKS)))
    return found


_WALKS: dict[str, GameWalk] = {}
_WALKS_MAX = 64


def _walk(record: dict[str, Any]) -> GameWalk:
    rules_obj = record.get("rules") or {}
    rules = Rules.from_json(rules_obj)
    game = GameState.new(rules)
    hands: list[HandWalk] = []
    for index, hand in enumerate(record.get("hands") or []):
        dealer = int(hand.get("dealer", 0))
        totals_before = game.totals
        if "deal" not in hand:
            error = None
            try:
                result = hand["result"]
                game = game.apply_summary(
                    dealer, _contract_from_json(result.get("contract")), result["tricks"]
                )
            except (EngineError, KeyError, TypeError, ValueError) as e:
                error = str(e)
            done = error is None
            hands.append(
                HandWalk(
                    index=index,
                    dealer=dealer,
                    summary=True,
                    states=(),
                    actions=(),
                    totals_before=totals_before,
                    result=game.hand_results[-1].to_json() if done else None,
                    totals_after=game.totals if done else None,
                    error=error,
                    trick_starts=(),
                )
            )
            if not done:
                break
            continue
        states: list[HandState] = []
        actions: list[dict[str, Any]] = []
        error = None
        try:
            game = game.start_hand(dealer, Deal.from_json(hand["deal"]))
            assert game.hand is not None
            states.append(game.hand)
            for obj in hand.get("actions") or []:
                seat, action = action_from_json(obj)
                game = game.apply(action, seat)
                assert game.hand is not None
                states.append(game.hand)
                actions.append(obj)
        except (EngineError, KeyError, TypeError, ValueError) as e:
            error = str(e)
        over = bool(states) and states[-1].is_over
        trick_starts = [
            k
            for k in range(len(states))
            if k == 0
            or (states[k].phase in (Phase.PLAY, Phase.OVER) and not states[k].current_trick)
        ]
        hands.append(
            HandWalk(
                index=index,
                dealer=dealer,
                summary=False,
                states=tuple(states),
                actions=tuple(actions),
                totals_before=totals_before,
                result=game.hand_results[-1].to_json() if over else None,
                totals_after=game.totals if over else None,
                error=error,
                trick_starts=tuple(trick_starts),
            )
        )
        if error is not None or not states:
            break
    return GameWalk(
        rules=rules,
        seats=tuple(record.get("seats") or ()),
        hands=tuple(hands),
        result=record.get("result"),
        termination=record.get("termination"),
        event=record.get("event") or {},
    )


# --------------------------------------------------------------------------------- steps


def card_json(text: str) -> dict[str, Any]:
    """A card as the table draws it: rank, suit symbol and colour (the joker is its own kind)."""
    if text == "JK":
        return {"card": "JK", "rank": "JK", "suit": None, "symbol": "★", "colour": "joker"}
    rank, suit = text[:-1], text[-1]
    return {
        "card": text,
        "rank": rank,
        "suit": suit,
        "symbol": SUIT_SYMBOLS[suit],
        "colour": "red" if suit in "DH" else "black",
    }


def _cards(cards: Sequence[Any] | None) -> list[dict[str, Any]] | None:
    if cards is None:
        return None
    return [card_json(str(c)) for c in cards]


def _action_text(obj: dict[str, Any], *, hide_discard: bool) -> str:
    _, action = action_from_json(obj)
    if hide_discard and isinstance(action, Discard):
        return f"discard {len(action.cards)} cards"
    return format_action(action)


def _check_seat(walk_: GameWalk, seat: int | None) -> None:
    if seat is not None and not 0 <= seat < walk_.rules.players:
        raise ViewerError(
            "seat", f"seat {seat} does not exist: seats are 0 to {walk_.rules.players - 1}"
        )


def position_check(walk_: GameWalk, hand: int, action: int) -> HandWalk:
    """The hand of a position, or ``ViewerError`` naming what is out of range."""
    h = walk_.hand(hand)
    if not 0 <= action < h.positions:
        raise ViewerError(
            "action",
            f"hand {hand} has positions 0 to {h.positions - 1}; there is no position {action}",
        )
    return h


def step(walk_: GameWalk, hand: int, action: int, seat: int | None = None) -> dict[str, Any]:
    """The table at position ``(hand, action)`` as everyone (``seat=None``) or ``seat`` sees it."""
    _check_seat(walk_, seat)
    h = position_check(walk_, hand, action)
    sheet = _sheet(
        walk_, upto=hand, include=h.summary or (h.result is not None and action == len(h.actions))
    )
    base: dict[str, Any] = {
        "hand": hand,
        "action": action,
        "seat": seat,
        "summary": h.summary,
        "dealer": h.dealer,
        "totals": list(h.totals_before),
        "sheet": sheet,
        "error": h.error if action == h.positions - 1 else None,
        "end": _end(walk_, h, action),
    }
    if h.summary:
        base.update(
            phase="summary",
            to_act=None,
            seats=[_seat_json(walk_, s, None, 0) for s in range(walk_.rules.players)],
            auction=[],
            contract=(h.result or {}).get("contract"),
            partner=None,
            kitty=None,
            discarded=None,
            nominated=None,
            trick=None,
            trick_done=False,
            tricks_won=(h.result or {}).get("tricks"),
            last=None,
            result=h.result,
            moves=[],
        )
        return base
    state = h.states[action]
    contract = state.contract
    contractor = contract.seat if contract is not None else None
    last = None
    if action > 0:
        obj = h.actions[action - 1]
        hide = seat is not None and seat != obj["seat"]
        last = {
            "seat": obj["seat"],
            "text": _action_text(obj, hide_discard=hide),
            "index": action - 1,
        }
    if seat is None:
        seats = [
            _seat_json(walk_, s, [str(c) for c in state.hand_of(s)], len(state.hand_of(s)))
            for s in range(walk_.rules.players)
        ]
        contract_json: dict[str, Any] | None = None
        partner = None
        if contract is not None:
            contract_json = {"seat": contract.seat, "bid": str(contract.call)}
            if contract.called is not None:
                contract_json["called"] = str(contract.called)
            partner = contract.partner
        taken = state.phase not in (Phase.AUCTION, Phase.PARTNER)
        kitty = [str(c) for c in sorted(state.deal.kitty)]
        discarded = (
            [str(c) for c in cards_of(state.discarded)]
            if contract is not None
            and taken
            and state.phase is not Phase.DISCARD
            and not contract.call.sans_kitty
            else None
        )
        trick_view = _trick_of(state)
        auction = [{"seat": s, "call": str(c)} for s, c in state.calls]
        tricks_won = list(state.tricks_by_side())
        nominated = None if state.nominated < 0 else "SCDH"[state.nominated]
        exposed: list[int] = [contractor] if contractor is not None and state.exposed() else []
        kitty_state = "taken" if taken and contract is not None else "dealt"
        if contract is not None and contract.call.sans_kitty:
            kitty_state = "unused"
        dead = [str(c) for c in state.deal.dead] if state.deal.dead else None
    else:
        view = state.view(seat, h.totals_before)
        vj = view.to_json()
        seats = []
        for s in range(walk_.rules.players):
            if s == seat:
                cards = None if view.hand_hidden else vj["hand"]
            else:
                cards = vj["exposed"].get(str(s))
            seats.append(_seat_json(walk_, s, cards, view.hand_sizes[s]))
        contract_json = vj["contract"]
        partner = vj["partner"]
        kitty = vj["kitty"]
        discarded = vj["discarded"]
        cur = vj["current_trick"]
        trick_view = (
            (cur["leader"], [tuple(p) for p in cur["cards"]], None, False)
            if cur
            else _done_trick(vj["tricks"], state, h, action)
        )
        auction = vj["auction"]
        tricks_won = vj["tricks_won"]
        nominated = vj["nominated"]
        exposed = [int(s) for s in vj["exposed"]]
        kitty_state = "taken" if kitty is not None else "hidden"
        dead = None
    trick = None
    trick_done = False
    if trick_view is not None:
        leader, plays, winner, trick_done = trick_view
        trick = {
            "leader": leader,
            "cards": [{"seat": s, **card_json(str(c))} for s, c in plays],
            "winner": winner,
        }
    moves = [
        {
            "index": i,
            "seat": obj["seat"],
            "text": _action_text(obj, hide_discard=seat is not None and seat != obj["seat"]),
            "played": i < action,
        }
        for i, obj in enumerate(h.actions)
        # One seat's view never lists what is still to come: the cards played later would show
        # what the other seats hold.
        if seat is None or i < action
    ]
    base.update(
        phase=str(state.phase),
        to_act=state.to_act,
        seats=[{**s, "exposed": s["seat"] in exposed} for s in seats],
        auction=auction,
        contract=contract_json,
        partner=partner,
        nominated=nominated,
        kitty=_cards(kitty),
        kitty_state=kitty_state,
        discarded=_cards(discarded),
        dead=_cards(dead),
        trick=trick,
        trick_done=trick_done,
        tricks_won=tricks_won,
        last=last,
        result=h.result if action == len(h.actions) else None,
        moves=moves,
    )
    return base


def _seat_json(walk_: GameWalk, s: int, cards: list[str] | None, count: int) -> dict[str, Any]:
    seat = walk_.seats[s] if s < len(walk_.seats) else {}
    return {
        "seat": s,
        "name": seat.get("name", f"seat {s}"),
        "side": walk_.side_of(s),
        "cards": _cards(cards),
        "count": count,
    }


def _trick_of(state: HandState) -> tuple[int, list[tuple[int, Any]], int | None, bool] | None:
    if state.phase not in (Phase.PLAY, Phase.OVER):
        return None
    if state.current_trick:
        return state.leader, list(state.current_trick), None, False
    if state.tricks:
        leader, plays, winner = state.tricks[-1]
        return leader, [(s, CARDS[c]) for s, c in plays], winner, True
    return None


def _done_trick(
    tricks: list[dict[str, Any]], state: HandState, h: HandWalk, action: int
) -> tuple[int, list[tuple[int, Any]], int | None, bool] | None:
    # Just after the last card of a trick the engine has moved it to the won tricks; the table
    # keeps it in the middle, with its winner, until the next lead.
    if not tricks or action == 0:
        return None
    _, last_action = action_from_json(h.actions[action - 1])
    if not isinstance(last_action, Play):
        return None
    t = tricks[-1]
    return t["leader"], [tuple(p) for p in t["cards"]], t["winner"], True


def _sheet(walk_: GameWalk, *, upto: int, include: bool) -> list[dict[str, Any]]:
    """The score sheet: every hand finished before ``upto`` (and ``upto`` itself if ``include``)."""
    rows = []
    for h in walk_.hands[: upto + 1]:
        if h.index == upto and not include:
            break
        if h.result is None:
            continue
        rows.append({"hand": h.index, "summary": h.summary, **h.result})
    return rows


def _end(walk_: GameWalk, h: HandWalk, action: int) -> dict[str, Any] | None:
    """The game's end (result and termination), shown on the very last position only."""
    if h.index != len(walk_.hands) - 1 or action != h.positions - 1:
        return None
    if walk_.result is None and walk_.termination is None:
        return None
    return {"result": walk_.result, "termination": walk_.termination}


def steps(
    walk_: GameWalk, seat: int | None = None, hand: int | None = None
) -> list[dict[str, Any]]:
    """Every step of the game (or of one hand) for ``seat`` or for all hands open."""
    _check_seat(walk_, seat)
    hands = walk_.hands if hand is None else (walk_.hand(hand),)
    return [step(walk_, h.index, k, seat) for h in hands for k in range(h.positions)]


# --------------------------------------------------------------------------------- variations


def state_before(walk_: GameWalk, hand: int, action: int | None) -> HandState:
    """The state before action ``action`` of hand ``hand`` (before its first action if ``None``)."""
    h = walk_.hand(hand)
    if h.summary:
        raise ViewerError("hand", f"hand {hand} is a summary hand: it has no actions")
    k = 0 if action is None else action
    if not 0 <= k < max(len(h.actions), 1) or k >= len(h.states):
        raise ViewerError(
            "action", f"hand {hand} has actions 0 to {len(h.actions) - 1}; there is no action {k}"
        )
    return h.states[k]


def variation_check(
    walk_: GameWalk, hand: int, action: int | None, variation: Sequence[Any]
) -> tuple[HandState, int | None, str | None]:
    """Apply ``variation`` from the state before the annotated action.

    Returns the state reached, the index of the first step that failed (``None`` if all were
    legal) and the engine's message for it.
    """
    state = state_before(walk_, hand, action)
    for i, obj in enumerate(variation):
        try:
            seat, act = action_from_json(obj)
            state = state.apply(act, seat)
        except EngineError as e:
            return state, i, str(e)
    return state, None, None


def legal_json(state: HandState) -> list[dict[str, Any]]:
    """The legal actions of ``state`` as record action objects with their text."""
    seat = state.to_act
    if seat is None:
        return []
    return [
        {"action": action_to_json(seat, a), "text": format_action(a)} for a in state.legal_actions()
    ]
