"""Reads for players and teams, and for tournaments: lists, standings, tables, crosstables."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db.models import Count, Q, QuerySet

from tournaments.formats import DEFAULT_TIEBREAKS, Standing, standings
from tournaments.formats import Entrant as FEntrant
from tournaments.models import Entrant, Match, Player, Round, Team, Tournament
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
    from tournaments.services import fid, format_results

    entrants = list(tournament.entrants.all())
    if not entrants:
        return []
    active = [e for e in entrants if not e.withdrawn]
    former = [FEntrant(fid(e.pk), e.seed, e.name) for e in entrants if e.withdrawn]
    rows = standings(
        [FEntrant(fid(e.pk), e.seed, e.name) for e in active],
        format_results(tournament),
        tiebreaks=tournament.format_options.get("tiebreaks", DEFAULT_TIEBREAKS),
        former=former,
    )
    by_id = {fid(e.pk): e for e in entrants}
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
                    text = f"{mark} {mine.points}-{other.points}"
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
    from tournaments.services import bracket_of, fid

    found = bracket_of(tournament)
    if found is None:
        return None
    bracket, state = found
    names = {fid(e.pk): e.name for e in tournament.entrants.all()}

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
