"""Stored game records: the verified JSON plus the summary fields that lists filter on."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Upper


class RecordStatus(models.TextChoices):
    COMPLETE = "complete", "complete"
    IN_PROGRESS = "in_progress", "in progress"
    # Never produced by an upload (invalid records are refused); a stored record becomes invalid
    # only when re-verified by a stricter engine, and it is kept so nothing silently disappears.
    INVALID = "invalid", "invalid"


class StoredRecord(models.Model):
    """One game record (docs/record-format.md), stored once per canonical digest."""

    data = models.JSONField(help_text="The record as uploaded, parsed.")
    digest = models.CharField(
        max_length=64, unique=True, help_text="SHA-256 of the record's canonical form."
    )
    status = models.CharField(max_length=16, choices=RecordStatus.choices)
    errors = models.JSONField(default=list, blank=True, help_text="The verifier's errors, if any.")
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="uploaded_records",
    )
    is_public = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    verified_at = models.DateTimeField(null=True, blank=True)

    # Summary fields copied out of ``data`` at ingest, so that lists and filters never parse JSON.
    players = models.PositiveSmallIntegerField()
    event_name = models.CharField(max_length=200, blank=True)
    event_site = models.CharField(max_length=200, blank=True)
    event_date = models.DateField(null=True, blank=True)
    hands_count = models.PositiveIntegerField(default=0)
    scores = models.JSONField(null=True, blank=True)
    winner = models.JSONField(null=True, blank=True)
    result_reason = models.CharField(max_length=32, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["event_name", "-created_at"], name="record_event_idx"),
            models.Index(fields=["event_date"], name="record_date_idx"),
            models.Index(fields=["status", "-created_at"], name="record_status_idx"),
            models.Index(fields=["players"], name="record_players_idx"),
            models.Index(fields=["-created_at", "-id"], name="record_created_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.title} ({self.digest[:12]})"

    @property
    def seat_names(self) -> list[str]:
        return [seat.name for seat in self.seats.all()]

    @property
    def title(self) -> str:
        names = ", ".join(self.seat_names)
        return f"{self.event_name}: {names}" if self.event_name else names


class RecordSeat(models.Model):
    """Who sat where in a stored record; the table behind "records of this player"."""

    record = models.ForeignKey(StoredRecord, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=200)
    seat_id = models.CharField(max_length=200, blank=True, help_text="The record's seat id.")
    kind = models.CharField(max_length=16, blank=True)
    player = models.ForeignKey(
        "tournaments.Player",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="record_seats",
    )

    class Meta:
        ordering = ["record", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["record", "seat"], name="record_seat_unique"),
        ]
        indexes = [
            # Player filters compare names case-insensitively (UPPER(name) = UPPER(%s)).
            models.Index(Upper("name"), name="recordseat_name_upper_idx"),
            models.Index(fields=["player"], name="recordseat_player_idx"),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat}: {self.name}"


# Annotations live in their own module; importing it here lets Django find the model.
from replays.models_annotations import Annotation  # noqa: E402, F401
