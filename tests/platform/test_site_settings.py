"""Settings parsing: the environment decides database, broker and safety checks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from fivehundred import settings as site_settings

ROOT = Path(__file__).resolve().parents[2]
STRONG_KEY = "k3y-" + "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMN"

PROBE = """
import json
from django.conf import settings
import django
django.setup()
db = settings.DATABASES["default"]
print(json.dumps({
    "engine": db["ENGINE"], "name": str(db["NAME"]), "host": db.get("HOST", ""),
    "user": db.get("USER", ""), "port": db.get("PORT", ""),
    "eager": settings.CELERY_TASK_ALWAYS_EAGER, "broker": settings.CELERY_BROKER_URL,
    "debug": settings.DEBUG, "hosts": settings.ALLOWED_HOSTS,
    "cache": settings.CACHES["default"]["BACKEND"],
}))
"""


def load_settings(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Import the real settings module in a fresh interpreter with exactly this environment."""
    clean = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")}
    clean.update({"DJANGO_SETTINGS_MODULE": "fivehundred.settings", "PYTHONPATH": str(ROOT)})
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        env=clean,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def loaded(env: dict[str, str]) -> dict[str, object]:
    done = load_settings(env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_embedded_default_is_sqlite_with_eager_tasks(tmp_path: Path) -> None:
    seen = loaded({"DEBUG": "1", "FIVEHUNDRED_VAR_DIR": str(tmp_path)})
    assert seen["engine"] == "django.db.backends.sqlite3"
    assert seen["name"] == str(tmp_path / "db.sqlite3")
    assert seen["eager"] is True
    assert seen["broker"] == "memory://"
    assert seen["cache"].endswith("LocMemCache")  # type: ignore[union-attr]


def test_database_and_redis_urls_select_postgresql_and_a_broker() -> None:
    seen = loaded(
        {
            "SECRET_KEY": STRONG_KEY,
            "DATABASE_URL": "postgres://league@db.example:6543/fivehundred",
            "REDIS_URL": "redis://cache.example:6379/3",
            "ALLOWED_HOSTS": "fivehundred.example, www.fivehundred.example",
        }
    )
    assert seen["engine"] == "django.db.backends.postgresql"
    assert (seen["name"], seen["host"], seen["user"]) == ("fivehundred", "db.example", "league")
    assert seen["port"] == 6543
    assert seen["eager"] is False
    assert seen["broker"] == "redis://cache.example:6379/3"
    assert seen["cache"].endswith("RedisCache")  # type: ignore[union-attr]
    assert seen["debug"] is False
    assert seen["hosts"] == ["fivehundred.example", "www.fivehundred.example"]


def test_eager_tasks_can_be_forced_with_a_broker() -> None:
    seen = loaded(
        {"DEBUG": "1", "REDIS_URL": "redis://127.0.0.1:6379/0", "CELERY_TASK_ALWAYS_EAGER": "yes"}
    )
    assert seen["eager"] is True


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "SECRET_KEY is not set"),
        ({"DEBUG": "0", "SECRET_KEY": "short"}, "SECRET_KEY is insecure"),
        ({"SECRET_KEY": site_settings.DEVELOPMENT_SECRET_KEY}, "SECRET_KEY is insecure"),
        ({"SECRET_KEY": "django-insecure-" + "x" * 60}, "SECRET_KEY is insecure"),
        ({"DEBUG": "maybe"}, "DEBUG='maybe' is not a boolean"),
        ({"DEBUG": "1", "ENVIRONMENT": "production"}, "DEBUG is on with ENVIRONMENT=production"),
        ({"DEBUG": "1", "ENVIRONMENT": "staging"}, "must be development or production"),
        ({"DEBUG": "1", "DATABASE_URL": "nosuchdb://x"}, "DATABASE_URL"),
    ],
)
def test_refuses_to_start_with_unsafe_or_broken_configuration(
    env: dict[str, str], message: str
) -> None:
    done = load_settings(env)
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr
    assert message in done.stderr


def test_check_secret_key_rules() -> None:
    check = site_settings.check_secret_key
    assert check("", debug=True) == site_settings.DEVELOPMENT_SECRET_KEY
    assert check(STRONG_KEY, debug=False) == STRONG_KEY
    with pytest.raises(ImproperlyConfigured):
        check("a" * 64, debug=False)  # long, but one repeated character
    with pytest.raises(ImproperlyConfigured):
        check("", debug=False)


def test_env_helpers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("X_LIST", " a, b ,,c ")
    assert site_settings.env_list("X_LIST", []) == ["a", "b", "c"]
    monkeypatch.setenv("X_INT", "12")
    assert site_settings.env_int("X_INT", 3) == 12
    monkeypatch.setenv("X_INT", "twelve")
    with pytest.raises(ImproperlyConfigured, match="X_INT='twelve' is not an integer"):
        site_settings.env_int("X_INT", 3)
    monkeypatch.setenv("X_BOOL", "Off")
    assert site_settings.env_bool("X_BOOL", True) is False


def test_production_https_configuration_passes_the_deploy_checks() -> None:
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")}
    env.update(
        {
            "PYTHONPATH": str(ROOT),
            "ENVIRONMENT": "production",
            "SECRET_KEY": STRONG_KEY,
            "ALLOWED_HOSTS": "fivehundred.example",
            "SECURE_SSL_REDIRECT": "1",
            "SECURE_HSTS_SECONDS": "31536000",
            "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
            "SECURE_HSTS_PRELOAD": "1",
        }
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout
