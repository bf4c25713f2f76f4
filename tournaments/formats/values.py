"""Value types shared by every format.

All of them are frozen dataclasses: a format is a pure function from these values to new values,
so nothing here may be mutated behind a caller's back (the Django app caches and compares them).
Validation happens in ``__post_init__`` so an inconsistent value cannot exist at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from tournaments.formats.errors import FormatError


@dataclass(frozen=True)
class Entrant:
    """A side in the event: a partnership or an individual, human or bot.

    `seed` orders the field (1 is the strongest); seeds must be distinct but need not be
    contiguous, because late entries and withdrawals leave gaps the director should not have to
    renumber.
    """

    id: str
    seed: int
    name: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id:
            raise FormatError("entrant", f"id must be a non-empty string, got {self.id!r}")
        if not isinstance(self.seed, int) or isinstance(self.seed, bool) or self.seed < 1:
            raise FormatError(
                f"entrant {self.id}", f"seed must be an integer >= 1, got {self.seed!r}"
            )

    @property
    def label(self) -> str:
        """The name if there is one, else the id: what a round sheet prints."""
        return self.name or self.id


class Outcome(StrEnum):
    """How a table ended.

    - ``win``: `winners` won, everyone else at the table lost.
    - ``draw``: everyone at the table drew (only Swiss and round robin accept draws).
    - ``forfeit``: the entrants not in `winners` forfeited (no-show, bot fault); scored as a win
      for `winners` and a loss for the rest, but points for/against are not counted.
    - ``bye``: the single entrant sat out and receives the bye score.
    """

    WIN = "win"
    DRAW = "draw"
    FORFEIT = "forfeit"
    BYE = "bye"


@dataclass(frozen=True)
class MatchResult:
    """The confirmed result of one table in one round.

    `entrants` is in seat order and `points_for` gives each entrant's game points (the running
    score of the match, e.g. 520 and 310) in the same order; they feed the points-for/against
    tie-breaks. `winners` lists the winning entrants for ``win`` and ``forfeit``.
    """

    round: int
    table: int
    entrants: tuple[str, ...]
    points_for: tuple[int, ...]
    outcome: Outcome
    winners: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        where = f"result round {self.round} table {self.table}"
        if not isinstance(self.round, int) or self.round < 1:
            raise FormatError(where, f"round must be an integer >= 1, got {self.round!r}")
        if not isinstance(self.table, int) or self.table < 0:
            raise FormatError(where, f"table must be an integer >= 0, got {self.table!r}")
        object.__setattr__(self, "entrants", tuple(self.entrants))
        object.__setattr__(self, "points_for", tuple(self.points_for))
        object.__setattr__(self, "winners", tuple(self.winners))
        try:
            object.__setattr__(self, "outcome", Outcome(self.outcome))
        except ValueError:
            raise FormatError(where, f"unknown outcome {self.outcome!r}") from None
        if not self.entrants:
            raise FormatError(where, "a result needs at least one entrant")
        if len(set(self.entrants)) != len(self.entrants):
            raise FormatError(where, f"an entrant is listed twice: {self.entrants}")
        if len(self.points_for) != len(self.entrants):
            raise FormatError(
                where,
                f"points_for has {len(self.points_for)} values for {len(self.entrants)} entrants",
            )
        unknown = [w for w in self.winners if w not in self.entrants]
        if unknown:
            raise FormatError(where, f"winner(s) {unknown} are not at this table")
        if self.outcome is Outcome.BYE:
            if len(self.entrants) != 1:
                raise FormatError(where, "a bye has exactly one entrant")
        else:
            if len(self.entrants) < 2:
                raise FormatError(where, f"a {self.outcome} needs at least two entrants")
            if self.outcome is Outcome.DRAW and self.winners:
                raise FormatError(where, "a draw has no winners")
            if self.outcome in (Outcome.WIN, Outcome.FORFEIT):
                if not self.winners:
                    raise FormatError(where, f"a {self.outcome} must name its winner(s)")
                if len(set(self.winners)) == len(self.entrants):
                    raise FormatError(where, f"a {self.outcome} needs at least one loser")

    @property
    def played(self) -> bool:
        """Whether cards were played: byes and forfeits do not count for points for/against."""
        return self.outcome in (Outcome.WIN, Outcome.DRAW)


@dataclass(frozen=True)
class Pairing:
    """One table of a round: who sits where, and why they were put together.

    `entrants` is in seat order. A bye is a pairing with ``bye=True``, the entrant first and
    ``None`` for the empty seat(s), and table number 0 (a bye occupies no physical table).
    `match` is the bracket match id for elimination formats, ``None`` otherwise.
    """

    table: int
    entrants: tuple[str | None, ...]
    reason: str
    bye: bool = False
    match: str | None = None

    @property
    def present(self) -> tuple[str, ...]:
        """The entrants actually seated, without the empty bye seats."""
        return tuple(e for e in self.entrants if e is not None)


@dataclass(frozen=True)
class Round:
    """A numbered round: its tables in table order, byes last."""

    number: int
    pairings: tuple[Pairing, ...]

    @property
    def tables(self) -> tuple[Pairing, ...]:
        """The pairings that need a physical table (not byes)."""
        return tuple(p for p in self.pairings if not p.bye)

    @property
    def byes(self) -> tuple[Pairing, ...]:
        return tuple(p for p in self.pairings if p.bye)


@dataclass(frozen=True)
class Scoring:
    """Match points per outcome (win 2 / draw 1 / loss 0 by default, a bye scores as a win).

    Integers only, so that standings compare exactly; Sonneborn–Berger divides by `win` and uses
    fractions for that reason.
    """

    win: int = 2
    draw: int = 1
    loss: int = 0
    bye: int = 2

    def __post_init__(self) -> None:
        for name in ("win", "draw", "loss", "bye"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise FormatError(f"scoring.{name}", f"must be an integer, got {value!r}")
        if not self.win > self.loss:
            raise FormatError("scoring.win", "a win must score more than a loss")

    def points(self, result: MatchResult, entrant: str) -> int:
        """Match points `entrant` earned from `result`."""
        if result.outcome is Outcome.BYE:
            return self.bye
        if result.outcome is Outcome.DRAW:
            return self.draw
        return self.win if entrant in result.winners else self.loss


@dataclass(frozen=True)
class Field:
    """A validated field of entrants, in seed order, with lookups by id."""

    entrants: tuple[Entrant, ...]
    by_id: dict[str, Entrant] = field(compare=False, hash=False, repr=False)

    @classmethod
    def of(cls, entrants: Iterable[Entrant], *, minimum: int = 1) -> Field:
        """Check ids and seeds are distinct and sort by seed."""
        items = list(entrants)
        for i, e in enumerate(items):
            if not isinstance(e, Entrant):
                raise FormatError(f"entrants[{i}]", f"expected an Entrant, got {type(e).__name__}")
        ids: dict[str, int] = {}
        seeds: dict[int, str] = {}
        for i, e in enumerate(items):
            if e.id in ids:
                raise FormatError(f"entrants[{i}]", f"id {e.id!r} is already entrants[{ids[e.id]}]")
            if e.seed in seeds:
                raise FormatError(
                    f"entrants[{i}]", f"seed {e.seed} is already used by entrant {seeds[e.seed]!r}"
                )
            ids[e.id] = i
            seeds[e.seed] = e.id
        if len(items) < minimum:
            raise FormatError("entrants", f"need at least {minimum} entrants, got {len(items)}")
        ordered = tuple(sorted(items, key=lambda e: e.seed))
        return cls(ordered, {e.id: e for e in ordered})

    def __len__(self) -> int:
        return len(self.entrants)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(e.id for e in self.entrants)


def check_results(
    results: Sequence[MatchResult], known: dict[str, Entrant] | Field, *, before_round: int | None
) -> tuple[MatchResult, ...]:
    """Reject results naming unknown entrants, seating someone twice in a round, or from the future.

    Withdrawn entrants keep their past results, so the caller passes every entrant that ever
    played in `known` (a `Field` or a dict of entrants by id).
    """
    by_id = known.by_id if isinstance(known, Field) else known
    seen: dict[tuple[int, str], int] = {}
    out = []
    for i, r in enumerate(results):
        if not isinstance(r, MatchResult):
            raise FormatError(f"results[{i}]", f"expected a MatchResult, got {type(r).__name__}")
        if before_round is not None and r.round >= before_round:
            raise FormatError(
                f"results[{i}]",
                f"result for round {r.round} given while pairing round {before_round}",
            )
        for e in r.entrants:
            if e not in by_id:
                raise FormatError(f"results[{i}]", f"unknown entrant {e!r}")
            if (r.round, e) in seen:
                raise FormatError(
                    f"results[{i}]",
                    f"entrant {e!r} already has a result in round {r.round} "
                    f"(results[{seen[(r.round, e)]}])",
                )
            seen[(r.round, e)] = i
        out.append(r)
    return tuple(out)
