"""Computers at the table in a browser, at 360 and 1280 pixels: the start page seats one by a
select, and after a player of three resigns from his page the game goes on, its record naming
his seat "Carl (bot from turn N)". Screenshots go to docs/screenshots/ (bots-*.png)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from tests.helpers.browser_pages import no_sideways_scroll

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
WIDTHS = {"phone": {"width": 360, "height": 780}, "desktop": {"width": 1280, "height": 900}}


def shoot(page, name: str) -> None:
    """The page at both widths (not reloaded: a form keeps what was filled in), then the phone."""
    for label, size in WIDTHS.items():
        page.set_viewport_size(size)
        assert no_sideways_scroll(page), (name, label)
        page.screenshot(path=str(SHOTS / f"bots-{name}-{label}.png"), full_page=True)
    page.set_viewport_size(WIDTHS["phone"])


def test_a_computer_is_seated_from_the_start_page(server, browser):
    page = browser.new_page(viewport=WIDTHS["phone"])
    page.on("pageerror", lambda error: pytest.fail(f"script error: {error}"))
    page.goto(server.url + "/")
    page.locator("form.newgame").get_by_role("radio", name=re.compile("^Babylonia")).check()
    page.locator("input[name=name0]").fill("Anna")
    page.locator("input[name=email0]").fill("anna@example.org")
    page.locator("select[name=bot1]").select_option("strong")
    page.locator("select[name=bot2]").select_option("easy")
    shoot(page, "start")
    with page.expect_navigation():
        page.get_by_role("button", name="Create the game").click()
    page.goto(server.url + "/outbox")
    page.locator("tr", has_text="anna@example.org").first.locator("a").click()
    with page.expect_navigation():
        page.locator("pre.mailtext a[href*='/c/']").click()
    assert page.get_by_text("Computer (strong)").is_visible()
    assert page.get_by_text("Computer (easy)").is_visible()
    shoot(page, "confirm")


def test_a_player_who_resigns_from_three_leaves_his_seat_to_a_computer(server, browser):
    game_id = server.flask("new-game", "--game", "babylonia", "--player", "Anna <anna@example.org>",
                           "--player", "Bob <bob@example.org>", "--player", "Carl <carl@example.org>",
                           "--first", "2", "--seed", "5")
    links = {p["name"]: p["seat_link"] for p in
             json.loads(server.flask("games", "show", game_id, "--json"))["players"]}
    page = browser.new_page(viewport=WIDTHS["phone"])
    page.on("pageerror", lambda error: pytest.fail(f"script error: {error}"))
    page.goto(links["Carl"] + "/resign")
    assert page.get_by_text("a computer plays your seat from now on").is_visible()
    shoot(page, "resign")
    with page.expect_navigation():
        page.get_by_role("button", name="Yes, resign the game").click()
    # The server's worker plays Carl's seat (he was to start) within seconds.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        shown = json.loads(server.flask("games", "show", game_id, "--json"))
        if shown["events"] >= 1:
            break
        time.sleep(0.5)
    assert shown["events"] >= 1 and shown["result"] is None
    page.goto(links["Carl"])
    assert page.get_by_text("a computer (normal) plays your seat now").is_visible()
    shoot(page, "left")
    page.goto(f"{server.url}/games/{game_id}/record")
    assert page.get_by_text("Carl (bot from turn 1)").first.is_visible()
    assert page.locator(".turns").get_by_text("Carl (bot)").first.is_visible()
    shoot(page, "record")
