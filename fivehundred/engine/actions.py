"""Actions: the decisions a hand asks for, with one canonical text form and the record's JSON.

``Call`` (the auction) is an action itself; the others are small frozen values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

from .calls import Call
from .cards import Card, Suit
from .errors import NotationError


@dataclass(frozen=True, slots=True)
class PartnerCall:
    """Five players: the contractor calls a card whose holder becomes partner, or goes alone."""

    card: Card | None

    def __str__(self) -> str:
        return f"partner {self.card if self.card is not None else 'alone'}"


@dataclass(frozen=True, slots=True)
class Discard:
    """The contractor's kitty exchange: the cards put away (canonical order)."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return "discard " + " ".join(str(c) for c in self.cards)


@dataclass(frozen=True, slots=True)
class Nominate:
    """The contractor's joker pre-nomination (R-5.4): a suit, or ``None`` for no nomination."""

    suit: Suit | None

    def __str__(self) -> str:
        return f"nominate {self.suit if self.suit is not None else 'none'}"


@dataclass(frozen=True, slots=True)
class Play:
    """A card played; ``suit`` is the suit named when leading the un-nominated joker (R-7.4)."""

    card: Card
    suit: Suit | None = None

    def __str__(self) -> str:
        return f"play {self.card}" + (f" {self.suit}" if self.suit is not None else "")


Action: TypeAlias = Call | PartnerCall | Discard | Nominate | Play


def format_action(action: Action) -> str:
    """Canonical text of an action: ``7H``, ``PASS``, ``partner AS``, ``discard 4D 5S 6C``,
    ``nominate H``, ``play 10H``, ``play JK H``."""
    return str(action)


def parse_action(text: str) -> Action:
    """Parse the canonical text form of an action.

    >>> parse_action("play JK H")
    Play(card=Card('JK'), suit=<Suit.H: 3>)
    >>> parse_action("7H")
    Call('7H')
    """
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not an action")
    words = text.split(" ")
    verb, args = words[0], words[1:]
    if verb == "play" and len(args) in (1, 2):
        return Play(Card.parse(args[0]), Suit.parse(args[1]) if len(args) == 2 else None)
    if verb == "discard" and args:
        return Discard(tuple(sorted(Card.parse(a) for a in args)))
    if verb == "nominate" and len(args) == 1:
        return Nominate(None if args[0] == "none" else Suit.parse(args[0]))
    if verb == "partner" and len(args) == 1:
        return PartnerCall(None if args[0] == "alone" else Card.parse(args[0]))
    if not args:
        return Call.parse(verb)
    raise NotationError(f"{text!r} is not an action in canonical notation")


_VERBS = ("call", "partner", "discard", "nominate", "play")


def action_to_json(seat: int, action: Action) -> dict[str, Any]:
    """The record's action object for ``seat`` taking ``action``."""
    if isinstance(action, Call):
        return {"seat": seat, "call": str(action)}
    if isinstance(action, Play):
        out: dict[str, Any] = {"seat": seat, "play": str(action.card)}
        if action.suit is not None:
            out["suit"] = str(action.suit)
        return out
    if isinstance(action, Discard):
        return {"seat": seat, "discard": [str(c) for c in action.cards]}
    if isinstance(action, Nominate):
        return {"seat": seat, "nominate": str(action.suit) if action.suit is not None else "none"}
    return {"seat": seat, "partner": str(action.card) if action.card is not None else "alone"}


def action_from_json(obj: Any) -> tuple[int, Action]:
    """Parse a record's action object into ``(seat, action)``.

    Raises ``NotationError`` whose ``path`` names the offending member.
    """
    if not isinstance(obj, dict):
        raise NotationError("an action must be an object")
    seat = obj.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
        raise NotationError("'seat' must be a seat number", ("seat",))
    verbs = [v for v in _VERBS if v in obj]
    if len(verbs) != 1:
        raise NotationError("an action needs exactly one of call, partner, discard, nominate, play")
    verb = verbs[0]
    allowed = {"seat", verb} | ({"suit"} if verb == "play" else set())
    for key in obj:
        if key not in allowed:
            raise NotationError(f"unexpected key {key!r} in a {verb} action", (key,))
    value = obj[verb]

    def parse(fn: Any, v: Any, path: tuple[str | int, ...]) -> Any:
        try:
            return fn(v)
        except NotationError as e:
            raise NotationError(e.message, path) from None

    if verb == "call":
        return seat, parse(Call.parse, value, ("call",))
    if verb == "play":
        card = parse(Card.parse, value, ("play",))
        suit = parse(Suit.parse, obj["suit"], ("suit",)) if "suit" in obj else None
        return seat, Play(card, suit)
    if verb == "discard":
        if not isinstance(value, list):
            raise NotationError("'discard' must be a list of cards", ("discard",))
        cards = [parse(Card.parse, v, ("discard", i)) for i, v in enumerate(value)]
        return seat, Discard(tuple(sorted(cards)))
    if verb == "nominate":
        suit = None if value == "none" else parse(Suit.parse, value, ("nominate",))
        return seat, Nominate(suit)
    card = None if value == "alone" else parse(Card.parse, value, ("partner",))
    return seat, PartnerCall(card)
