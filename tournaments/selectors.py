"""Reads for players and teams, and for tournaments: lists, standings, tables, crosstables."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db.models import Count, Q, QuerySet

from fivehundred.engine import Rules
from tournaments.errors import TournamentError
from tournaments.formats import (
    DEFAULT_TIEBREAKS,
    Bracket,
    BracketState,
    FormatError,
    Outcome,
    Standing,
    SwissOptions,
    bracket_state,
    double_elimination,
    next_matches,
    round_robin,
    single_elimination,
    standings,
    swiss_round,
)
from tournaments.formats import Entrant as FEntrant
from tournaments.formats import MatchResult as FMatchResult
from tournaments.formats import Pairing as FPairing
from tournaments.formats import Round as FRound
from tournaments.models import (
    Entrant,
    Match,
    MatchOutcome,
    MatchStatus,
    Player,
    Round,
    RoundStatus,
    Team,
    Tournament,
    TournamentFormat,
)
from tournaments.roles import user_is_staff


def player_list(*, search: str | None = None) -> QuerySet[Player]:
    players = Player.objects.all()
    if search:
        players = players.filter(name__icontains=search)
    return players


def team_list() -> QuerySet[Team]:
    return Team.objects.prefetch_related("members")


# --- Tournaments ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingRow:
    """One row of an event's standings: the entrant and the formats' ``Standing``."""

    entrant: Entrant
    standing: Standing

    @property
    def tiebreaks(self) -> list[tuple[str, object]]:
        return [(str(tb), _plain(v)) for tb, v in self.standing.tiebreaks]


def _plain(value: object) -> object:
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else round(float(value), 3)
    return value


def tournament_list(*, user: Any = None) -> QuerySet[Tournament]:
    """Public events, and the private ones this user directs (staff see all); newest first."""
    # distinct: the join through the directors would otherwise count each entrant per director.
    events = Tournament.objects.annotate(entrant_count=Count("entrants", distinct=True))
    if user_is_staff(user):
        pass
    elif getattr(user, "is_authenticated", False):
        events = events.filter(Q(is_public=True) | Q(directors=user)).distinct()
    else:
        events = events.filter(is_public=True)
    return events.order_by("-created_at", "-id")


def tournament_get(*, slug: str, user: Any = None) -> Tournament | None:
    return tournament_list(user=user).filter(slug=slug).first()


def standings_compute(*, tournament: Tournament) -> list[StandingRow]:
    """The event's standings with its configured tie-breaks (withdrawn entrants not ranked)."""
    entrants = list(tournament.entrants.all())
    if not entrants:
        return []
    active = [e for e in entrants if not e.withdrawn]
    former = [FEntrant(format_id(e.pk), e.seed, e.name) for e in entrants if e.withdrawn]
    rows = standings(
        [FEntrant(format_id(e.pk), e.seed, e.name) for e in active],
        format_results(tournament=tournament),
        tiebreaks=tournament.format_options.get("tiebreaks", DEFAULT_TIEBREAKS),
        former=former,
    )
    by_id = {format_id(e.pk): e for e in entrants}
    return [StandingRow(by_id[s.entrant], s) for s in rows]


def round_get(*, tournament: Tournament, number: int) -> Round | None:
    return tournament.rounds.filter(number=number).first()


def round_tables(*, rnd: Round) -> QuerySet[Match]:
    return rnd.matches.prefetch_related(
        "sides__entrant__player", "sides__entrant__team__members", "records"
    ).order_by("table", "id")


def match_results(*, tournament: Tournament) -> QuerySet[Match]:
    """Every table of the event in playing order, with its sides and records."""
    return (
        Match.objects.filter(tournament=tournament)
        .select_related("round", "confirmed_by")
        .prefetch_related("sides__entrant", "records")
        .order_by("round__number", "table", "id")
    )


