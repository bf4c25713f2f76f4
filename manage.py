#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fivehundred.settings")
    from django.core.management import execute_from_command_line

    # Configure Celery before any command can enqueue a task.
    import fivehundred.celery  # noqa: F401

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
