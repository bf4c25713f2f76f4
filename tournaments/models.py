"""Players, teams (partnerships) and tournaments: the people side of the platform."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower

RECORD_ID_PREFIX = "player:"


class Player(models.Model):
    """A person or club member who plays; optionally tied to a site account.

    Records name seats with free text; a record links a seat to a player with the seat id
    ``player:<id>`` (see ``Player.record_id``).
    """

    name = models.CharField(max_length=100)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
        help_text="The site account of this player, if they have one.",
    )
    club = models.CharField(max_length=100, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(Lower("name"), name="player_name_unique_ci"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def record_id(self) -> str:
        """The seat id that links a record's seat to this player."""
        return f"{RECORD_ID_PREFIX}{self.pk}"

    @staticmethod
    def pk_from_record_id(seat_id: str) -> int | None:
        """The primary key named by a seat id ``player:<pk>``, or ``None`` for any other id."""
        number = seat_id.removeprefix(RECORD_ID_PREFIX)
        # The length bound keeps the number inside a 64-bit key column.
        if number == seat_id or not number.isdigit() or len(number) > 18:
            return None
        return int(number)


class Team(models.Model):
    """A standing partnership (two players in the four-player game, two or three with six)."""

    name = models.CharField(max_length=100)
    members = models.ManyToManyField(Player, related_name="teams")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(Lower("name"), name="team_name_unique_ci"),
        ]

    def __str__(self) -> str:
        return self.name


class Tournament(models.Model):
    """A tournament; for now its name and who directs it (the per-tournament director role).

    Formats, rounds and matches arrive with the tournament issues; the director relation is here
    first because permissions are built on it.
    """

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=200, unique=True)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="directed_tournaments", blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "id"]

    def __str__(self) -> str:
        return self.name
