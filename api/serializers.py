"""Input and output serializers. They describe shapes only; the work is in services/selectors."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from rest_framework import serializers

from replays.models import RecordSeat, RecordStatus, StoredRecord
from tournaments.models import Player, Team


class RecordFilterSerializer(serializers.Serializer[dict[str, Any]]):
    """Query parameters of the record list."""

    player = serializers.CharField(
        required=False, max_length=200, help_text="A seat name, or a player id (17 or player:17)."
    )
    event = serializers.CharField(
        required=False, max_length=200, help_text="Part of the event name."
    )
    date_from = serializers.DateField(required=False, help_text="Earliest event date (inclusive).")
    date_to = serializers.DateField(required=False, help_text="Latest event date (inclusive).")
    status = serializers.ChoiceField(required=False, choices=RecordStatus.choices)
    players = serializers.IntegerField(
        required=False, min_value=2, max_value=6, help_text="Number of seats."
    )
    digest = serializers.RegexField(
        r"^[0-9a-fA-F]{64}$", required=False, help_text="The record's SHA-256 digest."
    )
    page = serializers.IntegerField(required=False, min_value=1)
    page_size = serializers.IntegerField(required=False, min_value=1, max_value=100)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        date_from, date_to = attrs.get("date_from"), attrs.get("date_to")
        if date_from and date_to and date_from > date_to:
            raise serializers.ValidationError(
                {"date_to": f"must not be before date_from ({date_from.isoformat()})"}
            )
        return attrs


class RecordFileUploadSerializer(serializers.Serializer[dict[str, Any]]):
    """The multipart form of an upload: one file holding the record's JSON."""

    file = serializers.FileField(help_text="The record as a JSON file.")


class RecordSeatSerializer(serializers.ModelSerializer[RecordSeat]):
    id = serializers.CharField(source="seat_id")

    class Meta:
        model = RecordSeat
        fields = ["seat", "name", "id", "kind", "player"]


class EventSerializer(serializers.Serializer[StoredRecord]):
    name = serializers.CharField(source="event_name")
    site = serializers.CharField(source="event_site")
    date = serializers.DateField(source="event_date", allow_null=True)


class RecordSummarySerializer(serializers.ModelSerializer[StoredRecord]):
    event = EventSerializer(source="*")
    seats = RecordSeatSerializer(many=True)
    uploaded_by: serializers.SlugRelatedField[Any] = serializers.SlugRelatedField(
        slug_field="username", read_only=True
    )
    scores = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    winner = serializers.JSONField(
        allow_null=True, help_text="A side, a list of sides sharing the win, or null."
    )
    url = serializers.SerializerMethodField()
    download_url = serializers.SerializerMethodField()

    class Meta:
        model = StoredRecord
        fields = [
            "id",
            "digest",
            "status",
            "players",
            "event",
            "seats",
            "hands_count",
            "scores",
            "winner",
            "result_reason",
            "uploaded_by",
            "created_at",
            "url",
            "download_url",
        ]

    def get_url(self, obj: StoredRecord) -> str:
        return reverse("api:record-detail", args=[obj.pk])

    def get_download_url(self, obj: StoredRecord) -> str:
        return reverse("api:record-download", args=[obj.pk])


class RecordErrorSerializer(serializers.Serializer[dict[str, Any]]):
    pointer = serializers.CharField(help_text="JSON Pointer (RFC 6901) to the offending value.")
    code = serializers.CharField()
    message = serializers.CharField()


class RecordDetailSerializer(RecordSummarySerializer):
    # DRF's metaclass moves declared fields off the class, so this does not shadow
    # ``Serializer.errors`` at run time; the type checker cannot know that.
    errors = RecordErrorSerializer(many=True)  # type: ignore[assignment]
    record = serializers.JSONField(source="data", help_text="The record itself.")

    class Meta(RecordSummarySerializer.Meta):
        fields = [*RecordSummarySerializer.Meta.fields, "verified_at", "errors", "record"]


class ErrorResponseSerializer(serializers.Serializer[dict[str, Any]]):
    errors = RecordErrorSerializer(many=True)  # type: ignore[assignment]


class PlayerSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "name", "club", "record_id", "created_at"]


class TeamSerializer(serializers.ModelSerializer[Team]):
    members = PlayerSerializer(many=True)

    class Meta:
        model = Team
        fields = ["id", "name", "members", "created_at"]
