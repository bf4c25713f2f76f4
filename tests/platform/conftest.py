"""Fixtures for the platform (Django) tests: named personas, API clients and records.

The database is PostgreSQL when ``DATABASE_URL`` is set (as in CI) and SQLite otherwise.
"""

from __future__ import annotations

import copy
import functools
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from rest_framework.test import APIClient

import fivehundred.celery  # noqa: F401  (configures Celery before any task is used)
from tournaments.models import Tournament
from tournaments.roles import ANNOTATORS, BOT_OWNERS


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Throttle counters live in the cache; each test starts with none."""
    from django.core.cache import cache

    cache.clear()


@functools.cache
def _played(players: int, seed: str) -> dict[str, Any]:
    from fivehundred.record.play import play_game

    return play_game(players=players, seed=seed, bots=["random"] * players)


def _make_record(players: int = 4, seed: str = "t-1", **event: str) -> dict[str, Any]:
    """A complete, valid bot-played record (a fresh copy each call), with optional event fields."""
    record = copy.deepcopy(_played(players, seed))
    if event:
        record["event"] = {**record.get("event", {}), **event}
    return record


@pytest.fixture
def make_record() -> Any:
    return _make_record


@pytest.fixture
def record() -> dict[str, Any]:
    return _make_record()


# --- Personas: who does what on the site -------------------------------------------------------


def _user(username: str, **flags: Any) -> User:
    return User.objects.create_user(username=username, password="a-long-test-password", **flags)


@pytest.fixture
def staff(db: None) -> User:
    return _user("sam-staff", is_staff=True)


@pytest.fixture
def director(db: None) -> User:
    user = _user("dana-director")
    tournament = Tournament.objects.create(name="Club championship", slug="club-championship")
    tournament.directors.add(user)
    return user


@pytest.fixture
def bot_owner(db: None) -> User:
    user = _user("bo-bots")
    user.groups.add(Group.objects.get(name=BOT_OWNERS))
    return user


@pytest.fixture
def annotator(db: None) -> User:
    user = _user("ann-notes")
    user.groups.add(Group.objects.get(name=ANNOTATORS))
    return user


@pytest.fixture
def player_user(db: None) -> User:
    return _user("pat-player")


@pytest.fixture
def outsider(db: None) -> User:
    return _user("oz-outsider")


@pytest.fixture
def anon_client() -> APIClient:
    return APIClient()


@pytest.fixture
def player_client(client_for: Any, player_user: User) -> APIClient:
    return client_for(player_user)  # type: ignore[no-any-return]
