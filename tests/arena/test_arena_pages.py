"""The arena's pages: ladder, bot page (private parts for the owner only), upload and challenge."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from arena.models import Bot, BotMatch
from tests.arena.conftest import CRASHING_BOT, GOOD_BOT

pytestmark = pytest.mark.django_db(transaction=True)


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_owner_creates_uploads_and_challenges_through_the_pages(owner) -> None:
    client = signed_in(owner)
    ladder = client.get("/arena/")
    assert ladder.status_code == 200 and b"New bot" in ladder.content
    response = client.post("/arena/bots/new/", {"name": "pager", "description": "hi"})
    bot = Bot.objects.get(name="pager")
    assert response.status_code == 302 and response["Location"] == f"/arena/bots/{bot.pk}/"
    response = client.post(
        f"/arena/bots/{bot.pk}/upload/", {"file": SimpleUploadedFile("bot.py", GOOD_BOT)}
    )
    assert response.status_code == 302
    page = client.get(f"/arena/bots/{bot.pk}/").content.decode()
    assert "active" in page and "Validation game record" in page and "Challenge" in page
    response = client.post(
        f"/arena/bots/{bot.pk}/challenge/", {"opponent": "builtin:random", "boards": 1}
    )
    match = BotMatch.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/arena/matches/{match.pk}/"
    page = client.get(f"/arena/matches/{match.pk}/").content.decode()
    game = match.games.first()
    assert f"/records/{game.record_id}/" in page and "finished" in page
    assert f"/records/{game.record_id}/" in client.get(f"/arena/bots/{bot.pk}/").content.decode()


def test_faults_and_code_links_are_for_the_owner_only(owner, rival) -> None:
    client = signed_in(owner)
    client.post("/arena/bots/new/", {"name": "crashy"})
    bot = Bot.objects.get(name="crashy")
    client.post(
        f"/arena/bots/{bot.pk}/upload/", {"file": SimpleUploadedFile("bot.py", CRASHING_BOT)}
    )
    mine = client.get(f"/arena/bots/{bot.pk}/").content.decode()
    assert "rejected" in mine and "this bot always fails" in mine and "download" in mine
    for other in (signed_in(rival), Client()):
        theirs = other.get(f"/arena/bots/{bot.pk}/").content.decode()
        assert "rejected" in theirs
        assert "always fails" not in theirs and "download" not in theirs
        assert "Upload a new version" not in theirs


def test_bad_uploads_and_strangers_are_refused_on_the_pages(owner, rival) -> None:
    client = signed_in(owner)
    client.post("/arena/bots/new/", {"name": "b"})
    bot = Bot.objects.get(name="b")
    response = client.post(
        f"/arena/bots/{bot.pk}/upload/", {"file": SimpleUploadedFile("bot.exe", b"MZ")}
    )
    assert response.status_code == 400 and b".py file or a .zip" in response.content
    stranger = signed_in(rival).post(
        f"/arena/bots/{bot.pk}/upload/", {"file": SimpleUploadedFile("bot.py", GOOD_BOT)}
    )
    assert stranger.status_code == 403
    assert Client().post(f"/arena/bots/{bot.pk}/upload/").status_code == 302  # to sign in
    twice = client.post("/arena/bots/new/", {"name": "b"})
    assert twice.status_code == 400 and b"already have" in twice.content
    assert client.get("/arena/bots/99999/").status_code == 404
    assert client.get("/arena/matches/99999/").status_code == 404


def test_the_ladder_page_shows_rank_rating_games_and_form(owner) -> None:
    from arena.services import Entrant, bot_match_create
    from tests.arena.test_arena_matches import active_version

    version = active_version(owner, "laddered")
    bot_match_create(a=Entrant(version=version), b=Entrant(builtin="heuristic"), boards=1)
    page = Client().get("/arena/").content.decode()
    assert "bo-bots/laddered" in page and "heuristic" in page
    assert "<code>W</code>" in page and "<code>L</code>" in page
    assert 'name="viewport"' in page  # the base layout, readable on a phone


def test_a_match_fault_and_stderr_show_to_the_faulting_owner_only(owner, rival, staff) -> None:
    from arena.services import Entrant, bot_match_create
    from tests.arena.test_arena_matches import active_version

    version = active_version(owner, "crashy", CRASHING_BOT)
    match = bot_match_create(a=Entrant(builtin="random"), b=Entrant(version=version), boards=1)
    url = f"/arena/matches/{match.pk}/"
    for viewer in (signed_in(owner), signed_in(staff)):
        page = viewer.get(url).content.decode()
        assert "this bot always fails" in page and "faulted and forfeits" in page
    for viewer in (signed_in(rival), Client()):
        page = viewer.get(url).content.decode()
        assert "faulted and forfeits" in page  # the result is public
        assert "this bot always fails" not in page


def test_the_owner_retires_a_version_from_the_bot_page(owner, rival) -> None:
    from tests.arena.test_arena_matches import active_version

    version = active_version(owner, "old")
    url = f"/arena/bots/{version.bot_id}/versions/1/retire/"
    assert (
        "retire</button>" in signed_in(owner).get(f"/arena/bots/{version.bot_id}/").content.decode()
    )
    assert (
        "retire</button>"
        not in signed_in(rival).get(f"/arena/bots/{version.bot_id}/").content.decode()
    )
    assert signed_in(rival).post(url).status_code == 403
    assert signed_in(owner).post(url).status_code == 302
    version.refresh_from_db()
    assert version.status == "retired"
