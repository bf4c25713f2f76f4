"""``manage.py demo``: a few players and bot-played records, a finished bot event and a few
ladder matches between the built-in bots, so a new site has something to show on every page.

Idempotent: the games are played from fixed seeds, so running it again produces the same records
(same digests), which ingest recognises as already stored; the event and the ladder matches are
made only once.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandParser

from arena.models import BotMatch
from arena.services import Entrant, bot_match_create
from fivehundred.record.play import play_game
from replays.services import record_ingest
from tournaments.models import Player, Tournament
from tournaments.services import (
    entrant_register,
    player_get_or_create,
    round_generate,
    team_get_or_create,
    tournament_create,
)

DEMO_EVENT = "Demo bot Swiss"
# Short games (to 250) keep the demo quick; the event plays itself like any bot event.
DEMO_EVENT_RULES = {
    "ruleset": "australian",
    "players": 4,
    "options": {"target": 250, "lose_at": -250},
}

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
        if games > 0:
            self._bot_event()
            self._ladder()

    def _bot_event(self) -> None:
        """A three-round Swiss of built-in bots; with in-process tasks it is played at once,
        with workers it is played by them as soon as the rounds are paired."""
        if Tournament.objects.filter(name=DEMO_EVENT).exists():
            return
        director, _ = User.objects.get_or_create(username="demo-director")
        if director.has_usable_password():
            director.set_unusable_password()  # a demo account nobody can sign in to
            director.save(update_fields=["password"])
        event = tournament_create(
            name=DEMO_EVENT,
            director=director,
            format="swiss",
            format_options={"rounds": 3},
            rules=DEMO_EVENT_RULES,
            description="Built-in bots playing a short Swiss on duplicate boards.",
        )
        for i, bot in enumerate(["heuristic", "random", "heuristic", "random"]):
            entrant_register(tournament=event, actor=director, name=f"{bot}-{i + 1}", bot=bot)
        round_generate(tournament=event, actor=director)
        event.refresh_from_db()
        self.stdout.write(f"demo: bot event {event.name!r} ({event.status})")

    def _ladder(self) -> None:
        """Rated matches between the built-in bots, so the ladder has its anchors."""
        if BotMatch.objects.exists():
            return
        for k in range(2):
            bot_match_create(
                a=Entrant(builtin="heuristic"),
                b=Entrant(builtin="random"),
                boards=1,
                rules=DEMO_EVENT_RULES,
                seed=f"demo-ladder-{k}",
            )
        self.stdout.write("demo: ladder matches between the built-in bots")
