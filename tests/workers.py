"""Real Celery workers for the integration tests: one helper for every app's worker tests.

A worker runs as its own process against the test database of this test process and a Redis
database number of the test's own, so that it never meets another run's tasks. Redis (and, where
a test needs it, PostgreSQL) is required in CI (``CI=true``): there a missing service fails the
test instead of skipping it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from celery import Celery
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]


def redis_url(db: int) -> str:
    """The environment's Redis server (or the local default), on database number ``db``."""
    base = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    parts = urlsplit(base)
    return urlunsplit((parts.scheme, parts.netloc, f"/{db}", "", ""))


def require_services(url: str, *, postgresql: bool = False) -> None:
    """Skip (fail under ``CI=true``) when Redis, or PostgreSQL if asked, is not there."""
    import redis

    problem = ""
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        problem = f"Redis is not reachable at {url}: {exc}"
    if postgresql and connection.vendor != "postgresql":
        problem = problem or "this test needs PostgreSQL (set DATABASE_URL)"
    if problem:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(problem + " (required when CI=true)")
        pytest.skip(problem)


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


class Worker:
    """One ``celery worker`` process in a process group of its own."""

    def __init__(self, name: str, *, url: str, queues: str, log: Path, pool: Sequence[str]) -> None:
        self.name = name
        self.log = log
        self.code: int | None = None  # the exit code, once stopped
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
        with log.open("w") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "fivehundred", "worker",
                 "-Q", queues, *pool, "--loglevel", "INFO", "-n", name,
                 "--without-gossip", "--without-mingle", "--without-heartbeat"],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: a SIGKILL reaches the pool too
            )  # fmt: skip

    def tail(self) -> str:
        return self.log.read_text()[-4000:]

    def kill(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> int:
        """A warm shutdown: the worker finishes its task, acknowledges it and exits with 0."""
        if self.process.poll() is not None:
            return self.process.returncode
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            return -9


@contextmanager
def running_workers(
    names: Sequence[str],
    *,
    url: str,
    queues: str,
    logs: Path,
    default_queue: str = "default",
    pool: Sequence[str] = ("--pool", "solo"),
) -> Iterator[tuple[Celery, list[Worker]]]:
    """Start workers, wait until each answers a ping, yield a client app and the workers;
    stop them and empty the Redis database afterwards."""
    import redis

    redis.Redis.from_url(url).flushdb()
    workers = [
        Worker(name, url=url, queues=queues, log=logs / f"worker-{n}.log", pool=pool)
        for n, name in enumerate(names)
    ]
    # Not the current app: later tests must keep sending tasks to the project app (in-process).
    client = Celery("test-client", broker=url, backend=url, set_as_current=False)
    client.conf.update(task_default_queue=default_queue, broker_connection_retry_on_startup=True)
    try:
        deadline = time.monotonic() + 60
        for worker in workers:
            while not client.control.ping(destination=[worker.name], timeout=1.0):
                if worker.process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"worker {worker.name} did not start:\n{worker.tail()}")
        yield client, workers
    finally:
        for worker in workers:
            worker.code = worker.stop()
        client.close()
        redis.Redis.from_url(url).flushdb()
