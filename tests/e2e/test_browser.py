"""The turn page in a real browser: two whole turns by clicks alone, on a phone and a desktop.

Seed 1 deals Anna (who starts) A A M M P P P S: she moves to the Assyrians,
settles her three Persians there, halves Bob's hand with them and builds her
starting card. Bob then picks his two owed discards as cards, draws, and
plays his first turn. The preview is checked after every click; screenshots
of both widths go to docs/screenshots/ for the README and docs/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from browser_pages import no_sideways_scroll, open_turn_mail

pytestmark = pytest.mark.browser

SEED = 1
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PHONE, DESKTOP = {"width": 360, "height": 780}, {"width": 1280, "height": 900}


class Composer:
    """Clicks on the turn page, each followed by the server's preview."""

    def __init__(self, page):
        self.page = page
        self.expected: list[str] = []

    def click(self, label: str, step: str | None):
        fresh = self.page.locator("#draft").get_attribute("data-fresh")
        self.page.get_by_role("button", name=label, exact=True).click()
        self.page.wait_for_function(
            "f => document.getElementById('draft').dataset.fresh !== f", arg=fresh)
        if step:
            self.expected.append(step)
        self.check_preview()

    def check_preview(self):
        steps = self.page.locator("#draft .draft-steps li code").all_text_contents()
        assert steps == self.expected
        assert self.page.locator("#steps").input_value().split() == " ".join(self.expected).split()
        assert self.page.locator("#draft .error").count() == 0

    def row(self, territory: str, side: str = "me") -> str:
        text = self.page.locator(f"#draft .territory.t-{territory} .half.{side} .cards").text_content()
        return text.replace("(top)", "").replace(" ", "").replace("none", "")

    def temple(self, territory: str, side: str = "me") -> str:
        text = self.page.locator(f"#draft .territory.t-{territory} .half.{side} .temple").text_content()
        return (text.replace("(top)", "").replace("(changed in the last turn)", "")
                .replace(" ", "").replace("notemple", ""))

    def submit(self) -> str:
        """Submit turn…, read the confirmation in words, confirm with a double click."""
        self.page.get_by_role("button", name="Submit turn…").click()
        dialog = self.page.locator("dialog#confirm")
        dialog.wait_for(state="visible")
        words = dialog.locator(".words").text_content()
        with self.page.expect_navigation():
            dialog.get_by_role("button", name="Yes, submit my turn").dblclick()
        return words


