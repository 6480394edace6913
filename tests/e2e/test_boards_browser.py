"""Whole turns played by touching the board, at 360 and 1280 px (issue 17): Babel (a territory
moves the figure there, a hand card settles, the own column builds) and Babylonia for three
(a hex takes a token), the others' last turns told in words and marked on the board after
they moved, no sideways scrolling, and a turn by keyboard alone. Screenshots of the marked
last turn go to docs/screenshots/ for the README.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_pages import no_sideways_scroll, open_turn_mail

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PHONE, DESKTOP = {"width": 360, "height": 780}, {"width": 1280, "height": 900}
ANNA, BOB, CARL = "anna@example.org", "bob@example.org", "carl@example.org"


def tap_and_wait(page, place) -> None:
    """A tap on a place of the board, then the server's preview replacing the draft (a place
    with several steps opens a menu first: its first step is chosen)."""
    fresh = page.locator("#draft").get_attribute("data-fresh")
    place.tap()
    menu = page.locator(".target-menu")
    if menu.count():
        menu.locator(".target-steps button").first.click()
    page.wait_for_function("f => (document.getElementById('draft').dataset.fresh || null) !== f",
                           arg=fresh)
    assert page.locator("#draft .error").count() == 0


def steps(page) -> list[str]:
    return page.locator("#draft .draft-steps li code").all_text_contents()


def submit(page) -> str:
    page.get_by_role("button", name="Submit turn…").click()
    dialog = page.locator("dialog#confirm")
    dialog.wait_for(state="visible")
    words = dialog.locator(".words").text_content()
    with page.expect_navigation():
        dialog.get_by_role("button", name="Yes, submit my turn").click()
    return words


def new_page(browser, viewport):
    page = browser.new_page(viewport=viewport, has_touch=True)
    page.on("pageerror", lambda error: pytest.fail(f"script error: {error}"))
    return page


# -- Babel ------------------------------------------------------------------------------------

def babel_turn_by_touch(page) -> list[str]:
    """Owed discards picked as cards; then a move by a territory, a settling by a hand card, a
    build by the own column when it can; submitted. The steps played."""
    if page.locator("form.discard").count():
        owed = int(page.locator("form.discard").get_attribute("data-owed"))
        for n in range(owed):
            page.locator("label.pickcard").nth(n).click()
        with page.expect_navigation():
            page.get_by_role("button", name="Discard these and draw").click()
    territory = page.locator("#draft section.territory.playable").first
    letter = territory.get_attribute("data-target")
    tap_and_wait(page, territory)
    assert steps(page) == [f"move {letter}"]
    assert page.locator(f"#draft section.territory.t-{letter} h4 .figure.me").count() == 1
    card = page.locator("#draft .hand .card.playable").first
    tribe = card.get_attribute("data-target")
    tap_and_wait(page, card)
    assert steps(page)[-1] == f"settle {tribe}"
    column = page.locator("#draft .column.playable[data-target=mine]")
    if column.count():
        tap_and_wait(page, column)
        assert steps(page)[-1].split()[1] == "mine"
    assert no_sideways_scroll(page)
    played = steps(page)
    submit(page)
    return played


def test_babel_turns_by_touching_the_board_with_the_last_turn_marked(server, browser):
    server.flask("new-game", "--game", "babel", "--player", "Anna <anna@example.org>",
                 "--player", "Bob <bob@example.org>", "--first", "0", "--seed", "3")
    phone, desktop = new_page(browser, PHONE), new_page(browser, DESKTOP)
    players = [(phone, ANNA, "Anna"), (desktop, BOB, "Bob")]
    for turn in range(4):
        page, address, name = players[turn % 2]
        other = players[(turn + 1) % 2][2]
        open_turn_mail(page, server, address)
        assert page.title() == f"Your turn · Babel with {other}"
        if turn:
            # The other's turn in words, and on the board what it changed.
            told = page.locator("section.lastturn p.told").text_content()
            assert told.startswith(f"{other} moved to the ") and told.endswith(".")
            assert page.locator(".board .territory.changed").count() >= 1
            assert page.locator(".board .changed").count() >= 2
            if turn in (1, 2):
                page.screenshot(path=str(SHOTS / "lastturn-phone.png"
                                         if page is phone else SHOTS / "lastturn-desktop.png"),
                                full_page=True)
        played = babel_turn_by_touch(page)
        assert played[0].startswith("move ")
        assert page.get_by_text(f"Waiting for {other}").is_visible()
        assert page.title() == f"{other}'s turn · Babel with {other}"
        # Once he has played, his own board marks nothing any more.
        assert page.locator(".board .changed").count() == 0
        assert page.locator("section.lastturn").count() == 0


def test_a_babel_turn_by_keyboard_alone(server, browser):
    server.flask("new-game", "--game", "babel", "--player", "Anna <anna@example.org>",
                 "--player", "Bob <bob@example.org>", "--first", "0", "--seed", "3")
    page = new_page(browser, PHONE)
    open_turn_mail(page, server, ANNA)

    def press_on(key: str) -> None:
        fresh = page.locator("#draft").get_attribute("data-fresh")
        page.keyboard.press(key)
        page.wait_for_function("f => document.getElementById('draft').dataset.fresh !== f",
                               arg=fresh)

    # Tab to the first step button, as a keyboard user would from the top of the page.
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.name") == "add":
            break
    first = page.evaluate("document.activeElement.value")
    assert first.startswith("move ")
    press_on("Enter")
    assert steps(page) == [first]
    for wanted in ("settle", "build"):
        # Focus stays among the next steps: Tab on to one of the kind wanted.
        for _ in range(40):
            if (page.evaluate("document.activeElement.value") or "").startswith(wanted):
                break
            page.keyboard.press("Tab")
        press_on("Enter")
        assert steps(page)[-1].startswith(wanted)
    page.get_by_role("button", name="Submit turn…").focus()
    page.keyboard.press("Enter")
    dialog = page.locator("dialog#confirm")
    dialog.wait_for(state="visible")
    assert page.evaluate("document.activeElement.value") == "submit"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.get_by_text("Waiting for Bob").is_visible()


# -- Babylonia -----------------------------------------------------------------------------------

def babylonia_turn_by_touch(page) -> list[str]:
    """Tokens onto hexes by tapping the map, until the turn may be submitted; submitted."""
    for _ in range(4):
        if page.locator("#draft .ok").count():
            break
        hexes = page.locator("#draft svg.hexmap g.hx.playable")
        assert hexes.count() > 0
        tap_and_wait(page, hexes.nth(hexes.count() // 2))
        # The hex of the newest step is in view inside the map's box (it pans on a phone).
        newest = steps(page)[-1].split()[-1]
        box = page.locator("#draft .bab-map").bounding_box()
        at = page.locator(f"#draft svg.hexmap g[data-hex='{newest}']").bounding_box()
        assert box["x"] - 1 <= at["x"] and at["x"] + at["width"] <= box["x"] + box["width"] + 1
    assert page.locator("#draft .ok").is_visible()
    assert no_sideways_scroll(page)
    played = steps(page)
    submit(page)
    return played


def test_babylonia_turns_for_three_by_touching_the_map(server, browser):
    server.flask("new-game", "--game", "babylonia", "--player", "Anna <anna@example.org>",
                 "--player", "Bob <bob@example.org>", "--player", "Carl <carl@example.org>",
                 "--first", "0", "--seed", "5")
    phone, desktop = new_page(browser, PHONE), new_page(browser, DESKTOP)
    seats = [(phone, ANNA, "Anna"), (desktop, BOB, "Bob"), (phone, CARL, "Carl")]
    placed: dict[str, list[str]] = {}
    for turn in range(6):
        page, address, name = seats[turn % 3]
        open_turn_mail(page, server, address)
        assert page.title() == "Your turn · Babylonia with " + " and ".join(
            n for _, _, n in seats if n != name)
        # Not scolded before doing anything; the key to the map is not folded.
        assert page.locator("#draft .notice").count() == 0
        assert page.locator(".babylonia section.key").is_visible()
        # Every token the others placed since this seat's own last turn is marked.
        others = [seats[(turn - back) % 3][2] for back in (2, 1) if turn >= back]   # in turn
        marked = sorted(page.locator("#draft svg.hexmap g.hx.changed").evaluate_all(
            "gs => gs.map(g => g.dataset.hex)"))
        assert marked == sorted(h for n in others for h in placed[n])
        told = page.locator("section.lastturn p.told").all_text_contents()
        assert [t.split()[0] for t in told] == others
        if page is phone and turn:
            # The map pans on a phone: the last turns' tokens are brought into its box.
            box = page.locator("#draft .bab-map").bounding_box()
            inside = page.locator("#draft svg.hexmap g.hx.in-view").evaluate_all(
                "(gs, b) => gs.filter(g => { const r = g.getBoundingClientRect();"
                " return r.left >= b.x - 1 && r.right <= b.x + b.width + 1; }).length", box)
            assert inside >= 1
        if turn == 3:
            page.screenshot(path=str(SHOTS / "babylonia-lastturn-phone.png"), full_page=True)
        played = babylonia_turn_by_touch(page)
        placed[name] = [s.split()[-1] for s in played]
        assert page.locator(".board svg.hexmap g.hx.changed").count() == 0


def test_a_babylonia_turn_by_keyboard_alone(server, browser):
    server.flask("new-game", "--game", "babylonia", "--player", "Anna <anna@example.org>",
                 "--player", "Bob <bob@example.org>", "--first", "0", "--seed", "5")
    page = new_page(browser, PHONE)
    open_turn_mail(page, server, ANNA)
    # Tab to the first folded group of steps, open it, Tab on to its first hex, Enter.
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.tagName") == "SUMMARY":
            break
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    step = page.evaluate("document.activeElement.value")
    fresh = page.locator("#draft").get_attribute("data-fresh")
    page.keyboard.press("Enter")
    page.wait_for_function("f => document.getElementById('draft').dataset.fresh !== f", arg=fresh)
    assert steps(page) == [step]
    assert page.locator("#draft .ok").is_visible()
    page.get_by_role("button", name="Submit turn…").focus()
    page.keyboard.press("Enter")
    page.locator("dialog#confirm").wait_for(state="visible")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.get_by_text("Waiting for Bob").is_visible()


def test_a_deadline_in_the_browsers_local_time_as_well_as_utc(server, browser):
    server.flask("new-game", "--game", "babel", "--player", "Anna <anna@example.org>",
                 "--player", "Bob <bob@example.org>", "--first", "0", "--seed", "3",
                 "--time-limit", "3")
    page = browser.new_page(viewport=PHONE, timezone_id="Asia/Tokyo", locale="en-GB")
    open_turn_mail(page, server, ANNA)
    deadline = page.locator(".deadline time.local")
    iso = deadline.get_attribute("datetime")                 # "2026-11-27T01:05Z"
    assert deadline.text_content() == iso.replace("T", " ").replace("Z", " UTC")
    hour, minute = int(iso[11:13]), iso[14:16]
    local = page.locator(".deadline .localtime").text_content()
    assert f"{(hour + 9) % 24:02d}:{minute}" in local and local.endswith(" your time)")
    assert no_sideways_scroll(page)


def test_without_javascript_each_click_returns_to_the_composer(server, browser):
    server.flask("new-game", "--game", "babel", "--player", "Anna <anna@example.org>",
                 "--player", "Bob <bob@example.org>", "--first", "0", "--seed", "3")
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(server.url + "/outbox")
    page.locator("tr", has_text=ANNA).filter(has_text="your turn").first.locator("a").click()
    page.locator("pre.mailtext a[href*='/t/']").first.click()
    page.wait_for_load_state()
    assert page.evaluate("window.scrollY") == 0
    with page.expect_navigation():
        page.locator("#draft button[name=add]").first.click()
    assert page.url.endswith("#composer")
    assert page.locator("#draft .draft-steps li").count() == 1
    top = page.evaluate("document.getElementById('composer').getBoundingClientRect().top")
    assert page.evaluate("window.scrollY") > 0 and abs(top) < 2
    context.close()
