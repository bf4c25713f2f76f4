from django.contrib import admin

from arena.models import Bot, BotMatch, BotMatchGame, BotRating, BotVersion, LadderSettings


class BotVersionInline(admin.TabularInline[BotVersion, Bot]):
    model = BotVersion
    extra = 0
    fields = ["number", "filename", "entry", "size", "sha256", "status", "reason", "created_at"]
    readonly_fields = ["number", "filename", "entry", "size", "sha256", "status", "reason",
                       "created_at"]  # fmt: skip
    can_delete = False
    show_change_link = True


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin[Bot]):
    list_display = ["name", "owner", "created_at"]
    search_fields = ["name", "owner__username"]
    raw_id_fields = ["owner"]
    inlines = [BotVersionInline]


@admin.register(BotVersion)
class BotVersionAdmin(admin.ModelAdmin[BotVersion]):
    list_display = ["bot", "number", "status", "filename", "size", "created_at", "validated_at"]
    list_filter = ["status"]
    search_fields = ["bot__name", "bot__owner__username", "sha256"]
    # The code itself is downloadable through the API by staff; the admin never renders it.
    exclude = ["code"]
    readonly_fields = ["sha256", "size", "fault", "stderr_tail", "validation_record", "claimed_at"]
    raw_id_fields = ["bot"]


class BotMatchGameInline(admin.TabularInline[BotMatchGame, BotMatch]):
    model = BotMatchGame
    extra = 0
    readonly_fields = ["index", "board", "round", "record"]
    can_delete = False


@admin.register(BotMatch)
class BotMatchAdmin(admin.ModelAdmin[BotMatch]):
    list_display = ["id", "kind", "status", "version_a", "builtin_a", "version_b", "builtin_b",
                    "winner", "attempts", "claimed_by", "finished_at"]  # fmt: skip
    list_filter = ["status", "kind", "rated"]
    raw_id_fields = ["version_a", "version_b", "created_by"]
    readonly_fields = ["claim_token", "rated_seq"]
    inlines = [BotMatchGameInline]


@admin.register(BotRating)
class BotRatingAdmin(admin.ModelAdmin[BotRating]):
    list_display = ["key", "mu", "sigma", "games", "wins", "losses", "draws", "updated_at"]
    search_fields = ["key"]
    raw_id_fields = ["version"]


@admin.register(LadderSettings)
class LadderSettingsAdmin(admin.ModelAdmin[LadderSettings]):
    list_display = ["__str__", "enabled", "players", "boards", "rating_window", "claim_timeout_s"]
    readonly_fields = ["last_seq"]
