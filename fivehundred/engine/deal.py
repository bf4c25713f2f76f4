"""Deals: the canonical 3-4-3 pattern (R-2.2), seed-derived shuffles and explicit deals."""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from operator import itemgetter
from typing import Any, cast

from .cards import CARDS, Card
from .errors import DealError, NotationError
from .rules import Rules


@dataclass(frozen=True)
class Deal:
    """The cards as dealt: one hand per seat, the kitty and, with two players, the dead hand."""

    hands: tuple[tuple[Card, ...], ...]
    kitty: tuple[Card, ...]
    dead: tuple[Card, ...] | None = None
    seed: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The record's ``deal`` object (cards sorted in canonical order)."""
        out: dict[str, Any] = {"hands": [[str(c) for c in sorted(h)] for h in self.hands]}
        if self.dead is not None:
            out["dead"] = [str(c) for c in sorted(self.dead)]
        out["kitty"] = [str(c) for c in sorted(self.kitty)]
        if self.seed is not None:
            out["seed"] = self.seed
        return out

    @classmethod
    def from_json(cls, obj: Any) -> Deal:
        """Parse a record's ``deal`` object (notation only; ``check_deal`` checks the pack)."""
        if not isinstance(obj, dict):
            raise NotationError("deal must be an object")
        hands_obj = obj.get("hands")
        if not isinstance(hands_obj, list):
            raise NotationError("deal.hands must be a list of hands", ("hands",))
        hands = []
        for i, h in enumerate(hands_obj):
            if not isinstance(h, list):
                raise NotationError("a hand must be a list of cards", ("hands", i))
            hands.append(tuple(_cards(h, ("hands", i))))
        kitty_obj = obj.get("kitty")
        if not isinstance(kitty_obj, list):
            raise NotationError("deal.kitty must be a list of cards", ("kitty",))
        kitty = tuple(_cards(kitty_obj, ("kitty",)))
        dead = None
        if "dead" in obj:
            if not isinstance(obj["dead"], list):
                raise NotationError("deal.dead must be a list of cards", ("dead",))
            dead = tuple(_cards(obj["dead"], ("dead",)))
        seed = obj.get("seed")
        if seed is not None and not isinstance(seed, str):
            raise NotationError("deal.seed must be a string", ("seed",))
        return cls(tuple(hands), kitty, dead, seed)


def _cards(items: list[Any], path: tuple[str | int, ...]) -> Iterator[Card]:
    for j, text in enumerate(items):
        try:
            yield Card.parse(text)
        except NotationError as e:
            raise NotationError(e.message, (*path, j)) from None


def _positions(players: int, dealer: int) -> list[int]:
    """Receivers of the packets in dealing order; -1 stands for the dead hand (R-2.2, R-1.3)."""
    n = players
    if n == 2:
        # Two players: dead hand (dealer's left position), non-dealer, dealer.
        return [-1, (dealer + 1) % 2, dealer]
    return [(dealer + 1 + i) % n for i in range(n)]


def deal_from_order(
    rules: Rules, order: Sequence[Card], dealer: int, seed: str | None = None
) -> Deal:
    """Deal a pack given top card first by the canonical 3-4-3 pattern (R-2.2)."""
    if 0 <= dealer < rules.players:  # a real seat: the cache of plans stays small
        # Every deal of a table takes the same positions of the pack: pick them in one go.
        size, hand_getters, kitty_getter, dead_getter = _deal_plan(rules.players, dealer)
        if len(order) == size:
            return Deal(
                tuple(get(order) for get in hand_getters),
                kitty_getter(order),
                None if dead_getter is None else dead_getter(order),
                seed,
            )
    hands, kitty, dead = _deal_packets(rules.players, order, dealer)  # raises DealError
    return Deal(hands, kitty, dead, seed)


def _deal_packets(
    players: int, order: Sequence[Any], dealer: int
) -> tuple[tuple[tuple[Any, ...], ...], tuple[Any, ...], tuple[Any, ...] | None]:
    """The 3-4-3 pattern itself: hands per seat, the kitty and the dead hand."""
    positions = _positions(players, dealer)
    got: dict[int, list[Any]] = {p: [] for p in positions}
    kitty: list[Any] = []
    offset = 0
    for packet in (3, 4, 3):
        for p in positions:
            got[p].extend(order[offset : offset + packet])
            offset += packet
        kitty.append(order[offset])
        offset += 1
    if offset != len(order):
        raise DealError(f"a pack of {len(order)} cards cannot be dealt to {players} players")
    hands = tuple(tuple(got[s]) for s in range(players))
    dead = tuple(got[-1]) if -1 in got else None
    return hands, tuple(kitty), dead


_Getter = Callable[[Sequence[Card]], tuple[Card, ...]]


@cache
def _deal_plan(
    players: int, dealer: int
) -> tuple[int, tuple[_Getter, ...], _Getter, _Getter | None]:
    """The pack size, and getters of each hand, the kitty and the dead hand from a pack order:
    the 3-4-3 pattern applied once to the positions 0, 1, 2, ... of the pack."""
    size = 10 * len(_positions(players, dealer)) + 3
    hands, kitty, dead = _deal_packets(players, range(size), dealer)

    def getter(positions: tuple[int, ...]) -> _Getter:
        # itemgetter answers a tuple for two positions or more: every hand and kitty has three.
        assert len(positions) > 1
        return cast(_Getter, itemgetter(*positions))

    return (
        size,
        tuple(getter(h) for h in hands),
        getter(kitty),
        None if dead is None else getter(dead),
    )


