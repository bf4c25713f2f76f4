"""Celery tasks of the tournaments app: bot tables, played on the ``bots`` queue."""

from __future__ import annotations

from typing import Any

from celery import shared_task


@shared_task(name="bots.tournament_match_play")
def tournament_match_play(match_id: int) -> dict[str, Any]:
    """Play one table of bots and confirm its result (idempotent: a done table is left alone)."""
    from tournaments.services import match_bot_play

    return match_bot_play(match_id=match_id)


@shared_task(name="tournaments.bot_tables_sweep")
def bot_tables_sweep() -> dict[str, Any]:
    """Beat: send again the tables of bots whose play was lost (see the service)."""
    from tournaments.services import bot_tables_sweep as sweep

    return {"resent": sweep()}
