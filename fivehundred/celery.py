"""The Celery application: ``celery -A fivehundred worker -Q default,bots``.

Imported lazily (by ``manage.py``, ``wsgi.py`` and the worker), never by ``fivehundred/__init__.py``,
which must stay importable without Django for bots running in a sandbox.
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from kombu.entity import Queue

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fivehundred.settings")

app = Celery("fivehundred")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Declared explicitly so a worker started with `-Q default,bots` creates both, and so that routing a
# task to an undeclared queue fails loudly instead of silently creating it.
app.conf.task_queues = (Queue("default"), Queue("bots"))
app.conf.task_create_missing_queues = False
app.autodiscover_tasks()


@app.task(name="fivehundred.health")
def health() -> dict[str, Any]:
    """Prove a worker is alive and can reach the database; returns what it saw."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        (one,) = cursor.fetchone() or (None,)
    return {"ok": one == 1, "database": connection.vendor}
