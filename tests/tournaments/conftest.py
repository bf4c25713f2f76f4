"""Fixtures for the tournament tests: people and API clients."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from tournament_support import make_user

import fivehundred.celery  # noqa: F401  (configures Celery before any task is used)


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def director(db: None) -> User:
    return make_user("dana")
