"""Shared pieces of the tournament tests: people, a fast rule set, small events, score sheets."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from tournaments.models import Player, Tournament
from tournaments.services import entrant_register, tournament_create

FAST_RULES = {"ruleset": "australian", "players": 4, "options": {"target": 250, "lose_at": -250}}


def make_user(username: str, **flags: Any) -> User:
    """A site account with a linked player of the same name (title case)."""
    user = User.objects.create_user(username=username, password="a-long-test-password", **flags)
    player, _ = Player.objects.get_or_create(name=username.title())
    player.user = user
    player.save(update_fields=["user"])
    return user


def club_event(
    director: User, *, fmt: str = "swiss", teams: int = 4, rules: Any = None, **options: Any
) -> Tournament:
    """A four-player partnership event with ``teams`` registered partnerships."""
    t = tournament_create(
        name=f"Club {fmt}", director=director, format=fmt, format_options=options,
        rules=dict(rules or FAST_RULES),
    )  # fmt: skip
    for i in range(teams):
        entrant_register(
            tournament=t, actor=director, name=f"Team {chr(65 + i)}",
            players=[f"P{i}a", f"P{i}b"],
        )  # fmt: skip
    return t


def sheet_win(position: int) -> list[dict[str, Any]]:
    """A one-hand score sheet in which side ``position`` bids and makes 10 no trumps (520)."""
    tricks = [0, 0]
    tricks[position] = 10
    return [{"first_dealer": 0, "hands": [{"contract": "10NT", "contractor": position,
                                           "tricks": tricks}]}]  # fmt: skip
