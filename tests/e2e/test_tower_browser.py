"""The second game's page in a real browser: the tower floor by floor, placing by clicks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_pages import no_sideways_scroll, open_turn_mail

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def test_placing_a_cube_by_clicks(server, browser):
    server.flask("new-game", "--game", "babel-tower", "--player", "Anna <anna@example.org>",
                 "--player", "Bob <bob@example.org>", "--first", "0", "--seed", "3",
                 "--option", "draft=random")
    page = browser.new_page(viewport={"width": 360, "height": 780})
    page.on("pageerror", lambda error: pytest.fail(f"script error: {error}"))
    for turn, (who, other) in enumerate((("anna", "Bob"), ("bob", "Anna"))):
        open_turn_mail(page, server, f"{who}@example.org")
        assert page.get_by_role("heading", name="Place a cube on floor 1").is_visible()
        group = page.locator("details.placing").first
        group.locator("summary").click()
        button = group.locator("button").first
        notation = button.get_attribute("value")
        button.click()
        assert page.get_by_role("heading", name="Submit this turn?").is_visible()
        assert page.locator(".words").text_content().startswith("Place a ")
        with page.expect_navigation():
            page.get_by_role("button", name="Yes, submit my turn").click()
        assert page.get_by_text(f"Waiting for {other}").is_visible()
        cube, corner = notation.split()[1:3]
        cell = page.locator(f".tower .floor.current .cell.{corner.lower()}")
        assert cell.locator(".cube").text_content() == cube
        assert no_sideways_scroll(page)
    page.screenshot(path=str(SHOTS / "tower-phone.png"), full_page=True)
    assert re.search(r"/s/", page.url)
