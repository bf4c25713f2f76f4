"""The viewer's pages: addresses, one seat's view, export and import, and safe notes."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from fivehundred.engine import Deal, GameState, Rules, action_from_json
from fivehundred.record import verify
from replays.annotations import annotation_create
from replays.models import StoredRecord
from replays.models_annotations import Annotation
from replays.services import record_ingest
from tests.viewer.helpers import example, played

pytestmark = pytest.mark.django_db


def _signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _state(record: dict[str, Any], hand: int, action: int) -> Any:
    rules = Rules.from_json(record["rules"])
    game = GameState.new(rules)
    for h, data in enumerate(record["hands"][: hand + 1]):
        game = game.start_hand(data["dealer"], Deal.from_json(data["deal"]))
        stop = action if h == hand else len(data["actions"])
        totals = game.totals
        for obj in data["actions"][:stop]:
            seat, act = action_from_json(obj)
            game = game.apply(act, seat)
    return game.hand, totals


def test_by_id_and_by_digest_prefix(client: Client, game: StoredRecord) -> None:
    by_id = client.get(f"/records/{game.pk}/")
    assert by_id.status_code == 200
    by_digest = client.get(f"/records/{game.digest[:8]}/")
    assert by_digest.status_code == 200
    assert game.digest in by_digest.content.decode()
    assert client.get(f"/records/{game.digest[:7]}x/").status_code == 404
    assert client.get("/records/zzzzzzzzzz/").status_code == 404


def test_a_shared_link_opens_at_that_position(client: Client, game: StoredRecord) -> None:
    html = client.get(f"/records/{game.pk}/", {"hand": 2, "action": 17}).content.decode()
    assert 'data-hand="2" data-action="17"' in html
    obj = game.data["hands"][2]["actions"][16]
    _, action = action_from_json(obj)
    assert f'<span class="last-text">{action}</span>' in html
    state, _ = _state(game.data, 2, 17)
    for seat in range(4):
        for card in state.hand_of(seat):
            assert f'data-card="{card}"' in html


def test_bad_positions_are_explained(client: Client, game: StoredRecord) -> None:
    for query, words in (
        ({"hand": 40}, "hand 40 does not exist"),
        ({"hand": 0, "action": 500}, "no position 500"),
        ({"seat": 4}, "seat 4 does not exist"),
        ({"hand": "two"}, "hand must be a whole number"),
    ):
        response = client.get(f"/records/{game.pk}/", query)
        assert response.status_code == 400, query
        assert words in response.content.decode()
        step = client.get(f"/records/{game.pk}/step/", query)
        assert step.status_code == 400 and words in step.content.decode()


def test_one_seats_page_holds_no_other_seats_cards(client: Client, game: StoredRecord) -> None:
    for hand, action in ((0, 0), (1, 4), (1, 20), (3, 33)):
        state, totals = _state(game.data, hand, action)
        for seat in range(4):
            view = state.view(seat, totals).to_json()
            allowed = set(view["hand"]) | set(view["kitty"] or []) | set(view["discarded"] or [])
            allowed |= {c for t in view["tricks"] for _, c in t["cards"]}
            if view["current_trick"]:
                allowed |= {c for _, c in view["current_trick"]["cards"]}
            for path in (f"/records/{game.pk}/", f"/records/{game.pk}/step/"):
                html = client.get(path, {"hand": hand, "action": action, "seat": seat})
                shown = set(re.findall(r'data-card="([^"]+)"', html.content.decode()))
                assert shown - allowed == set(), (hand, action, seat, path)
                assert set(view["hand"]) <= shown
                assert "record-text" not in html.content.decode()


def test_summary_hands_and_termination_on_the_page(client: Client) -> None:
    summary, _ = record_ingest(data=example("two-players-with-summary-hands.json"))
    html = client.get(f"/records/{summary.pk}/", {"hand": 1, "action": 0}).content.decode()
    assert "Summary hand" in html
    totals = summary.data["hands"][1]["result"]["totals"]
    assert " / ".join(str(t) for t in totals) in html
    forfeit, _ = record_ingest(data=example("three-players-forfeit.json"))
    last = len(forfeit.data["hands"]) - 1
    end = len(forfeit.data["hands"][last]["actions"])
    html = client.get(f"/records/{forfeit.pk}/", {"hand": last, "action": end}).content.decode()
    assert "Game stopped" in html and "timeout" in html


def test_notes_are_markdown_without_script(client: Client, game: StoredRecord, carol: User) -> None:
    annotation_create(
        record=game,
        author=carol,
        hand=0,
        text='**Bold** <script>alert("x")</script> [click](javascript:alert(1)) <img src=x onerror=alert(2)>',
    )
    html = client.get(f"/records/{game.pk}/", {"hand": 0, "action": 0}).content.decode()
    assert "<strong>Bold</strong>" in html
    assert '<script>alert("x")' not in html
    assert 'href="javascript:' not in html
    assert "<img src=x" not in html
    listing = client.get("/annotations/").content.decode()
    assert "<strong>Bold</strong>" in listing and "<script>alert" not in listing


def test_export_keeps_public_notes_and_verifies(
    client: Client, game: StoredRecord, carol: User
) -> None:
    annotation_create(record=game, author=carol, text="A fine game.")
    annotation_create(
        record=game, author=carol, hand=1, action=3, glyph="?!", variation=[], cards=["JK"]
    )
    annotation_create(record=game, author=carol, hand=2, text="secret", visibility="private")
    response = client.get(f"/records/{game.pk}/export/")
    assert response.status_code == 200
    data = json.loads(b"".join([response.content]))
    assert verify(data).valid
    assert [n.get("text") for n in data["annotations"]] == ["A fine game.", None]
    assert data["annotations"][1] == {
        "hand": 1,
        "action": 3,
        "glyph": "?!",
        "author": "carol",
        "cards": ["JK"],
    }


def test_import_checks_each_annotation(game: StoredRecord, dave: User) -> None:
    record = json.loads(json.dumps(game.data))
    play_at = next(i for i, a in enumerate(record["hands"][0]["actions"]) if "play" in a)
    record["annotations"] = [
        {"text": "Imported note.", "author": "zoe"},
        {"hand": 0, "action": play_at, "variation": [{"seat": 0, "call": "PASS"}]},
        {"hand": 9, "text": "nowhere"},
    ]
    upload = io.BytesIO(json.dumps(record).encode())
    upload.name = "annotated.json"
    client = _signed_in(dave)
    response = client.post(f"/records/{game.pk}/annotations/import/", {"file": upload}, follow=True)
    html = response.content.decode()
    assert "Imported 1 annotation" in html
    assert "/annotations/1/variation/0" in html and "/annotations/2/hand" in html
    note = Annotation.objects.get()
    assert note.author == dave and note.text == "Imported note." and note.visibility == "private"
    other = io.BytesIO(json.dumps(played(4, "another-game")).encode())
    other.name = "other.json"
    response = client.post(f"/records/{game.pk}/annotations/import/", {"file": other}, follow=True)
    assert "not this game" in response.content.decode()


def test_annotation_list_links_to_the_position(
    client: Client, game: StoredRecord, carol: User
) -> None:
    annotation_create(record=game, author=carol, hand=2, action=9, glyph="!", text="Nice.")
    html = client.get("/annotations/").content.decode()
    assert f'href="/records/{game.digest[:12]}/?hand=2&amp;action=10"' in html
    page = client.get(f"/records/{game.digest[:12]}/", {"hand": 2, "action": 10}).content.decode()
    assert "Nice." in page


def test_annotations_inside_the_record_are_shown_and_kept(client: Client, carol: User) -> None:
    record, _ = record_ingest(data=example("options-and-annotations.json"))
    inside = record.data["annotations"]
    on_action = next(n for n in inside if n.get("action") is not None)
    html = client.get(
        f"/records/{record.pk}/", {"hand": on_action["hand"], "action": on_action["action"] + 1}
    ).content.decode()
    assert on_action["text"] in html
    if on_action.get("variation"):
        assert 'class="variation-text"' in html
    assert inside[0]["text"] in client.get(f"/records/{record.pk}/").content.decode()
    annotation_create(record=record, author=carol, hand=0, text="Ours.")
    data = json.loads(client.get(f"/records/{record.pk}/export/").content)
    assert data["annotations"][: len(inside)] == inside
    assert data["annotations"][-1]["text"] == "Ours."
    assert verify(data).valid


VALID_EXAMPLES = [
    "five-players-called-partner.json",
    "five-players-complete.json",
    "four-players-complete.json",
    "four-players-in-progress-seeded.json",
    "options-and-annotations.json",
    "six-players-three-teams-in-progress.json",
    "three-players-forfeit.json",
    "two-players-with-summary-hands.json",
]


@pytest.mark.parametrize("name", VALID_EXAMPLES)
def test_every_example_can_be_stepped_through(client: Client, name: str) -> None:
    from replays.viewer import walk

    record, _ = record_ingest(data=example(name))
    positions = walk(record.data).positions
    seats = record.data["rules"]["players"]
    url = f"/records/{record.pk}/step/"
    for i, (hand, action) in enumerate(positions[::5] + positions[-1:]):
        for seat in (None, i % seats):
            query = {"hand": hand, "action": action}
            if seat is not None:
                query["seat"] = seat
            response = client.get(url, query)
            assert response.status_code == 200, (name, query)
    assert client.get(f"/records/{record.pk}/").status_code == 200


def test_highlighted_cards_are_outlined_on_their_step(
    client: Client, game: StoredRecord, carol: User
) -> None:
    hand = game.data["hands"][1]
    held = hand["deal"]["hands"][0][0]
    annotation_create(record=game, author=carol, hand=1, action=0, cards=[held], text="See this.")
    html = client.get(f"/records/{game.pk}/", {"hand": 1, "action": 1}).content.decode()
    assert re.search(rf'class="pc [a-z]+ hl" data-card="{held}"', html)
    # Elsewhere it is an ordinary card.
    later = client.get(f"/records/{game.pk}/", {"hand": 1, "action": 2}).content.decode()
    assert f'data-card="{held}"' in later and not re.search(r'class="pc [a-z]+ hl"', later)
