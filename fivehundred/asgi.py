"""ASGI entry point: ``uvicorn fivehundred.asgi:application`` or any ASGI server."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fivehundred.settings")

application = get_asgi_application()

from fivehundred.celery import app as celery_app  # noqa: E402,F401
