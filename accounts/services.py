"""Writes about accounts: signing up, API tokens."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from tournaments.models import Player


class NameTaken(ValueError):
    """The user name or player name is already somebody else's."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@transaction.atomic
def user_register(*, username: str, password: str, player_name: str, club: str = "") -> User:
    """Create an account and the player profile that links it to game records.

    A player name that exists already is refused rather than claimed: a club's players are often
    entered by a director before they sign up, and only staff may link such a profile to an
    account (in the admin).
    """
    player_name = player_name.strip()
    if Player.objects.filter(name__iexact=player_name).exists():
        raise NameTaken("player_name", f"there is already a player called {player_name!r}")
    if User.objects.filter(username__iexact=username).exists():
        raise NameTaken("username", f"the user name {username!r} is taken")
    try:
        user = User.objects.create_user(username=username, password=password)
    except IntegrityError:  # two sign-ups racing for one name
        raise NameTaken("username", f"the user name {username!r} is taken") from None
    Player.objects.create(name=player_name, club=club.strip(), user=user)
    return user


def token_get(*, user: User) -> Token:
    """The user's API token, created on first use."""
    token, _ = Token.objects.get_or_create(user=user)
    return token


@transaction.atomic
def token_regenerate(*, user: User) -> Token:
    """Replace the user's API token (the old one stops working at once)."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)
