"""What the results so far say about who met whom, byes and seats.

Swiss and round-robin-for-groups pairing both need the same three facts about the past, computed
once here from the results: how often (and in which rounds) two entrants sat at the same table,
how many byes each entrant had, and each entrant's seat balance.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import combinations

from tournaments.formats.values import MatchResult, Outcome


def pair_key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


@dataclass
class History:
    met: dict[tuple[str, str], list[int]] = field(default_factory=lambda: defaultdict(list))
    byes: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    # seat 0 appearances minus seat 1 appearances, two-entrant tables only
    seat_balance: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    last_seat: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, results: Iterable[MatchResult]) -> History:
        h = cls()
        for r in sorted(results, key=lambda r: (r.round, r.table)):
            if r.outcome is Outcome.BYE:
                h.byes[r.entrants[0]] += 1
                continue
            for a, b in combinations(r.entrants, 2):
                h.met[pair_key(a, b)].append(r.round)
            if len(r.entrants) == 2:
                h.seat_balance[r.entrants[0]] += 1
                h.seat_balance[r.entrants[1]] -= 1
                h.last_seat[r.entrants[0]] = 0
                h.last_seat[r.entrants[1]] = 1
        return h

    def times_met(self, a: str, b: str) -> int:
        return len(self.met.get(pair_key(a, b), ()))

    def rounds_met(self, a: str, b: str) -> list[int]:
        return list(self.met.get(pair_key(a, b), ()))
