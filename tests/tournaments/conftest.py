"""Fixtures for the tournament tests: people and API clients."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from tournament_support import make_user

import fivehundred.celery  # noqa: F401  (configures Celery before any task is used)


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def director(db: None) -> User:
    return make_user("dana")


@pytest.fixture
def client_for(db: None) -> Any:
    def make(user: User | None) -> APIClient:
        client = APIClient()
        if user is not None:
            token, _ = Token.objects.get_or_create(user=user)
            client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client

    return make
