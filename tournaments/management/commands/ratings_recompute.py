"""``manage.py ratings_recompute``: rebuild every player's rating from the confirmed results."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tournaments.services import rating_recompute


class Command(BaseCommand):
    help = "Rebuild the OpenSkill ratings from every confirmed result, in confirmation order."

    def handle(self, *args: Any, **options: Any) -> None:
        count = rating_recompute()
        self.stdout.write(f"rated {count} results")
