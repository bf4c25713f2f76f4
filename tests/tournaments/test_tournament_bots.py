"""Bot events play themselves: tables of bots are played by the workers, rounds follow on.

The first test runs in-process (eager tasks); the second runs a whole event through a REAL Celery
worker process and Redis, to a champion. Redis is required when ``CI=true``.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from celery import Celery
from django.contrib.auth.models import User
from tournament_support import FAST_RULES

from fivehundred.record import verify
from tests.workers import redis_url, require_services, running_workers
from tournaments.models import Match, MatchStatus, Tournament, TournamentStatus
from tournaments.selectors import bracket_get, standings_compute
from tournaments.services import entrant_register, round_generate, tournament_create

TEST_REDIS_DB = int(os.environ.get("FIVEHUNDRED_TOURNAMENT_REDIS_DB", "12"))


def _bot_event(director: User, *, fmt: str, bots: int, **options: Any) -> Tournament:
    t = tournament_create(
        name=f"Bot {fmt}", director=director, format=fmt, format_options=options,
        rules=dict(FAST_RULES),
    )  # fmt: skip
    for i in range(bots):
        entrant_register(
            tournament=t, actor=director, name=f"bot-{i + 1}",
            bot="heuristic" if i % 2 == 0 else "random",
        )  # fmt: skip
    return t


def _check_every_table_has_verified_records(t: Tournament) -> None:
    played = Match.objects.filter(tournament=t).exclude(outcome="bye")
    assert played.exists()
    for match in played:
        assert match.status == MatchStatus.DONE
        records = list(match.records.all())
        # One board in every seat rotation: two games for two partnerships.
        assert len(records) == 2, match
        names = {s.entrant.name for s in match.sides.all()}
        for record in records:
            assert verify(record.data).valid
            assert {seat["name"] for seat in record.data["seats"]} == names


@pytest.mark.django_db
def test_bot_swiss_plays_itself_in_process(
    director: User, django_capture_on_commit_callbacks: Any
) -> None:
    t = _bot_event(director, fmt="swiss", bots=5, rounds=3)
    with django_capture_on_commit_callbacks(execute=True):
        # Eager tasks: each table is played as its round commits, and the rounds follow on.
        round_generate(tournament=t, actor=director)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    assert t.rounds.count() == 3
    _check_every_table_has_verified_records(t)
    rows = standings_compute(tournament=t)
    assert sum(r.standing.byes for r in rows) == 3  # five entrants: one bye a round
    assert all(r.standing.byes <= 1 for r in rows)


# --- A real worker ---------------------------------------------------------------------------


@pytest.fixture
def worker(transactional_db: None, tmp_path: Path) -> Iterator[Celery]:
    """A real worker on both queues, against this test database; yields a Redis client app."""
    url = redis_url(TEST_REDIS_DB)
    require_services(url)
    name = f"tournament-{uuid.uuid4().hex[:8]}@localhost"
    with running_workers([name], url=url, queues="default,bots", logs=tmp_path) as (client, ws):
        client.log_path = ws[0].log  # type: ignore[attr-defined]
        yield client
    assert ws[0].code == 0, f"the worker did not stop cleanly ({ws[0].code}):\n{ws[0].tail()}"


@pytest.mark.integration
@pytest.mark.timeout(170)
def test_bot_elimination_runs_to_a_champion_on_a_real_worker(
    worker: Celery, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tournaments import tasks

    sent: list[str] = []

    def through_redis(match_id: int) -> None:
        # This process runs tasks eagerly (test settings); the first round's tables go to the
        # real worker instead. Later rounds are generated and sent by the worker itself.
        result = worker.send_task("bots.tournament_match_play", args=[match_id], queue="bots")
        sent.append(result.id)

    monkeypatch.setattr(tasks.tournament_match_play, "delay", through_redis)
    director = User.objects.create_user(username="bot-director", password="a-long-password-1")
    t = _bot_event(director, fmt="single_elimination", bots=4, third_place=True)
    round_generate(tournament=t, actor=director)
    assert len(sent) == 2  # the semi-finals went to the queue

    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        t.refresh_from_db()
        if t.status == TournamentStatus.FINISHED:
            break
        time.sleep(0.5)
    log = worker.log_path.read_text()  # type: ignore[attr-defined]
    assert t.status == TournamentStatus.FINISHED, f"event did not finish:\n{log[-4000:]}"
    # The final and the third-place match were generated and played by the worker.
    assert "bots.tournament_match_play" in log
    assert t.rounds.count() == 2
    found = bracket_get(tournament=t)
    assert found is not None
    state = found[1]
    assert state.finished and state.champion and state.runner_up and state.third
    _check_every_table_has_verified_records(t)
    assert Match.objects.filter(tournament=t).count() == 4


@pytest.mark.django_db
def test_playing_a_bot_table_twice_changes_nothing(director: User) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.services import match_bot_play

    t = _bot_event(director, fmt="round_robin", bots=3)
    round_generate(tournament=t, actor=director)  # on_commit never fires here: tables wait
    match = Match.objects.get(tournament=t, table=1)
    assert match.status == MatchStatus.PLAYING
    # Another worker's live claim: this task leaves the table to it.
    Match.objects.filter(pk=match.pk).update(claimed_at=timezone.now())
    assert match_bot_play(match_id=match.pk) == {"match": match.pk, "played": False}
    assert match.records.count() == 0
    # A claim older than the time limit is a dead worker's: it is taken over.
    Match.objects.filter(pk=match.pk).update(claimed_at=timezone.now() - timedelta(hours=1))
    first = match_bot_play(match_id=match.pk)
    assert first["played"] is True and len(first["records"]) == 2
    again = match_bot_play(match_id=match.pk)
    assert again == {"match": match.pk, "played": False}
    assert match.submissions.count() == 1 and match.records.count() == 2
    assert match_bot_play(match_id=999999) == {"match": 999999, "played": False}


PASSING_BOT = b"""
from fivehundred.bots.sdk import run

