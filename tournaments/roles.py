"""The site's roles and how to ask whether a user holds one.

- site staff: Django's ``is_staff`` flag (and superusers);
- tournament director: per tournament, ``Tournament.directors``;
- bot owner and annotator: membership of the groups named below, created by a migration so that
  every deployment has them and staff can grant them in the admin.

Spectators need no role: reading public data is open to everyone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tournaments.models import Tournament

BOT_OWNERS = "bot owners"
ANNOTATORS = "annotators"
ROLE_GROUPS = (BOT_OWNERS, ANNOTATORS)


def _in_group(user: Any, group: str) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    return bool(user.groups.filter(name=group).exists())


def user_is_staff(user: Any) -> bool:
    return bool(getattr(user, "is_authenticated", False) and (user.is_staff or user.is_superuser))


def user_is_bot_owner(user: Any) -> bool:
    return _in_group(user, BOT_OWNERS)


def user_is_annotator(user: Any) -> bool:
    return _in_group(user, ANNOTATORS)


def user_directs(user: Any, tournament: Tournament) -> bool:
    """A director of this tournament; staff direct every tournament."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user_is_staff(user):
        return True
    return bool(tournament.directors.filter(pk=user.pk).exists())
