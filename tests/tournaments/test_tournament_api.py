"""The tournaments API: permissions, the one error shape, and a small event through it."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from tournament_support import FAST_RULES, make_user, sheet_win

pytestmark = pytest.mark.django_db

BASE = "/api/v1/tournaments/"


def _event(client: Any, **extra: Any) -> dict[str, Any]:
    body = {"name": "Thursday pairs", "rules": FAST_RULES, "format": "swiss",
            "format_options": {"rounds": 2}, **extra}  # fmt: skip
    response = client.post(BASE, body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()  # type: ignore[no-any-return]


def test_create_needs_an_account_and_gives_clear_errors(client_for: Any, director: User) -> None:
    anon = client_for(None)
    refused = anon.post(BASE, {"name": "X"}, format="json")
    assert refused.status_code == 401
    assert refused.json()["errors"][0]["code"] == "not_authenticated"
    client = client_for(director)
    bad = client.post(BASE, {"name": "X", "rules": {"players": 7}}, format="json")
    assert bad.status_code == 400
    (err,) = bad.json()["errors"]
    assert err["pointer"] == "/rules" and "players" in err["message"]
    bad_tb = client.post(
        BASE, {"name": "X", "format_options": {"tiebreaks": ["luck"]}}, format="json"
    )
    assert bad_tb.json()["errors"][0]["pointer"] == "/format_options/tiebreaks"
    created = _event(client)
    assert created["slug"] == "thursday-pairs" and created["directors"] == ["dana"]
    assert created["status"] == "registration"


def test_a_small_event_through_the_api(client_for: Any, director: User) -> None:
    dana = client_for(director)
    ann, bob, oz = make_user("ann"), make_user("bob"), make_user("oz")
    event = _event(dana)["id"]
    url = f"{BASE}{event}/"
    # A player registers themselves; an outsider cannot register others; a director can.
    assert (
        client_for(ann)
        .post(url + "entrants/", {"players": ["Ann", "Al"]}, format="json")
        .status_code
        == 201
    )
    other = client_for(oz).post(url + "entrants/", {"players": ["Bob", "Bo"]}, format="json")
    assert other.status_code == 403 and other.json()["errors"][0]["code"] == "permission_denied"
    for players in (["Bob", "Bo"], ["Cy", "Cal"], ["Di", "Del"]):
        assert dana.post(url + "entrants/", {"players": players}, format="json").status_code == 201
    entrants = dana.get(url + "entrants/").json()
    assert [e["seed"] for e in entrants] == [1, 2, 3, 4]
    # Only directors pair rounds.
    assert client_for(ann).post(url + "rounds/").status_code == 403
    rnd = dana.post(url + "rounds/")
    assert rnd.status_code == 201
    tables = rnd.json()["matches"]
    assert [t["table"] for t in tables] == [1, 2]
    mine = next(t for t in tables if "Ann & Al" in [s["name"] for s in t["sides"]])
    theirs = next(t for t in tables if t is not mine)
    ann_pos = next(s["position"] for s in mine["sides"] if s["name"] == "Ann & Al")
    # Ann enters her own table's result, not the other table's.
    assert client_for(ann).post(f"{url}matches/{theirs['id']}/result/",
                                {"games": sheet_win(0)}, format="json").status_code == 403  # fmt: skip
    bad = client_for(ann).post(
        f"{url}matches/{mine['id']}/result/",
        {"games": [{"hands": [{"contract": "7H", "contractor": 0, "tricks": [7, 4]}]}]},
        format="json",
    )
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["pointer"] == "/games/0/hands/0/tricks"
    sent = client_for(ann).post(f"{url}matches/{mine['id']}/result/",
                                {"games": sheet_win(ann_pos)}, format="json")  # fmt: skip
    assert sent.status_code == 201 and sent.json()["status"] == "pending"
    opponent = next(s["name"] for s in mine["sides"] if s["name"] != "Ann & Al")
    confirmer = {"Bob & Bo": bob}.get(opponent, director)
    done = client_for(confirmer).post(f"{url}matches/{mine['id']}/confirm/",
                                      {"submission": sent.json()["id"]}, format="json")  # fmt: skip
    assert done.status_code == 200 and done.json()["status"] == "done"
    # A no-show at the other table.
    absent = theirs["sides"][1]["entrant"]
    assert client_for(ann).post(f"{url}matches/{theirs['id']}/forfeit/",
                                {"absent": [absent], "reason": "late"}, format="json").status_code == 403  # fmt: skip
    forfeit = dana.post(f"{url}matches/{theirs['id']}/forfeit/",
                        {"absent": [absent], "reason": "did not come"}, format="json")  # fmt: skip
    assert forfeit.status_code == 200 and forfeit.json()["outcome"] == "forfeit"
    standings = client_for(None).get(url + "standings/").json()
    assert len(standings) == 4
    assert standings[0]["points"] == 2 and set(standings[0]["tiebreaks"]) == {
        "buchholz", "sonneborn_berger", "points_difference",
    }  # fmt: skip
    history = client_for(None).get(url + "history/").json()
    assert any(h["kind"] == "forfeit" and h["reason"] == "did not come" for h in history)
    results = client_for(None).get(url + "results/").json()
    assert len(results) == 2 and all(r["status"] == "done" for r in results)
    assert client_for(None).get(url + "bracket/").status_code == 404


def test_private_events_are_hidden(client_for: Any, director: User) -> None:
    event = _event(client_for(director), is_public=False)["id"]
    assert client_for(None).get(f"{BASE}{event}/").status_code == 404
    assert client_for(make_user("zed")).get(f"{BASE}{event}/standings/").status_code == 404
    assert client_for(director).get(f"{BASE}{event}/").status_code == 200
    assert [e["slug"] for e in client_for(None).get(BASE).json()["results"]] == []


def test_only_directors_edit_and_rules_are_fixed_after_start(
    client_for: Any, director: User
) -> None:
    dana = client_for(director)
    event = _event(dana)["id"]
    url = f"{BASE}{event}/"
    assert (
        client_for(make_user("zed")).patch(url, {"name": "Mine"}, format="json").status_code == 403
    )
    assert (
        dana.patch(url, {"match_length": "best_of", "match_games": 3}, format="json").status_code
        == 200
    )
    for players in (["A", "B"], ["C", "D"]):
        dana.post(url + "entrants/", {"players": players}, format="json")
    dana.post(url + "rounds/")
    fixed = dana.patch(url, {"rules": {"players": 4}}, format="json")
    assert fixed.status_code == 400 and fixed.json()["errors"][0]["pointer"] == "/rules"
    assert dana.patch(url, {"description": "Bring pencils"}, format="json").status_code == 200


def test_ratings_list(client_for: Any, director: User) -> None:
    dana = client_for(director)
    event = _event(dana)["id"]
    url = f"{BASE}{event}/"
    for players in (["A", "B"], ["C", "D"]):
        dana.post(url + "entrants/", {"players": players}, format="json")
    table = dana.post(url + "rounds/").json()["matches"][0]
    dana.post(f"{url}matches/{table['id']}/result/", {"games": sheet_win(0)}, format="json")
    ratings = client_for(None).get(BASE + "ratings/").json()["results"]
    assert len(ratings) == 4
    assert ratings[0]["ordinal"] >= ratings[-1]["ordinal"] and ratings[0]["matches"] == 1


def test_co_directors_share_the_event(client_for: Any, director: User) -> None:
    cody = make_user("cody")
    bad = client_for(director).post(BASE, {"name": "Co", "co_directors": ["nobody"]}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["pointer"] == "/co_directors/0"
    event = _event(client_for(director), co_directors=["cody"])
    assert sorted(event["directors"]) == ["cody", "dana"]
    url = f"{BASE}{event['id']}/"
    assert (
        client_for(cody).patch(url, {"description": "Cody's too"}, format="json").status_code == 200
    )
    dropped = client_for(director).patch(url, {"co_directors": []}, format="json")
    assert dropped.json()["directors"] == ["dana"]
    assert client_for(cody).patch(url, {"description": "x"}, format="json").status_code == 403


def test_director_tools_through_the_api(client_for: Any, director: User) -> None:
    dana, zed = client_for(director), client_for(make_user("zed"))
    event = _event(dana, format_options={"rounds": 2})["id"]
    url = f"{BASE}{event}/"
    ids = [
        dana.post(url + "entrants/", {"players": [f"X{i}", f"Y{i}"]}, format="json").json()["id"]
        for i in range(4)
    ]
    tables = dana.post(url + "rounds/").json()["matches"]
    first, second = tables[0]["sides"][0]["entrant"], tables[1]["sides"][1]["entrant"]
    body = {"first": first, "second": second, "reason": "a family asked"}
    assert zed.post(url + "rounds/1/override/", body, format="json").status_code == 403
    missing = dana.post(url + "rounds/1/override/", {**body, "second": 999999}, format="json")
    assert missing.status_code == 400 and missing.json()["errors"][0]["pointer"] == "/second"
    swapped = dana.post(url + "rounds/1/override/", body, format="json").json()
    assert second in [s["entrant"] for s in swapped["matches"][0]["sides"]]
    table = swapped["matches"][0]
    sent = dana.post(f"{url}matches/{table['id']}/result/", {"games": sheet_win(0)}, format="json")
    assert sent.status_code == 201 and sent.json()["status"] == "confirmed"
    again = dana.post(f"{url}matches/{table['id']}/result/", {"games": sheet_win(0)}, format="json")
    assert again.status_code == 400 and again.json()["errors"][0]["code"] == "already_confirmed"
    no_reason = dana.post(f"{url}matches/{table['id']}/correct/", {"games": sheet_win(1)},
                          format="json")  # fmt: skip
    assert no_reason.status_code == 400 and no_reason.json()["errors"][0]["pointer"] == "/reason"
    fixed = dana.post(f"{url}matches/{table['id']}/correct/",
                      {"games": sheet_win(1), "reason": "sides swapped on the sheet"},
                      format="json")  # fmt: skip
    assert fixed.status_code == 200 and fixed.json()["sides"][1]["is_winner"] is True
    assert dana.post(f"{url}matches/{table['id']}/confirm/", {"submission": 999999},
                     format="json").status_code == 404  # fmt: skip
    quitter = ids[3]
    assert zed.post(f"{url}entrants/{quitter}/withdraw/", {"reason": "x"},
                    format="json").status_code == 403  # fmt: skip
    gone = dana.post(f"{url}entrants/{quitter}/withdraw/", {"reason": "unwell"}, format="json")
    assert gone.status_code == 200 and gone.json()["withdrawn"] is True
    early = dana.post(url + "finish/")
    assert early.status_code == 400 and early.json()["errors"][0]["code"] == "event_not_complete"
    assert dana.get(f"{url}matches/999999/").status_code == 404
    history = [h["kind"] for h in client_for(None).get(url + "history/").json()]
    for kind in ("pairing_override", "correction", "withdrawal"):
        assert kind in history


def test_the_schema_lists_the_tournament_endpoints(client_for: Any) -> None:
    schema = client_for(None).get("/api/v1/schema/?format=json").json()
    paths = schema["paths"]
    for path in (
        "/api/v1/tournaments/",
        "/api/v1/tournaments/{event}/rounds/",
        "/api/v1/tournaments/{event}/matches/{id}/result/",
        "/api/v1/tournaments/{event}/standings/",
        "/api/v1/tournaments/ratings/",
    ):
        assert path in paths, path  # fmt: skip
    result = paths["/api/v1/tournaments/{event}/matches/{id}/result/"]["post"]
    assert {"201", "400", "403"} <= set(result["responses"])
