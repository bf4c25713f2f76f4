from django.contrib import admin

from tournaments.models import Player, Team, Tournament


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
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors"]
