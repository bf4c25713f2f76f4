"""``manage.py demo``: players, teams and bot-played records; running it twice adds nothing."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from replays.models import RecordSeat, StoredRecord
from tournaments.models import Player, Team

pytestmark = pytest.mark.django_db


def test_demo_creates_players_and_verified_records_once() -> None:
    out = StringIO()
    call_command("demo", stdout=out)
    assert "6 records (6 new)" in out.getvalue()
    assert Player.objects.count() == 6
    assert Team.objects.count() == 2
    records = list(StoredRecord.objects.all())
    assert len(records) == 6
    assert {r.players for r in records} == {3, 4, 5, 6}
    assert all(r.status == "complete" and r.errors == [] for r in records)
    # Every seat is linked to its player through the seat id.
    assert not RecordSeat.objects.filter(player__isnull=True).exists()

    again = StringIO()
    call_command("demo", stdout=again)
    assert "(0 new)" in again.getvalue()
    assert StoredRecord.objects.count() == 6
    assert Player.objects.count() == 6


def test_demo_plays_a_bot_event_and_ladder_matches_once(
    django_capture_on_commit_callbacks: object,
) -> None:
    from arena.models import BotMatch, BotRating
    from tournaments.models import Tournament

    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        call_command("demo", stdout=StringIO())
    event = Tournament.objects.get(name="Demo bot Swiss")
    assert event.status == "finished"
    assert event.rounds.count() == 3
    assert BotMatch.objects.filter(status="finished").count() == 2
    assert {r.key for r in BotRating.objects.all()} == {"builtin:heuristic", "builtin:random"}
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        call_command("demo", stdout=StringIO())
    assert Tournament.objects.filter(name="Demo bot Swiss").count() == 1
    assert BotMatch.objects.count() == 2
