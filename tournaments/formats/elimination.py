"""Single and double elimination brackets, and their state as results arrive.

A bracket is built once from the seeded field and never changes; its state is recomputed from
the results so far (`bracket_state`), so a corrected result simply gives a new state.

Construction: the full power-of-two bracket is laid out with the standard seeding order
(`seeding.seeding_order`), then every match that would have an empty slot (a bye, or a
losers'-bracket slot fed by a bye) is removed and its one real entrant passes straight on. Match
ids keep their place in the full bracket (``W1-3`` is the third line pair of the winners' first
round even if ``W1-2`` was a bye), so the picture of the bracket stays the familiar one.

Ids: single elimination ``R<round>-<n>`` and ``3P`` (third-place match); double elimination
``W<round>-<n>``, ``L<round>-<n>``, ``GF`` (grand final) and ``GF2`` (bracket reset, played only if
the losers'-bracket finalist wins ``GF``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from tournaments.formats.errors import FormatError
from tournaments.formats.seeding import bracket_size, seeding_order
from tournaments.formats.values import Entrant, Field, MatchResult, Outcome, Pairing


class Section(StrEnum):
    MAIN = "main"  # single elimination
    WINNERS = "winners"
    LOSERS = "losers"
    GRAND_FINAL = "grand_final"
    RESET = "reset"
    THIRD_PLACE = "third_place"


class SlotKind(StrEnum):
    ENTRANT = "entrant"  # the entrant enters the bracket here (first match, or after byes)
    WINNER = "winner"
    LOSER = "loser"


@dataclass(frozen=True)
class Slot:
    """Where the entrant in one slot of a match comes from: an entrant id, or a match id."""

    kind: SlotKind
    ref: str

    def describe(self) -> str:
        if self.kind is SlotKind.ENTRANT:
            return self.ref
        return f"{self.kind.value} of {self.ref}"


@dataclass(frozen=True)
class BracketMatch:
    """One match of a bracket and where its winner and loser go next.

    `winner_to` / `loser_to` are ``(match id, slot index)`` or ``None`` (champion / eliminated).
    A `conditional` match (the bracket reset) is played only if the grand final's slot-1 entrant
    (the losers'-bracket finalist) wins it.
    """

    id: str
    section: Section
    round: int
    position: int
    slots: tuple[Slot, Slot]
    winner_to: tuple[str, int] | None = None
    loser_to: tuple[str, int] | None = None
    conditional: bool = False


@dataclass(frozen=True)
class Bracket:
    """A complete bracket: matches in an order where every match comes after those feeding it."""

    kind: str  # "single" or "double"
    entrants: tuple[Entrant, ...]
    size: int
    matches: tuple[BracketMatch, ...]
    third_place: bool = False
    reset: bool = False

    def match(self, match_id: str) -> BracketMatch:
        for m in self.matches:
            if m.id == match_id:
                return m
        raise FormatError(f"match {match_id}", "no such match in this bracket")

    @property
    def byes(self) -> tuple[str, ...]:
        """Entrants whose first match is after the first round (they received a bye)."""
        first_round = {"single": (Section.MAIN, 1), "double": (Section.WINNERS, 1)}[self.kind]
        out: list[str] = []
        for m in self.matches:
            if (m.section, m.round) == first_round:
                continue
            if m.section not in (Section.MAIN, Section.WINNERS):
                continue
            out.extend(s.ref for s in m.slots if s.kind is SlotKind.ENTRANT)
        return tuple(out)


# Internal source of a slot while building: an entrant id, a match output, or nothing (a bye).
_Src = Slot | None


class _Builder:
    """Lays matches out in dependency order, dropping those with an empty slot."""

    def __init__(self) -> None:
        self.matches: list[BracketMatch] = []
        # For a removed match: what its winner and loser resolve to.
        self.passed: dict[str, tuple[_Src, _Src]] = {}

    def resolve(self, src: _Src) -> _Src:
        if src is None or src.kind is SlotKind.ENTRANT or src.ref not in self.passed:
            return src
        winner, loser = self.passed[src.ref]
        return winner if src.kind is SlotKind.WINNER else loser

    def add(
        self,
        mid: str,
        section: Section,
        rnd: int,
        pos: int,
        a: _Src,
        b: _Src,
        *,
        conditional: bool = False,
    ) -> None:
        a, b = self.resolve(a), self.resolve(b)
        if a is None or b is None:
            self.passed[mid] = (a if a is not None else b, None)
            return
        self.matches.append(BracketMatch(mid, section, rnd, pos, (a, b), conditional=conditional))

    def finish(self, kind: str, field: Field, size: int, **flags: bool) -> Bracket:
        winner_to: dict[str, tuple[str, int]] = {}
        loser_to: dict[str, tuple[str, int]] = {}
        for m in self.matches:
            for i, s in enumerate(m.slots):
                if m.conditional:
                    continue  # the reset replays the grand final; GF's outputs end there
                if s.kind is SlotKind.WINNER:
                    winner_to[s.ref] = (m.id, i)
                elif s.kind is SlotKind.LOSER:
                    loser_to[s.ref] = (m.id, i)
        ms = tuple(
            BracketMatch(
                m.id,
                m.section,
                m.round,
                m.position,
                m.slots,
                winner_to.get(m.id),
                loser_to.get(m.id),
                m.conditional,
            )
            for m in self.matches
        )
        return Bracket(kind, field.entrants, size, ms, **flags)


def _first_round(field: Field, size: int) -> list[_Src]:
    """Bracket lines in seeding order: an entrant slot, or None for a bye."""
    lines: list[_Src] = []
    for seed_no in seeding_order(size):
        if seed_no <= len(field):
            lines.append(Slot(SlotKind.ENTRANT, field.entrants[seed_no - 1].id))
        else:
            lines.append(None)
    return lines


def single_elimination(entrants: Sequence[Entrant], *, third_place: bool = False) -> Bracket:
    """A single-elimination bracket with byes to the top seeds.

    With `third_place`, the semi-final losers play ``3P`` (only when both semi-finals are real
    matches, i.e. from four entrants up).
    """
    field = Field.of(entrants, minimum=2)
    size = bracket_size(len(field))
    b = _Builder()
    prev = _first_round(field, size)
    rnd = 1
    while len(prev) > 1:
        cur: list[_Src] = []
        for i in range(len(prev) // 2):
            mid = f"R{rnd}-{i + 1}"
            b.add(mid, Section.MAIN, rnd, i + 1, prev[2 * i], prev[2 * i + 1])
            cur.append(Slot(SlotKind.WINNER, mid))
        prev, rnd = cur, rnd + 1
    final_round = rnd - 1
    if third_place and final_round >= 2:
        semis = [Slot(SlotKind.LOSER, f"R{final_round - 1}-{i}") for i in (1, 2)]
        b.add("3P", Section.THIRD_PLACE, final_round, 1, semis[0], semis[1])
    has_third = any(m.id == "3P" for m in b.matches)
    return b.finish("single", field, size, third_place=has_third)


def double_elimination(entrants: Sequence[Entrant], *, reset: bool = True) -> Bracket:
    """A double-elimination bracket: winners', losers', grand final, optional reset.

    Losers' round 1 pairs the winners' round-1 losers; each even losers' round takes the losers
    of the next winners' round (in reversed order every other time, to delay rematches) against
    the survivors; each odd round after the first halves the survivors. The winners'-bracket
    champion takes slot 0 of the grand final.
    """
    field = Field.of(entrants, minimum=2)
    size = bracket_size(len(field))
    b = _Builder()
    prev = _first_round(field, size)
    wb_rounds = 0
    while len(prev) > 1:
        wb_rounds += 1
        cur: list[_Src] = []
        for i in range(len(prev) // 2):
            mid = f"W{wb_rounds}-{i + 1}"
            b.add(mid, Section.WINNERS, wb_rounds, i + 1, prev[2 * i], prev[2 * i + 1])
            cur.append(Slot(SlotKind.WINNER, mid))
        prev = cur

    def wb_losers(rnd: int) -> list[_Src]:
        count = size >> rnd
        return [Slot(SlotKind.LOSER, f"W{rnd}-{i + 1}") for i in range(count)]

    lb_champion: _Src
    if wb_rounds == 1:
        lb_champion = Slot(SlotKind.LOSER, "W1-1")
    else:
        lb_round = 0
        survivors = wb_losers(1)
        for wb_rnd in range(1, wb_rounds):
            # Odd losers' round: survivors play each other.
            lb_round += 1
            nxt: list[_Src] = []
            for i in range(len(survivors) // 2):
                mid = f"L{lb_round}-{i + 1}"
                b.add(mid, Section.LOSERS, lb_round, i + 1, survivors[2 * i], survivors[2 * i + 1])
                nxt.append(Slot(SlotKind.WINNER, mid))
            # Even losers' round: survivors meet the losers dropping from the winners' bracket.
            lb_round += 1
            drops = wb_losers(wb_rnd + 1)
            if wb_rnd % 2 == 1:
                drops.reverse()
            survivors = []
            for i, (s, d) in enumerate(zip(nxt, drops, strict=True)):
                mid = f"L{lb_round}-{i + 1}"
                b.add(mid, Section.LOSERS, lb_round, i + 1, s, d)
                survivors.append(Slot(SlotKind.WINNER, mid))
        lb_champion = survivors[0]
    wb_champion = Slot(SlotKind.WINNER, f"W{wb_rounds}-1")
    b.add("GF", Section.GRAND_FINAL, 1, 1, wb_champion, lb_champion)
    if reset:
        b.add(
            "GF2",
            Section.RESET,
            1,
            1,
            Slot(SlotKind.LOSER, "GF"),
            Slot(SlotKind.WINNER, "GF"),
            conditional=True,
        )
    return b.finish("double", field, size, reset=reset)


class MatchStatus(StrEnum):
    WAITING = "waiting"  # a slot is still unknown
    READY = "ready"  # both entrants known, no result yet
    DONE = "done"
    VOID = "void"  # a bracket reset that is not needed


@dataclass(frozen=True)
class MatchState:
    match: BracketMatch
    entrants: tuple[str | None, str | None]
    status: MatchStatus
    winner: str | None = None
    loser: str | None = None


@dataclass(frozen=True)
class BracketState:
    """Where every match stands given the results so far, and the champion once decided."""

    bracket: Bracket
    matches: tuple[MatchState, ...]
    champion: str | None
    runner_up: str | None
    third: str | None

    @property
    def finished(self) -> bool:
        return self.champion is not None and all(
            m.status in (MatchStatus.DONE, MatchStatus.VOID) for m in self.matches
        )

    def state(self, match_id: str) -> MatchState:
        for m in self.matches:
            if m.match.id == match_id:
                return m
        raise FormatError(f"match {match_id}", "no such match in this bracket")

    def ready(self) -> tuple[MatchState, ...]:
        return tuple(m for m in self.matches if m.status is MatchStatus.READY)


def bracket_state(bracket: Bracket, results: Mapping[str, MatchResult]) -> BracketState:
    """Advance `bracket` with `results` (keyed by match id) and report every match's state.

    A result must be a ``win`` or ``forfeit`` between exactly the two entrants the bracket has put
    in that match; anything else raises `FormatError` naming the match.
    """
    ids = {m.id for m in bracket.matches}
    for mid, given in results.items():
        if mid not in ids:
            raise FormatError(f"results[{mid}]", "no such match in this bracket")
        if not isinstance(given, MatchResult):
            raise FormatError(
                f"results[{mid}]", f"expected a MatchResult, got {type(given).__name__}"
            )
    out: dict[str, tuple[str | None, str | None]] = {}  # match id -> (winner, loser)
    states: list[MatchState] = []

    def value(slot: Slot) -> str | None:
        if slot.kind is SlotKind.ENTRANT:
            return slot.ref
        w, lo = out.get(slot.ref, (None, None))
        return w if slot.kind is SlotKind.WINNER else lo

    for m in bracket.matches:
        where = f"results[{m.id}]"
        pair = (value(m.slots[0]), value(m.slots[1]))
        r = results.get(m.id)
        if m.conditional:
            gf = out.get("GF")
            gf_state = next(s for s in states if s.match.id == "GF")
            if gf is not None and gf[0] == gf_state.entrants[0]:
                # The winners'-bracket champion won the grand final: no reset.
                if r is not None:
                    raise FormatError(
                        where,
                        "the bracket reset is not played: GF was won by "
                        f"the winners'-bracket champion {gf[0]!r}",
                    )
                states.append(MatchState(m, pair, MatchStatus.VOID))
                continue
        if pair[0] is None or pair[1] is None:
            if r is not None:
                missing = [m.slots[i].describe() for i in (0, 1) if pair[i] is None]
                raise FormatError(where, f"match is not ready: waiting for {', '.join(missing)}")
            states.append(MatchState(m, pair, MatchStatus.WAITING))
            continue
        if r is None:
            states.append(MatchState(m, pair, MatchStatus.READY))
            continue
        if r.outcome not in (Outcome.WIN, Outcome.FORFEIT):
            raise FormatError(where, f"an elimination match needs a winner, got {r.outcome.value}")
        if set(r.entrants) != set(pair):
            raise FormatError(
                where,
                f"result is between {list(r.entrants)} but the match is {pair[0]} v {pair[1]}",
            )
        if len(r.winners) != 1:
            raise FormatError(where, f"an elimination match has one winner, got {list(r.winners)}")
        winner = r.winners[0]
        loser = pair[1] if winner == pair[0] else pair[0]
        out[m.id] = (winner, loser)
        states.append(MatchState(m, pair, MatchStatus.DONE, winner, loser))

    champion = runner_up = third = None
    if bracket.kind == "single":
        final = bracket.matches[-2] if bracket.third_place else bracket.matches[-1]
        if final.id in out:
            champion, runner_up = out[final.id]
        if bracket.third_place and "3P" in out:
            third = out["3P"][0]
    else:
        decider = None
        if "GF" in out:
            decider = "GF2" if ("GF2" in ids and "GF2" not in _void(states)) else "GF"
        if decider is not None and decider in out:
            champion, runner_up = out[decider]
        # Third is the losers'-bracket finalist's victim: the loser of the match feeding GF slot 1.
        gf_match = bracket.match("GF")
        feeder = gf_match.slots[1]
        if feeder.kind is SlotKind.WINNER and feeder.ref in out:
            third = out[feeder.ref][1]
    return BracketState(bracket, tuple(states), champion, runner_up, third)


def _void(states: list[MatchState]) -> set[str]:
    return {s.match.id for s in states if s.status is MatchStatus.VOID}


_SECTION_NAMES = {
    Section.MAIN: "round {round}",
    Section.WINNERS: "winners' round {round}",
    Section.LOSERS: "losers' round {round}",
    Section.GRAND_FINAL: "grand final",
    Section.RESET: "bracket reset",
    Section.THIRD_PLACE: "third-place match",
}


def next_matches(bracket: Bracket, results: Mapping[str, MatchResult]) -> tuple[Pairing, ...]:
    """The matches that can be played now, as pairings on tables 1, 2, ... in bracket order.

    Each reason says which match it is and where its entrants come from, e.g.
    ``"W2-1 (winners' round 2): winner of W1-1 v winner of W1-2"``.
    """
    state = bracket_state(bracket, results)
    out = []
    for table, ms in enumerate(state.ready(), start=1):
        m = ms.match
        name = _SECTION_NAMES[m.section].format(round=m.round)
        if m.section is Section.MAIN and m.winner_to is None:
            name = "final"
        if m.section is Section.RESET:
            why = "the losers'-bracket finalist won the grand final"
        else:
            why = " v ".join(s.describe() for s in m.slots)
        out.append(Pairing(table, ms.entrants, f"{m.id} ({name}): {why}", match=m.id))
    return tuple(out)
