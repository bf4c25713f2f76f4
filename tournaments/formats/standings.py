"""Standings: match points, the configured tie-breaks, and the final order.

Tie-breaks are applied in the configured order, each only among the entrants still tied after
the previous ones (this matters for head to head, which is computed inside the tied group; every
other tie-break has one value per entrant whatever the group). Entrants tied on everything share
a rank and are listed by seed, so the order is always deterministic.

Definitions (with more than two entrants at a table, every other entrant at the table is an
opponent):

- ``buchholz``: sum of the current match points of every opponent faced (byes add nothing).
- ``median_buchholz``: Buchholz without the best and the worst opponent (only once there are at
  least three opponents; with fewer it equals Buchholz).
- ``sonneborn_berger``: for each opponent, their match points times the share of a win this
  entrant took from that game (1 for a win, draw/win for a draw, 0 for a loss).
- ``points_for`` / ``points_against`` / ``points_difference``: game points scored by this entrant
  / by its opponents / the difference, over games actually played (not byes or forfeits).
  Fewer points against is better.
- ``head_to_head``: match points earned in games against the other entrants still tied.
- ``wins``: games won, forfeit wins included, byes not.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from tournaments.formats.errors import FormatError
from tournaments.formats.values import Entrant, Field, MatchResult, Outcome, Scoring, check_results

Value = int | Fraction


class TieBreak(StrEnum):
    BUCHHOLZ = "buchholz"
    MEDIAN_BUCHHOLZ = "median_buchholz"
    SONNEBORN_BERGER = "sonneborn_berger"
    POINTS_FOR = "points_for"
    POINTS_AGAINST = "points_against"
    POINTS_DIFFERENCE = "points_difference"
    HEAD_TO_HEAD = "head_to_head"
    WINS = "wins"


#: Tie-breaks where a smaller value ranks higher.
LOWER_IS_BETTER = frozenset({TieBreak.POINTS_AGAINST})

DEFAULT_TIEBREAKS: tuple[TieBreak, ...] = (
    TieBreak.BUCHHOLZ,
    TieBreak.SONNEBORN_BERGER,
    TieBreak.POINTS_DIFFERENCE,
)


@dataclass(frozen=True)
class Standing:
    """One row of the standings table.

    `tiebreaks` holds ``(tie-break, value)`` in the configured order; `rank` is shared by entrants
    tied on points and every tie-break.
    """

    rank: int
    entrant: str
    points: int
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    tiebreaks: tuple[tuple[TieBreak, Value], ...]

    def as_dict(self) -> dict[str, object]:
        """Plain JSON-ready values; a fractional tie-break (Sonneborn–Berger) becomes a float."""
        return {
            "rank": self.rank,
            "entrant": self.entrant,
            "points": self.points,
            "played": self.played,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "byes": self.byes,
            "tiebreaks": {
                tb.value: (int(v) if v == int(v) else float(v)) for tb, v in self.tiebreaks
            },
        }

    def tiebreak(self, name: TieBreak | str) -> Value:
        key = TieBreak(name)
        for k, v in self.tiebreaks:
            if k is key:
                return v
        raise KeyError(name)


def parse_tiebreaks(names: Iterable[TieBreak | str]) -> tuple[TieBreak, ...]:
    """Turn configured names into `TieBreak` values, rejecting unknown names and repeats."""
    out: list[TieBreak] = []
    for i, name in enumerate(names):
        try:
            tb = TieBreak(name)
        except ValueError:
            known = ", ".join(t.value for t in TieBreak)
            raise FormatError(
                f"tiebreaks[{i}]", f"unknown tie-break {name!r} (known: {known})"
            ) from None
        if tb in out:
            raise FormatError(f"tiebreaks[{i}]", f"tie-break {tb.value!r} is listed twice")
        out.append(tb)
    return tuple(out)


@dataclass
class _Tally:
    points: int = 0
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    points_for: int = 0
    points_against: int = 0


def match_points(results: Iterable[MatchResult], scoring: Scoring) -> dict[str, int]:
    """Match points per entrant id over `results` (entrants without results are absent)."""
    pts: dict[str, int] = defaultdict(int)
    for r in results:
        for e in r.entrants:
            pts[e] += scoring.points(r, e)
    return dict(pts)


def standings(
    entrants: Sequence[Entrant],
    results: Sequence[MatchResult],
    *,
    scoring: Scoring | None = None,
    tiebreaks: Iterable[TieBreak | str] = DEFAULT_TIEBREAKS,
    former: Sequence[Entrant] = (),
) -> tuple[Standing, ...]:
    """Rank `entrants` on `results`, best first.

    `former` lists withdrawn entrants: they are not ranked but their results still count for
    their opponents' tie-breaks.

    >>> a, b = Entrant("a", 1), Entrant("b", 2)
    >>> r = MatchResult(1, 1, ("a", "b"), (500, 320), Outcome.WIN, ("b",))
    >>> [(s.rank, s.entrant, s.points) for s in standings([a, b], [r])]
    [(1, 'b', 2), (2, 'a', 0)]
    """
    scoring = scoring or Scoring()
    order = parse_tiebreaks(tiebreaks)
    field = Field.of(entrants)
    known = dict(field.by_id)
    for gone in former:
        if gone.id in known:
            raise FormatError(f"former {gone.id}", "is also a current entrant")
        known[gone.id] = gone
    results = check_results(results, known, before_round=None)

    tally: dict[str, _Tally] = {e: _Tally() for e in known}
    # opponents[e] = list of (opponent, share of a win e took from that game)
    opponents: dict[str, list[tuple[str, Fraction]]] = {e: [] for e in known}
    for r in results:
        for i, e in enumerate(r.entrants):
            t = tally[e]
            pts = scoring.points(r, e)
            t.points += pts
            if r.outcome is Outcome.BYE:
                t.byes += 1
                continue
            t.played += 1
            if r.outcome is Outcome.DRAW:
                t.draws += 1
            elif e in r.winners:
                t.wins += 1
            else:
                t.losses += 1
            if r.played:
                t.points_for += r.points_for[i]
                t.points_against += sum(p for j, p in enumerate(r.points_for) if j != i)
            share = Fraction(pts - scoring.loss, scoring.win - scoring.loss)
            opponents[e].extend((o, share) for o in r.entrants if o != e)

    def fixed_value(e: str, tb: TieBreak) -> Value:
        t = tally[e]
        opp_points = [tally[o].points for o, _ in opponents[e]]
        if tb is TieBreak.BUCHHOLZ:
            return sum(opp_points)
        if tb is TieBreak.MEDIAN_BUCHHOLZ:
            if len(opp_points) >= 3:
                return sum(opp_points) - max(opp_points) - min(opp_points)
            return sum(opp_points)
        if tb is TieBreak.SONNEBORN_BERGER:
            return sum((share * tally[o].points for o, share in opponents[e]), Fraction(0))
        if tb is TieBreak.POINTS_FOR:
            return t.points_for
        if tb is TieBreak.POINTS_AGAINST:
            return t.points_against
        if tb is TieBreak.POINTS_DIFFERENCE:
            return t.points_for - t.points_against
        if tb is TieBreak.WINS:
            return t.wins
        raise AssertionError(tb)  # head to head is computed per group below

    def head_to_head(e: str, group: frozenset[str]) -> int:
        total = 0
        for r in results:
            if (
                e in r.entrants
                and r.outcome is not Outcome.BYE
                and any(o in group and o != e for o in r.entrants)
            ):
                total += scoring.points(r, e)
        return total

    shown: dict[str, dict[TieBreak, Value]] = {e.id: {} for e in field.entrants}
    for ent in field.entrants:
        for tb in order:
            if tb is not TieBreak.HEAD_TO_HEAD:
                shown[ent.id][tb] = fixed_value(ent.id, tb)

    def split(group: list[str], level: int) -> list[list[str]]:
        if level == len(order):
            return [group]
        tb = order[level]
        if tb is TieBreak.HEAD_TO_HEAD:
            members = frozenset(group)
            for e in group:
                shown[e][tb] = head_to_head(e, members)
        if len(group) == 1:
            return split(group, level + 1)
        values: dict[Value, list[str]] = defaultdict(list)
        for e in group:
            values[shown[e][tb]].append(e)
        out: list[list[str]] = []
        for v in sorted(values, reverse=tb not in LOWER_IS_BETTER):
            out.extend(split(values[v], level + 1))
        return out

    by_points: dict[int, list[str]] = defaultdict(list)
    for ent in field.entrants:  # seed order, kept within every class
        by_points[tally[ent.id].points].append(ent.id)
    classes: list[list[str]] = []
    for pts in sorted(by_points, reverse=True):
        classes.extend(split(by_points[pts], 0))

    rows: list[Standing] = []
    for cls in classes:
        rank = len(rows) + 1
        for e in cls:
            t = tally[e]
            rows.append(
                Standing(
                    rank=rank,
                    entrant=e,
                    points=t.points,
                    played=t.played,
                    wins=t.wins,
                    draws=t.draws,
                    losses=t.losses,
                    byes=t.byes,
                    tiebreaks=tuple((tb, shown[e][tb]) for tb in order),
                )
            )
    return tuple(rows)
