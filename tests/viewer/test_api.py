"""The annotations and replay API: who may read and change what, and the engine's checks."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from fivehundred.engine import Deal, HandState, Rules, action_from_json
from replays.models import StoredRecord
from replays.models_annotations import Annotation
from replays.services import record_ingest
from tests.viewer.helpers import played

pytestmark = pytest.mark.django_db


def _first_play(record: StoredRecord) -> tuple[int, dict[str, Any]]:
    hand = record.data["hands"][0]
    k = next(i for i, a in enumerate(hand["actions"]) if "play" in a)
    return k, hand["actions"][k]


def _other_legal_play(record: StoredRecord, k: int) -> dict[str, Any]:
    """A legal play, other than the one made, from the state before action ``k`` of hand 0."""
    hand = record.data["hands"][0]
    rules = Rules.from_json(record.data["rules"])
    state = HandState.start(rules, hand["dealer"], Deal.from_json(hand["deal"]))
    for obj in hand["actions"][:k]:
        seat, action = action_from_json(obj)
        state = state.apply(action, seat)
    seat = state.to_act
    for action in state.legal_actions():
        if str(action.card) != hand["actions"][k]["play"]:  # type: ignore[union-attr]
            return {"seat": seat, "play": str(action.card)}  # type: ignore[union-attr]
    pytest.skip("only one legal play at the first lead")


def test_create_list_update_delete_own(game: StoredRecord, carol: User, client_for: Any) -> None:
    api = client_for(carol)
    k, _ = _first_play(game)
    better = _other_legal_play(game, k)
    url = f"/api/v1/records/{game.pk}/annotations/"
    made = api.post(
        url,
        {
            "hand": 0,
            "action": k,
            "glyph": "?",
            "text": "Lead *trumps*.",
            "cards": ["JK"],
            "variation": [better],
            "visibility": "public",
        },
        format="json",
    )
    assert made.status_code == 201, made.json()
    note = made.json()
    assert note["author"] == "carol" and note["variation"] == [better]
    assert "<em>trumps</em>" in note["html"]
    listed = client_for(None).get(url).json()
    assert [n["id"] for n in listed] == [note["id"]]
    changed = api.patch(f"/api/v1/annotations/{note['id']}/", {"glyph": "??"}, format="json")
    assert changed.status_code == 200 and changed.json()["glyph"] == "??"
    gone = api.delete(f"/api/v1/annotations/{note['id']}/")
    assert gone.status_code == 204
    assert not Annotation.objects.exists()


def test_an_illegal_variation_is_refused_with_the_engine_message(
    game: StoredRecord, carol: User, client_for: Any
) -> None:
    k, played_action = _first_play(game)
    hand = game.data["hands"][0]
    seat = played_action["seat"]
    foreign = next(c for s in range(4) if s != seat for c in hand["deal"]["hands"][s])
    response = client_for(carol).post(
        f"/api/v1/records/{game.pk}/annotations/",
        {"hand": 0, "action": k, "variation": [{"seat": seat, "play": foreign}]},
        format="json",
    )
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["pointer"] == "/variation/0" and error["code"] == "illegal_action"
    assert foreign in error["message"] and "R-" in error["message"]
    assert not Annotation.objects.exists()


@pytest.mark.parametrize(
    "body,pointer",
    [
        ({"hand": 99}, "/hand"),
        ({"hand": 0, "action": 999}, "/action"),
        ({"action": 3}, "/action"),
        ({"hand": 0, "cards": ["ZZ"]}, "/cards/0"),
        ({"hand": 0, "glyph": "?!?"}, "/glyph"),
        ({"variation": [{"seat": 0, "call": "PASS"}]}, "/variation"),
    ],
)
def test_bad_annotations_name_what_is_wrong(
    game: StoredRecord, carol: User, client_for: Any, body: dict[str, Any], pointer: str
) -> None:
    response = client_for(carol).post(
        f"/api/v1/records/{game.pk}/annotations/", body, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["pointer"] == pointer


def test_private_annotations_are_hidden_from_others(
    game: StoredRecord, carol: User, dave: User, client_for: Any
) -> None:
    url = f"/api/v1/records/{game.pk}/annotations/"
    mine = (
        client_for(carol)
        .post(url, {"hand": 1, "text": "just for me", "visibility": "private"}, format="json")
        .json()
    )
    assert [n["id"] for n in client_for(carol).get(url).json()] == [mine["id"]]
    assert client_for(dave).get(url).json() == []
    assert client_for(None).get(url).json() == []
    assert client_for(dave).get(f"/api/v1/annotations/{mine['id']}/").status_code == 404
    # Nor on the pages.
    page = client_for(None).get(f"/records/{game.pk}/?hand=1&action=0").content.decode()
    assert "just for me" not in page
    assert "just for me" not in client_for(None).get("/annotations/").content.decode()


def test_another_user_cannot_change_or_delete(
    game: StoredRecord, carol: User, dave: User, client_for: Any
) -> None:
    note = (
        client_for(carol)
        .post(f"/api/v1/records/{game.pk}/annotations/", {"text": "mine"}, format="json")
        .json()
    )
    url = f"/api/v1/annotations/{note['id']}/"
    response = client_for(dave).patch(url, {"text": "hijacked"}, format="json")
    assert response.status_code == 403
    assert response.json()["errors"][0]["code"] == "permission_denied"
    assert client_for(dave).delete(url).status_code == 403
    assert client_for(None).delete(url).status_code == 401
    assert Annotation.objects.get().text == "mine"


def test_signing_in_is_needed_to_annotate(game: StoredRecord, client_for: Any) -> None:
    response = client_for(None).post(
        f"/api/v1/records/{game.pk}/annotations/", {"text": "hi"}, format="json"
    )
    assert response.status_code == 401
    assert response.json()["errors"][0]["code"] == "not_authenticated"


def test_bot_owners_private_records_stay_theirs(
    bo: User, dave: User, carol: User, client_for: Any
) -> None:
    record, _ = record_ingest(data=played(4, "viewer-private"), uploaded_by=bo)
    StoredRecord.objects.filter(pk=record.pk).update(is_public=False)
    for path in (
        f"/api/v1/records/{record.pk}/annotations/",
        f"/api/v1/records/{record.pk}/replay/",
        f"/api/v1/records/{record.pk}/legal/?hand=0",
    ):
        assert client_for(dave).get(path).status_code == 404, path
        assert client_for(bo).get(path).status_code == 200, path
    owner, other = Client(), Client()
    owner.force_login(bo)
    other.force_login(dave)
    assert other.get(f"/records/{record.pk}/").status_code == 404
    assert owner.get(f"/records/{record.pk}/").status_code == 200
    assert other.get(f"/records/{record.digest[:10]}/").status_code == 404
    assert owner.get(f"/records/{record.digest[:10]}/").status_code == 200
    # The owner's public note on a private record is still only for those who see the record.
    client_for(bo).post(
        f"/api/v1/records/{record.pk}/annotations/", {"text": "my bot's plan"}, format="json"
    )
    assert "my bot" not in other.get("/annotations/").content.decode()
    assert "my bot" in owner.get("/annotations/").content.decode()


def test_replay_for_one_seat_has_no_other_cards(game: StoredRecord, client_for: Any) -> None:
    api = client_for(None)
    body = api.get(f"/api/v1/records/{game.pk}/replay/", {"seat": 2, "hand": 0}).json()
    assert body["seat"] == 2 and len(body["steps"]) == len(game.data["hands"][0]["actions"]) + 1
    others = {
        c for s, cards in enumerate(game.data["hands"][0]["deal"]["hands"]) if s != 2 for c in cards
    }
    first = body["steps"][0]
    shown = {c["card"] for seat in first["seats"] for c in seat["cards"] or []}
    assert shown == set(game.data["hands"][0]["deal"]["hands"][2])
    assert not shown & others
    everything = api.get(f"/api/v1/records/{game.pk}/replay/").json()
    assert len(everything["steps"]) == sum(len(h["actions"]) + 1 for h in game.data["hands"])


@pytest.mark.parametrize(
    "query,pointer",
    [({"seat": 9}, "/seat"), ({"seat": "x"}, "/seat"), ({"hand": 50}, "/hand")],
)
def test_replay_bad_parameters(
    game: StoredRecord, client_for: Any, query: dict[str, Any], pointer: str
) -> None:
    response = client_for(None).get(f"/api/v1/records/{game.pk}/replay/", query)
    assert response.status_code == 400
    assert response.json()["errors"][0]["pointer"] == pointer


def test_legal_lists_and_checks_the_next_action(game: StoredRecord, client_for: Any) -> None:
    api = client_for(None)
    url = f"/api/v1/records/{game.pk}/legal/"
    start = api.get(url, {"hand": 0}).json()
    assert start["to_act"] == game.data["hands"][0]["actions"][0]["seat"]
    assert {"action": {"seat": start["to_act"], "call": "PASS"}, "text": "PASS"} in start["legal"]
    added = api.get(url, {"hand": 0, "next": "PASS"}).json()
    assert added["added"] == {"seat": start["to_act"], "call": "PASS"}
    bad = api.get(url, {"hand": 0, "next": "play AS"})
    assert bad.status_code == 400 and bad.json()["errors"][0]["code"] == "illegal_action"
    nonsense = api.get(url, {"hand": 0, "next": "fly"})
    assert nonsense.status_code == 400


def test_endpoints_are_in_the_schema(client_for: Any, db: None) -> None:
    schema = client_for(None).get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    for path in (
        "/api/v1/records/{id}/annotations/",
        "/api/v1/annotations/{id}/",
        "/api/v1/records/{id}/replay/",
        "/api/v1/records/{id}/legal/",
    ):
        assert path in paths, path
