"""Roles: staff, per-tournament directors, bot owners and annotators, and their API permissions."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from rest_framework.test import APIRequestFactory

from api.permissions import IsAnnotator, IsBotOwner, IsStaff, IsTournamentDirector
from tournaments.models import Tournament
from tournaments.roles import user_directs, user_is_annotator, user_is_bot_owner, user_is_staff

pytestmark = pytest.mark.django_db


def test_role_groups_exist_after_migration() -> None:
    from django.contrib.auth.models import Group

    assert set(Group.objects.values_list("name", flat=True)) >= {"bot owners", "annotators"}


def test_each_persona_holds_exactly_its_roles(
    staff: User, director: User, bot_owner: User, annotator: User, outsider: User
) -> None:
    tournament = Tournament.objects.get(slug="club-championship")
    other = Tournament.objects.create(name="Another cup", slug="another-cup")
    table = {
        "staff": (staff, (True, False, False, True, True)),
        "director": (director, (False, False, False, True, False)),
        "bot_owner": (bot_owner, (False, True, False, False, False)),
        "annotator": (annotator, (False, False, True, False, False)),
        "outsider": (outsider, (False, False, False, False, False)),
        "anonymous": (AnonymousUser(), (False, False, False, False, False)),
    }
    for name, (user, expected) in table.items():
        seen = (
            user_is_staff(user),
            user_is_bot_owner(user),
            user_is_annotator(user),
            user_directs(user, tournament),
            user_directs(user, other),
        )
        assert seen == expected, name


@pytest.mark.parametrize(
    ("permission", "allowed"),
    [
        (IsStaff, {"staff"}),
        (IsBotOwner, {"bot_owner"}),
        (IsAnnotator, {"annotator"}),
    ],
)
def test_role_permissions_on_writes(
    permission: Any,
    allowed: set[str],
    staff: User,
    director: User,
    bot_owner: User,
    annotator: User,
    outsider: User,
) -> None:
    personas = {
        "staff": staff,
        "director": director,
        "bot_owner": bot_owner,
        "annotator": annotator,
        "outsider": outsider,
        "anonymous": AnonymousUser(),
    }
    for name, user in personas.items():
        request = APIRequestFactory().post("/")
        request.user = user
        # Staff, as superuser-like site operators, are not granted group roles implicitly.
        assert permission().has_permission(request, None) == (name in allowed), name


def test_director_permission_is_per_tournament(director: User, outsider: User) -> None:
    mine = Tournament.objects.get(slug="club-championship")
    other = Tournament.objects.create(name="Another cup", slug="another-cup")
    check = IsTournamentDirector()

    def allowed(user: Any, method: str, obj: Any) -> bool:
        request = getattr(APIRequestFactory(), method)("/")
        request.user = user
        return check.has_object_permission(request, None, obj)

    assert allowed(director, "patch", mine) is True
    assert allowed(director, "patch", other) is False
    assert allowed(outsider, "patch", mine) is False
    assert allowed(outsider, "get", mine) is True  # reading is open