def crosstable(*, tournament: Tournament) -> tuple[list[Entrant], dict[int, dict[int, list[str]]]]:
    """For round robin and Swiss: per entrant, per opponent, the results as ``W 520-310`` cells."""
    entrants = list(tournament.entrants.order_by("seed"))
    cells: dict[int, dict[int, list[str]]] = {e.pk: {} for e in entrants}
    for match in match_results(tournament=tournament).filter(status="done"):
        sides = list(match.sides.all())
        for mine in sides:
            for other in sides:
                if other.entrant_id == mine.entrant_id:
                    continue
                if match.outcome == "draw":
                    mark = "D"
                elif mine.is_winner:
                    mark = "W"
                else:
                    mark = "L"
                if match.outcome == "forfeit":
                    text = f"{mark}F"
                else:
                    # An en dash between the scores: a hyphen would run into a minus sign.
                    text = f"{mark} {mine.points} – {other.points}"
                cells[mine.entrant_id].setdefault(other.entrant_id, []).append(text)
    return entrants, cells


def standings_table(*, tournament: Tournament) -> list[dict[str, Any]]:
    """Standings as plain rows (the API's and the exports' shape)."""
    out = []
    for row in standings_compute(tournament=tournament):
        s = row.standing.as_dict()
        out.append({**s, "entrant": row.entrant.pk, "name": row.entrant.name})
    return out


def results_table(*, tournament: Tournament) -> list[dict[str, Any]]:
    """Every table of the event as plain rows, for the exports."""
    out = []
    for m in match_results(tournament=tournament):
        sides = list(m.sides.all())
        out.append(
            {
                "round": m.round.number,
                "table": m.table,
                "bracket_match": m.bracket_match,
                "status": m.status,
                "outcome": m.outcome,
                "entrants": [s.entrant.name for s in sides],
                "points": [s.points for s in sides],
                "winners": [s.entrant.name for s in sides if s.is_winner],
                "records": [r.pk for r in m.records.all()],
                "confirmed_at": m.confirmed_at.isoformat() if m.confirmed_at else None,
            }
        )
    return out


def bracket_view(*, tournament: Tournament) -> dict[str, Any] | None:
    """An elimination event's bracket with names, column by column for drawing it."""

    found = bracket_get(tournament=tournament)
    if found is None:
        return None
    bracket, state = found
    names = {format_id(e.pk): e.name for e in tournament.entrants.all()}

    def name(entrant_id: str | None) -> str | None:
        return names.get(entrant_id, entrant_id) if entrant_id else None

    matches = []
    for ms in state.matches:
        m = ms.match
        labels = [
            name(e) if e else f"{s.kind.value} of {s.ref}" if s.kind.value != "entrant" else None
            for e, s in zip(ms.entrants, m.slots, strict=True)
        ]
        matches.append(
            {
                "id": m.id,
                "section": m.section.value,
                "round": m.round,
                "entrants": labels,
                "status": ms.status.value,
                "winner": name(ms.winner),
            }
        )
    columns: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for item, ms in zip(matches, state.matches, strict=True):
        columns.setdefault((ms.match.section.value, ms.match.round), []).append(item)
    return {
        "kind": bracket.kind,
        "champion": name(state.champion),
        "runner_up": name(state.runner_up),
        "third": name(state.third),
        "finished": state.finished,
        "matches": matches,
        "columns": [
            {"section": section, "round": rnd, "matches": items}
            for (section, rnd), items in columns.items()
        ],
    }


# --- What the formats say: the stored entrants and results, given to the pure formats -----------


def format_id(pk: int) -> str:
    """An entrant's id in the pure formats: ``e<pk>``, so reasons can be written with names."""
    return f"e{pk}"


def format_entrant(e: Entrant) -> FEntrant:
    return FEntrant(format_id(e.pk), e.seed, e.name)


def _result_of(match: Match) -> FMatchResult:
    sides = list(match.sides.all())
    ids = tuple(format_id(s.entrant_id) for s in sides)
    if match.outcome == MatchOutcome.BYE:
        return FMatchResult(match.round.number, 0, ids, (0,), Outcome.BYE)
    points = tuple(s.points or 0 for s in sides)
    winners = tuple(format_id(s.entrant_id) for s in sides if s.is_winner)
    return FMatchResult(
        match.round.number, match.table, ids, points, Outcome(match.outcome), winners
    )


