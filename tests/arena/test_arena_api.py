"""The arena API: operations, permissions (code and faults hidden from others), 4xx JSON errors,
and the OpenAPI schema."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from arena.models import Bot, BotMatch, BotVersion
from tests.arena.conftest import CRASHING_BOT, GOOD_BOT

pytestmark = pytest.mark.django_db(transaction=True)


def upload(client: Any, bot_id: int, content: bytes, name: str = "bot.py", **extra: str) -> Any:
    return client.post(
        f"/api/v1/bots/{bot_id}/versions/",
        {"file": SimpleUploadedFile(name, content), **extra},
        format="multipart",
    )


def errors(response: Any) -> list[dict[str, str]]:
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"errors"}
    return body["errors"]


def test_an_owner_creates_uploads_and_the_version_becomes_active(owner, client_for) -> None:
    client = client_for(owner)
    created = client.post("/api/v1/bots/", {"name": "alpha", "description": "first"}, format="json")
    assert created.status_code == 201, created.content
    bot_id = created.json()["id"]
    response = upload(client, bot_id, GOOD_BOT)
    assert response.status_code == 201, response.content
    version = response.json()
    assert version["number"] == 1 and version["status"] == "active"
    assert version["code_url"] == f"/api/v1/bots/{bot_id}/versions/1/code/"
    assert version["validation_record"] is not None
    code = client.get(version["code_url"])
    assert code.status_code == 200 and code.content == GOOD_BOT
    listed = client.get("/api/v1/bots/").json()
    assert listed["results"][0]["active_version"]["number"] == 1


def test_code_faults_and_stderr_are_hidden_from_others(owner, rival, staff, client_for) -> None:
    client = client_for(owner)
    bot_id = client.post("/api/v1/bots/", {"name": "crashy"}, format="json").json()["id"]
    mine = upload(client, bot_id, CRASHING_BOT).json()
    assert mine["status"] == "rejected"
    assert mine["fault"]["kind"] == "crash" and "always fails" in mine["stderr_tail"]
    record_id = mine["validation_record"]

    for other, code in ((client_for(rival), 403), (client_for(None), 401)):
        theirs = other.get(f"/api/v1/bots/{bot_id}/versions/1/").json()
        assert theirs["status"] == "rejected"
        assert not {"reason", "fault", "stderr_tail", "validation_record"} & set(theirs)
        assert theirs["code_url"] is None
        denied = other.get(f"/api/v1/bots/{bot_id}/versions/1/code/")
        assert denied.status_code == code
        assert errors(denied)[0]["code"] in ("permission_denied", "not_authenticated")
        assert other.get(f"/api/v1/records/{record_id}/").status_code == 404
    as_staff = client_for(staff)
    assert as_staff.get(f"/api/v1/bots/{bot_id}/versions/1/code/").content == CRASHING_BOT
    assert as_staff.get(f"/api/v1/bots/{bot_id}/versions/1/").json()["fault"]["kind"] == "crash"


def test_only_the_owner_uploads(owner, rival, client_for) -> None:
    bot_id = client_for(owner).post("/api/v1/bots/", {"name": "a"}, format="json").json()["id"]
    response = upload(client_for(rival), bot_id, GOOD_BOT)
    assert response.status_code == 403
    assert upload(client_for(None), bot_id, GOOD_BOT).status_code == 401
    assert not BotVersion.objects.exists()


def test_bad_input_gets_clear_4xx_json(owner, outsider, client_for) -> None:
    client = client_for(owner)
    bot_id = client.post("/api/v1/bots/", {"name": "a"}, format="json").json()["id"]
    oversize = upload(client, bot_id, b"#" * (1024 * 1024 + 10))
    assert oversize.status_code == 413 and errors(oversize)[0]["code"] == "too_large"
    slip = upload(client, bot_id, _zip({"../../x.py": b"x"}), name="b.zip")
    assert slip.status_code == 400
    assert errors(slip)[0]["pointer"] == "/file" and "unsafe path" in errors(slip)[0]["message"]
    missing = client.post(f"/api/v1/bots/{bot_id}/versions/", {}, format="multipart")
    assert missing.status_code == 400 and errors(missing)[0]["pointer"] == "/file"
    as_json = client.post(f"/api/v1/bots/{bot_id}/versions/", {"file": "x"}, format="json")
    assert as_json.status_code == 415
    bad_name = client.post("/api/v1/bots/", {"name": "no spaces"}, format="json")
    assert bad_name.status_code == 400 and errors(bad_name)[0]["pointer"] == "/name"
    twice = client.post("/api/v1/bots/", {"name": "a"}, format="json")
    assert twice.status_code == 400 and errors(twice)[0]["code"] == "exists"
    no_role = client_for(outsider).post("/api/v1/bots/", {"name": "z"}, format="json")
    assert no_role.status_code == 403
    assert client.get("/api/v1/bots/999999/").status_code == 404
    assert client.get(f"/api/v1/bots/{bot_id}/versions/7/").status_code == 404
    assert errors(client.get("/api/v1/bot-matches/?colour=red"))[0]["pointer"] == "/colour"
    assert client.get("/api/v1/bot-matches/?status=done").status_code == 400
    assert client.get("/api/v1/bot-matches/999999/").status_code == 404


def _zip(files: dict[str, bytes]) -> bytes:
    from tests.arena.conftest import zip_of

    return zip_of(files)


def test_challenge_plays_an_unrated_match_with_record_links(owner, rival, client_for) -> None:
    client = client_for(owner)
    bot_id = client.post("/api/v1/bots/", {"name": "a"}, format="json").json()["id"]
    upload(client, bot_id, GOOD_BOT)
    response = client.post(
        "/api/v1/bot-matches/",
        {"bot": bot_id, "opponent": "builtin:heuristic", "boards": 1},
        format="json",
    )
    assert response.status_code == 201, response.content
    match = response.json()
    assert match["kind"] == "challenge" and match["rated"] is False
    assert match["status"] == "finished" and len(match["games"]) == 2
    record = client.get(match["games"][0]["record_url"])
    assert record.status_code == 200
    detail = client_for(None).get(f"/api/v1/bot-matches/{match['id']}/").json()
    assert detail["games"] == match["games"]
    listed = client.get(f"/api/v1/bot-matches/?bot={bot_id}").json()
    assert [m["id"] for m in listed["results"]] == [match["id"]]

    # Only the owner challenges with a bot; opponents must exist and be active.
    other = client_for(rival)
    assert other.post("/api/v1/bot-matches/", {"bot": bot_id, "opponent": "builtin:random"},
                      format="json").status_code == 403  # fmt: skip
    for opponent, pointer in (("builtin:nobody", "/opponent"), ("bot:999", "/opponent"),
                              (f"bot:{bot_id}", "/opponent"), ("gibberish", "/opponent")):  # fmt: skip
        bad = client.post(
            "/api/v1/bot-matches/", {"bot": bot_id, "opponent": opponent}, format="json"
        )
        assert bad.status_code == 400, opponent
        assert errors(bad)[0]["pointer"] == pointer
    many = client.post(
        "/api/v1/bot-matches/", {"bot": bot_id, "opponent": "builtin:random", "boards": 99},
        format="json",
    )  # fmt: skip
    assert many.status_code == 400 and errors(many)[0]["pointer"] == "/boards"
    assert BotMatch.objects.count() == 1


def test_ladder_lists_active_bots_and_anchors_by_rating(owner, client_for) -> None:
    from arena.services import Entrant, bot_match_create

    client = client_for(owner)
    bot_id = client.post("/api/v1/bots/", {"name": "a"}, format="json").json()["id"]
    upload(client, bot_id, GOOD_BOT)
    version = BotVersion.objects.get(bot_id=bot_id)
    bot_match_create(a=Entrant(version=version), b=Entrant(builtin="heuristic"), boards=1)
    rows = client_for(None).get("/api/v1/ladder/").json()
    assert [row["rank"] for row in rows] == [1, 2]
    assert rows[0]["entrant"] == "builtin:heuristic" and rows[0]["form"] == "W"
    assert rows[1]["bot"] == bot_id and rows[1]["version"] == 1 and rows[1]["form"] == "L"
    assert rows[0]["rating"] == pytest.approx(rows[0]["mu"] - 3 * rows[0]["sigma"])
    assert Bot.objects.count() == 1


def test_the_schema_documents_the_arena(client_for) -> None:
    response = client_for(None).get("/api/v1/schema/?format=json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in ("/api/v1/bots/", "/api/v1/bots/{id}/versions/", "/api/v1/bot-matches/",
                 "/api/v1/ladder/", "/api/v1/bots/{id}/versions/{number}/code/"):  # fmt: skip
        assert path in paths, sorted(paths)
    upload_op = paths["/api/v1/bots/{id}/versions/"]["post"]
    assert "multipart/form-data" in upload_op["requestBody"]["content"]
    assert {"201", "400", "403", "413"} <= set(upload_op["responses"])


def test_the_owner_retires_a_version_and_it_leaves_the_ladder(owner, rival, client_for) -> None:
    client = client_for(owner)
    bot_id = client.post("/api/v1/bots/", {"name": "a"}, format="json").json()["id"]
    upload(client, bot_id, GOOD_BOT)
    url = f"/api/v1/bots/{bot_id}/versions/1/retire/"
    assert client_for(rival).post(url).status_code == 403
    assert client_for(None).post(url).status_code == 401
    assert [row["entrant"] for row in client.get("/api/v1/ladder/").json()] == [
        f"version:{BotVersion.objects.get(bot_id=bot_id).pk}"
    ]
    response = client.post(url)
    assert response.status_code == 200 and response.json()["status"] == "retired"
    assert client.get("/api/v1/ladder/").json() == []
    assert client.get(f"/api/v1/bots/{bot_id}/").json()["active_version"] is None
