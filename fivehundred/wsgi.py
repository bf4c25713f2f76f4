"""WSGI entry point: ``gunicorn fivehundred.wsgi``."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fivehundred.settings")

application = get_wsgi_application()

# Load the Celery app so tasks enqueued by web requests use its configuration.
from fivehundred.celery import app as celery_app  # noqa: E402,F401
