"""Babylonia's turn page in a real browser, on a phone and a desktop: the SVG hex map, placing
tokens by clicks in the folded groups of the composer, the preview after each click, the
confirmation, the face-down river token the other player sees as "?", and tapping the map itself
(a hex's only step at once, several in a small menu). Screenshots of both widths go to
docs/screenshots/ for the README and docs/.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from browser_pages import no_sideways_scroll, open_turn_mail

pytestmark = pytest.mark.browser

SEED = 5
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PHONE, DESKTOP = {"width": 360, "height": 780}, {"width": 1280, "height": 900}


def click_and_wait(page, button) -> None:
    """A click on a step button, then the server's preview replacing the draft."""
    fresh = page.locator("#draft").get_attribute("data-fresh")
    button.click()
    page.wait_for_function("f => (document.getElementById('draft').dataset.fresh || null) !== f",
                           arg=fresh)
    assert page.locator("#draft .error").count() == 0


def place(page, group, want: str | None = None) -> tuple[str, str]:
    """Open a folded group (unless open) and click one of its hexes: its notation and label."""
    if group.get_attribute("open") is None:
        group.locator("summary").click()
    buttons = group.locator("button[name=add]")
    button = buttons.filter(has_text=want).first if want else buttons.first
    notation, label = button.get_attribute("value"), button.text_content().strip()
    assert button.is_visible()
    click_and_wait(page, button)
    return notation, label


def submit(page) -> str:
    page.get_by_role("button", name="Submit turn…").click()
    dialog = page.locator("dialog#confirm")
    dialog.wait_for(state="visible")
    words = dialog.locator(".words").text_content()
    with page.expect_navigation():
        dialog.get_by_role("button", name="Yes, submit my turn").click()
    return words


def token_on(page, hex: str):
    return page.locator(f"svg.hexmap g[data-hex='{hex}'] text.tokl")


