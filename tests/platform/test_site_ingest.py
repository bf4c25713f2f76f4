"""record_ingest and record_reverify: verify, store once per digest, refuse invalid records."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User

from fivehundred.record import digest, dumps
from replays.models import RecordSeat, StoredRecord
from replays.selectors import record_get, record_list
from replays.services import RecordInvalid, record_ingest, record_reverify, record_reverify_enqueue
from tournaments.services import player_get_or_create

pytestmark = pytest.mark.django_db


def test_valid_record_is_stored_with_its_summary(make_record: Any, player_user: User) -> None:
    data = make_record(4, "ingest-1", name="Club night", site="Avondale", date="2026-11-29")
    stored, created = record_ingest(data=data, uploaded_by=player_user)

    assert created is True
    assert stored.digest == digest(data)
    assert stored.status == "complete"
    assert stored.errors == []
    assert stored.uploaded_by == player_user
    assert stored.players == 4
    assert (stored.event_name, stored.event_site) == ("Club night", "Avondale")
    assert stored.event_date is not None and stored.event_date.isoformat() == "2026-11-29"
    assert stored.hands_count == len(data["hands"])
    assert stored.scores == data["result"]["scores"]
    assert stored.winner == data["result"]["winner"]
    assert stored.data == data
    assert [s.name for s in stored.seats.all()] == [s["name"] for s in data["seats"]]


def test_text_and_bytes_are_accepted_like_a_dict(make_record: Any) -> None:
    data = make_record(4, "ingest-text")
    from_text, created = record_ingest(data=dumps(data))
    assert created
    from_bytes, created_again = record_ingest(data=json.dumps(data).encode())
    assert (from_bytes.pk, created_again) == (from_text.pk, False)


def test_duplicate_returns_the_existing_record(make_record: Any) -> None:
    data = make_record(4, "ingest-dup")
    first, created = record_ingest(data=data)
    again, created_again = record_ingest(data=make_record(4, "ingest-dup"))
    assert created and not created_again
    assert again.pk == first.pk
    assert StoredRecord.objects.count() == 1
    assert RecordSeat.objects.count() == 4


def test_invalid_record_is_refused_and_nothing_is_stored(make_record: Any) -> None:
    data = make_record(4, "ingest-bad")
    data["result"]["scores"] = [s + 10 for s in data["result"]["scores"]]
    with pytest.raises(RecordInvalid) as refused:
        record_ingest(data=data)
    errors = refused.value.errors
    assert errors[0].code == "result_mismatch"
    assert errors[0].pointer == "/result/scores"
    assert errors[0].message
    assert StoredRecord.objects.count() == 0
    assert RecordSeat.objects.count() == 0


def test_malformed_json_is_refused_with_not_json() -> None:
    with pytest.raises(RecordInvalid) as refused:
        record_ingest(data=b'{"format": "fivehundred-record", ')
    assert refused.value.errors[0].code == "not_json"
    assert StoredRecord.objects.count() == 0


def test_seats_link_to_players_by_seat_id(make_record: Any) -> None:
    alice, _ = player_get_or_create(name="Alice")
    data = make_record(4, "ingest-link")
    data["seats"][2]["id"] = alice.record_id
    data["seats"][3]["id"] = "player:999999"  # no such player: kept as text, not linked
    stored, _ = record_ingest(data=data)
    seats = list(stored.seats.order_by("seat"))
    assert seats[2].player == alice
    assert seats[3].player is None and seats[3].seat_id == "player:999999"
    assert list(record_list(player=str(alice.pk))) == [stored]
    assert list(record_list(player=alice.record_id)) == [stored]


def test_reverify_is_idempotent_and_flags_a_record_that_no_longer_verifies(
    make_record: Any,
) -> None:
    stored, _ = record_ingest(data=make_record(4, "ingest-reverify"))
    again = record_reverify(record_id=stored.pk)
    assert again is not None and again.status == "complete" and again.errors == []

    # Simulate a stored record that a stricter verifier would refuse.
    broken = dict(stored.data)
    broken["result"] = {**broken["result"], "winner": 1 - broken["result"]["winner"]}
    StoredRecord.objects.filter(pk=stored.pk).update(data=broken)
    flagged = record_reverify(record_id=stored.pk)
    assert flagged is not None and flagged.status == "invalid"
    assert flagged.errors[0]["pointer"] == "/result/winner"
    assert record_reverify(record_id=stored.pk + 1000) is None


def test_reverify_is_enqueued_only_on_commit(
    make_record: Any, django_capture_on_commit_callbacks: Any
) -> None:
    stored, _ = record_ingest(data=make_record(4, "ingest-enqueue"))
    StoredRecord.objects.filter(pk=stored.pk).update(verified_at=None)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        record_reverify_enqueue(record_id=stored.pk)
    stored.refresh_from_db()
    assert stored.verified_at is None  # nothing ran before the commit
    assert len(callbacks) == 1
    callbacks[0]()  # the commit: tasks are eager in tests, so it runs here
    stored.refresh_from_db()
    assert stored.verified_at is not None


def test_private_records_are_visible_to_their_uploader_and_staff_only(
    make_record: Any, player_user: User, outsider: User, staff: User
) -> None:
    stored, _ = record_ingest(data=make_record(4, "ingest-private"), uploaded_by=player_user)
    StoredRecord.objects.filter(pk=stored.pk).update(is_public=False)
    assert record_get(record_id=stored.pk, user=None) is None
    assert record_get(record_id=stored.pk, user=outsider) is None
    assert record_get(record_id=stored.pk, user=player_user) is not None
    assert record_get(record_id=stored.pk, user=staff) is not None


@pytest.mark.parametrize(
    ("seat_id", "pk"),
    [("player:17", 17), ("player:0", 0), ("17", None), ("bot:4", None), ("player:", None),
     ("player:x1", None), ("player:-3", None), ("player:" + "9" * 19, None)],
)  # fmt: skip
def test_seat_ids_that_name_a_player(seat_id: str, pk: int | None) -> None:
    from tournaments.models import Player

    assert Player.pk_from_record_id(seat_id) == pk
