"""Accounts: sign up with a player profile, sign in and out, the API token on the account page."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.authtoken.models import Token

from accounts.services import NameTaken, user_register
from tournaments.models import Player

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-test-password-42"


def _signup(client: Client, **overrides: str) -> object:
    data = {
        "username": "carol",
        "password1": PASSWORD,
        "password2": PASSWORD,
        "player_name": "Carol Brown",
        "club": "Avondale",
    }
    data.update(overrides)
    return client.post("/accounts/signup/", data)


def test_signup_creates_user_player_and_signs_in() -> None:
    client = Client()
    response = _signup(client)
    assert response.status_code == 302  # type: ignore[attr-defined]
    user = User.objects.get(username="carol")
    player = Player.objects.get(user=user)
    assert (player.name, player.club) == ("Carol Brown", "Avondale")
    page = client.get("/accounts/")
    assert page.status_code == 200
    assert "Carol Brown" in page.content.decode()


def test_signup_refuses_a_taken_player_name_and_creates_nothing() -> None:
    Player.objects.create(name="Carol Brown")
    client = Client()
    response = _signup(client)
    assert response.status_code == 200  # type: ignore[attr-defined]
    assert "already a player called" in response.content.decode()  # type: ignore[attr-defined]
    assert not User.objects.filter(username="carol").exists()


def test_signup_refuses_mismatched_passwords() -> None:
    response = _signup(Client(), password2="something-else-entirely")
    assert response.status_code == 200  # type: ignore[attr-defined]
    assert not User.objects.exists()


def test_register_service_refuses_a_taken_user_name() -> None:
    user_register(username="dave", password=PASSWORD, player_name="Dave")
    with pytest.raises(NameTaken) as err:
        user_register(username="DAVE", password=PASSWORD, player_name="Dave Two")
    assert err.value.field == "username"
    assert Player.objects.count() == 1


def test_sign_in_and_out() -> None:
    user_register(username="erin", password=PASSWORD, player_name="Erin")
    client = Client()
    bad = client.post("/accounts/login/", {"username": "erin", "password": "wrong"})
    assert bad.status_code == 200 and "_auth_user_id" not in client.session
    good = client.post(
        "/accounts/login/", {"username": "erin", "password": PASSWORD, "next": "/records/"}
    )
    assert good.status_code == 302 and good["Location"] == "/records/"
    assert "erin" in client.get("/").content.decode()
    out = client.post("/accounts/logout/")
    assert out.status_code == 302
    assert "_auth_user_id" not in client.session


def test_login_ignores_a_next_address_on_another_site() -> None:
    user_register(username="frank", password=PASSWORD, player_name="Frank")
    response = Client().post(
        "/accounts/signup/",
        {
            "username": "gina",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "player_name": "Gina",
            "next": "https://evil.example/",
        },
    )
    assert response.status_code == 302 and response["Location"] == "/"


def test_account_page_needs_sign_in() -> None:
    response = Client().get("/accounts/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_token_shown_works_for_the_api_and_can_be_replaced() -> None:
    user = user_register(username="hal", password=PASSWORD, player_name="Hal")
    client = Client()
    client.force_login(user)
    page = client.get("/accounts/").content.decode()
    key = Token.objects.get(user=user).key
    assert key in page
    api = Client(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/v1/records/").status_code == 200
    client.post("/accounts/token/")
    new_key = Token.objects.get(user=user).key
    assert new_key != key
    stale = Client(HTTP_AUTHORIZATION=f"Token {key}").get("/api/v1/records/")
    assert stale.status_code == 401


def test_token_reset_needs_post() -> None:
    user = user_register(username="ivy", password=PASSWORD, player_name="Ivy")
    client = Client()
    client.force_login(user)
    assert client.get("/accounts/token/").status_code == 405
