"""Checking a deal against its seed (record format, section 4), fast.

The engine's seeded shuffle is the definition; this module deals its result straight into
bitmasks and compares them with the record's deal, because a verifier checks the seed of every
hand of every record. ``tests/record/test_seeds.py`` checks it agrees with ``deal_from_seed``.
"""

from __future__ import annotations

from functools import cache, reduce
from operator import or_
from typing import Final

from fivehundred.engine import CARDS, Card, Deal, Rules
from fivehundred.engine.deal import shuffled_indexes


@cache
def _receivers(players: int, dealer: int) -> tuple[int, ...]:
    """Who receives each position of the shuffled pack (R-2.2): a seat, -1 dead hand, -2 kitty."""
    if players == 2:
        positions = [-1, (dealer + 1) % 2, dealer]
    else:
        positions = [(dealer + 1 + i) % players for i in range(players)]
    out: list[int] = []
    for packet in (3, 4, 3):
        for p in positions:
            out.extend([p] * packet)
        out.append(-2)
    return tuple(out)


_BIT: Final = {card: 1 << card.index for card in CARDS}


@cache
def _pack_indexes(pack: tuple[Card, ...]) -> tuple[int, ...]:
    return tuple(c.index for c in pack)


def _mask(cards: tuple[Card, ...]) -> int:
    return reduce(or_, map(_BIT.__getitem__, cards), 0)


def matches_seed(
    rules: Rules,
    deal: Deal,
    seed: str,
    dealer: int,
    hand_masks: tuple[int, ...] | None = None,
) -> bool:
    """Whether every seat, the kitty and the dead hand hold what the seed deals them.

    ``hand_masks`` may give the bitmasks of ``deal.hands`` when the caller has them already.
    """
    order = shuffled_indexes(_pack_indexes(rules.pack), seed)
    receivers = _receivers(rules.players, dealer)
    if len(receivers) != len(order):
        return False
    masks = [0] * (rules.players + 2)  # seats, then dead hand (-1) and kitty (-2)
    for card, who in zip(order, receivers, strict=True):
        masks[who] |= 1 << card
    # Equal masks and equal sizes: the same cards, none twice.
    if len(deal.hands) != rules.players:
        return False
    for seat, cards in enumerate(deal.hands):
        mask = _mask(cards) if hand_masks is None else hand_masks[seat]
        if mask != masks[seat] or len(cards) != masks[seat].bit_count():
            return False
    if _mask(deal.kitty) != masks[-2] or len(deal.kitty) != masks[-2].bit_count():
        return False
    dead = deal.dead
    if (dead is None) != (rules.players != 2):
        return False
    return dead is None or (_mask(dead) == masks[-1] and len(dead) == masks[-1].bit_count())
