"""Suits, ranks and cards, with their one canonical text form.

A card is identified by a small integer ``index``: ``suit * 16 + rank`` for the 64 suited slots
(ranks ``2`` .. ``10``, ``11`` .. ``13``, ``J`` ``Q`` ``K`` ``A`` in that order) and 64 for the
joker. The order of indexes is the canonical pack order of the record format (suits S, C, D, H,
each from its lowest rank to its highest, then the joker), and the engine keeps hands as bitmasks
over these indexes.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from .errors import NotationError


class Suit(IntEnum):
    """The four suits, in bidding order (low to high)."""

    S = 0
    C = 1
    D = 2
    H = 3

    def __str__(self) -> str:
        return self.name

    @property
    def is_red(self) -> bool:
        return self in (Suit.D, Suit.H)

    @property
    def same_colour(self) -> Suit:
        """The other suit of the same colour (whose jack is the left bower, R-3.3)."""
        return _SAME_COLOUR[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``S``, ``C``, ``D`` or ``H`` (canonical notation only).

        >>> Suit.parse("H")
        <Suit.H: 3>
        """
        suit = _SUIT_BY_TEXT.get(text) if isinstance(text, str) else None
        if suit is None:
            raise NotationError(f"{text!r} is not a suit (expected S, C, D or H)")
        return suit


_SUIT_BY_TEXT: Final = {s.name: s for s in Suit}
_SAME_COLOUR: Final = {Suit.S: Suit.C, Suit.C: Suit.S, Suit.D: Suit.H, Suit.H: Suit.D}
SUIT_NAMES: Final = {Suit.S: "spades", Suit.C: "clubs", Suit.D: "diamonds", Suit.H: "hearts"}
SUIT_SINGULAR: Final = {Suit.S: "spade", Suit.C: "club", Suit.D: "diamond", Suit.H: "heart"}

#: Ranks from lowest to highest in plain (non-trump) order; position = rank number of a card.
RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "J", "Q", "K", "A")
RANK_J: Final = 12
JOKER_INDEX: Final = 64
_RANK_BY_TEXT: Final = {r: i for i, r in enumerate(RANKS)}


class Card:
    """A playing card. Instances are interned: ``Card.parse("AH") is Card.parse("AH")``."""

    __slots__ = ("_text", "index", "rank", "suit")

    index: int
    suit: Suit | None
    rank: str
    _text: str

    def __new__(cls, index: int) -> Card:
        return _CARDS[index]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        card.index = index
        if index == JOKER_INDEX:
            card.suit = None
            card.rank = "JK"
            card._text = "JK"
        else:
            card.suit = Suit(index >> 4)
            card.rank = RANKS[index & 15]
            card._text = card.rank + card.suit.name
        return card

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse canonical notation: rank then suit (``10H``, ``JD``, ``13S``) or ``JK``.

        >>> Card.parse("10H")
        Card('10H')
        >>> Card.parse("TH")
        Traceback (most recent call last):
        ...
        fivehundred.engine.errors.NotationError: 'TH' is not a card in canonical notation
        """
        card = _CARD_BY_TEXT.get(text) if isinstance(text, str) else None
        if card is None:
            raise NotationError(f"{text!r} is not a card in canonical notation")
        return card

    @property
    def is_joker(self) -> bool:
        return self.index == JOKER_INDEX

    @property
    def rank_number(self) -> int:
        """Position of the rank in plain order (``2`` is 0, ``A`` is 15); 16 for the joker."""
        return 16 if self.index == JOKER_INDEX else self.index & 15

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text!r})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (self.index,))


_CARDS: Final[list[Card]] = [Card._make(i) for i in range(65)]
_CARD_BY_TEXT: Final = {str(c): c for c in _CARDS}
CARDS: Final[tuple[Card, ...]] = tuple(_CARDS)
JOKER: Final = _CARDS[JOKER_INDEX]


def card_of(suit: Suit, rank: str) -> Card:
    """The card of that suit and rank text."""
    return _CARDS[int(suit) * 16 + _RANK_BY_TEXT[rank]]


def mask_of(cards: object) -> int:
    """Bitmask of an iterable of cards."""
    m = 0
    for c in cards:  # type: ignore[attr-defined]
        m |= 1 << c.index
    return m


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a bitmask, in canonical order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(_CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def indexes_of(mask: int) -> list[int]:
    """The card indexes of a bitmask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def format_cards(cards: object) -> str:
    return " ".join(str(c) for c in cards)  # type: ignore[attr-defined]
