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
    """Public events, and the private ones this user directs (staff see all)."""
    events = Tournament.objects.annotate(entrant_count=Count("entrants"))
    if user_is_staff(user):
        return events
    if getattr(user, "is_authenticated", False):
        return events.filter(Q(is_public=True) | Q(directors=user)).distinct()
    return events.filter(is_public=True)


def tournament_get(*, slug: str, user: Any = None) -> Tournament | None:
    return tournament_list(user=user).filter(slug=slug).first()


def standings_compute(*, tournament: Tournament) -> list[StandingRow]:
    """The event's standings with its configured tie-breaks (withdrawn entrants not ranked)."""
    from tournaments.services import format_results

    entrants = list(tournament.entrants.all())
    if not entrants:
        return []
    active = [e for e in entrants if not e.withdrawn]
    former = [FEntrant(str(e.pk), e.seed, e.name) for e in entrants if e.withdrawn]
    rows = standings(
        [FEntrant(str(e.pk), e.seed, e.name) for e in active],
        format_results(tournament),
        tiebreaks=tournament.format_options.get("tiebreaks", DEFAULT_TIEBREAKS),
        former=former,
    )
    by_id = {str(e.pk): e for e in entrants}
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
