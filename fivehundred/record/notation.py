"""The record's action objects as engine actions, and back.

Reading is separate from acting: these functions only translate notation (already checked by the
schema); the verifier walks the resulting actions through the engine. Translation is a dictionary
look-up for the common verbs, because a verifier translates every action of every record.
"""

from __future__ import annotations

from typing import Any, Final

from fivehundred.engine import (
    ALL_CALLS,
    CARDS,
    Action,
    Call,
    Card,
    Discard,
    Nominate,
    PartnerCall,
    Play,
    Suit,
    action_to_json,
)

_CARD: Final[dict[str, Card]] = {str(c): c for c in CARDS}
_CALL: Final[dict[str, Call]] = {str(c): c for c in ALL_CALLS}
_PLAY: Final[dict[str, Play]] = {text: Play(card) for text, card in _CARD.items()}
_PLAY_SUIT: Final[dict[tuple[str, str], Play]] = {
    (text, str(s)): Play(card, s) for text, card in _CARD.items() for s in Suit
}
_NOMINATE: Final[dict[str, Nominate]] = {str(s): Nominate(s) for s in Suit} | {
    "none": Nominate(None)
}
_PARTNER: Final[dict[str, PartnerCall]] = {
    text: PartnerCall(card) for text, card in _CARD.items()
} | {"alone": PartnerCall(None)}


def action_of(obj: dict[str, Any]) -> Action:
    """The engine action of a schema-valid action object (its ``seat`` is not looked at)."""
    text = obj.get("play")
    if text is not None:
        suit = obj.get("suit")
        return _PLAY[text] if suit is None else _PLAY_SUIT[(text, suit)]
    text = obj.get("call")
    if text is not None:
        return _CALL[text]
    cards = obj.get("discard")
    if cards is not None:
        return Discard(tuple(sorted(_CARD[c] for c in cards)))
    text = obj.get("nominate")
    if text is not None:
        return _NOMINATE[text]
    return _PARTNER[obj["partner"]]


def action_json(seat: int, action: Action) -> dict[str, Any]:
    """The record's action object for ``seat`` taking ``action`` (canonical notation)."""
    return action_to_json(seat, action)


def card_of(text: str) -> Card:
    return _CARD[text]


def cards_of(texts: list[str]) -> tuple[Card, ...]:
    """The cards of a schema-valid list of card texts."""
    return tuple(map(_CARD.__getitem__, texts))


#: The ``Play`` action of each card text (no suit named).
PLAYS: Final[dict[str, Play]] = _PLAY


def call_of(text: str) -> Call:
    return _CALL[text]
