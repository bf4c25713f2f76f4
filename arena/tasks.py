"""Celery tasks of the arena. Each takes ids and calls one service; all run on the ``bots`` queue
(their names start with ``bots.``), because they run uploaded code in the sandbox.

Every task is safe to run twice: the services claim their work with a conditional update.
"""

from __future__ import annotations

import os
import socket
from typing import Any

from celery import shared_task

from arena.services import bot_match_play, bot_version_validate, ladder_schedule


def _worker_name(task: Any) -> str:
    host = getattr(task.request, "hostname", None) or socket.gethostname()
    return f"{host} pid {os.getpid()}"


@shared_task(bind=True, name="bots.bot_version_validate")
def bot_version_validate_task(self: Any, version_id: int) -> dict[str, Any]:
    version = bot_version_validate(version_id=version_id)
    if version is None:
        return {"version": version_id, "validated": False}
    return {"version": version_id, "validated": True, "status": version.status}


@shared_task(bind=True, name="bots.bot_match_play")
def bot_match_play_task(self: Any, match_id: int) -> dict[str, Any]:
    match = bot_match_play(match_id=match_id, worker=_worker_name(self))
    if match is None:
        return {"match": match_id, "played": False}
    return {"match": match_id, "played": True, "status": match.status, "winner": match.winner}


@shared_task(name="bots.ladder_schedule")
def ladder_schedule_task() -> dict[str, Any]:
    report = ladder_schedule()
    return {
        "created": report.created,
        "requeued_matches": report.requeued_matches,
        "requeued_versions": report.requeued_versions,
    }
