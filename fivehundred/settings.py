"""Django settings, read from the environment.

One settings module for every deployment. With nothing set it runs the embedded default: SQLite in
``var/`` inside the project folder and Celery tasks run in-process, so a new user needs no server.
Production sets ``DATABASE_URL`` (PostgreSQL through psycopg 3), ``REDIS_URL`` (the Celery broker and
the cache), ``SECRET_KEY``, ``DEBUG=0`` and ``ALLOWED_HOSTS``.

Environment variables:

- ``DEBUG``: ``1``/``true`` to turn debug mode on. Off by default, so a forgotten variable fails safe.
- ``ENVIRONMENT``: ``production`` refuses ``DEBUG`` on; ``development`` (the default) allows it.
- ``SECRET_KEY``: required when ``DEBUG`` is off; at least 50 characters and not a known default.
- ``ALLOWED_HOSTS``: comma-separated host names; defaults to loopback names.
- ``CSRF_TRUSTED_ORIGINS``: comma-separated origins (``https://example.org``) for HTTPS deployments.
- ``DATABASE_URL``: e.g. ``postgres://user@127.0.0.1:5432/fivehundred``; defaults to SQLite.
- ``REDIS_URL``: e.g. ``redis://127.0.0.1:6379/0``; without it Celery tasks run eagerly.
- ``CELERY_TASK_ALWAYS_EAGER``: force eager tasks on or off (defaults to "on when no REDIS_URL").
- ``API_UPLOAD_MAX_BYTES``: the largest record upload accepted (default 5 MiB).
- ``API_THROTTLE_ANON`` / ``API_THROTTLE_USER`` / ``API_THROTTLE_UPLOAD``: DRF throttle rates.
- ``SECURE_SSL_REDIRECT``, ``SECURE_HSTS_SECONDS``, ``SECURE_HSTS_INCLUDE_SUBDOMAINS``,
  ``SECURE_HSTS_PRELOAD``: HTTPS hardening behind a TLS terminator (secure cookies follow
  ``SECURE_SSL_REDIRECT``).
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

# Lets typed code write ``admin.ModelAdmin[Player]`` at run time, as django-stubs expects.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("FIVEHUNDRED_VAR_DIR", BASE_DIR / "var"))

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean variable; an unrecognised value is an error rather than a silent default."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean; use 1/0, true/false, yes/no")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer") from None


# The key used when DEBUG is on and none is given. It is public (it is in this file), which is why
# production mode refuses it below.
DEVELOPMENT_SECRET_KEY = "django-insecure-fivehundred-development-key-never-use-in-production"

DEBUG = env_bool("DEBUG", False)
# Deployments say ENVIRONMENT=production (docker-compose.yml does); then DEBUG may not be on, so a
# debug flag copied from a developer's shell cannot leak tracebacks and settings to the public.
ENVIRONMENT = os.environ.get("ENVIRONMENT", "development").strip().lower()
if ENVIRONMENT not in ("development", "production"):
    raise ImproperlyConfigured(f"ENVIRONMENT={ENVIRONMENT!r} must be development or production")
if ENVIRONMENT == "production" and DEBUG:
    raise ImproperlyConfigured("DEBUG is on with ENVIRONMENT=production; turn DEBUG off")
SECRET_KEY = os.environ.get("SECRET_KEY", "")


def check_secret_key(key: str, *, debug: bool) -> str:
    """Return the key to use, refusing an insecure one outside debug mode."""
    if debug:
        return key or DEVELOPMENT_SECRET_KEY
    if not key:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set; production mode (DEBUG off) needs a random secret key of at "
            "least 50 characters (or set DEBUG=1 for local development)"
        )
    if key == DEVELOPMENT_SECRET_KEY or key.startswith("django-insecure") or len(key) < 50:
        raise ImproperlyConfigured(
            "SECRET_KEY is insecure (a development key, or shorter than 50 characters); "
            "generate one with: python -c 'import secrets; print(secrets.token_urlsafe(64))'"
        )
    if len(set(key)) < 5:
        raise ImproperlyConfigured(
            "SECRET_KEY is insecure: it uses fewer than 5 distinct characters"
        )
    return key


SECRET_KEY = check_secret_key(SECRET_KEY, debug=DEBUG)

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "tournaments",
    "replays",
    "api",
    "arena",
    "accounts",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "fivehundred.urls"
WSGI_APPLICATION = "fivehundred.wsgi.application"
ASGI_APPLICATION = "fivehundred.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------------

DATABASE_URL = os.environ.get("DATABASE_URL", "").strip()


def database_config(url: str) -> dict[str, Any]:
    """The default database: the URL's, or the embedded SQLite file."""
    if not url:
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        url = f"sqlite:///{VAR_DIR / 'db.sqlite3'}"
    try:
        config: dict[str, Any] = dict(dj_database_url.parse(url, conn_max_age=60))
    except ValueError as exc:
        raise ImproperlyConfigured(f"DATABASE_URL is not a database URL: {exc}") from None
    if config["ENGINE"] == "django.db.backends.sqlite3":
        # A held SQLite connection gains nothing and keeps the file locked between requests.
        config["CONN_MAX_AGE"] = 0
    else:
        # Re-check pooled connections so a restarted database does not surface as a 500.
        config["CONN_HEALTH_CHECKS"] = True
    return config


