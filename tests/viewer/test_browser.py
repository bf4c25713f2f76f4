"""The viewer in a real browser: headless Chromium (the system's) driven by Playwright.

Without Chromium the tests are skipped, except under ``CI=true``, where they fail. Every database
write happens before Playwright starts (see ``stored``): its sync API switches greenlets inside
the test's thread, and Django would open a second connection for queries made meanwhile.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from fivehundred.engine import CARDS, Deal, GameState, Rules, action_from_json
from replays.models import StoredRecord
from replays.services import record_ingest
from tests.browser import chromium
from tests.viewer.helpers import played

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]


@dataclass
class Stored:
    record: StoredRecord
    data: dict[str, Any]
    sessions: dict[str, str]


def _session(user: User) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


@pytest.fixture
def stored(db: None) -> Stored:
    record, _ = record_ingest(data=played(4, "viewer-1"))
    carol = User.objects.create_user("carol", password="a-long-test-password")
    dave = User.objects.create_user("dave", password="a-long-test-password")
    return Stored(record, record.data, {"carol": _session(carol), "dave": _session(dave)})


@pytest.fixture
def browser(stored: Stored) -> Any:
    with chromium() as browser:
        yield browser


def _page(
    browser: Any, live_server: Any, who: str | None = None, stored: Stored | None = None
) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    if who is not None and stored is not None:
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": stored.sessions[who],
                    "url": live_server.url,
                }
            ]
        )
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def _states(data: dict[str, Any], hand: int) -> list[tuple[Any, tuple[int, ...]]]:
    """Every state of one hand, from the engine, with the totals before the hand."""
    game = GameState.new(Rules.from_json(data["rules"]))
    for h, record_hand in enumerate(data["hands"][: hand + 1]):
        game = game.start_hand(record_hand["dealer"], Deal.from_json(record_hand["deal"]))
        totals = game.totals
        states = [(game.hand, totals)]
        for obj in record_hand["actions"]:
            seat, action = action_from_json(obj)
            game = game.apply(action, seat)
            if h == hand:
                states.append((game.hand, totals))
    return states


def _wait_step(page: Any, hand: int, action: int) -> None:
    page.wait_for_selector(f'#stage .step[data-hand="{hand}"][data-action="{action}"]')


def _cards_of(page: Any, selector: str) -> list[str]:
    return page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.card)")  # type: ignore[no-any-return]


def test_step_through_a_hand_with_the_keyboard(
    stored: Stored, browser: Any, live_server: Any
) -> None:
    hand = 1
    states = _states(stored.data, hand)
    actions = stored.data["hands"][hand]["actions"]
    page = _page(browser, live_server)
    page.goto(f"{live_server.url}/records/{stored.record.pk}/?hand={hand}&action=0")
    _wait_step(page, hand, 0)
    page.locator("body").click(position={"x": 5, "y": 5})
    for k in range(1, len(actions) + 1):
        page.keyboard.press("ArrowRight")
        _wait_step(page, hand, k)
        state, totals = states[k]
        if k % 4 and k != len(actions):
            continue
        # Every seat's hand, as the engine has it.
        for seat in range(4):
            shown = _cards_of(page, f'#stage .seat[data-seat="{seat}"] .pc[data-card]')
            assert shown == [str(c) for c in state.hand_of(seat)], (k, seat)
        # The trick in the middle: the current one, or the one just finished.
        played = page.eval_on_selector_all(
            "#stage .played",
            "els => els.map(e => [Number(e.dataset.seat), e.querySelector('.pc').dataset.card])",
        )
        if state.current_trick:
            expected = [[s, str(c)] for s, c in state.current_trick]
        elif state.tricks and "play" in actions[k - 1]:
            expected = [[s, str(CARDS[c])] for s, c in state.tricks[-1][1]]
        else:
            expected = []
        assert sorted(played) == sorted(expected), k
        won = [int(t) for t in page.locator("#stage .tricks-won").all_inner_texts()]
        assert won == list(state.tricks_by_side()), k
        shown_totals = [int(t) for t in page.locator("#stage .side-score .total").all_inner_texts()]
        # The running totals: before the hand, and with it once it is scored.
        if k == len(actions):
            totals = tuple(stored.data["hands"][hand]["result"]["totals"])
        assert shown_totals == list(totals)
    # The hand is over: its result and the score sheet.
    result = stored.data["hands"][hand]["result"]
    assert (
        " / ".join(map(str, result["totals"])) in page.locator("#stage .hand-result").inner_text()
    )
    rows = page.locator("#stage table.sheet tbody tr")
    assert rows.count() == hand + 1
    assert rows.nth(hand).locator(".totals").inner_text() == " / ".join(map(str, result["totals"]))
    # The address follows the position, and other keys move by trick, hand and game.
    assert page.url.endswith(f"?hand={hand}&action={len(actions)}")
    page.keyboard.press("ArrowLeft")
    _wait_step(page, hand, len(actions) - 1)
    page.keyboard.press("Home")
    _wait_step(page, 0, 0)
    page.keyboard.press("PageDown")
    _wait_step(page, 1, 0)
    first_trick = next(i for i, a in enumerate(actions) if "play" in a)
    page.keyboard.press("ArrowDown")
    _wait_step(page, 1, first_trick)
    page.keyboard.press("ArrowDown")
    _wait_step(page, 1, first_trick + 4)
    page.keyboard.press("ArrowUp")
    _wait_step(page, 1, first_trick)
    page.keyboard.press("End")
    last = len(stored.data["hands"]) - 1
    _wait_step(page, last, len(stored.data["hands"][last]["actions"]))
    assert "Game over" in page.locator("#stage .game-end").inner_text()


def test_one_seats_view_holds_no_other_cards(
    stored: Stored, browser: Any, live_server: Any
) -> None:
    hand, action = 2, 21
    state, totals = _states(stored.data, hand)[action]
    page = _page(browser, live_server)
    page.goto(f"{live_server.url}/records/{stored.record.pk}/?hand={hand}&action={action}")
    _wait_step(page, hand, action)
    page.select_option("#seat-select", "2")
    page.wait_for_url(re.compile(r".*seat=2$"))
    _wait_step(page, hand, action)
    html = page.content()
    view = state.view(2, totals).to_json()
    public = {c for t in view["tricks"] for _, c in t["cards"]}
    if view["current_trick"]:
        public |= {c for _, c in view["current_trick"]["cards"]}
    hidden = {str(c) for s in (0, 1, 3) for c in state.hand_of(s)}
    hidden |= {str(c) for c in state.deal.kitty} - set(view["kitty"] or [])
    shown = set(re.findall(r'data-card="([^"]+)"', html)) | set(
        re.findall(r'title="([^" ]+)"', html)
    )
    assert set(view["hand"]) <= shown
    assert not (shown & hidden), shown & hidden
    assert "record-text" not in html
    # Stepping on stays in that seat's view.
    page.keyboard.press("ArrowRight")
    _wait_step(page, hand, action + 1)
    state, _ = _states(stored.data, hand)[action + 1]
    others = {str(c) for s in (0, 1, 3) for c in state.hand_of(s)}
    shown = set(re.findall(r'data-card="([^"]+)"', page.content()))
    assert not (shown & others)


def test_a_shared_link_opens_at_that_action(stored: Stored, browser: Any, live_server: Any) -> None:
    page = _page(browser, live_server)
    page.goto(f"{live_server.url}/records/{stored.record.digest[:10]}/?hand=2&action=17&seat=1")
    _wait_step(page, 2, 17)
    assert page.locator("#stage .step").get_attribute("data-seat") == "1"
    _, action = action_from_json(stored.data["hands"][2]["actions"][16])
    assert page.locator("#stage .last-text").inner_text() in (str(action), "discard 3 cards")
    page.keyboard.press("ArrowRight")
    _wait_step(page, 2, 18)
    href = page.locator("#share-link").get_attribute("href")
    assert href.endswith("?hand=2&action=18&seat=1")
    page.goto(live_server.url + href)
    _wait_step(page, 2, 18)


def test_annotate_with_a_variation(stored: Stored, browser: Any, live_server: Any) -> None:
    actions = stored.data["hands"][0]["actions"]
    k = next(i for i, a in enumerate(actions) if "play" in a)
    made = actions[k]["play"]
    address = f"{live_server.url}/records/{stored.record.pk}/?hand=0&action={k + 1}"
    page = _page(browser, live_server, "carol", stored)
    page.goto(address)
    _wait_step(page, 0, k + 1)
    # The legal plays from before the lead, drawn as buttons; pick one that was not played.
    buttons = page.locator("#variation-legal button")
    buttons.first.wait_for()
    choices = [b.get_attribute("data-action") for b in buttons.all()]
    pick = next(i for i, c in enumerate(choices) if f'"play":"{made}"' not in (c or ""))
    buttons.nth(pick).click()
    page.wait_for_function("document.getElementById('variation-line').textContent !== '(none)'")
    line = page.locator("#variation-line").inner_text()
    page.select_option("#note-glyph", "?")
    page.fill("#note-text", "Lead **trumps** instead.")
    # Saving posts the note, then reloads the page from script: wait for that reload itself,
    # not only for a "load" state the page already has.
    with page.expect_navigation(wait_until="load"):
        page.locator("#note-save").click()
    _wait_step(page, 0, k + 1)
    page.reload()
    _wait_step(page, 0, k + 1)
    note = page.locator("#stage .notes-here .note").first
    assert "Lead trumps instead." in note.inner_text()
    assert note.locator("strong").inner_text() == "trumps"
    assert note.locator(".variation-text").inner_text() == line
    assert page.locator(f'#stage .move[data-index="{k}"] .glyph').inner_text() == "?"

    # An illegal line is refused with the engine's words.
    seat = actions[k]["seat"]
    foreign = next(
        c for s in range(4) if s != seat for c in stored.data["hands"][0]["deal"]["hands"][s]
    )
    page.locator("#variation-clear").click()
    page.fill("#variation-next", f"play {foreign}")
    page.locator("#variation-add").click()
    error = page.locator("#note-error")
    page.wait_for_function("document.getElementById('note-error').textContent.length > 0")
    assert foreign in error.inner_text() and "R-" in error.inner_text()

    # Someone else sees the public note but cannot change it.
    other = _page(browser, live_server, "dave", stored)
    other.goto(address)
    _wait_step(other, 0, k + 1)
    assert "Lead trumps instead." in other.locator("#stage .notes-here").inner_text()
    assert other.locator("#stage .note-edit").count() == 0
    note_id = other.locator("#stage .notes-here .note").first.get_attribute("data-note")
    status = other.evaluate(
        """async (id) => {
            const token = document.querySelector('input[name=csrfmiddlewaretoken]').value;
            const r = await fetch(`/api/v1/annotations/${id}/`, {method: 'PATCH',
                headers: {'Content-Type': 'application/json', 'X-CSRFToken': token},
                body: JSON.stringify({text: 'changed'})});
            return r.status;
        }""",
        note_id,
    )
    assert status == 403
    other.reload()
    assert "Lead trumps instead." in other.locator("#stage .notes-here").inner_text()
