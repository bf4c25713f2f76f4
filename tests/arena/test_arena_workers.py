"""Integration: two real Celery workers on the bots queue, a real Redis broker, PostgreSQL.

A batch of bot matches (an uploaded bot in the real sandbox against ``heuristic``) is sent to the
``bots`` queue; one worker is killed with SIGKILL in the middle of a match. The ladder's sweeper
(``bots.ladder_schedule``, run on the surviving worker) re-sends the abandoned work, and in the end
every match is finished exactly once, with one verified set of records and no record stored twice.
"""

from __future__ import annotations

import hashlib
import os
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from celery import Celery

from arena.models import Bot, BotMatch, BotMatchGame, BotRating, BotVersion, LadderSettings
from arena.services import Entrant, bot_match_create, rating_recompute
from fivehundred.record import verify
from replays.models import StoredRecord
from tests.workers import Worker, redis_url, require_services, running_workers

TEST_REDIS_DB = int(os.environ.get("FIVEHUNDRED_ARENA_TEST_REDIS_DB", "11"))
MATCHES = 8
BOARDS = 3
# Short games: to 200 points (or down to -200).
RULES = {"players": 4, "options": {"target": 200, "lose_at": -200}}
CLAIM_TIMEOUT_S = 5

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]

# Slow enough (a few ms a decision) that a match lasts a couple of seconds and can be cut.
STEADY_BOT = b"""
import time
from fivehundred.bots.sdk import run

def act(view, legal):
    time.sleep(0.002)
    for action in legal:
        if action.get("call") == "PASS":
            return action
    return legal[0]

run(act)
"""


@pytest.fixture
def workers(transactional_db: None, tmp_path: Path) -> Iterator[tuple[Celery, list[Worker]]]:
    url = redis_url(TEST_REDIS_DB)
    # Two workers and the test writing at once need a real database server.
    require_services(url, postgresql=True)
    tag = uuid.uuid4().hex[:6]
    names = [f"arena-{n}-{tag}@localhost" for n in ("a", "b")]
    with running_workers(
        names,
        url=url,
        queues="bots",
        logs=tmp_path,
        default_queue="bots",
        pool=("--concurrency", "1"),
    ) as (client, pool):
        yield client, pool
    assert pool[1].code == 0, f"the surviving worker did not stop cleanly:\n{pool[1].tail()}"


def test_two_workers_play_a_batch_and_a_killed_worker_loses_nothing(
    workers: tuple[Celery, list[Worker]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.contrib.auth.models import User

    client, (doomed, survivor) = workers
    LadderSettings.objects.update_or_create(
        pk=1, defaults={"enabled": False, "claim_timeout_s": CLAIM_TIMEOUT_S}
    )
    owner = User.objects.create_user("bo-bots", password="a-long-test-password")
    bot = Bot.objects.create(owner=owner, name="steady")
    version = BotVersion.objects.create(
        bot=bot, number=1, filename="steady.py", code=STEADY_BOT, size=len(STEADY_BOT),
        sha256=hashlib.sha256(STEADY_BOT).hexdigest(), status="active",
    )  # fmt: skip
    # Created here, sent to the real workers through Redis (tasks run eagerly in this process).
    monkeypatch.setattr("arena.services._enqueue", lambda **kwargs: None)
    matches = [
        bot_match_create(
            a=Entrant(version=version), b=Entrant(builtin="heuristic"), boards=BOARDS, rules=RULES
        )
        for _ in range(MATCHES)
    ]
    for match in matches:
        client.send_task("bots.bot_match_play", args=[match.pk], queue="bots")
    # Sending a task twice is harmless: a duplicate claims nothing.
    client.send_task("bots.bot_match_play", args=[matches[0].pk], queue="bots")

    # Kill the first worker while it is in the middle of a match.
    deadline = time.monotonic() + 60
    victim = None
    while victim is None:
        victim = BotMatch.objects.filter(
            status="running", claimed_by__startswith=doomed.name
        ).first()
        assert time.monotonic() < deadline, "the first worker never started a match"
        time.sleep(0.05)
    time.sleep(0.3)
    doomed.kill()
    assert BotMatch.objects.get(pk=victim.pk).status == "running"
    assert not BotMatchGame.objects.filter(match_id=victim.pk).exists()

    # The sweeper (the beat job) runs on the surviving worker until everything is played.
    deadline = time.monotonic() + 120
    while BotMatch.objects.exclude(status="finished").exists():
        assert time.monotonic() < deadline, list(BotMatch.objects.values("id", "status", "error"))
        assert not BotMatch.objects.filter(status="failed").exists(), list(
            BotMatch.objects.filter(status="failed").values("id", "error")
        )
        client.send_task("bots.ladder_schedule", queue="bots")
        time.sleep(2)

    victim.refresh_from_db()
    assert victim.attempts >= 2 and victim.claimed_by.startswith(survivor.name)
    claimed = set(BotMatch.objects.values_list("claimed_by", flat=True))
    assert any(name.startswith(survivor.name) for name in claimed)

    games = BotMatchGame.objects.select_related("record")
    assert games.count() == MATCHES * BOARDS * 2
    for match in matches:
        rows = list(games.filter(match=match).order_by("index"))
        assert [(g.board, g.round) for g in rows] == [
            (b, r) for b in range(1, BOARDS + 1) for r in (1, 2)
        ]
        for game in rows:
            assert verify(game.record.data).valid
            assert game.record.event_name == f"Bot arena match {match.pk}"
    # One set of records per match: nothing stored twice, nothing left over from the dead worker.
    arena_records = StoredRecord.objects.filter(event_name__startswith="Bot arena match")
    assert arena_records.count() == MATCHES * BOARDS * 2
    assert games.values("record_id").distinct().count() == MATCHES * BOARDS * 2

    # Every match rated once, in one sequence; the ratings recompute to the same values.
    seqs = sorted(BotMatch.objects.values_list("rated_seq", flat=True))
    assert seqs == list(range(1, MATCHES + 1))
    before = {r.key: (r.mu, r.sigma, r.games) for r in BotRating.objects.all()}
    assert before[version.entrant_key][2] == MATCHES
    rating_recompute()
    assert {r.key: (r.mu, r.sigma, r.games) for r in BotRating.objects.all()} == before

    # The killed worker's sandboxes died with it (bwrap --die-with-parent): nothing is left in
    # its session.
    assert sessions_processes(doomed.process.pid) == []


def sessions_processes(session: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session:  # fields after the name: state, ppid, pgrp, session
            found.append(int(entry.name))
    return found
