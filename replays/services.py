"""Writes for stored records: ingest (verify, then store once per digest) and re-verification."""

from __future__ import annotations

import datetime
import logging
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from fivehundred.record import RecordError, loads, verify
from replays.models import RecordSeat, RecordStatus, StoredRecord
from tournaments.models import Player

logger = logging.getLogger(__name__)


class RecordInvalid(Exception):
    """The record did not verify; ``errors`` says what and where. Nothing was stored."""

    def __init__(self, errors: list[RecordError]) -> None:
        self.errors = errors
        first = errors[0] if errors else None
        super().__init__(
            f"invalid record: {first.code} at {first.pointer!r}: {first.message}"
            if first
            else "invalid record"
        )


def _event_date(value: Any) -> datetime.date | None:
    """The calendar date of an ISO 8601 ``event.date``; ``None`` for a partial or free-form date."""
    if not isinstance(value, str) or len(value) < 10:
        return None
    try:
        return datetime.date.fromisoformat(value[:10])
    except ValueError:
        return None


def _text(value: Any, limit: int) -> str:
    return value[:limit] if isinstance(value, str) else ""


def _linked_player_ids(seat_ids: list[str]) -> dict[str, int]:
    """Map seat ids of the form ``player:<pk>`` to existing players' primary keys."""
    wanted = {
        seat_id: pk for seat_id in seat_ids if (pk := Player.pk_from_record_id(seat_id)) is not None
    }
    existing = set(Player.objects.filter(pk__in=wanted.values()).values_list("pk", flat=True))
    return {seat_id: pk for seat_id, pk in wanted.items() if pk in existing}


def record_ingest(
    *, data: str | bytes | dict[str, Any], uploaded_by: Any = None
) -> tuple[StoredRecord, bool]:
    """Verify a record and store it, once per digest.

    Returns ``(record, created)``: the existing record with ``created=False`` when a record with the
    same canonical digest is already stored. Raises ``RecordInvalid`` (and stores nothing) when the
    verifier finds any error.
    """
    verdict = verify(data)
    if not verdict.valid:
        raise RecordInvalid(list(verdict.errors))
    if isinstance(data, dict):
        record_data = data
    else:
        record_data = loads(data.decode("utf-8") if isinstance(data, bytes) else data)
    digest_hex = str(verdict.digest)

    existing = StoredRecord.objects.filter(digest=digest_hex).first()
    if existing is not None:
        return existing, False

    event = record_data.get("event") or {}
    seats = record_data.get("seats") or []
    result = record_data.get("result") or {}
    user = uploaded_by if getattr(uploaded_by, "is_authenticated", False) else None
    try:
        # The savepoint keeps a concurrent upload of the same record (two requests racing past the
        # lookup above) from breaking an outer transaction: the loser's insert fails on the unique
        # digest, rolls back to here, and returns the winner's row.
        with transaction.atomic():
            record = StoredRecord.objects.create(
                data=record_data,
                digest=digest_hex,
                status=verdict.status,
                errors=[],
                uploaded_by=user,
                verified_at=timezone.now(),
                players=len(seats),
                event_name=_text(event.get("name"), 200),
                event_site=_text(event.get("site"), 200),
                event_date=_event_date(event.get("date")),
                hands_count=len(record_data.get("hands") or []),
                scores=verdict.scores,
                winner=verdict.winner,
                result_reason=_text(result.get("reason"), 32),
            )
            player_ids = _linked_player_ids([str(s.get("id", "")) for s in seats])
            RecordSeat.objects.bulk_create(
                RecordSeat(
                    record=record,
                    seat=index,
                    name=_text(seat.get("name"), 200),
                    seat_id=_text(seat.get("id"), 200),
                    kind=_text(seat.get("kind"), 16),
                    player_id=player_ids.get(str(seat.get("id", ""))),
                )
                for index, seat in enumerate(seats)
            )
    except IntegrityError:
        existing = StoredRecord.objects.filter(digest=digest_hex).first()
        if existing is None:
            raise
        return existing, False
    logger.info("stored record %s (%s)", record.pk, digest_hex[:12])
    return record, True


def record_reverify(*, record_id: int) -> StoredRecord | None:
    """Verify a stored record again (after an engine change) and save the verdict.

    Idempotent: running it twice stores the same verdict. Returns ``None`` if the record is gone.
    """
    record = StoredRecord.objects.filter(pk=record_id).first()
    if record is None:
        return None
    verdict = verify(record.data)
    record.status = verdict.status if verdict.valid else RecordStatus.INVALID
    record.errors = [error.to_json() for error in verdict.errors]
    record.scores = verdict.scores
    record.winner = verdict.winner
    record.verified_at = timezone.now()
    record.save(update_fields=["status", "errors", "scores", "winner", "verified_at"])
    return record


def record_reverify_enqueue(*, record_id: int) -> None:
    """Queue ``record_reverify`` once the current transaction commits.

    Sending before the commit would let a fast worker look for a row it cannot see yet.
    """
    from replays.tasks import record_reverify_task

    transaction.on_commit(lambda: record_reverify_task.delay(record_id))
