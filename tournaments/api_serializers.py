"""Serializers of the tournaments API: what each endpoint reads and writes."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.models import (
    Entrant,
    HistoryEvent,
    Match,
    MatchLength,
    PlayerRating,
    ResultSubmission,
    Round,
    Tournament,
    TournamentFormat,
)


class TournamentSerializer(serializers.ModelSerializer[Tournament]):
    status = serializers.CharField(read_only=True)
    format = serializers.CharField(read_only=True)
    match_length = serializers.CharField(read_only=True)
    directors: Any = serializers.SlugRelatedField(many=True, read_only=True, slug_field="username")
    entrants = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = [
            "id", "slug", "name", "description", "rules", "format", "format_options",
            "match_length", "match_games", "status", "is_public", "directors", "entrants",
            "created_at", "started_at", "finished_at",
        ]  # fmt: skip
        read_only_fields = fields

    def get_entrants(self, obj: Tournament) -> int:
        return int(getattr(obj, "entrant_count", None) or obj.entrants.count())


class TournamentWriteSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=200)
    description = serializers.CharField(required=False, allow_blank=True, max_length=5000)
    rules = serializers.DictField(
        required=False, help_text='A record\'s rules object, e.g. {"players": 4, "options": {}}.'
    )
    format = serializers.ChoiceField(choices=TournamentFormat.choices, required=False)
    format_options = serializers.DictField(
        required=False,
        help_text="tiebreaks (ordered names), rounds (Swiss), third_place (single elimination), "
        "reset (double elimination), cycles (round robin), forbidden (Swiss: pairs of names).",
    )
    match_length = serializers.ChoiceField(choices=MatchLength.choices, required=False)
    match_games = serializers.IntegerField(min_value=1, max_value=15, required=False)
    is_public = serializers.BooleanField(required=False)
    co_directors = serializers.ListField(
        child=serializers.CharField(max_length=150), required=False, max_length=20,
        help_text="Usernames of co-directors (on edit: replaces the current co-directors).",
    )  # fmt: skip


class EventEntrantSerializer(serializers.ModelSerializer[Entrant]):
    kind = serializers.CharField(read_only=True)
    players = serializers.SerializerMethodField()

    class Meta:
        model = Entrant
        fields = [
            "id", "name", "kind", "bot_name", "bot_version", "seed", "withdrawn", "late", "players",
        ]  # fmt: skip
        read_only_fields = fields

    def get_players(self, obj: Entrant) -> list[str]:
        return [p.name for p in obj.member_players()]


class EventEntrantWriteSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(required=False, allow_blank=True, max_length=100)
    players = serializers.ListField(
        child=serializers.CharField(max_length=100), required=False, max_length=3,
        help_text="The players' names: two (or three) for a partnership, one for an individual.",
    )  # fmt: skip
    bot = serializers.CharField(
        required=False, max_length=100,
        help_text="A built-in bot (heuristic, random) or an arena bot: bot:<id> or version:<id>.",
    )  # fmt: skip
    seed = serializers.IntegerField(required=False, min_value=1, max_value=100000)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500)


class WithdrawalSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(max_length=500)


class TableSideSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField()
    entrant = serializers.IntegerField(source="entrant_id")
    name = serializers.CharField(source="entrant.name")
    points = serializers.IntegerField(allow_null=True)
    is_winner = serializers.BooleanField()


class TableSerializer(serializers.ModelSerializer[Match]):
    round = serializers.IntegerField(source="round.number")
    sides = TableSideSerializer(many=True)
    records: Any = serializers.PrimaryKeyRelatedField(many=True, read_only=True)
    confirmed_by: Any = serializers.SlugRelatedField(read_only=True, slug_field="username")
    status = serializers.CharField(read_only=True)
    outcome = serializers.CharField(read_only=True)

    class Meta:
        model = Match
        fields = [
            "id", "round", "table", "bracket_match", "reason", "status", "outcome", "sides",
            "records", "confirmed_by", "confirmed_at",
        ]  # fmt: skip
        read_only_fields = fields


class EventRoundSerializer(serializers.ModelSerializer[Round]):
    status = serializers.CharField(read_only=True)
    matches = TableSerializer(many=True)

    class Meta:
        model = Round
        fields = ["number", "status", "created_at", "matches"]
        read_only_fields = fields


class ResultGamesSerializer(serializers.Serializer[Any]):
    games = serializers.ListField(
        child=serializers.DictField(), min_length=1, max_length=15,
        help_text='Each game is a score sheet {"first_dealer": 0, "hands": [{"contract": "7H", '
        '"contractor": 1, "tricks": [3, 7]}, ...]} or an uploaded record {"record": {...}}.',
    )  # fmt: skip


class ResultCorrectionSerializer(ResultGamesSerializer):
    reason = serializers.CharField(max_length=500)


class ResultConfirmSerializer(serializers.Serializer[Any]):
    submission = serializers.IntegerField(min_value=1)


class ForfeitRequestSerializer(serializers.Serializer[Any]):
    absent = serializers.ListField(child=serializers.IntegerField(min_value=1), min_length=1)
    reason = serializers.CharField(max_length=500)


class PairingOverrideSerializer(serializers.Serializer[Any]):
    first = serializers.IntegerField(min_value=1, help_text="An entrant id.")
    second = serializers.IntegerField(min_value=1, help_text="An entrant id.")
    reason = serializers.CharField(max_length=500)


class ResultSubmissionSerializer(serializers.ModelSerializer[ResultSubmission]):
    records: Any = serializers.PrimaryKeyRelatedField(many=True, read_only=True)
    submitted_by: Any = serializers.SlugRelatedField(read_only=True, slug_field="username")
    kind = serializers.CharField(read_only=True)
    status = serializers.CharField(read_only=True)
    outcome = serializers.CharField(read_only=True)

    class Meta:
        model = ResultSubmission
        fields = [
            "id", "match", "kind", "status", "outcome", "points", "winners", "records",
            "submitted_by", "created_at",
        ]  # fmt: skip
        read_only_fields = fields


class StandingRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    entrant = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.IntegerField()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    tiebreaks = serializers.DictField(child=serializers.FloatField())


class EventHistorySerializer(serializers.ModelSerializer[HistoryEvent]):
    actor: Any = serializers.SlugRelatedField(read_only=True, slug_field="username")
    kind = serializers.CharField(read_only=True)

    class Meta:
        model = HistoryEvent
        fields = ["created_at", "actor", "kind", "message", "reason"]
        read_only_fields = fields


class PlayerRatingSerializer(serializers.ModelSerializer[PlayerRating]):
    name = serializers.CharField(source="player.name")
    ordinal = serializers.FloatField()

    class Meta:
        model = PlayerRating
        fields = ["player", "name", "mu", "sigma", "ordinal", "matches", "updated_at"]
        read_only_fields = fields


class EventBracketMatchSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    section = serializers.CharField()
    round = serializers.IntegerField()
    entrants = serializers.ListField(child=serializers.CharField(allow_null=True))
    status = serializers.CharField()
    winner = serializers.CharField(allow_null=True)


class EventBracketSerializer(serializers.Serializer[Any]):
    kind = serializers.CharField()
    champion = serializers.CharField(allow_null=True)
    runner_up = serializers.CharField(allow_null=True)
    third = serializers.CharField(allow_null=True)
    finished = serializers.BooleanField()
    matches = EventBracketMatchSerializer(many=True)
