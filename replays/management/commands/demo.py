"""``manage.py demo``: a few players and bot-played records, so a new site has something to show.

Idempotent: the games are played from fixed seeds, so running it again produces the same records
(same digests), which ingest recognises as already stored.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from fivehundred.record.play import play_game
from replays.services import record_ingest
from tournaments.models import Player
from tournaments.services import player_get_or_create, team_get_or_create

PLAYERS = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"]
# (players, seed, event name, event date)
GAMES: list[tuple[int, str, str, str]] = [
    (4, "demo-1", "Tuesday club night", "2026-11-03"),
    (4, "demo-2", "Tuesday club night", "2026-11-10"),
    (4, "demo-3", "Tuesday club night", "2026-11-17"),
    (3, "demo-4", "Three-handed ladder", "2026-11-20"),
    (5, "demo-5", "Friday five", "2026-11-21"),
    (6, "demo-6", "Club championship", "2026-11-28"),
]


def demo_record(players: list[Player], seed: str, event: str, date: str) -> dict[str, Any]:
    """A game played by the heuristic bot (full games to 500, unlike random play), seated
    as these players."""
    record = play_game(
        players=len(players),
        seed=seed,
        bots=["heuristic"] * len(players),
        names=[p.name for p in players],
    )
    for seat, player in zip(record["seats"], players, strict=True):
        seat["id"] = player.record_id
    record["event"] = {**record.get("event", {}), "name": event, "site": "Demo club", "date": date}
    return record


class Command(BaseCommand):
    help = "Create demo players, teams and bot-played records (safe to run again)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=len(GAMES), help="How many games.")

    def handle(self, *args: Any, games: int, **options: Any) -> None:
        players = [player_get_or_create(name=name, club="Demo club")[0] for name in PLAYERS]
        team_get_or_create(name="Alice & Carol", members=[players[0], players[2]])
        team_get_or_create(name="Bob & Dave", members=[players[1], players[3]])
        created = 0
        for count, seed, event, date in GAMES[: max(0, games)]:
            record = demo_record(players[:count], seed, event, date)
            _, was_created = record_ingest(data=record, uploaded_by=None)
            created += was_created
        self.stdout.write(
            f"demo: {len(players)} players, {min(games, len(GAMES))} records ({created} new)"
        )
