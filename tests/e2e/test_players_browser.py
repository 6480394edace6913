"""A player page and a ladder in a browser, at 360 and 1280 pixels: Anna and Bob choose public
names on their homes, rated games end (by resigning: one against a computer), and the pages
show ratings, the on-time record and the running game, never an address. Screenshots go to
docs/screenshots/ (player-*.png, ladder-*.png, home-name-*.png), shown in docs/players.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.helpers.browser_pages import no_sideways_scroll

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
WIDTHS = {"phone": {"width": 360, "height": 780}, "desktop": {"width": 1280, "height": 900}}
ANNA, BOB, CARL, DAVE = ("Anna <anna@example.org>", "Bob <bob@example.org>",
                         "Carl <carl@example.org>", "Dave <dave@example.org>")


def shoot(page, name: str) -> None:
    for label, size in WIDTHS.items():
        page.set_viewport_size(size)
        assert no_sideways_scroll(page), (name, label)
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=True)
    page.set_viewport_size(WIDTHS["phone"])


def game(server, *players: str) -> str:
    args = ["new-game", "--game", "babel", "--first", "0", "--seed", "3", "--rated"]
    for player in players:
        args += ["--player", player]
    return server.flask(*args)


def seat_link(server, game_id: str, name: str) -> str:
    shown = json.loads(server.flask("games", "show", game_id, "--json"))
    return next(p["seat_link"] for p in shown["players"] if p["name"] == name)


def resign(page, server, game_id: str, name: str) -> None:
    page.goto(seat_link(server, game_id, name) + "/resign")
    with page.expect_navigation():
        page.get_by_role("button", name="Yes, resign the game").click()


def choose_name(page, server, address: str, name: str) -> None:
    page.goto(server.url + "/outbox")
    page.locator("tr", has_text=address).first.locator("a").first.click()
    page.goto(page.locator("pre.mailtext a[href*='/h/']").first.get_attribute("href"))
    page.locator("input[name=name]").fill(name)
    with page.expect_navigation():
        page.get_by_role("button", name="Save public name").click()
    assert page.get_by_text("Your public name was saved.").is_visible()


def test_a_player_page_and_a_ladder_on_a_phone_and_a_desktop(server, browser):
    games = [game(server, ANNA, BOB), game(server, CARL, ANNA), game(server, ANNA, "bot:random"),
             game(server, BOB, CARL), game(server, ANNA, DAVE)]
    page = browser.new_page(viewport=WIDTHS["phone"])
    page.on("pageerror", lambda error: pytest.fail(f"script error: {error}"))
    choose_name(page, server, "anna@example.org", "Anna K.")
    assert page.get_by_text("You may change it again on").is_visible()
    page.locator("#h-name").scroll_into_view_if_needed()
    shoot(page, "home-name")
    choose_name(page, server, "bob@example.org", "Bob the Builder")
    resign(page, server, games[0], "Bob")
    resign(page, server, games[1], "Carl")
    resign(page, server, games[2], "Anna")
    resign(page, server, games[3], "Carl")
    page.goto(server.url + "/p/anna%20k.")
    assert page.locator("h1").text_content() == "Anna K."
    assert page.locator("table.ratings tbody tr").count() == 1
    assert page.locator("ul.current-games li").count() == 1
    assert "@" not in page.content()
    shoot(page, "player")
    page.goto(server.url + "/ratings/babel")
    rows = page.locator("table.ratings tbody tr").all_inner_texts()
    # Carl is rated too, but has no public name: he is not on the ladder.
    assert sorted(r.split("\t")[1] for r in rows) == ["Anna K.", "Bob the Builder", "Computer (random)"]
    assert "@" not in page.content()
    shoot(page, "ladder")
