"""The Celery app's configuration: queues, routes, eager mode in tests, enqueue on commit."""

from __future__ import annotations

from fivehundred.celery import app, health


def route(name: str) -> str:
    return str(app.amqp.router.route({}, name)["queue"].name)


def test_queues_and_routes() -> None:
    assert {q.name for q in app.conf.task_queues} == {"default", "bots"}
    assert route("bots.match_play") == "bots"
    assert route("replays.record_reverify") == "default"
    assert route("fivehundred.health") == "default"


def test_tasks_are_registered_under_stable_names() -> None:
    app.loader.import_default_modules()
    assert {"fivehundred.health", "replays.record_reverify"} <= set(app.tasks)


def test_health_task_runs_in_process_in_tests(db: None) -> None:
    assert app.conf.task_always_eager is True
    assert health.delay().get(timeout=5)["ok"] is True