def _done_matches(tournament: Tournament) -> QuerySet[Match]:
    return (
        Match.objects.filter(tournament=tournament, status=MatchStatus.DONE)
        .select_related("round")
        .prefetch_related("sides")
        .order_by("round__number", "table", "id")
    )


def format_results(*, tournament: Tournament) -> list[FMatchResult]:
    """Every confirmed result of the event, as the pure formats take them."""
    return [_result_of(m) for m in _done_matches(tournament)]


def _bracket(tournament: Tournament) -> Bracket:
    field = [
        FEntrant(format_id(pk), seed, name) for pk, seed, name in tournament.format_state["field"]
    ]
    if tournament.format == TournamentFormat.SINGLE_ELIMINATION:
        return single_elimination(
            field, third_place=bool(tournament.format_options.get("third_place"))
        )
    return double_elimination(field, reset=bool(tournament.format_options.get("reset", True)))


def bracket_get(*, tournament: Tournament) -> tuple[Bracket, BracketState] | None:
    """The bracket and its state, for an elimination event that has started."""
    if not tournament.is_elimination or "field" not in tournament.format_state:
        return None
    bracket = _bracket(tournament)
    results = {m.bracket_match: _result_of(m) for m in _done_matches(tournament) if m.bracket_match}
    return bracket, bracket_state(bracket, results)


def _schedule(tournament: Tournament) -> tuple[FRound, ...]:
    field = [
        FEntrant(format_id(pk), seed, name) for pk, seed, name in tournament.format_state["field"]
    ]
    table_size = len(Rules.from_json(tournament.rules).sides)
    return round_robin(
        field, cycles=int(tournament.format_options.get("cycles", 1)), table_size=table_size
    )


def _forbidden(tournament: Tournament) -> frozenset[frozenset[str]]:
    by_name = {e.name.lower(): format_id(e.pk) for e in tournament.entrants.all()}
    pairs = set()
    for i, pair in enumerate(tournament.format_options.get("forbidden", [])):
        ids = [by_name.get(str(n).lower()) for n in pair]
        if None in ids:
            raise TournamentError(f"format_options.forbidden[{i}]", f"no entrant named in {pair}")
        pairs.add(frozenset(i for i in ids if i))
    return frozenset(pairs)


def round_pairings(*, tournament: Tournament, number: int) -> tuple[FPairing, ...]:
    """The pairings of round ``number`` from the pure formats, or () when the event is complete."""
    entrants = list(tournament.entrants.all())
    active = [format_entrant(e) for e in entrants if not e.withdrawn]
    former = [format_entrant(e) for e in entrants if e.withdrawn]
    try:
        if tournament.is_elimination:
            bracket, state = bracket_get(tournament=tournament) or (None, None)
            assert bracket is not None and state is not None
            results = {m.bracket_match: _result_of(m) for m in _done_matches(tournament)}
            return next_matches(bracket, results)
        if tournament.format == TournamentFormat.ROUND_ROBIN:
            schedule = _schedule(tournament)
            return schedule[number - 1].pairings if number <= len(schedule) else ()
        rounds = int(tournament.format_options["rounds"])
        if number > rounds:
            return ()
        options = SwissOptions(
            rounds=rounds, table_size=len(Rules.from_json(tournament.rules).sides),
            forbidden=_forbidden(tournament), balance_seats=True,
        )  # fmt: skip
        return swiss_round(active, format_results(tournament=tournament), round_number=number,
                           options=options, former=former).pairings  # fmt: skip
    except FormatError as exc:
        raise TournamentError(
            "round", f"the format cannot pair this round: {exc}", code="pairing_failed"
        ) from None


def tournament_is_complete(*, tournament: Tournament) -> bool:
    """Every round the format has is generated and played."""
    last = tournament.rounds.order_by("-number").first()
    if last is None or last.status != RoundStatus.COMPLETE:
        return False
    if tournament.is_elimination:
        found = bracket_get(tournament=tournament)
        return bool(found and found[1].finished)
    # Counted, not paired: asking the format for the next round could fail (forbidden pairs) and
    # this is asked on every view of the event.
    if tournament.format == TournamentFormat.ROUND_ROBIN:
        return last.number >= len(_schedule(tournament))
    return last.number >= int(tournament.format_options.get("rounds", 0))
