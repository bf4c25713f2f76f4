"""Seating entrants at tables of three or more (3- and 5-player games, multi-side tables).

Pairing sides two at a time is a weighted matching, solved exactly. Splitting a field into
tables of three or more while avoiding rematches is a hard partition problem (it contains exact
3-dimensional matching), so for tables of k >= 3 we build a good seating in two steps and say so
in the documentation rather than promise an optimum:

1. greedy: walk the entrants in priority order; each table takes the first unseated entrant and
   then, one at a time, the unseated entrant with the fewest earlier meetings with those already
   at the table (earliest in the order on ties);
2. local search: swap two entrants of different tables whenever that lowers the cost, until no
   swap helps.

The cost compared is, in order: earlier meetings between entrants at the same table (rematches),
then the spread of the tables' `key` values (score groups, for Swiss), then the spread of their
positions in the order (so that a Swiss table seats neighbours in the standings).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

Cost = tuple[int, int, int]


def seat_groups(
    order: Sequence[str],
    size: int,
    *,
    times_met: Callable[[str, str], int],
    key: Callable[[str], int] | None = None,
    max_passes: int = 50,
) -> list[list[str]]:
    """Split `order` (whose length is a multiple of `size`) into tables of `size`.

    Tables come back ordered by their best-placed entrant and seated in `order` order.
    """
    if len(order) % size:
        raise ValueError(f"{len(order)} entrants do not fill tables of {size}")
    pos = {e: i for i, e in enumerate(order)}
    keyf = key or (lambda e: 0)

    def cost(group: Sequence[str]) -> Cost:
        rem = spread = dist = 0
        for a, b in combinations(group, 2):
            rem += times_met(a, b)
            spread += (keyf(a) - keyf(b)) ** 2
            dist += abs(pos[a] - pos[b])
        return (rem, spread, dist)

    unseated = list(order)
    groups: list[list[str]] = []
    while unseated:
        group = [unseated.pop(0)]
        while len(group) < size:
            best = min(
                range(len(unseated)),
                key=lambda i: (sum(times_met(unseated[i], g) for g in group), i),
            )
            group.append(unseated.pop(best))
        groups.append(group)

    costs = [cost(g) for g in groups]
    for _ in range(max_passes):
        improved = False
        for gi, gj in combinations(range(len(groups)), 2):
            for ai in range(size):
                for bj in range(size):
                    a, b = groups[gi][ai], groups[gj][bj]
                    new_i = [*groups[gi][:ai], b, *groups[gi][ai + 1 :]]
                    new_j = [*groups[gj][:bj], a, *groups[gj][bj + 1 :]]
                    ci, cj = cost(new_i), cost(new_j)
                    old = _add(costs[gi], costs[gj])
                    if _add(ci, cj) < old:
                        groups[gi], groups[gj] = new_i, new_j
                        costs[gi], costs[gj] = ci, cj
                        improved = True
        if not improved:
            break
    for g in groups:
        g.sort(key=pos.__getitem__)
    groups.sort(key=lambda g: pos[g[0]])
    return groups


def _add(a: Cost, b: Cost) -> Cost:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])
