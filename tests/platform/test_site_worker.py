"""Integration: a real Celery worker process against a real Redis broker runs our tasks.

Redis is required in CI (``CI=true``): there a missing Redis fails the test instead of skipping it.
The worker uses a dedicated Redis database number so it never meets another worker's tasks.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from celery import Celery
from django.db import connection

from replays.models import StoredRecord
from replays.services import record_ingest

ROOT = Path(__file__).resolve().parents[2]
TEST_REDIS_DB = int(os.environ.get("FIVEHUNDRED_TEST_REDIS_DB", "14"))

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]


def redis_url() -> str:
    """The environment's Redis server (or the local default), on the dedicated test database."""
    base = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    parts = urlsplit(base)
    return urlunsplit((parts.scheme, parts.netloc, f"/{TEST_REDIS_DB}", "", ""))


def require_redis(url: str) -> None:
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        message = f"Redis is not reachable at {url}: {exc}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message + " (required when CI=true)")
        pytest.skip(message)


def worker_database_url() -> str:
    """The URL of the test database this process uses, for the worker to use too."""
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{db['NAME']}"
    user = db.get("USER") or ""
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{auth}{db.get('HOST') or ''}{port}/{db['NAME']}"


@pytest.fixture
def worker(transactional_db: None, tmp_path: Path) -> Iterator[Celery]:
    """A real worker on both queues; yields a client app that talks to it through Redis."""
    url = redis_url()
    require_redis(url)
    import redis

    redis.Redis.from_url(url).flushdb()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "fivehundred.settings",
        "PYTHONPATH": str(ROOT),
        "DEBUG": "0",
        "SECRET_KEY": os.environ["SECRET_KEY"],  # set by the test settings
        "DATABASE_URL": worker_database_url(),
        "REDIS_URL": url,
        "CELERY_TASK_ALWAYS_EAGER": "0",
    }
    log = tmp_path / "worker.log"
    name = f"test-{uuid.uuid4().hex[:8]}@localhost"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "fivehundred", "worker",
             "-Q", "default,bots", "--pool", "solo", "--loglevel", "INFO", "-n", name,
             "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    # Not the current app: later tests must keep sending tasks to the project app (in-process).
    client = Celery("test-client", broker=url, backend=url, set_as_current=False)
    client.conf.update(task_default_queue="default", broker_connection_retry_on_startup=True)
    try:
        deadline = time.monotonic() + 60
        while not client.control.ping(destination=[name], timeout=1.0):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the worker did not start:\n{log.read_text()[-4000:]}")
        yield client
    finally:
        # A warm shutdown: the worker finishes its task, acknowledges it and exits with 0.
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            code = -9
        client.close()
        redis.Redis.from_url(url).flushdb()
    assert code == 0, f"the worker did not stop cleanly ({code}):\n{log.read_text()[-4000:]}"


def test_health_task_runs_on_a_real_worker(worker: Celery) -> None:
    result = worker.send_task("fivehundred.health", queue="default").get(timeout=60)
    assert result == {"ok": True, "database": connection.vendor}


def test_record_verification_task_runs_end_to_end(worker: Celery, make_record: Any) -> None:
    stored, _ = record_ingest(data=make_record(4, "worker-1"))
    # A stored record that no longer verifies: the worker must find and record the fault.
    broken = dict(stored.data)
    broken["result"] = {**broken["result"], "scores": [0] * len(broken["result"]["scores"])}
    StoredRecord.objects.filter(pk=stored.pk).update(data=broken, verified_at=None)

    outcome = worker.send_task("replays.record_reverify", args=[stored.pk], queue="default")
    summary = outcome.get(timeout=60)
    assert summary["found"] is True and summary["status"] == "invalid"

    stored.refresh_from_db()
    assert stored.status == "invalid"
    assert stored.verified_at is not None
    assert stored.errors[0]["pointer"] == "/result/scores"
    assert stored.errors[0]["code"] == "result_mismatch"

    # Idempotent: the same task again changes nothing but the time of checking.
    again = worker.send_task("replays.record_reverify", args=[stored.pk], queue="bots")
    assert again.get(timeout=60)["status"] == "invalid"