DATABASES = {"default": database_config(DATABASE_URL)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis, cache and Celery ----------------------------------------------------------------------

REDIS_URL = os.environ.get("REDIS_URL", "").strip()

if REDIS_URL:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_BROKER_URL = REDIS_URL or "memory://"
# Results are stored only when a broker exists; eager tasks return their value directly.
CELERY_RESULT_BACKEND = REDIS_URL or None
# Without a broker there is nowhere to send tasks, so run them in the caller's process.
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_DEFAULT_QUEUE = "default"
# Untrusted bot games go to their own queue so a flood of matches never starves verification,
# and so the workers that run sandboxes can be scaled and isolated separately.
# A task named ``bots.<something>`` (e.g. ``bots.match_play``) goes to the bots queue.
CELERY_TASK_ROUTES = {"bots.*": {"queue": "bots"}}
CELERY_TASK_ACKS_LATE = True  # a worker killed mid-task leaves the task for another worker
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # long bot games should not queue up behind one worker
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 3600
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 600)
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 540)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    "health-every-5-minutes": {"task": "fivehundred.health", "schedule": 300.0},
    # Schedules bot ladder matches and re-queues matches whose worker died (arena.tasks).
    "arena-ladder-every-minute": {"task": "bots.ladder_schedule", "schedule": 60.0},
    # Sends again the tournament tables of bots whose play was lost (tournaments.tasks).
    "tournament-bot-tables-every-5-minutes": {
        "task": "tournaments.bot_tables_sweep",
        "schedule": 300.0,
    },
}

# --- Authentication -------------------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# --- API ------------------------------------------------------------------------------------------

API_UPLOAD_MAX_BYTES = env_int("API_UPLOAD_MAX_BYTES", 5 * 1024 * 1024)
# Django refuses larger bodies itself (RequestDataTooBig); keep a margin for multipart framing so
# that the API's own, clearer size check answers first.
DATA_UPLOAD_MAX_MEMORY_SIZE = API_UPLOAD_MAX_BYTES + 64 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = API_UPLOAD_MAX_BYTES + 64 * 1024

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.PageNumberPagination",
    "PAGE_SIZE": 20,
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_THROTTLE_ANON", "120/minute"),
        "user": os.environ.get("API_THROTTLE_USER", "600/minute"),
        "upload": os.environ.get("API_THROTTLE_UPLOAD", "60/minute"),
    },
    "EXCEPTION_HANDLER": "api.exceptions.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_VERSIONING_CLASS": None,
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "fivehundred API",
    "DESCRIPTION": (
        "Upload, verify and read Five Hundred game records. Reading is open to everyone; "
        "uploading needs a token (`Authorization: Token <key>`) or a session."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
}

# --- Static files, language, security -------------------------------------------------------------

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
_static_root = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATIC_ROOT: Path | None = _static_root
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# Serve files straight from the finders when collectstatic has not run (development and tests).
WHITENOISE_USE_FINDERS = DEBUG or not _static_root.exists()
if WHITENOISE_USE_FINDERS:
    # WhiteNoise warns that STATIC_ROOT does not exist yet; before collectstatic that is expected.
    warnings.filterwarnings("ignore", message="No directory at", module="whitenoise.base")

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

SESSION_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = SECURE_SSL_REDIRECT

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
