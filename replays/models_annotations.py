"""Annotations: people's comments on a stored record, its hands and its actions."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from replays.models import StoredRecord


class Glyph(models.TextChoices):
    BRILLIANT = "!!", "!! brilliant"
    GOOD = "!", "! good"
    INTERESTING = "!?", "!? interesting"
    DUBIOUS = "?!", "?! dubious"
    MISTAKE = "?", "? mistake"
    BLUNDER = "??", "?? blunder"


class Visibility(models.TextChoices):
    PRIVATE = "private", "private (only me)"
    PUBLIC = "public", "public"


class Annotation(models.Model):
    """A note on a whole game (no hand), a hand (no action) or one action of a full hand.

    ``hand`` and ``action`` are the record's 0-based indexes (docs/record-format.md section 6);
    a ``variation`` is a list of record action objects, legal from the state before ``action``.
    """

    record = models.ForeignKey(StoredRecord, on_delete=models.CASCADE, related_name="annotations")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="annotations"
    )
    hand = models.PositiveIntegerField(null=True, blank=True)
    action = models.PositiveIntegerField(null=True, blank=True)
    glyph = models.CharField(max_length=2, choices=Glyph.choices, blank=True)
    text = models.TextField(blank=True, help_text="Markdown; rendered without raw HTML.")
    cards = models.JSONField(default=list, blank=True, help_text="Highlighted cards.")
    variation = models.JSONField(default=list, blank=True, help_text="Record action objects.")
    visibility = models.CharField(
        max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["record", "hand", "action", "created_at", "id"]
        indexes = [
            models.Index(fields=["record", "hand", "action"], name="annotation_position_idx"),
            models.Index(fields=["author", "-created_at"], name="annotation_author_idx"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(action__isnull=True) | models.Q(hand__isnull=False),
                name="annotation_action_needs_hand",
            ),
        ]

    def __str__(self) -> str:
        where = "game" if self.hand is None else f"hand {self.hand}"
        if self.action is not None:
            where += f", action {self.action}"
        return f"{self.glyph or 'note'} on record {self.record_id} ({where})"

    @property
    def is_public(self) -> bool:
        return self.visibility == Visibility.PUBLIC