def test_placing_tokens_on_the_hex_map_by_clicks(server, browser):
    game = server.flask("new-game", "--game", "babylonia", "--player", "Anna <anna@example.org>",
                        "--player", "Bob <bob@example.org>", "--first", "0", "--seed", str(SEED))
    page = browser.new_page(viewport=PHONE)
    page.on("pageerror", lambda error: pytest.fail(f"script error: {error}"))

    # Anna starts: in the first round exactly one token.
    open_turn_mail(page, server, "anna@example.org")
    assert page.get_by_text("It is your turn").is_visible()
    assert page.locator("svg.hexmap g[data-hex]").count() > 100
    assert page.locator("svg.hexmap text.hname", has_text="g7").first.is_visible()
    groups = page.locator("#draft details.step-group")
    assert groups.count() >= 1 and groups.first.get_attribute("open") is None
    notation, _ = place(page, groups.first)
    hex = notation.split()[1]
    assert page.locator("#draft .draft-steps li code").all_text_contents() == [notation]
    assert page.locator("#steps").input_value().strip() == notation
    assert token_on(page, hex).text_content() == notation.split()[0][0].upper()
    assert page.locator("#draft .ok").is_visible()            # one token: she may submit
    assert no_sideways_scroll(page)
    words = submit(page)
    assert words.startswith("A ") and hex in words
    assert "/s/" in page.url and page.get_by_text("Waiting for Bob").is_visible()

    # Bob plays two: one face down on a river, one more; the group he opened stays open.
    open_turn_mail(page, server, "bob@example.org")
    assert page.locator("section.lastturn pre").text_content().strip() == notation
    group = page.locator("#draft details.step-group").first
    kind = group.get_attribute("data-group")
    river, label = place(page, group, "river")
    assert "river" in label
    river_hex = river.split()[1]
    assert token_on(page, river_hex).text_content() == river.split()[0][0].upper()   # his own kind
    group = page.locator("#draft details.step-group").first
    if group.get_attribute("data-group") == kind:        # more of that kind: the group stays open
        assert group.get_attribute("open") is not None
        assert group.locator("button[name=add]").first.is_visible()
    assert no_sideways_scroll(page)
    page.screenshot(path=str(SHOTS / "babylonia-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    assert no_sideways_scroll(page)
    page.screenshot(path=str(SHOTS / "babylonia-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    second, _ = place(page, group, None)
    steps = page.locator("#draft .draft-steps li code").all_text_contents()
    assert steps == [river, second]
    assert page.locator("#draft .turnnow ol.placed li").count() == 2
    assert page.locator("#draft .ok").is_visible()
    submit(page)
    assert page.get_by_text("Waiting for Anna").is_visible()

    # Anna sees Bob's river token as "?", and his turn as "? hex".
    open_turn_mail(page, server, "anna@example.org")
    assert token_on(page, river_hex).text_content() == "?"
    assert page.locator("section.lastturn pre").text_content().strip() == f"? {river_hex}; {second}"
    page.goto(f"{server.url}/games/{game}/record")
    assert token_on(page, river_hex).text_content() == "?"
    assert river not in page.content()


def hex_on_map(page, hex: str):
    return page.locator(f"#draft svg.hexmap g[data-target='{hex}']")


def draft_steps(page) -> list[str]:
    return page.locator("#draft .draft-steps li code").all_text_contents()


def test_tapping_the_hex_map(server, browser):
    """Hexes that legal steps name are marked; a tap adds a hex's only step, or offers its
    several in a small menu (Escape closes it); places no step names do nothing."""
    server.flask("new-game", "--game", "babylonia", "--player", "Anna <anna@example.org>",
                 "--player", "Bob <bob@example.org>", "--first", "0", "--seed", str(SEED))
    page = browser.new_page(viewport=PHONE, has_touch=True)
    page.on("pageerror", lambda error: pytest.fail(f"script error: {error}"))
    refused = []    # what the Content-Security-Policy refused (an inline style, say)
    page.on("console", lambda message: "Content Security Policy" in message.text
            and refused.append(message.text))
    menu = page.locator(".target-menu")

    # Anna's first turn: one token of three kinds onto any free land or river hex.
    open_turn_mail(page, server, "anna@example.org")
    targets = page.evaluate("""() => new Set(Array.from(
        document.querySelectorAll('#draft button[name=add]'), b => b.value.split(' ').pop())).size""")
    assert targets > 50
    assert page.locator("#draft svg.hexmap g.hx.playable").count() == targets
    city = hex_on_map(page, "g7")                       # a city: no step goes there
    assert "playable" not in city.get_attribute("class")
    city.click()
    assert menu.count() == 0 and draft_steps(page) == []

    hex_on_map(page, "c7").tap()
    assert menu.is_visible()
    assert menu.get_by_role("button").all_text_contents()[1:] == [
        "Play a farmer", "Play a priest", "Play an official"]
    assert page.evaluate("document.activeElement.textContent") == "Play a farmer"   # focus in it
    assert no_sideways_scroll(page)
    page.keyboard.press("Escape")                         # closes, adds nothing
    assert menu.count() == 0 and draft_steps(page) == []
    assert page.evaluate("document.activeElement.dataset.target") == "c7"
    page.keyboard.press("Enter")                          # the hex again, from the keyboard
    assert menu.is_visible()
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.textContent") == "Play a priest"
    page.locator("main h1").click()                       # a click elsewhere closes it
    assert menu.count() == 0 and draft_steps(page) == []

    hex_on_map(page, "c7").tap()
    click_and_wait(page, menu.get_by_role("button", name="Play a farmer"))
    assert menu.count() == 0
    assert draft_steps(page) == ["farmer c7"]
    assert page.locator("#steps").input_value().strip() == "farmer c7"
    assert token_on(page, "c7").text_content() == "F"
    assert page.locator("#draft svg.hexmap g.hx.playable").count() == 0   # her one token is down
    submit(page)

    # Bob: a priest beside the field at b11; then only a farmer may go onto the field (next to
    # his own token), so a tap on it adds that step at once.
    open_turn_mail(page, server, "bob@example.org")
    assert "playable" not in hex_on_map(page, "b11").get_attribute("class")
    hex_on_map(page, "c11").tap()
    click_and_wait(page, menu.get_by_role("button", name="Play a priest"))
    assert draft_steps(page) == ["priest c11"]
    assert page.locator("#draft button[name=add][value$=' b11']").count() == 1
    field = hex_on_map(page, "b11")
    assert "playable" in field.get_attribute("class")
    click_and_wait(page, field)
    assert menu.count() == 0
    assert draft_steps(page) == ["priest c11", "farmer b11"]
    assert page.locator("#draft .ok").is_visible()
    assert refused == []
