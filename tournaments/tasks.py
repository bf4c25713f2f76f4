"""Celery tasks of the tournaments app: bot tables, played on the ``bots`` queue."""

from __future__ import annotations

from typing import Any

from celery import shared_task


@shared_task(name="bots.tournament_match_play")
def tournament_match_play(match_id: int) -> dict[str, Any]:
    """Play one table of bots and confirm its result (idempotent: a done table is left alone)."""
    from tournaments.services import match_bot_play

    return match_bot_play(match_id=match_id)
