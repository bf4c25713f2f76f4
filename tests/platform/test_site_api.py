"""The records API: upload, duplicates, invalid records, permissions, filters, pagination, errors."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from fivehundred.record import digest
from replays.models import StoredRecord
from replays.services import record_ingest

pytestmark = pytest.mark.django_db

RECORDS = "/api/v1/records/"


def post_json(client: APIClient, body: Any) -> Any:
    payload = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(RECORDS, data=payload, content_type="application/json")


def assert_error_body(response: Any, status: int, code: str | None = None) -> list[dict[str, str]]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    errors = response.json()["errors"]
    assert errors, "an error response names at least one error"
    for item in errors:
        assert set(item) >= {"pointer", "code", "message"}
        assert item["message"]
    if code is not None:
        assert errors[0]["code"] == code, errors
    return errors  # type: ignore[no-any-return]


# --- Upload -----------------------------------------------------------------------------------


def test_upload_stores_a_valid_record(player_client: APIClient, make_record: Any) -> None:
    data = make_record(4, "api-1", name="Club night")
    response = post_json(player_client, data)
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["digest"] == digest(data)
    assert body["status"] == "complete"
    assert body["event"]["name"] == "Club night"
    assert body["uploaded_by"] == "pat-player"
    assert body["record"] == data
    assert body["errors"] == []
    assert StoredRecord.objects.get().pk == body["id"]


def test_duplicate_upload_returns_the_existing_record(
    player_client: APIClient, client_for: Any, outsider: User, make_record: Any
) -> None:
    first = post_json(player_client, make_record(4, "api-dup"))
    second = post_json(client_for(outsider), make_record(4, "api-dup"))
    assert (first.status_code, second.status_code) == (201, 200)
    assert second.json()["id"] == first.json()["id"]
    assert second.json()["uploaded_by"] == "pat-player"  # the first uploader stays
    assert StoredRecord.objects.count() == 1


def test_invalid_record_gets_the_verifiers_errors_and_nothing_is_stored(
    player_client: APIClient, make_record: Any
) -> None:
    data = make_record(4, "api-bad")
    data["hands"][0]["result"]["totals"] = [t + 5 for t in data["hands"][0]["result"]["totals"]]
    errors = assert_error_body(post_json(player_client, data), 400, "totals_mismatch")
    assert errors[0]["pointer"] == "/hands/0/result/totals"
    assert StoredRecord.objects.count() == 0


def test_multipart_file_upload(player_client: APIClient, make_record: Any) -> None:
    data = make_record(4, "api-file")
    upload = SimpleUploadedFile("game.json", json.dumps(data).encode(), "application/json")
    response = player_client.post(RECORDS, {"file": upload}, format="multipart")
    assert response.status_code == 201, response.content
    assert response.json()["digest"] == digest(data)


def test_anonymous_users_cannot_upload(anon_client: APIClient, make_record: Any) -> None:
    assert_error_body(post_json(anon_client, make_record(4, "api-anon")), 401, "not_authenticated")
    assert StoredRecord.objects.count() == 0


def test_bad_token_is_refused(make_record: Any) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert_error_body(post_json(client, make_record(4, "api-token")), 401, "authentication_failed")


def test_token_is_issued_for_a_username_and_password(player_user: User) -> None:
    client = APIClient()
    response = client.post(
        "/api/v1/auth/token/",
        {"username": "pat-player", "password": "a-long-test-password"},
        format="json",
    )
    assert response.status_code == 200
    assert len(response.json()["token"]) == 40
    wrong = client.post(
        "/api/v1/auth/token/", {"username": "pat-player", "password": "nope"}, format="json"
    )
    assert_error_body(wrong, 400)


def test_session_authentication_works_for_upload(player_user: User, make_record: Any) -> None:
    client = APIClient()
    client.force_login(player_user)
    response = post_json(client, make_record(4, "api-session"))
    assert response.status_code == 201


# --- Bad input: always a clear 4xx in JSON ----------------------------------------------------


def test_malformed_json_body(player_client: APIClient) -> None:
    errors = assert_error_body(post_json(player_client, b'{"format": "fivehundred-record",'), 400)
    assert errors[0]["code"] == "not_json"


def test_empty_body(player_client: APIClient) -> None:
    assert_error_body(post_json(player_client, b""), 400, "not_json")


def test_json_that_is_not_a_record(player_client: APIClient) -> None:
    for body in ([1, 2, 3], '"text"', {"hello": "world"}, None):
        assert_error_body(post_json(player_client, json.dumps(body)), 400)


def test_wrong_content_type(player_client: APIClient, make_record: Any) -> None:
    response = player_client.post(
        RECORDS, data=json.dumps(make_record(4, "api-ct")), content_type="text/plain"
    )
    errors = assert_error_body(response, 415, "unsupported_media_type")
    assert "application/json" in errors[0]["message"]


def test_oversize_body(player_client: APIClient, settings: Any, make_record: Any) -> None:
    settings.API_UPLOAD_MAX_BYTES = 1000
    errors = assert_error_body(
        post_json(player_client, make_record(4, "api-big")), 413, "too_large"
    )
    assert "1000 bytes" in errors[0]["message"]
    assert StoredRecord.objects.count() == 0


def test_oversize_file(player_client: APIClient, settings: Any, make_record: Any) -> None:
    settings.API_UPLOAD_MAX_BYTES = 1000
    upload = SimpleUploadedFile("big.json", b" " * 5000 + b"{}", "application/json")
    response = player_client.post(RECORDS, {"file": upload}, format="multipart")
    assert_error_body(response, 413, "too_large")


def test_huge_record_at_the_default_limit_is_refused(player_client: APIClient) -> None:
    # Over 5 MiB of otherwise plausible JSON: refused by size before any parsing.
    huge = b'{"format": "fivehundred-record", "x-pad": "' + b"a" * (5 * 1024 * 1024) + b'"}'
    assert_error_body(post_json(player_client, huge), 413, "too_large")


def test_huge_but_allowed_record_is_verified_not_crashed(player_client: APIClient) -> None:
    # A few MB of deeply repetitive content under the limit: the verifier answers, quickly.
    hands = [{"dealer": 0, "deal": {"hands": [["AS"] * 10] * 4, "kitty": ["JK"] * 3}}] * 2000
    body = {
        "format": "fivehundred-record",
        "version": 1,
        "rules": {"ruleset": "australian", "players": 4, "options": {}},
        "seats": [{"name": "x"}] * 4,
        "hands": hands,
    }
    response = post_json(player_client, body)
    assert_error_body(response, 400)


def test_unknown_form_fields(player_client: APIClient, make_record: Any) -> None:
    upload = SimpleUploadedFile("g.json", json.dumps(make_record(4, "api-f")).encode())
    response = player_client.post(RECORDS, {"file": upload, "colour": "red"}, format="multipart")
    errors = assert_error_body(response, 400, "bad_upload")
    assert "colour" in errors[0]["message"]


def test_missing_file_in_form(player_client: APIClient) -> None:
    response = player_client.post(RECORDS, {}, format="multipart")
    assert_error_body(response, 400, "bad_upload")


def test_unknown_top_level_field_in_record(player_client: APIClient, make_record: Any) -> None:
    data = make_record(4, "api-unknown")
    data["colour"] = "red"
    errors = assert_error_body(post_json(player_client, data), 400, "schema")
    assert any(e["pointer"].startswith("/colour") or "colour" in e["message"] for e in errors)


def test_unknown_url_under_api_is_json_404(anon_client: APIClient) -> None:
    assert_error_body(anon_client.get("/api/v1/no-such-thing/"), 404, "not_found")


def test_wrong_method_is_json_405(player_client: APIClient) -> None:
    assert_error_body(player_client.delete(RECORDS), 405, "method_not_allowed")


def test_upload_throttle(
    player_client: APIClient, monkeypatch: pytest.MonkeyPatch, anon_client: APIClient
) -> None:
    from rest_framework.throttling import ScopedRateThrottle

    rates = {**ScopedRateThrottle.THROTTLE_RATES, "upload": "2/minute"}
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)
    assert [post_json(player_client, b"{}").status_code for _ in range(2)] == [400, 400]
    errors = assert_error_body(post_json(player_client, b"{}"), 429, "throttled")
    assert "available in" in errors[0]["message"]
    # Only uploads are limited by this scope; reading goes on.
    assert player_client.get(RECORDS).status_code == 200


# --- Reading ----------------------------------------------------------------------------------


@pytest.fixture
def stored(make_record: Any, player_user: User) -> list[StoredRecord]:
    specs = [
        (4, "read-1", "Tuesday club night", "2026-11-03"),
        (4, "read-2", "Tuesday club night", "2026-11-10"),
        (3, "read-3", "Ladder", "2026-11-20"),
        (5, "read-4", "Friday five", "2026-11-21"),
    ]
    out = []
    for players, seed, name, date in specs:
        record, _ = record_ingest(
            data=make_record(players, seed, name=name, date=date), uploaded_by=player_user
        )
        out.append(record)
    return out


def test_anonymous_users_read_public_records(
    anon_client: APIClient, stored: list[StoredRecord]
) -> None:
    listing = anon_client.get(RECORDS)
    assert listing.status_code == 200
    body = listing.json()
    assert body["count"] == 4
    assert [r["id"] for r in body["results"]] == [r.pk for r in reversed(stored)]
    detail = anon_client.get(f"{RECORDS}{stored[0].pk}/")
    assert detail.status_code == 200
    assert detail.json()["record"] == stored[0].data


def test_private_records_are_hidden_from_others(
    anon_client: APIClient,
    client_for: Any,
    outsider: User,
    player_user: User,
    stored: list[StoredRecord],
) -> None:
    StoredRecord.objects.filter(pk=stored[0].pk).update(is_public=False)
    assert anon_client.get(RECORDS).json()["count"] == 3
    assert_error_body(anon_client.get(f"{RECORDS}{stored[0].pk}/"), 404, "not_found")
    assert client_for(outsider).get(f"{RECORDS}{stored[0].pk}/").status_code == 404
    assert client_for(player_user).get(f"{RECORDS}{stored[0].pk}/").status_code == 200


def test_download_returns_the_record_as_a_json_file(
    anon_client: APIClient, stored: list[StoredRecord]
) -> None:
    response = anon_client.get(f"{RECORDS}{stored[1].pk}/download/")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "attachment" in response["Content-Disposition"]
    assert json.loads(response.content) == stored[1].data
    assert digest(json.loads(response.content)) == stored[1].digest


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("event=tuesday", [1, 0]),
        ("players=3", [2]),
        ("players=5", [3]),
        ("date_from=2026-11-10", [3, 2, 1]),
        ("date_to=2026-11-10", [1, 0]),
        ("date_from=2026-11-04&date_to=2026-11-20", [2, 1]),
        ("status=complete", [3, 2, 1, 0]),
        ("status=in_progress", []),
        ("event=tuesday&players=3", []),
    ],
)
def test_list_filters(
    anon_client: APIClient, stored: list[StoredRecord], query: str, expected: list[int]
) -> None:
    response = anon_client.get(f"{RECORDS}?{query}")
    assert response.status_code == 200, response.content
    assert [r["id"] for r in response.json()["results"]] == [stored[i].pk for i in expected]


def test_filter_by_player_name_and_digest(
    anon_client: APIClient, stored: list[StoredRecord]
) -> None:
    name = stored[2].data["seats"][0]["name"]
    expected = {r.pk for r in stored if name in [s["name"] for s in r.data["seats"]]}
    response = anon_client.get(RECORDS, {"player": name.upper()})
    assert {r["id"] for r in response.json()["results"]} == expected
    response = anon_client.get(RECORDS, {"digest": stored[3].digest})
    assert [r["id"] for r in response.json()["results"]] == [stored[3].pk]


def test_pagination(anon_client: APIClient, stored: list[StoredRecord]) -> None:
    first = anon_client.get(RECORDS, {"page_size": 3}).json()
    assert first["count"] == 4 and len(first["results"]) == 3
    assert first["previous"] is None and "page=2" in first["next"]
    second = anon_client.get(RECORDS, {"page_size": 3, "page": 2}).json()
    assert [r["id"] for r in second["results"]] == [stored[0].pk]
    assert second["next"] is None
    assert_error_body(anon_client.get(RECORDS, {"page": 9}), 404, "not_found")


@pytest.mark.parametrize(
    ("query", "code", "pointer"),
    [
        ({"date_from": "yesterday"}, "invalid", "/date_from"),
        ({"players": "7"}, "max_value", "/players"),
        ({"status": "done"}, "invalid_choice", "/status"),
        ({"digest": "abc"}, "invalid", "/digest"),
        ({"date_from": "2026-12-01", "date_to": "2026-11-01"}, "invalid", "/date_to"),
        ({"page_size": "0"}, "min_value", "/page_size"),
        ({"colour": "red"}, "unknown_parameter", "/colour"),
    ],
)
def test_bad_query_parameters(
    anon_client: APIClient, query: dict[str, str], code: str, pointer: str
) -> None:
    errors = assert_error_body(anon_client.get(RECORDS, query), 400, code)
    assert errors[0]["pointer"] == pointer


def test_players_and_teams_are_listed(anon_client: APIClient) -> None:
    from tournaments.services import player_get_or_create, team_get_or_create

    alice, _ = player_get_or_create(name="Alice")
    carol, _ = player_get_or_create(name="Carol")
    team_get_or_create(name="Alice & Carol", members=[alice, carol])
    players = anon_client.get("/api/v1/players/").json()
    assert [p["name"] for p in players["results"]] == ["Alice", "Carol"]
    assert players["results"][0]["record_id"] == f"player:{alice.pk}"
    teams = anon_client.get("/api/v1/teams/").json()
    assert [m["name"] for m in teams["results"][0]["members"]] == ["Alice", "Carol"]
    assert anon_client.get(f"/api/v1/players/{alice.pk}/").json()["name"] == "Alice"


def test_health_and_root(anon_client: APIClient) -> None:
    health = anon_client.get("/api/v1/health/").json()
    assert health["status"] == "ok"
    assert health["tasks"] == "eager" or health["tasks"] == "broker"
    root = anon_client.get("/api/v1/").json()
    assert root["endpoints"]["record-list"].endswith("/api/v1/records/")
    assert root["endpoints"]["tournament-list"].endswith("/api/v1/tournaments/")
    assert root["endpoints"]["bot-list"].endswith("/api/v1/bots/")
    assert root["endpoints"]["ladder"].endswith("/api/v1/ladder/")


def test_an_unexpected_error_is_still_json(
    anon_client: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(**kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr("api.views.record_list", broken)
    assert_error_body(anon_client.get(RECORDS), 500, "server_error")


def test_missing_player_is_json_404(anon_client: APIClient) -> None:
    # Generic views raise Django's Http404, which must come out in the API's error shape too.
    assert_error_body(anon_client.get("/api/v1/players/99999/"), 404, "not_found")
