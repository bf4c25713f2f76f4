"""Reads for players and teams."""

from __future__ import annotations

from django.db.models import QuerySet

from tournaments.models import Player, Team


def player_list(*, search: str | None = None) -> QuerySet[Player]:
    players = Player.objects.all()
    if search:
        players = players.filter(name__icontains=search)
    return players


def team_list() -> QuerySet[Team]:
    return Team.objects.prefetch_related("members")
