"""Fixtures shared by the site's test packages (platform, accounts, arena, tournaments, viewer)."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def client_for(db: None) -> Any:
    """``client_for(user)``: an API client authenticated with the user's token
    (``client_for(None)``: an anonymous one)."""
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    def make(user: Any) -> APIClient:
        client = APIClient()
        if user is not None:
            token, _ = Token.objects.get_or_create(user=user)
            client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client

    return make
