"""Standard bracket seeding order.

The order places seed 1 and seed 2 in opposite halves, seeds 1-4 in different quarters and so on,
and pairs each first-round line so the seeds add up to size + 1 (1 v 16, 8 v 9, 4 v 13, ...). With
a field smaller than the bracket, the missing high seed numbers are byes, which therefore fall to
the top seeds.
"""

from __future__ import annotations

from tournaments.formats.errors import FormatError


def bracket_size(count: int) -> int:
    """The smallest power of two holding `count` entrants (at least 2)."""
    if count < 2:
        raise FormatError("entrants", f"a bracket needs at least 2 entrants, got {count}")
    size = 2
    while size < count:
        size *= 2
    return size


def seeding_order(size: int) -> tuple[int, ...]:
    """Seed numbers by bracket line for a bracket of `size` (a power of two).

    Built by doubling: each seed s of the smaller bracket is followed by its partner size + 1 - s.

    >>> seeding_order(8)
    (1, 8, 4, 5, 2, 7, 3, 6)
    """
    if size < 2 or size & (size - 1):
        raise FormatError("size", f"bracket size must be a power of two >= 2, got {size}")
    order = [1, 2]
    while len(order) < size:
        n = len(order) * 2
        order = [x for s in order for x in (s, n + 1 - s)]
    return tuple(order)
