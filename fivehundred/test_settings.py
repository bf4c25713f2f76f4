"""Settings for the test suite: the environment's settings with test-only speed-ups.

``DATABASE_URL`` and ``REDIS_URL`` still come from the environment, so the same suite runs on the
embedded SQLite default and, in CI, against PostgreSQL and Redis.
"""

from __future__ import annotations

import os
import secrets

# Tests run with DEBUG off, as production does; they need some key, and a fresh random one per run
# is the honest choice (nothing may depend on its value).
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(64))

from fivehundred.settings import *  # noqa: F403

# Hashing passwords slowly is a defence for real users, and only a cost in tests.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Throttle counters live in the cache; a per-process memory cache keeps tests independent of each
# other and of whatever else uses the Redis server.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# collectstatic does not run before tests; serve static files from the app folders.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
STATIC_ROOT = None

# Request threads of the live test server must not keep connections open past the request, or the
# test database cannot be dropped at the end of the run.
DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405

# A file, not SQLite's in-memory default, so that a real Celery worker started by the integration
# tests (another process) sees the same test database.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}  # noqa: F405

# Tasks run in-process in tests, whatever the environment says; the integration tests start a real
# worker and send it tasks through their own Redis client, on a database of their own.
CELERY_TASK_ALWAYS_EAGER = True
CELERY_BROKER_URL = "memory://"
CELERY_RESULT_BACKEND = None
