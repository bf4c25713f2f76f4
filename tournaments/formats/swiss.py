"""Swiss pairing: a fixed number of rounds, each paired from the standings so far.

Two sides per table (the partnership game, two-handed games): the round is a maximum-weight
perfect matching (networkx ``max_weight_matching`` with ``maxcardinality``) on the complete graph
of entrants, plus a "bye" node when the count is odd. Forbidden pairs have no edge at all. Every
other edge carries a cost built from tiers that are compared lexicographically (each tier's
multiplier exceeds the largest possible total of all tiers below it, so no amount of a lower
concern can outweigh one unit of a higher one):

1. a second (or later) bye: the bye edge of an entrant costs the byes it already had;
2. rematches: a pair costs the number of times it has already met;
3. the bye going to a higher score group than necessary;
4. pairing across score groups: the square of the distance between the two score groups, so
   one entrant floating down one group is preferred to longer or repeated floats;
5. order inside the score group: the classic Swiss fold of the top half against the bottom half
   (1 v 5, 2 v 6, ... in a group of eight); across groups, the floater is the lowest of its
   group and meets the highest of the group below; the bye goes to the lowest ranked.

Hence: no rematch and no second bye while one can be avoided, the bye to the lowest-ranked
entrant in the lowest score group that has not had one, and pairings inside score groups when
possible. Rank for pairing is match points, then seed (tie-breaks are for final standings, not
for pairing). Each pairing's reason records which of these applied.

Tables of three or more (`table_size` >= 3): the `count % table_size` byes go to the entrants
with the fewest byes so far, lowest ranked first; the rest are seated by `groups.seat_groups`
in rank order, keeping tables within score groups and avoiding rematches (best effort, see that
module).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx

from tournaments.formats.errors import FormatError
from tournaments.formats.groups import seat_groups
from tournaments.formats.history import History
from tournaments.formats.standings import match_points
from tournaments.formats.values import (
    Entrant,
    Field,
    MatchResult,
    Pairing,
    Round,
    Scoring,
    check_results,
)

BYE = -1  # the bye node of the matching graph (entrants are 0..n-1)


@dataclass(frozen=True)
class SwissOptions:
    """How a Swiss event is paired.

    `forbidden` holds pairs of entrant ids that must never share a table (club-mates, the same
    bot author's bots); `balance_seats` seats each two-side table so that seat 0 and seat 1
    alternate as evenly as possible for both entrants.
    """

    rounds: int
    table_size: int = 2
    scoring: Scoring = field(default_factory=Scoring)
    forbidden: frozenset[frozenset[str]] = frozenset()
    balance_seats: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.rounds, int) or self.rounds < 1:
            raise FormatError("options.rounds", f"must be an integer >= 1, got {self.rounds!r}")
        if not isinstance(self.table_size, int) or self.table_size < 2:
            raise FormatError(
                "options.table_size", f"must be an integer >= 2, got {self.table_size!r}"
            )
        pairs = frozenset(frozenset(p) for p in self.forbidden)
        for p in pairs:
            if len(p) != 2:
                raise FormatError("options.forbidden", f"a forbidden pair needs two ids: {set(p)}")
        object.__setattr__(self, "forbidden", pairs)


@dataclass(frozen=True)
class _Ranked:
    """An entrant's place in the pairing order for this round."""

    id: str
    rank: int  # 0 = top
    points: int
    group: int  # score group, 1 = highest score
    group_pos: int  # position inside the score group, 0 = top
    group_size: int


def swiss_round(
    entrants: Sequence[Entrant],
    results: Sequence[MatchResult],
    *,
    round_number: int,
    options: SwissOptions,
    former: Sequence[Entrant] = (),
) -> Round:
    """Pair round `round_number` of a Swiss event from the results of the earlier rounds.

    `entrants` are those still playing; `former` are withdrawn entrants whose old results are
    still in `results`. Raises `FormatError` if a forbidden pair makes the round impossible.
    """
    if not isinstance(round_number, int) or not 1 <= round_number <= options.rounds:
        raise FormatError(
            "round_number", f"must be between 1 and {options.rounds}, got {round_number!r}"
        )
    fld = Field.of(entrants, minimum=2)
    known = dict(fld.by_id)
    for gone in former:
        known.setdefault(gone.id, gone)
    results = check_results(results, known, before_round=round_number)
    for i, pair in enumerate(sorted(options.forbidden, key=sorted)):
        for e in pair:
            if e not in known:
                raise FormatError(f"options.forbidden[{i}]", f"unknown entrant {e!r}")
    history = History.of(results)
    ranked = _rank(fld, match_points(results, options.scoring))
    if options.table_size == 2:
        pairings = _pair_two(ranked, history, options)
    else:
        pairings = _pair_groups(ranked, history, options)
    return Round(round_number, tuple(pairings))


def _rank(fld: Field, points: dict[str, int]) -> list[_Ranked]:
    order = sorted(fld.entrants, key=lambda e: (-points.get(e.id, 0), e.seed))
    levels = sorted({points.get(e.id, 0) for e in order}, reverse=True)
    sizes = {p: sum(1 for e in order if points.get(e.id, 0) == p) for p in levels}
    out: list[_Ranked] = []
    seen: dict[int, int] = {}
    for rank, e in enumerate(order):
        p = points.get(e.id, 0)
        out.append(_Ranked(e.id, rank, p, levels.index(p) + 1, seen.get(p, 0), sizes[p]))
        seen[p] = seen.get(p, 0) + 1
    return out


def _pair_two(ranked: list[_Ranked], history: History, options: SwissOptions) -> list[Pairing]:
    n = len(ranked)
    groups = max(r.group for r in ranked)
    odd = n % 2 == 1

    # Per-edge costs by tier, most important first. Edges absent = forbidden.
    edges: dict[tuple[int, int], tuple[int, int, int, int, int]] = {}
    for i in range(n):
        a = ranked[i]
        for j in range(i + 1, n):
            b = ranked[j]
            if frozenset((a.id, b.id)) in options.forbidden:
                continue
            rematch = history.times_met(a.id, b.id)
            float_cost = (a.group - b.group) ** 2
            if a.group == b.group:
                half = a.group_size // 2
                order_cost = (abs(b.group_pos - a.group_pos) - half) ** 2
            else:
                # Lowest of the upper group meets the highest of the lower group.
                order_cost = (a.group_size - 1 - a.group_pos) + b.group_pos
            edges[(i, j)] = (0, rematch, 0, float_cost, order_cost)
        if odd:
            edges[(i, BYE)] = (history.byes.get(a.id, 0), 0, groups - a.group, 0, n - 1 - a.rank)

    tiers = 5
    maxima = [max((c[t] for c in edges.values()), default=0) for t in range(tiers)]
    per_round = n // 2 + 1  # edges in a matching, with room to spare
    mult = [0] * tiers
    scale = 1
    for t in reversed(range(tiers)):
        mult[t] = scale
        scale *= per_round * maxima[t] + 1
    top = scale  # larger than any edge cost, so every weight is positive

    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(n))
    if odd:
        graph.add_node(BYE)
    for (i, j), c in edges.items():
        graph.add_edge(i, j, weight=top - sum(m * x for m, x in zip(mult, c, strict=True)))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if len(matching) * 2 != graph.number_of_nodes():
        raise FormatError(
            "options.forbidden",
            "no pairing of this round keeps every forbidden pair apart "
            f"({len(matching)} tables found for {n} entrants)",
        )

    tables: list[tuple[_Ranked, _Ranked]] = []
    bye: _Ranked | None = None
    for u, v in matching:
        if BYE in (u, v):
            bye = ranked[v if u == BYE else u]
        else:
            a, b = sorted((ranked[u], ranked[v]), key=lambda r: r.rank)
            tables.append((a, b))
    tables.sort(key=lambda t: t[0].rank)

    out: list[Pairing] = []
    for number, (a, b) in enumerate(tables, start=1):
        seats = _seat_two(a, b, history) if options.balance_seats else (a.id, b.id)
        out.append(Pairing(number, seats, _reason_two(a, b, history)))
    if bye is not None:
        out.append(Pairing(0, (bye.id, None), _reason_bye(bye, ranked, history), bye=True))
    return out


def _seat_two(a: _Ranked, b: _Ranked, history: History) -> tuple[str, str]:
    """Seat 0 to whoever has had it less often; then to whoever sat in seat 1 last time."""
    ka = (history.seat_balance.get(a.id, 0), -history.last_seat.get(a.id, 0), a.rank)
    kb = (history.seat_balance.get(b.id, 0), -history.last_seat.get(b.id, 0), b.rank)
    return (a.id, b.id) if ka <= kb else (b.id, a.id)


def _reason_two(a: _Ranked, b: _Ranked, history: History) -> str:
    if a.group == b.group:
        text = f"score group {a.group} ({a.points} points)"
    else:
        text = f"{a.id} floated down from score group {a.group} to score group {b.group}"
    met = history.rounds_met(a.id, b.id)
    if met:
        text += f"; rematch unavoidable (met in round {', '.join(map(str, met))})"
    return text


def _reason_bye(bye: _Ranked, ranked: list[_Ranked], history: History) -> str:
    had = history.byes.get(bye.id, 0)
    if had:
        return f"bye: every entrant has had a bye or is needed at a table; bye number {had + 1}"
    lower = [r for r in ranked if r.rank > bye.rank]
    if not lower:
        return "bye: lowest ranked"
    if all(history.byes.get(r.id, 0) for r in lower):
        return "bye: lowest ranked without a previous bye"
    return (
        "bye: lowest ranked eligible; lower-ranked entrants without a bye were needed at a "
        "table to avoid a rematch, a forbidden pair or a float"
    )


