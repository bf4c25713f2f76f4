"""Integration: two real Celery workers on the bots queue, a real Redis broker, PostgreSQL.

A batch of bot matches (an uploaded bot in the real sandbox against ``heuristic``) is sent to the
``bots`` queue; one worker is killed with SIGKILL in the middle of a match. The ladder's sweeper
(``bots.ladder_schedule``, run on the surviving worker) re-sends the abandoned work, and in the end
every match is finished exactly once, with one verified set of records and no record stored twice.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from celery import Celery
from django.db import connection

from arena.models import Bot, BotMatch, BotMatchGame, BotRating, BotVersion, LadderSettings
from arena.services import Entrant, bot_match_create, rating_recompute
from fivehundred.record import verify
from replays.models import StoredRecord

ROOT = Path(__file__).resolve().parents[2]
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


def redis_url() -> str:
    base = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    parts = urlsplit(base)
    return urlunsplit((parts.scheme, parts.netloc, f"/{TEST_REDIS_DB}", "", ""))


def require_services(url: str) -> None:
    import redis

    problem = ""
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        problem = f"Redis is not reachable at {url}: {exc}"
    if connection.vendor != "postgresql":
        # Two workers and the test writing at once need a real database server.
        problem = problem or "the two-worker test needs PostgreSQL (set DATABASE_URL)"
    if problem:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(problem + " (required when CI=true)")
        pytest.skip(problem)


def worker_database_url() -> str:
    db = connection.settings_dict
    user = db.get("USER") or ""
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{auth}{db.get('HOST') or ''}{port}/{db['NAME']}"


class Worker:
    def __init__(self, name: str, env: dict[str, str], log: Path) -> None:
        self.name = name
        self.log = log
        with log.open("w") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "fivehundred", "worker",
                 "-Q", "bots", "--concurrency", "1", "--loglevel", "INFO", "-n", name,
                 "--without-gossip", "--without-mingle", "--without-heartbeat"],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: SIGKILL reaches the pool too
            )  # fmt: skip

    def kill(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> int:
        if self.process.poll() is not None:
            return self.process.returncode
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            return -9


@pytest.fixture
def workers(transactional_db: None, tmp_path: Path) -> Iterator[tuple[Celery, list[Worker]]]:
    url = redis_url()
    require_services(url)
    import redis

    redis.Redis.from_url(url).flushdb()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "fivehundred.settings",
        "PYTHONPATH": str(ROOT),
        "DEBUG": "0",
        "SECRET_KEY": os.environ["SECRET_KEY"],
        "DATABASE_URL": worker_database_url(),
        "REDIS_URL": url,
        "CELERY_TASK_ALWAYS_EAGER": "0",
    }
    tag = uuid.uuid4().hex[:6]
    pool = [Worker(f"arena-{n}-{tag}@localhost", env, tmp_path / f"{n}.log") for n in ("a", "b")]
    # Not the current app: later tests must keep sending tasks to the project app (in-process).
    client = Celery("arena-test-client", broker=url, backend=url, set_as_current=False)
    client.conf.update(task_default_queue="bots", broker_connection_retry_on_startup=True)
    try:
        deadline = time.monotonic() + 60
        for worker in pool:
            while not client.control.ping(destination=[worker.name], timeout=1.0):
                if worker.process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(
                        f"worker {worker.name} did not start:\n{worker.log.read_text()[-4000:]}"
                    )
        yield client, pool
    finally:
        codes = [worker.stop() for worker in pool]
        client.close()
        redis.Redis.from_url(url).flushdb()
    assert codes[1] == 0, (
        f"the surviving worker did not stop cleanly:\n{pool[1].log.read_text()[-4000:]}"
    )


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
