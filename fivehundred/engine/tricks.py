"""Effective suit and trick-winning power of every card under a contract (R-3, R-6.4, R-7).

Everything here depends only on the contract (trump suit, or no trumps with the joker's
nomination), so it is computed once per contract and cached: the play loop only indexes tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .cards import JOKER_INDEX, RANK_J, Suit

NO_SUIT = 4  # effective suit of the un-nominated joker in no trumps and misère


@dataclass(frozen=True, slots=True)
class TrickTable:
    """Per-card tables for one contract.

    ``suit_of[i]``: effective suit of card ``i`` (0-3, or ``NO_SUIT``);
    ``suit_mask[s]``: bitmask of the cards whose effective suit is ``s`` (index 4: none);
    ``trump_power[i]``: > 0 for cards that beat every non-trump (trumps; the free joker);
    ``rank_power[i]``: strength within its effective suit when that suit is led.
    """

    trump: int  # trump suit, or -1 for no trumps / misère
    nominated: int  # joker's nominated suit in no trumps / misère, or -1
    suit_of: tuple[int, ...]
    suit_mask: tuple[int, ...]
    trump_power: tuple[int, ...]
    rank_power: tuple[int, ...]
    beats: tuple[tuple[int, ...], ...]
    """``beats[led][i]``: the trick-taking key of card ``i`` when ``led`` was led (the same
    key ``winner_index`` gives it): the highest key in a trick wins, the first played on a tie."""

    def winner_index(self, cards: list[int] | tuple[int, ...], led: int) -> int:
        """Position in ``cards`` (in play order) of the card that wins the trick."""
        best = -1
        best_key = -2
        trump_power = self.trump_power
        suit_of = self.suit_of
        rank_power = self.rank_power
        for pos, c in enumerate(cards):
            tp = trump_power[c]
            if tp:
                key = 1000 + tp
            elif suit_of[c] == led:
                key = rank_power[c]
            else:
                key = -1
            if key > best_key:
                best_key = key
                best = pos
        return best


@cache
def trick_table(trump: int, nominated: int = -1) -> TrickTable:
    """Tables for a suit contract (``trump`` 0-3) or no trumps/misère (``trump`` -1).

    >>> t = trick_table(int(Suit.H))
    >>> from fivehundred.engine.cards import Card
    >>> t.suit_of[Card.parse("JD").index] == Suit.H
    True
    """
    suit_of = [0] * 65
    trump_power = [0] * 65
    rank_power = [0] * 65
    for i in range(64):
        suit_of[i] = i >> 4
        rank_power[i] = i & 15
    if trump >= 0:
        left = int(Suit(trump).same_colour)
        # joker, right bower, left bower, then A K Q (13 12 11) 10 9 ... of trumps.
        for r in range(16):
            trump_power[trump * 16 + r] = 10 + r
        trump_power[trump * 16 + RANK_J] = 29
        trump_power[left * 16 + RANK_J] = 28
        suit_of[left * 16 + RANK_J] = trump
        trump_power[JOKER_INDEX] = 30
        suit_of[JOKER_INDEX] = trump
    elif nominated >= 0:
        # a pre-nominated joker is the top card of its suit and nothing more.
        suit_of[JOKER_INDEX] = nominated
        rank_power[JOKER_INDEX] = 16
    else:
        # the free joker has no suit and wins any trick it is played to.
        suit_of[JOKER_INDEX] = NO_SUIT
        trump_power[JOKER_INDEX] = 30
    masks = [0] * 5
    for i in range(65):
        masks[suit_of[i]] |= 1 << i
    beats = tuple(
        tuple(
            1000 + trump_power[i] if trump_power[i] else rank_power[i] if suit_of[i] == led else -1
            for i in range(65)
        )
        for led in range(5)
    )
    return TrickTable(
        trump,
        nominated,
        tuple(suit_of),
        tuple(masks),
        tuple(trump_power),
        tuple(rank_power),
        beats,
    )
