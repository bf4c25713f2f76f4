"""Writes for players and teams."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from tournaments.models import Player, Team


def player_get_or_create(*, name: str, club: str = "", user: Any = None) -> tuple[Player, bool]:
    """The player with this name (case-insensitive), created if missing."""
    name = name.strip()
    if not name:
        raise ValueError("a player needs a non-empty name")
    existing = Player.objects.filter(name__iexact=name).first()
    if existing is not None:
        return existing, False
    return Player.objects.create(name=name, club=club, user=user), True


@transaction.atomic
def team_get_or_create(*, name: str, members: Sequence[Player]) -> tuple[Team, bool]:
    """The team with this name, created with these members if missing."""
    name = name.strip()
    if not name:
        raise ValueError("a team needs a non-empty name")
    if not 2 <= len(members) <= 3:
        raise ValueError(f"a team has two or three players, not {len(members)}")
    existing = Team.objects.filter(name__iexact=name).first()
    if existing is not None:
        return existing, False
    team = Team.objects.create(name=name)
    team.members.set(members)
    return team, True