def act(view, legal):
    for action in legal:
        if action.get("call") == "PASS":
            return action
    return legal[0]

run(act)
"""


@pytest.mark.django_db
def test_an_uploaded_arena_bot_plays_in_the_sandbox(
    director: User, django_capture_on_commit_callbacks: Any
) -> None:
    import hashlib

    from arena.models import Bot, BotVersion, VersionStatus
    from tournaments.errors import NotAllowed, TournamentError

    owner = User.objects.create_user(username="olga", password="a-long-password-1")
    bot = Bot.objects.create(owner=owner, name="passer")
    version = BotVersion.objects.create(
        bot=bot, number=1, filename="passer.py", code=PASSING_BOT, size=len(PASSING_BOT),
        sha256=hashlib.sha256(PASSING_BOT).hexdigest(), status=VersionStatus.ACTIVE,
    )  # fmt: skip
    t = tournament_create(name="Open bots", director=director, format="round_robin",
                          rules=dict(FAST_RULES))  # fmt: skip
    stranger = User.objects.create_user(username="sid", password="a-long-password-1")
    with pytest.raises(NotAllowed):
        entrant_register(tournament=t, actor=stranger, bot=f"bot:{bot.pk}")
    with pytest.raises(TournamentError, match="unknown bot"):
        entrant_register(tournament=t, actor=director, bot="bot:999999")
    mine = entrant_register(tournament=t, actor=owner, bot=f"bot:{bot.pk}")  # owners enter theirs
    assert mine.bot_version == version and mine.name == "passer v1"
    entrant_register(tournament=t, actor=director, bot="heuristic")
    with django_capture_on_commit_callbacks(execute=True):
        round_generate(tournament=t, actor=director)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    match = Match.objects.get(tournament=t)
    records = list(match.records.all())
    assert len(records) == 2
    for record in records:
        assert verify(record.data).valid
        ids = {seat["id"] for seat in record.data["seats"]}
        assert ids == {f"bot:{bot.pk}@1", "bot:heuristic"}


@pytest.mark.django_db
def test_bot_double_elimination_ends_with_one_champion(
    director: User, django_capture_on_commit_callbacks: Any
) -> None:
    t = _bot_event(director, fmt="double_elimination", bots=5, reset=True)
    with django_capture_on_commit_callbacks(execute=True):
        round_generate(tournament=t, actor=director)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    found = bracket_get(tournament=t)
    assert found is not None and found[1].finished
    champion = found[1].champion
    # Everyone but the champion lost twice; the champion at most once.
    losses: dict[str, int] = {}
    for match in Match.objects.filter(tournament=t):
        for side in match.sides.all():
            if not side.is_winner:
                losses[side.entrant.name] = losses.get(side.entrant.name, 0) + 1
    names = {e.pk: e.name for e in t.entrants.all()}
    champion_name = names[int(str(champion).removeprefix("e"))]
    assert losses.get(champion_name, 0) <= 1
    assert all(n == 2 for name, n in losses.items() if name != champion_name)
    assert len(losses) >= 4
    _check_every_table_has_verified_records(t)


@pytest.mark.django_db
def test_lost_bot_tables_are_sent_again(
    director: User, django_capture_on_commit_callbacks: Any
) -> None:
    import datetime

    from django.utils import timezone

    from tournaments.services import bot_tables_sweep

    t = _bot_event(director, fmt="round_robin", bots=2)
    round_generate(tournament=t, actor=director)  # the send is lost: on_commit never fires
    match = Match.objects.get(tournament=t)
    assert match.status == MatchStatus.PLAYING and match.sent_at is not None
    assert bot_tables_sweep() == []  # sent a moment ago: still within the time limit
    Match.objects.filter(pk=match.pk).update(sent_at=timezone.now() - datetime.timedelta(hours=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert bot_tables_sweep() == [match.pk]
    match.refresh_from_db()
    assert match.status == MatchStatus.DONE
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED


@pytest.mark.django_db
def test_bot_best_of_five_stops_at_three_board_wins(director: User) -> None:
    from tournaments.services import match_bot_play

    t = tournament_create(name="Bo5 bots", director=director, format="round_robin",
                          rules=dict(FAST_RULES), match_length="best_of", match_games=5)  # fmt: skip
    entrant_register(tournament=t, actor=director, bot="heuristic")
    entrant_register(tournament=t, actor=director, bot="random")
    round_generate(tournament=t, actor=director)
    match = Match.objects.get(tournament=t)
    match_bot_play(match_id=match.pk)
    sub = match.submissions.get()
    board_wins = sub.data["board_wins"]
    boards = len(sub.data["boards"])
    assert 3 <= boards <= 5 and match.records.count() == 2 * boards
    assert max(board_wins) == 3 or boards == 5
    winner = sub.winners[0]
    assert board_wins[winner] == max(board_wins)


@pytest.mark.django_db
def test_level_bot_table_is_a_draw_outside_elimination(
    director: User, django_capture_on_commit_callbacks: Any
) -> None:
    """Two copies of one bot on a duplicate board score the same: a draw in a Swiss."""
    t = tournament_create(
        name="Mirror", director=director, format="swiss", format_options={"rounds": 1},
        rules=dict(FAST_RULES),
    )  # fmt: skip
    for i in range(2):
        entrant_register(tournament=t, actor=director, name=f"mirror-{i + 1}", bot="heuristic")
    with django_capture_on_commit_callbacks(execute=True):
        round_generate(tournament=t, actor=director)
    match = Match.objects.get(tournament=t)
    points = [s.points for s in match.sides.all()]
    assert match.status == MatchStatus.DONE
    assert points[0] == points[1]
    assert match.outcome == "draw"
    assert not any(s.is_winner for s in match.sides.all())
