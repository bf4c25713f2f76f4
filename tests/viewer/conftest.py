"""Fixtures for the viewer tests: people, their API clients and stored records."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User

import fivehundred.celery  # noqa: F401  (configures Celery before any task is used)
from replays.models import StoredRecord
from replays.services import record_ingest
from tests.viewer.helpers import played
from tournaments.roles import ANNOTATORS, BOT_OWNERS


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    from django.core.cache import cache

    cache.clear()


def _user(username: str) -> User:
    return User.objects.create_user(username=username, password="a-long-test-password")


@pytest.fixture
def carol(db: None) -> User:
    """An annotator."""
    user = _user("carol")
    user.groups.add(Group.objects.get(name=ANNOTATORS))
    return user


@pytest.fixture
def dave(db: None) -> User:
    """Another signed-in reader."""
    return _user("dave")


@pytest.fixture
def bo(db: None) -> User:
    """A bot owner."""
    user = _user("bo-bots")
    user.groups.add(Group.objects.get(name=BOT_OWNERS))
    return user


@pytest.fixture
def game(db: None) -> StoredRecord:
    """A complete four-player game of several hands, stored and public."""
    record, _ = record_ingest(data=played(4, "viewer-1"))
    return record
