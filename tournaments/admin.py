from django.contrib import admin

from tournaments.models import (
    Entrant,
    HistoryEvent,
    Match,
    MatchSide,
    Player,
    PlayerRating,
    ResultSubmission,
    Round,
    Team,
    Tournament,
)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ["name", "club", "user", "created_at"]
    search_fields = ["name", "club", "user__username"]
    raw_id_fields = ["user"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin[Team]):
    list_display = ["name", "created_at"]
    search_fields = ["name", "members__name"]
    filter_horizontal = ["members"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    list_display = ["name", "slug", "format", "status", "is_public", "created_at"]
    list_filter = ["format", "status", "is_public"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors"]


@admin.register(Entrant)
class EntrantAdmin(admin.ModelAdmin[Entrant]):
    list_display = ["name", "tournament", "seed", "kind", "withdrawn", "late"]
    list_filter = ["kind", "withdrawn"]
    search_fields = ["name", "tournament__name"]
    raw_id_fields = ["tournament", "player", "team"]


class MatchSideInline(admin.TabularInline[MatchSide, Match]):
    model = MatchSide
    raw_id_fields = ["entrant"]
    extra = 0


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin[Match]):
    list_display = ["__str__", "status", "outcome", "confirmed_at"]
    list_filter = ["status", "outcome"]
    raw_id_fields = ["tournament", "round", "records", "confirmed_by"]
    inlines = [MatchSideInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin[Round]):
    list_display = ["tournament", "number", "status"]
    raw_id_fields = ["tournament"]


@admin.register(ResultSubmission)
class ResultSubmissionAdmin(admin.ModelAdmin[ResultSubmission]):
    list_display = ["match", "kind", "status", "outcome", "submitted_by", "created_at"]
    raw_id_fields = ["match", "records", "submitted_by"]


@admin.register(HistoryEvent)
class HistoryEventAdmin(admin.ModelAdmin[HistoryEvent]):
    list_display = ["tournament", "kind", "message", "actor", "created_at"]
    list_filter = ["kind"]
    raw_id_fields = ["tournament", "actor"]


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin[PlayerRating]):
    list_display = ["player", "mu", "sigma", "matches", "updated_at"]
    raw_id_fields = ["player"]
