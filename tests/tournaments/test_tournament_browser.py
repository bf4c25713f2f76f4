"""A club evening through the pages in a real browser (headless Chromium driven by Playwright).

From creating the event to final standings: registration, pairing, score-sheet entry at each
table on a phone-sized screen, the next round, finishing, standings and history. Uses the system
Chromium; without it the test is skipped, except under ``CI=true``, where it fails.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.browser import chromium

PHONE = {"width": 390, "height": 844}

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(150)]


@pytest.fixture
def director_cookie(live_server: Any) -> str:
    """The director's sign-in cookie, made before the browser starts.

    Playwright's sync API switches greenlets in this thread, and Django would count database calls
    made meanwhile as another context with a connection never closed; so the only database work of
    the test process happens here, and everything after goes through the pages.
    """
    user = User.objects.create_user(username="dana", password="a-long-test-password")
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


@pytest.fixture
def phone(director_cookie: str, live_server: Any) -> Iterator[Any]:
    with chromium() as browser:
        context = browser.new_context(viewport=PHONE)
        context.add_cookies(
            [{"name": "sessionid", "value": director_cookie, "url": live_server.url}]
        )
        page = context.new_page()
        page.set_default_timeout(15000)
        yield page


def _fits_the_phone(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], page.url


def _enter_table(page: Any, link: Any) -> None:
    """Open a table from the round page, fill hand 1 (seat 0 makes 10NT) and send it."""
    link.click()
    page.wait_for_selector("form#scoresheet")
    _fits_the_phone(page)
    rows = page.locator("tr.t-hand")
    before = rows.count()
    page.get_by_role("button", name="Add a hand").click()
    assert rows.count() == before + 1
    page.get_by_label("Game 1 hand 1 contract").select_option("10NT")
    page.get_by_label("Game 1 hand 1 bidder seat").select_option("0")
    page.get_by_label("Game 1 hand 1 tricks side 0").fill("10")
    page.get_by_label("Game 1 hand 1 tricks side 1").fill("0")
    page.get_by_role("button", name="Enter result").click()
    page.wait_for_selector(".t-msg")
    assert "Result entered." in page.locator(".t-messages").inner_text()
    result = page.locator(".t-result").inner_text()
    assert "520" in result
    assert page.get_by_role("link", name="game 1").count() == 1  # the stored record


def _play_round(page: Any, number: int) -> None:
    page.get_by_role("button", name=f"Pair round {number}").click()
    page.wait_for_url(f"**/rounds/{number}/")
    _fits_the_phone(page)
    sheet = page.locator(".round-sheet").inner_text()
    assert "Table 1" in sheet and "Table 2" in sheet
    round_url = page.url
    for table in (1, 2):
        _enter_table(page, page.get_by_role("link", name=f"Table {table}: score sheet and result"))
        page.goto(round_url)
    assert page.locator(".t-table .t-badge").all_inner_texts() == ["done", "done"]
    page.get_by_role("link", name="Event", exact=True).click()


def test_club_evening_from_registration_to_standings(
    phone: Any, live_server: Any, tmp_path: Any
) -> None:
    page = phone
    shots = tmp_path
    page.goto(live_server.url + "/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Tournaments").click()
    page.get_by_role("link", name="New event").click()
    page.get_by_label("Name", exact=True).fill("Friday club")
    page.get_by_label("Players").select_option("4")
    page.get_by_label("Format").select_option("swiss")
    page.get_by_label("Rounds").fill("2")
    page.get_by_role("button", name="Create event").click()
    page.wait_for_url("**/tournaments/friday-club/")
    assert "Friday club" in page.locator("h1").inner_text()
    _fits_the_phone(page)

    for first, second in (("Ann", "Al"), ("Bob", "Bo"), ("Cy", "Cal"), ("Di", "Del")):
        form = page.get_by_role("form", name="Register")
        form.get_by_label("Player", exact=True).fill(first)
        form.get_by_label("Partner", exact=True).fill(second)
        form.get_by_role("button", name="Enter").click()
        page.wait_for_selector(".t-msg")
        assert "Entered." in page.locator(".t-messages").inner_text()
    entrants = page.locator("table.entrants tbody tr")
    assert entrants.count() == 4
    assert "Di & Del" in entrants.nth(3).inner_text()

    _play_round(page, 1)
    _play_round(page, 2)
    assert "Crosstable" in page.content()
    page.get_by_role("button", name="Finish the event").click()
    page.wait_for_selector(".t-msg")
    assert "finished" in page.locator("h1").inner_text().lower()

    page.get_by_role("link", name="Standings").first.click()
    page.wait_for_url("**/standings/")
    _fits_the_phone(page)
    headers = [h.lower() for h in page.locator("table.standings thead th").all_inner_texts()]
    assert headers[-3:] == ["buchholz", "sonneborn–berger", "points difference"]
    rows = page.locator("table.standings tbody tr")
    assert rows.count() == 4
    first = rows.nth(0).locator("td").all_inner_texts()
    assert first[0] == "1" and first[2] == "4"  # two wins
    # Every column, tie-breaks included, is shown on the phone (scrolling sideways if need be).
    assert all(cell.is_visible() for cell in rows.nth(0).locator("td").all())
    page.screenshot(path=str(shots / "standings.png"), full_page=True)
    last = rows.nth(3).locator("td").all_inner_texts()
    assert last[2] == "0"
    csv_text = page.request.get(live_server.url + "/tournaments/friday-club/standings.csv").text()
    assert csv_text.splitlines()[0].endswith("buchholz,sonneborn_berger,points_difference")

    page.get_by_role("link", name="History").click()
    history = page.locator(".t-history").inner_text()
    for text in (
        "round 1 paired",
        "round 2 paired",
        "the event finished",
        "dana created the event",
    ):
        assert text in history
