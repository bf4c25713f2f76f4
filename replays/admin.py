from django.contrib import admin

from replays.models import RecordSeat, StoredRecord


class RecordSeatInline(admin.TabularInline[RecordSeat, StoredRecord]):
    model = RecordSeat
    extra = 0
    raw_id_fields = ["player"]


@admin.register(StoredRecord)
class StoredRecordAdmin(admin.ModelAdmin[StoredRecord]):
    list_display = ["id", "event_name", "event_date", "players", "status", "created_at"]
    list_filter = ["status", "players", "is_public"]
    search_fields = ["digest", "event_name", "seats__name"]
    date_hierarchy = "created_at"
    raw_id_fields = ["uploaded_by"]
    readonly_fields = ["digest", "created_at", "verified_at"]
    inlines = [RecordSeatInline]


@admin.register(RecordSeat)
class RecordSeatAdmin(admin.ModelAdmin[RecordSeat]):
    list_display = ["record", "seat", "name", "seat_id", "kind", "player"]
    search_fields = ["name", "seat_id"]
    raw_id_fields = ["record", "player"]