def _draws(seed: str, first_block: int, blocks: int) -> tuple[int, ...]:
    """Blocks ``first_block ..`` of the seed's stream, unpacked in one go as 64-bit draws."""
    prefix = hashlib.sha256(f"{seed}:".encode())
    parts = []
    for k in range(first_block, first_block + blocks):
        block = prefix.copy()
        block.update(b"%d" % k)
        parts.append(block.digest())
    return struct.unpack(f">{4 * blocks}Q", b"".join(parts))


@cache
def _limits(size: int) -> tuple[int, ...]:
    """Rejection limits floor(2^64 / m) * m for m = 0 .. size (they remove modulo bias)."""
    return tuple(0 if m == 0 else (1 << 64) // m * m for m in range(size + 1))


@cache
def _steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """``(i, i + 1, rejection limit)`` for each swap of a Fisher-Yates over ``size`` items."""
    limits = _limits(size)
    return tuple((i, i + 1, limits[i + 1]) for i in range(size - 1, 0, -1))


def shuffled_indexes(pack: Sequence[int], seed: str) -> list[int]:
    """Any sequence (the pack's card indexes, canonical order) shuffled by the seeded
    Fisher-Yates of the record format, section 4.

    Every seeded hand of every record is dealt again when it is verified, so the usual case
    runs on precomputed steps with one draw per swap; a rejected draw (probability below
    ``len(pack) / 2**64`` per draw) switches to the loop that reads the stream on.
    """
    order = list(pack)
    size = len(order)
    draws = _draws(seed, 0, (size + 2) // 4)
    for (i, m, limit), r in zip(_steps(size), draws):  # noqa: B905 - draws may be longer
        if r >= limit:
            return _shuffled_reading_on(pack, seed)
        j = r % m
        order[i], order[j] = order[j], order[i]
    return order


def _shuffled_reading_on(pack: Sequence[int], seed: str) -> list[int]:
    order = list(pack)
    size = len(order)
    limits = _limits(size)
    draws = list(_draws(seed, 0, (size + 2) // 4))
    used = 0
    for i in range(size - 1, 0, -1):
        m = i + 1
        if used == len(draws):
            draws.extend(_draws(seed, len(draws) // 4, 1))
        r = draws[used]
        used += 1
        while r >= limits[m]:
            if used == len(draws):
                draws.extend(_draws(seed, len(draws) // 4, 1))
            r = draws[used]
            used += 1
        j = r % m
        order[i], order[j] = order[j], order[i]
    return order


def shuffled_pack(rules: Rules, seed: str) -> list[Card]:
    """The rules' pack shuffled by the record format's seeded Fisher-Yates."""
    return [CARDS[i] for i in shuffled_indexes([c.index for c in rules.pack], seed)]


def deal_from_seed(rules: Rules, seed: str, dealer: int) -> Deal:
    """The deal a seed gives (record format section 4).

    >>> d = deal_from_seed(Rules.create(4), "example", 3)
    >>> [len(h) for h in d.hands], len(d.kitty)
    ([10, 10, 10, 10], 3)
    """
    return deal_from_order(rules, shuffled_pack(rules, seed), dealer, seed)


def check_deal(rules: Rules, deal: Deal) -> None:
    """Raise ``DealError`` unless the deal is exactly the rules' pack in the right shape.

    Checked in the order of the record format: cards not in the pack and duplicates in the
    order hands 0..n-1, dead hand, kitty (at the card); then the shape (at the deal).
    """
    seen = 0
    groups: list[tuple[tuple[str | int, ...], tuple[Card, ...]]] = [
        (("hands", i), h) for i, h in enumerate(deal.hands)
    ]
    if deal.dead is not None:
        groups.append((("dead",), deal.dead))
    groups.append((("kitty",), deal.kitty))
    for path, cards in groups:
        for j, c in enumerate(cards):
            bit = 1 << c.index
            if not rules.pack_mask & bit:
                raise DealError(f"{c} is not in the pack for these rules", (*path, j))
            if seen & bit:
                raise DealError(f"{c} is dealt twice", (*path, j))
            seen |= bit
    if len(deal.hands) != rules.players:
        raise DealError(f"the deal has {len(deal.hands)} hands for {rules.players} players")
    for i, h in enumerate(deal.hands):
        if len(h) != 10:
            raise DealError(f"hand {i} has {len(h)} cards, not 10")
    if rules.has_dead_hand and deal.dead is None:
        raise DealError("the two-player deal needs the dead hand ('dead')")
    if not rules.has_dead_hand and deal.dead is not None:
        raise DealError("only the two-player game has a dead hand")
    if deal.dead is not None and len(deal.dead) != 10:
        raise DealError(f"the dead hand has {len(deal.dead)} cards, not 10")
    if len(deal.kitty) != rules.kitty_size:
        raise DealError(f"the kitty has {len(deal.kitty)} cards, not {rules.kitty_size}")
    if seen != rules.pack_mask:
        missing = [str(c) for c in rules.pack if not seen & (1 << c.index)]
        raise DealError(f"cards missing from the deal: {' '.join(missing)}")


def same_deal(a: Deal, b: Deal) -> bool:
    """Whether two deals give every seat, the kitty and the dead hand the same cards."""
    return (
        len(a.hands) == len(b.hands)
        and all(set(x) == set(y) for x, y in zip(a.hands, b.hands, strict=True))
        and set(a.kitty) == set(b.kitty)
        and set(a.dead or ()) == set(b.dead or ())
        and (a.dead is None) == (b.dead is None)
    )
