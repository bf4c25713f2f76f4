"""DRF permissions for the site's roles (see ``tournaments.roles``).

Reading public data needs no role; these guard the writes that later features add.
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from tournaments.models import Tournament
from tournaments.roles import user_directs, user_is_annotator, user_is_bot_owner, user_is_staff


class IsStaff(BasePermission):
    message = "Only site staff may do this."

    def has_permission(self, request: Request, view: APIView) -> bool:
        return user_is_staff(request.user)


class IsBotOwner(BasePermission):
    message = "Only bot owners may do this; ask the site staff for the role."

    def has_permission(self, request: Request, view: APIView) -> bool:
        return request.method in SAFE_METHODS or user_is_bot_owner(request.user)


class IsAnnotator(BasePermission):
    message = "Only annotators may do this; ask the site staff for the role."

    def has_permission(self, request: Request, view: APIView) -> bool:
        return request.method in SAFE_METHODS or user_is_annotator(request.user)


class IsTournamentDirector(BasePermission):
    """Writes to a tournament (or an object with a ``tournament``) need one of its directors."""

    message = "Only this tournament's directors may do this."

    def has_object_permission(self, request: Request, view: APIView, obj: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        tournament = obj if isinstance(obj, Tournament) else getattr(obj, "tournament", None)
        return isinstance(tournament, Tournament) and user_directs(request.user, tournament)
