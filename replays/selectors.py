"""Reads of stored records, shared by the API and the pages."""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models import Q, QuerySet, TextField
from django.db.models.functions import Cast

from replays.models import RecordStatus, StoredRecord
from tournaments.models import RECORD_ID_PREFIX, Player
from tournaments.roles import user_is_staff


def record_list(
    *,
    user: Any = None,
    player: str | None = None,
    event: str | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
    status: str | None = None,
    players: int | None = None,
    digest: str | None = None,
    bot: str | None = None,
    contract: str | None = None,
    winner: int | None = None,
    reason: str | None = None,
) -> QuerySet[StoredRecord]:
    """Records visible to ``user``, newest first, narrowed by the given filters.

    ``player`` matches a seat's name (case-insensitive) or a linked player's id (``17`` or
    ``player:17``). ``event`` matches part of the event name. Dates bound ``event.date``, inclusive.
    ``bot`` matches a bot seat by name or id (``heuristic`` finds ``bot:heuristic``); ``contract``
    is a kind of contract some hand was played in (see ``CONTRACT_KINDS``); ``winner`` a winning
    side; ``reason`` the game's end (``contract``, ``forfeit``, ...); a ``digest`` shorter than 64
    characters is a prefix.
    """
    records = record_visible_to(user=user)
    if player:
        seat_match = Q(seats__name__iexact=player) | Q(seats__seat_id=player)
        pk = Player.pk_from_record_id(player if ":" in player else f"{RECORD_ID_PREFIX}{player}")
        if pk is not None:
            seat_match |= Q(seats__player_id=pk)
        # One name may fill several seats (four "random" bots); the subquery keeps one row per record.
        records = records.filter(pk__in=StoredRecord.objects.filter(seat_match).values("pk"))
    if event:
        records = records.filter(event_name__icontains=event)
    if date_from:
        records = records.filter(event_date__gte=date_from)
    if date_to:
        records = records.filter(event_date__lte=date_to)
    if status:
        records = records.filter(status=status)
    if players:
        records = records.filter(players=players)
    if digest:
        digest = digest.lower()
        records = (
            records.filter(digest=digest)
            if len(digest) == 64
            else records.filter(digest__startswith=digest)
        )
    if bot:
        bot_match = Q(seats__kind="bot") & (
            Q(seats__name__iexact=bot)
            | Q(seats__seat_id__iexact=bot)
            | Q(seats__seat_id__iexact=f"bot:{bot}")
            | Q(seats__seat_id__istartswith=f"bot:{bot}@")
        )
        records = records.filter(pk__in=StoredRecord.objects.filter(bot_match).values("pk"))
    if contract:
        pattern = CONTRACT_KINDS[contract][1]
        # The hands' results are inside the JSON; their text is written the same way on SQLite
        # and PostgreSQL (``"bid": "7H"``), so one pattern serves both.
        records = records.annotate(_text=Cast("data", TextField())).filter(_text__regex=pattern)
    if winner is not None:
        records = records.filter(winner=winner)
    if reason:
        records = records.filter(result_reason=reason)
    return records.prefetch_related("seats").select_related("uploaded_by")


_BID = r'"bid": "'
#: Kinds of contract the list filters on: value -> (label, pattern over the record's JSON text).
CONTRACT_KINDS: dict[str, tuple[str, str]] = {
    **{
        suit: (label, _BID + r"(6|7|8|9|10)" + suit + r'(/SK)?"')
        for suit, label in (("S", "spades"), ("C", "clubs"), ("D", "diamonds"), ("H", "hearts"))
    },
    "NT": ("no trumps", _BID + r'(6|7|8|9|10)NT(/SK)?"'),
    "MIS": ("misère", _BID + r'MIS"'),
    "OM": ("open misère", _BID + r'OM"'),
    "BM": ("blind misère", _BID + r'BM"'),
    "SK": ("sans kitty", _BID + r'[0-9]+(S|C|D|H|NT)/SK"'),
}


def record_visible_to(*, user: Any = None) -> QuerySet[StoredRecord]:
    """Public records for everyone; private ones also for their uploader and staff."""
    records = StoredRecord.objects.all()
    if user_is_staff(user):
        return records
    if getattr(user, "is_authenticated", False):
        return records.filter(Q(is_public=True) | Q(uploaded_by=user))
    return records.filter(is_public=True)


def record_get(*, record_id: int, user: Any = None) -> StoredRecord | None:
    """One record visible to ``user``, or ``None``."""
    return record_visible_to(user=user).prefetch_related("seats").filter(pk=record_id).first()


def record_counts() -> dict[str, int]:
    """Totals for the home page."""
    records = StoredRecord.objects.filter(is_public=True)
    return {
        "records": records.count(),
        "complete": records.filter(status=RecordStatus.COMPLETE).count(),
    }
