# The production image: one image for the web app, the Celery worker and Celery beat.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DJANGO_SETTINGS_MODULE=fivehundred.settings \
    STATIC_ROOT=/app/staticfiles

# bubblewrap runs uploaded bots in a sandbox on the `bots` queue; curl serves the health checks.
RUN apt-get update \
    && apt-get install -y --no-install-recommends bubblewrap curl \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY . .
# Editable, so the code runs from /app where settings find templates/ and static/.
RUN pip install -e .

# collectstatic needs settings but no secret: a throwaway build-time key, never used at run time.
RUN SECRET_KEY=build-only-$(python -c 'import secrets; print(secrets.token_urlsafe(48))') \
    python manage.py collectstatic --no-input \
    && useradd --create-home --uid 1000 fivehundred \
    && mkdir -p /app/var && chown fivehundred /app/var

USER fivehundred
EXPOSE 8000
CMD ["gunicorn", "fivehundred.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
