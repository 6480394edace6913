"""Words and clocks in a browser, at 360 and 1280 pixels: Anna's turn page offers a message with
her turn; she says something (with script in it) from her seat page, keeps a private note, and Bob
reads her words on his page in a game with a time bank; Bob goes on vacation and Anna sees until
when. Screenshots go to docs/screenshots/ (talk-*.png)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.helpers.browser_pages import no_sideways_scroll, open_turn_mail

from pbem import games
from pbem.games.rng import Rng

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
WIDTHS = {"phone": {"width": 360, "height": 780}, "desktop": {"width": 1280, "height": 900}}
WORDS = "Good luck, Bob! <script>alert('x')</script> Shall we play fast this week?"


def shoot(page, name: str) -> None:
    for label, size in WIDTHS.items():
        page.set_viewport_size(size)
        assert no_sideways_scroll(page), (name, label)
        page.screenshot(path=str(SHOTS / f"talk-{name}-{label}.png"), full_page=True)
    page.set_viewport_size(WIDTHS["phone"])


def test_words_notes_and_a_vacation_on_the_seat_pages(server, browser):
    game_id = server.flask("new-game", "--game", "babel", "--player", "Anna <anna@example.org>",
                           "--player", "Bob <bob@example.org>", "--first", "0", "--seed", "3",
                           "--clock", "bank:7+1/14")
    seat_links = {p["name"]: p["seat_link"] for p in
                  json.loads(server.flask("games", "show", game_id, "--json"))["players"]}
    page = browser.new_page(viewport=WIDTHS["phone"])
    page.on("pageerror", lambda error: pytest.fail(f"script error: {error}"))
    page.on("dialog", lambda dialog: pytest.fail(f"a script ran: {dialog.message}"))
    open_turn_mail(page, server, "anna@example.org")
    assert page.get_by_text("a time bank of 7 days, 1 day added a turn, at most 14 days").is_visible()
    page.locator("textarea#message").fill("A word with my turn.")
    shoot(page, "turn")
    # Submitted through the page's script (its confirmation dialog), the words go with the turn.
    engine = games.get("babel")
    state = engine.start(3, engine.normalize_options({}), 2, 0)   # the server's game: seed 3
    page.locator("textarea#steps").fill(engine.random_submission(state, 0, Rng(1)))
    page.get_by_role("button", name="Submit turn…").click()
    with page.expect_navigation():
        page.get_by_role("button", name="Yes, submit my turn").click()
    assert page.locator(".said li").first.inner_text().endswith("A word with my turn.")
    page.goto(seat_links["Anna"])   # words without a turn: from her standing link
    page.locator("#say").fill(WORDS)
    with page.expect_navigation():
        page.get_by_role("button", name="Send message").click()
    assert page.locator(".said li").last.inner_text().endswith(WORDS)
    page.locator("#notes summary").click()
    page.locator("#notes-text").fill("Bob keeps Medes. Build the temple before round 3.")
    with page.expect_navigation():
        page.get_by_role("button", name="Save notes").click()
    assert page.locator("#notes-text").input_value().startswith("Bob keeps Medes")
    page.goto(seat_links["Bob"])
    assert WORDS in page.locator(".said li").last.inner_text()
    assert "A word with my turn." in page.locator(".said li").first.inner_text()
    assert page.locator("#notes-text").input_value() == ""
    page.locator("#vacation summary").click()
    page.locator("#vacation-days").fill("3")
    with page.expect_navigation():
        page.get_by_role("button", name="Start my vacation").click()
    assert page.get_by_text("You are on vacation until").is_visible()
    shoot(page, "bob")
    page.goto(seat_links["Anna"])
    assert page.get_by_text("Bob is on vacation until").is_visible()
    shoot(page, "anna")
