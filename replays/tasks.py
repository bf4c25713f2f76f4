"""Celery tasks of the replays app. Each takes ids and calls one service."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from replays.services import record_reverify


@shared_task(name="replays.record_reverify")
def record_reverify_task(record_id: int) -> dict[str, Any]:
    """Re-verify one stored record; safe to run twice (it stores the same verdict)."""
    record = record_reverify(record_id=record_id)
    if record is None:
        return {"record": record_id, "found": False}
    return {
        "record": record_id,
        "found": True,
        "status": record.status,
        "errors": len(record.errors),
        "digest": record.digest,
    }
