"""Fixtures for the arena tests: personas, API clients and tiny bots.

The database is PostgreSQL when ``DATABASE_URL`` is set (as in CI) and SQLite otherwise. Bots are
real code run in the real sandbox; games are short because ``random`` loses quickly.
"""

from __future__ import annotations

import io
import zipfile
from typing import Any

import pytest
from django.contrib.auth.models import Group, User

import fivehundred.celery  # noqa: F401  (configures Celery before any task is used)
from tournaments.roles import BOT_OWNERS

GOOD_BOT = b"""
from fivehundred.bots.sdk import run

def act(view, legal):
    # Pass when bidding, otherwise the first legal action: plays every game to its end.
    for action in legal:
        if action.get("call") == "PASS":
            return action
    return legal[0]

run(act)
"""

CRASHING_BOT = b"""
import sys
from fivehundred.bots.sdk import run

def act(view, legal):
    print("about to fail, secret-debug-output", file=sys.stderr)
    raise RuntimeError("this bot always fails")

run(act)
"""

SLEEPY_BOT = b"""
import time
from fivehundred.bots.sdk import run

def act(view, legal):
    time.sleep(60)
    return legal[0]

run(act)
"""

ILLEGAL_BOT = b"""
from fivehundred.bots.sdk import run

def act(view, legal):
    return {"call": "10NT"} if "call" in legal[0] else {"play": "XX"}

run(act)
"""


def zip_of(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _user(username: str, *, owner: bool = False, **flags: Any) -> User:
    user = User.objects.create_user(username=username, password="a-long-test-password", **flags)
    if owner:
        user.groups.add(Group.objects.get_or_create(name=BOT_OWNERS)[0])
    return user


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _quick_limits(settings: Any) -> None:
    """Short decision limits so that a bot that sleeps is judged in about a second."""
    settings.ARENA_DECISION_MS = 300
    settings.ARENA_BANK_MS = 200
    settings.ARENA_STARTUP_MS = 3000


@pytest.fixture
def owner(db: None) -> User:
    return _user("bo-bots", owner=True)


@pytest.fixture
def rival(db: None) -> User:
    return _user("rita-rival", owner=True)


@pytest.fixture
def outsider(db: None) -> User:
    return _user("oz-outsider")


@pytest.fixture
def staff(db: None) -> User:
    return _user("sam-staff", is_staff=True)
