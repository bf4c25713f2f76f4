"""docker-compose.yml and the Dockerfile cannot run here (no Docker engine), so check their shape:
every service, health check, dependency and command that the production stack relies on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())  # type: ignore[no-any-return]


def test_compose_has_the_whole_stack_with_health_checks() -> None:
    services = compose()["services"]
    assert set(services) == {"db", "redis", "migrate", "web", "worker", "beat"}
    for name in ("db", "redis", "web", "worker", "beat"):
        assert services[name]["healthcheck"]["test"], name
    assert "db-data:/var/lib/postgresql/data" in services["db"]["volumes"]
    assert "db-data" in compose()["volumes"]


def test_app_services_wait_for_migrations_and_use_postgres_and_redis() -> None:
    services = compose()["services"]
    assert services["migrate"]["command"] == ["python", "manage.py", "migrate", "--no-input"]
    assert services["migrate"]["depends_on"]["db"]["condition"] == "service_healthy"
    for name in ("web", "worker", "beat"):
        service = services[name]
        assert service["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"
        env = service["environment"]
        assert env["DATABASE_URL"].startswith("postgres://") and env["DATABASE_URL"].endswith(
            "@db:5432/fivehundred"
        )
        assert env["REDIS_URL"] == "redis://redis:6379/0"
        assert env["ENVIRONMENT"] == "production" and env["DEBUG"] == "0"
        assert env["SECRET_KEY"].startswith("${SECRET_KEY:?")  # required, never defaulted


def test_commands_name_real_entry_points() -> None:
    services = compose()["services"]
    web = services["web"]["command"]
    assert web[:2] == ["gunicorn", "fivehundred.wsgi"]
    worker = " ".join(services["worker"]["command"])
    assert "-A fivehundred worker" in worker and "-Q default,bots" in worker
    assert "-A fivehundred beat" in " ".join(services["beat"]["command"])
    assert (ROOT / "fivehundred" / "wsgi.py").exists() and (
        ROOT / "fivehundred" / "celery.py"
    ).exists()
    assert "/api/v1/health/" in " ".join(services["web"]["healthcheck"]["test"])


def test_dockerfile_installs_the_project_and_collects_static_files() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert "FROM python:3.11" in text
    assert "pip install -e ." in text
    assert "collectstatic --no-input" in text
    assert "USER fivehundred" in text
    assert '"gunicorn", "fivehundred.wsgi"' in text
