"""Checking a deal against its seed (record format, section 4), fast.

The engine's ``deal_from_seed`` is the definition; this module computes the same shuffle with
the hash stream unpacked in one go and compares the result as bitmasks, because a verifier checks
the seed of every hand of every record. ``tests/record/test_seeds.py`` checks the two agree.
"""

from __future__ import annotations

import hashlib
import struct
from functools import cache, reduce
from operator import or_
from typing import Final

from fivehundred.engine import CARDS, Card, Deal, Rules

_TWO_64: Final = 1 << 64


@cache
def _limits(size: int) -> tuple[int, ...]:
    """Rejection limits ⌊2^64 / m⌋·m for m = 0 .. size."""
    return tuple(0 if m == 0 else _TWO_64 // m * m for m in range(size + 1))


def _draws(seed: str, first_block: int, blocks: int) -> tuple[int, ...]:
    """Blocks ``first_block ..`` of the stream SHA-256(seed + ":" + str(k)), as 64-bit draws."""
    prefix = hashlib.sha256(f"{seed}:".encode())
    parts = []
    for k in range(first_block, first_block + blocks):
        block = prefix.copy()
        block.update(b"%d" % k)
        parts.append(block.digest())
    return struct.unpack(f">{4 * blocks}Q", b"".join(parts))


@cache
def _steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """(i, i + 1, rejection limit) for each swap of a Fisher-Yates over ``size`` cards."""
    limits = _limits(size)
    return tuple((i, i + 1, limits[i + 1]) for i in range(size - 1, 0, -1))


def shuffled_indexes(pack: tuple[int, ...], seed: str) -> list[int]:
    """The pack (card indexes, canonical order) shuffled by the seeded Fisher-Yates."""
    order = list(pack)
    size = len(order)
    steps = _steps(size)
    draws = _draws(seed, 0, (size + 2) // 4)
    # One draw per swap unless a draw is rejected, which happens with probability below
    # size / 2**64 per draw: then the careful loop below reads more of the stream.
    for (i, m, limit), r in zip(steps, draws):  # noqa: B905 - draws may be longer
        if r >= limit:
            return _shuffled_carefully(pack, seed)
        j = r % m
        order[i], order[j] = order[j], order[i]
    return order


def _shuffled_carefully(pack: tuple[int, ...], seed: str) -> list[int]:
    order = list(pack)
    size = len(order)
    limits = _limits(size)
    draws = list(_draws(seed, 0, (size + 2) // 4))
    used = 0
    for i in range(size - 1, 0, -1):
        r = draws[used]
        used += 1
        while r >= limits[i + 1]:
            draws.extend(_draws(seed, len(draws) // 4, (i + 4) // 4))
            r = draws[used]
            used += 1
        j = r % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


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
    pack = tuple(c.index for c in rules.pack)
    order = shuffled_indexes(pack, seed)
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