def test_two_whole_turns_by_clicks_alone(server, browser):
    game = server.flask("new-game", "--game", "babel", "--player", "Anna <anna@example.org>",
                        "--player", "Bob <bob@example.org>", "--first", "0", "--seed", str(SEED))
    page = browser.new_page(viewport=PHONE)
    page.on("pageerror", lambda error: pytest.fail(f"script error: {error}"))

    # Anna's turn, on a phone.
    open_turn_mail(page, server, "anna@example.org")
    assert page.get_by_text("It is your turn").is_visible()
    anna = Composer(page)
    anna.check_preview()
    anna.click("move to the Assyrians", "move A")
    assert "Anna" in page.locator("#draft .territory.t-A h4").text_content()      # her figure
    for n in range(1, 4):
        anna.click("settle 1 Persians in the Assyrians territory", "settle P")
        assert anna.row("A") == "P" * n
    anna.click("halve your opponent's hand with your Persians", "halve P")
    assert anna.row("A") == "PP"                         # one Persian discarded for the skill
    assert "owes 2 discards" in page.locator("#draft .side.them").text_content()
    anna.click("build level 1 in the Assyrians territory from your column", "build mine")
    assert anna.temple("A") == "1"
    assert page.locator("#draft .ok").is_visible()       # every step legal: may submit
    assert no_sideways_scroll(page)
    page.screenshot(path=str(SHOTS / "turn-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    assert no_sideways_scroll(page)
    page.screenshot(path=str(SHOTS / "turn-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    words = anna.submit()
    assert words == ("Move to the Assyrians, settle 1 Persians in the Assyrians territory, "
                     "settle 1 Persians in the Assyrians territory, settle 1 Persians in the "
                     "Assyrians territory, halve your opponent's hand with your Persians, build "
                     "level 1 in the Assyrians territory from your column.")
    assert "/s/" in page.url and page.get_by_text("Waiting for Bob").is_visible()

    # Bob owes two discards: he picks them as cards, then draws and plays his turn.
    open_turn_mail(page, server, "bob@example.org")
    assert page.get_by_role("heading", name="Halving: discard 2 cards before you draw").is_visible()
    page.get_by_text("Choose 2.").wait_for()
    page.locator("label.pickcard", has_text="Hittites").click()
    assert page.locator(".still").text_content() == "Choose 1 more."
    page.locator("label.pickcard", has_text="Assyrians").first.click()
    assert page.locator(".still").text_content() == "That is all you owe."
    page.screenshot(path=str(SHOTS / "discard-phone.png"), full_page=True)
    with page.expect_navigation():
        page.get_by_role("button", name="Discard these and draw").click()
    assert re.search(r"/t/", page.url)                   # on to his own turn, no new mail
    bob = Composer(page)
    hand = page.locator("#draft .hand .cards").text_content().replace(" ", "")
    assert sorted(hand) == sorted("AMM" + "HPH")         # kept A M M, drew H P H
    bob.click("move to the Medes", "move M")
    bob.click("settle 1 Medes in the Medes territory", "settle M")
    bob.click("build level 1 in the Medes territory from your column", "build mine")
    assert bob.temple("M") == "1" and bob.temple("A", "them") == "1"
    bob.submit()
    assert page.get_by_text("Waiting for Anna").is_visible()

    # The record replays the game turn by turn.
    page.set_viewport_size(DESKTOP)
    page.goto(f"{server.url}/games/{game}/record?turn=1#board")
    assert page.get_by_role("heading", name=re.compile("After turn 1: Anna played")).is_visible()
    with page.expect_navigation():
        page.get_by_role("link", name="Next →").click()
    assert page.get_by_role("heading", name=re.compile("After turn 2: Bob played discard")).is_visible()
    with page.expect_navigation():
        page.get_by_role("link", name="Next →").click()
    # (a turn of several steps is stepped through: its first step first)
    third = re.compile(r"After turn 3, step 1 of \d+: Bob played move M")
    assert page.get_by_role("heading", name=third).is_visible()
    assert page.locator("svg.scorechart polyline").count() == 2
    page.screenshot(path=str(SHOTS / "record-desktop.png"), full_page=True)


def test_keyboard_alone_composes_and_removes(server, browser):
    server.flask("new-game", "--game", "babel", "--player", "Anna <anna@example.org>",
                 "--player", "Bob <bob@example.org>", "--first", "0", "--seed", str(SEED))
    page = browser.new_page(viewport=DESKTOP)
    open_turn_mail(page, server, "anna@example.org")
    composer = Composer(page)
    page.get_by_role("button", name="move to the Medes", exact=True).focus()
    fresh = page.locator("#draft").get_attribute("data-fresh")
    page.keyboard.press("Enter")
    page.wait_for_function("f => document.getElementById('draft').dataset.fresh !== f", arg=fresh)
    composer.expected = ["move M"]
    composer.check_preview()
    assert page.evaluate("document.activeElement.tagName") == "BUTTON"   # focus kept in the draft
    page.get_by_role("button", name="settle 1 Persians in the Medes territory", exact=True).focus()
    fresh = page.locator("#draft").get_attribute("data-fresh")
    page.keyboard.press("Space")
    page.wait_for_function("f => document.getElementById('draft').dataset.fresh !== f", arg=fresh)
    composer.expected.append("settle P")
    composer.check_preview()
    page.get_by_role("button", name="Remove step 1: move M").focus()
    fresh = page.locator("#draft").get_attribute("data-fresh")
    page.keyboard.press("Enter")
    page.wait_for_function("f => document.getElementById('draft').dataset.fresh !== f", arg=fresh)
    # The rest is checked again: settling from the quarry is not possible.
    assert page.locator("#draft .draft-steps li code").all_text_contents() == []
    assert "your figure is still on the quarry" in page.locator("#draft .error").text_content()
    assert page.locator("#steps").input_value().strip() == "settle P"


def test_pages_use_nothing_outside_the_server(server, browser):
    server.flask("new-game", "--game", "babel", "--player", "Anna <anna@example.org>",
                 "--player", "Bob <bob@example.org>", "--first", "0", "--seed", str(SEED))
    page = browser.new_page(viewport=PHONE)
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(server.url + "/")
    open_turn_mail(page, server, "anna@example.org")
    assert requests and all(url.startswith(server.url) for url in requests), requests