def _pair_groups(ranked: list[_Ranked], history: History, options: SwissOptions) -> list[Pairing]:
    k = options.table_size
    n = len(ranked)
    if n < k:
        raise FormatError("entrants", f"{n} entrants cannot fill a table of {k}")
    sit_out = n % k
    by_need = sorted(ranked, key=lambda r: (history.byes.get(r.id, 0), -r.rank))
    byes = by_need[:sit_out]
    bye_ids = {r.id for r in byes}
    playing = [r for r in ranked if r.id not in bye_ids]
    info = {r.id: r for r in ranked}
    forbidden = options.forbidden

    def times_met(a: str, b: str) -> int:
        # A forbidden pair costs more than any number of rematches at a whole table.
        if frozenset((a, b)) in forbidden:
            return 10 * n * options.rounds
        return history.times_met(a, b)

    tables = seat_groups(
        [r.id for r in playing], k, times_met=times_met, key=lambda e: info[e].group
    )
    out: list[Pairing] = []
    for number, table in enumerate(tables, start=1):
        for a_id, b_id in _pairs(table):
            if frozenset((a_id, b_id)) in forbidden:
                raise FormatError(
                    "options.forbidden",
                    f"no seating found that keeps {a_id} and {b_id} apart in this round",
                )
        out.append(Pairing(number, tuple(table), _reason_group(table, info, history)))
    for r in sorted(byes, key=lambda r: r.rank):
        had = history.byes.get(r.id, 0)
        why = (
            "bye: lowest ranked without a previous bye"
            if not had
            else f"bye: every entrant has had a bye; bye number {had + 1}"
        )
        out.append(Pairing(0, (r.id, *([None] * (k - 1))), why, bye=True))
    return out


def _pairs(table: Sequence[str]) -> list[tuple[str, str]]:
    return [(a, b) for i, a in enumerate(table) for b in table[i + 1 :]]


def _reason_group(table: list[str], info: dict[str, _Ranked], history: History) -> str:
    top = min(info[e].group for e in table)
    floaters = [e for e in table if info[e].group == top]
    lowest = max(info[e].group for e in table)
    if top == lowest:
        text = f"score group {top} ({info[table[0]].points} points)"
    else:
        text = f"{', '.join(floaters)} floated down from score group {top} to score group {lowest}"
    repeats = [f"{a} and {b}" for a, b in _pairs(table) if history.times_met(a, b)]
    if repeats:
        text += f"; rematch unavoidable ({'; '.join(repeats)} met before)"
    return text
