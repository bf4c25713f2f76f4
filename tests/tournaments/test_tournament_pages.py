"""The tournament pages with Django's test client: forms, permissions, exports, pictures."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from tournament_support import club_event, make_user

from tournaments.models import Match, Tournament
from tournaments.services import round_generate

pytestmark = pytest.mark.django_db


def _client(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _sheet(post: dict[str, Any], winner_seat: int) -> dict[str, Any]:
    """One hand on the posted grid: ``winner_seat`` bids and makes 10 no trumps."""
    tricks = {0: "0", 1: "0"}
    tricks[winner_seat % 2] = "10"
    return {**post, "g0-dealer": "0", "g0-h0-contract": "10NT",
            "g0-h0-contractor": str(winner_seat), "g0-h0-t0": tricks[0], "g0-h0-t1": tricks[1],
            "g0-h1-contract": "", "g0-h1-contractor": "0", "g0-h1-t0": "", "g0-h1-t1": ""}  # fmt: skip


def test_create_register_pair_enter_and_export(director: User) -> None:
    dana = _client(director)
    assert _client(None).get("/tournaments/new/").status_code == 302  # sign in first
    page = dana.post("/tournaments/new/", {
        "name": "Club night", "players": "4", "rule_options": '{"target": 250}', "format": "swiss",
        "rounds": "2", "tiebreaks": "buchholz, points_for", "cycles": "1", "match_length": "game",
        "match_games": "1", "is_public": "on",
    })  # fmt: skip
    assert page.status_code == 302 and page["Location"] == "/tournaments/club-night/"
    t = Tournament.objects.get(slug="club-night")
    assert t.rules["options"] == {"target": 250} and t.format_options["tiebreaks"] == [
        "buchholz", "points_for",
    ]  # fmt: skip
    for pair in (("Ann", "Al"), ("Bob", "Bo"), ("Cy", "Cal")):
        dana.post("/tournaments/club-night/",
                  {"action": "register", "player1": pair[0], "player2": pair[1]})  # fmt: skip
    detail = dana.get("/tournaments/club-night/").content.decode()
    assert "Ann &amp; Al" in detail and "Cy &amp; Cal" in detail
    answer = dana.post("/tournaments/club-night/", {"action": "generate"}, follow=True)
    html = answer.content.decode()
    assert "round 1" in html and "Table 1" in html and "Bye" in html
    assert "Print round sheet" in html
    match = Match.objects.get(tournament=t, table=1)
    table = dana.get(f"/tournaments/club-night/tables/{match.pk}/").content.decode()
    assert 'name="g0-h0-contract"' in table and "Print blank score sheet" in table
    entered = dana.post(f"/tournaments/club-night/tables/{match.pk}/",
                        _sheet({"action": "submit"}, 1), follow=True)  # fmt: skip
    assert "Result entered." in entered.content.decode()
    match.refresh_from_db()
    assert match.status == "done" and match.records.count() == 1
    winner = match.sides.get(is_winner=True)
    assert winner.position == 1 and winner.points == 520
    standings = dana.get("/tournaments/club-night/standings/").content.decode()
    assert "<th>Buchholz</th>" in standings and "<th>Points for</th>" in standings
    rows = list(
        csv.reader(io.StringIO(dana.get("/tournaments/club-night/standings.csv").content.decode()))
    )
    assert rows[0][-2:] == ["buchholz", "points_for"] and len(rows) == 4
    assert rows[1][1] == winner.entrant.name and rows[1][2] == "2"
    data = json.loads(dana.get("/tournaments/club-night/results.json").content)
    assert {r["table"] for r in data["results"]} == {0, 1}
    assert dana.get("/tournaments/club-night/results.xml").status_code == 404
    results_csv = dana.get("/tournaments/club-night/results.csv").content.decode()
    assert "520" in results_csv
    history = dana.get("/tournaments/club-night/history/").content.decode()
    assert "round 1 paired" in history and "won" in history
    crosstable = dana.get("/tournaments/club-night/").content.decode()
    assert "Crosstable" in crosstable and "W 520 –" in crosstable


def test_bad_sheet_is_explained_on_the_page(director: User) -> None:
    t = club_event(director, teams=2, rules={"players": 4})
    match = round_generate(tournament=t, actor=director).matches.get()
    post = {"action": "submit", "g0-dealer": "0", "g0-h0-contract": "7H", "g0-h0-contractor": "0",
            "g0-h0-t0": "7", "g0-h0-t1": "4"}  # fmt: skip
    page = _client(director).post(f"/tournaments/{t.slug}/tables/{match.pk}/", post, follow=True)
    assert page.status_code == 200
    assert "games[0].hands[0].tricks: the tricks add up to 11, not 10" in page.content.decode()


def test_outsiders_cannot_direct(director: User) -> None:
    t = club_event(director, teams=2)
    zed = _client(make_user("zed"))
    page = zed.post(f"/tournaments/{t.slug}/", {"action": "generate"}, follow=True)
    assert "Only the directors" in page.content.decode()
    assert not t.rounds.exists()
    assert zed.get(f"/tournaments/{t.slug}/edit/").status_code == 403
    assert "Pair round" not in zed.get(f"/tournaments/{t.slug}/").content.decode()


def test_private_event_is_not_found_for_others(director: User) -> None:
    t = club_event(director, teams=0)
    t.is_public = False
    t.save()
    assert _client(None).get(f"/tournaments/{t.slug}/").status_code == 404
    assert _client(director).get(f"/tournaments/{t.slug}/").status_code == 200
    assert t.name not in _client(None).get("/tournaments/").content.decode()


def test_bracket_is_drawn(director: User) -> None:
    t = club_event(director, fmt="double_elimination", teams=5, reset=True)
    round_generate(tournament=t, actor=director)
    html = _client(None).get(f"/tournaments/{t.slug}/").content.decode()
    assert 'class="bracket"' in html
    for label in ("Winners 1", "Losers ", "Grand final", "Reset", 'data-match="GF"'):
        assert label in html
    assert "winner of W" in html and "loser of W" in html


def test_junk_posts_get_messages_not_errors(director: User) -> None:
    t = club_event(director, teams=2)
    match = round_generate(tournament=t, actor=director).matches.get()
    dana = _client(director)
    url = f"/tournaments/{t.slug}/"
    table = f"{url}tables/{match.pk}/"
    cases = [
        (url, {"action": "withdraw", "entrant": "abc", "reason": "x"}, "No such entrant."),
        (url, {"action": "dance"}, "Unknown action"),
        (table, {"action": "confirm", "submission": "1e9"}, "No such submission."),
        (table, {"action": "forfeit", "absent": ["x"], "reason": "gone"}, "name the entrant"),
        (table, {"action": "submit", "g0-dealer": "9", "g0-h0-contract": "7H"}, "first_dealer"),
        (f"{url}rounds/1/", {"first": "x", "second": "y"}, "Choose two entrants"),
    ]
    for where, post, text in cases:
        page = dana.post(where, post, follow=True)
        assert page.status_code == 200, (post, page.status_code)
        assert text in page.content.decode(), post


def test_record_files_can_be_uploaded_for_a_table(director: User) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    from fivehundred.record import dumps
    from fivehundred.record.play import play_game

    t = club_event(director, teams=2, rules={"players": 4})
    match = round_generate(tournament=t, actor=director).matches.get()
    url = f"/tournaments/{t.slug}/tables/{match.pk}/"
    dana = _client(director)
    junk = SimpleUploadedFile("game.json", b"{not json", content_type="application/json")
    page = dana.post(url, {"action": "upload", "records": [junk]}, follow=True)
    assert "game.json: not a JSON record" in page.content.decode()
    record = play_game(players=4, seed="page-upload", bots=["random"] * 4)
    good = SimpleUploadedFile("game.json", dumps(record).encode(), content_type="application/json")
    page = dana.post(url, {"action": "upload", "records": [good]}, follow=True)
    assert "Result entered." in page.content.decode()
    match.refresh_from_db()
    assert match.status == "done" and match.records.get().digest
