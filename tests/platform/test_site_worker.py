"""Integration: a real Celery worker process against a real Redis broker runs our tasks.

Redis is required in CI (``CI=true``): there a missing Redis fails the test instead of skipping it.
The worker uses a dedicated Redis database number so it never meets another worker's tasks.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from celery import Celery
from django.db import connection

from replays.models import StoredRecord
from replays.services import record_ingest
from tests.workers import redis_url, require_services, running_workers

TEST_REDIS_DB = int(os.environ.get("FIVEHUNDRED_TEST_REDIS_DB", "14"))

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]


@pytest.fixture
def worker(transactional_db: None, tmp_path: Path) -> Iterator[Celery]:
    """A real worker on both queues; yields a client app that talks to it through Redis."""
    url = redis_url(TEST_REDIS_DB)
    require_services(url)
    name = f"test-{uuid.uuid4().hex[:8]}@localhost"
    with running_workers([name], url=url, queues="default,bots", logs=tmp_path) as (client, ws):
        yield client
    assert ws[0].code == 0, f"the worker did not stop cleanly ({ws[0].code}):\n{ws[0].tail()}"


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
