"""Babel Tower in a real browser: a whole game played by tapping the tower's free corners, Anna
on a 360-pixel phone and Bob on a 1280-pixel desktop, each way chosen previewed in the page (the
tower after it, the cube outlined) before the confirmation; one turn by keyboard alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from browser_pages import no_sideways_scroll, open_turn_mail

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PHONE = {"width": 360, "height": 780}
DESKTOP = {"width": 1280, "height": 900}


def drawn_cubes(page) -> int:
    """The cubes the picture draws (and says it draws)."""
    svg = page.locator("svg.towerpic").first
    count = svg.locator("g.icube").count()
    assert svg.get_attribute("data-cubes") == str(count)
    return count


def tap_a_corner_and_place(page) -> str:
    """Tap the free corners in the picture until one offers a way, and choose its first way."""
    corners = page.locator("svg.towerpic a.freecorner")
    assert corners.count() >= 1
    assert page.locator("details.placecorner[open]").count() == 0     # folded until a tap
    for i in range(corners.count()):
        corner = corners.nth(i).get_attribute("data-corner")
        corners.nth(i).click()
        listing = page.locator(f"details.placecorner[data-corner='{corner}']")
        assert listing.get_attribute("open") is not None          # the tap opened its list
        assert "chosen" in (corners.nth(i).get_attribute("class") or "")
        assert page.locator("details.placecorner[open]").count() == 1     # its list alone
        ways = listing.locator("button[name=compose]")
        if ways.count():
            assert ways.first.is_visible()
            notation = ways.first.get_attribute("value")
            assert notation.split()[2] == corner
            ways.first.click()
            place_after_the_preview(page, notation)
            return notation
        assert "none of your cubes fits" in listing.locator("summary").text_content()
    raise AssertionError("no free corner offered a way, yet the turn is owed")


def place_after_the_preview(page, notation: str) -> None:
    """A way chosen: the page previews the tower after it, the chosen cube outlined as the
    player's own and one cube more than before; "Place it…" goes on to the confirmation."""
    preview = page.locator("#towerpreview")
    preview.wait_for(state="visible")
    before = drawn_cubes(page)
    assert preview.locator("svg.towerpic g.icube").count() == before + 1
    mark = preview.locator("svg.towerpic g.icube.last")
    assert mark.count() == 1 and mark.get_attribute("data-corner") == notation.split()[2]
    assert preview.locator(".cell.last .lastmark").text_content() == "your placement"
    assert preview.locator("form.placeit input[name=steps]").get_attribute("value") == notation
    assert no_sideways_scroll(page)
    if before in (3, 4):
        page.screenshot(path=str(SHOTS / ("tower-preview-phone.png" if page.viewport_size["width"] < 500
                                          else "tower-preview-desktop.png")), full_page=True)
    with page.expect_navigation():
        preview.get_by_role("button", name="Place it…").click()


def place_by_keyboard(page) -> str:
    """Tab to a free corner of the picture, Enter, then Enter on the first way it offers."""
    for _ in range(80):
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.getAttribute('class') || ''")
        if "freecorner" in focused:
            corner = page.evaluate("document.activeElement.getAttribute('data-corner')")
            page.keyboard.press("Enter")
            listing = page.locator(f"details.placecorner[data-corner='{corner}']")
            assert listing.get_attribute("open") is not None
            if listing.locator("button[name=compose]").count():
                notation = page.evaluate("document.activeElement.value")
                assert notation and notation.split()[2] == corner   # the focus went to its first way
                page.keyboard.press("Enter")
                # The preview's "Place it…" has the focus: Enter goes on to the confirmation.
                page.locator("#towerpreview").wait_for(state="visible")
                page.wait_for_function("document.activeElement.textContent === 'Place it…'")
                with page.expect_navigation():
                    page.keyboard.press("Enter")
                return notation
    raise AssertionError("no free corner with a way was reached by Tab")


def test_a_whole_game_by_tapping_the_tower(server, browser):
    server.flask("new-game", "--game", "babel-tower", "--player", "Anna <anna@example.org>",
                 "--player", "Bob <bob@example.org>", "--first", "0", "--seed", "3",
                 "--option", "draft=random")
    pages = {"anna": browser.new_page(viewport=PHONE), "bob": browser.new_page(viewport=DESKTOP)}
    for page in pages.values():
        page.on("pageerror", lambda error: pytest.fail(f"script error: {error}"))
    who, other = "anna", "bob"
    placed = 0
    shots = {}
    while True:
        page = pages[who]
        open_turn_mail(page, server, f"{who}@example.org")
        assert page.get_by_role("heading", name=f"Place a cube on floor {placed // 4 + 1}").is_visible()
        assert drawn_cubes(page) == placed
        if placed:   # the opponent's cube is marked on the tower and in the plan
            last = page.locator("svg.towerpic g.icube.last")
            assert last.count() == 1
            assert page.locator(".tower .cell.last .lastmark").text_content() == (
                f"placed last by {other.capitalize()}")
        assert no_sideways_scroll(page)
        if placed == 6 and who == "anna":
            shots["tower-phone.png"] = page
        if placed == 5 and who == "bob":
            shots["tower-desktop.png"] = page
        for name, shot in list(shots.items()):
            shot.screenshot(path=str(SHOTS / name), full_page=True)
            del shots[name]
        notation = place_by_keyboard(page) if placed == 2 else tap_a_corner_and_place(page)
        # The confirmation shows the tower after the placement, the new cube marked.
        assert page.get_by_role("heading", name="Submit this turn?").is_visible()
        after = page.locator("section.after")
        assert after.locator("g.icube").count() == placed + 1
        cube, corner = notation.split()[1:3]
        mark = after.locator("g.icube.last")
        assert mark.count() == 1 and mark.get_attribute("data-corner") == corner
        assert after.locator(".cell.last .lastmark").text_content() == "your placement"
        assert no_sideways_scroll(page)
        if placed == 4:
            page.screenshot(path=str(SHOTS / "tower-confirm-phone.png"), full_page=True)
        with page.expect_navigation():
            page.get_by_role("button", name="Yes, submit my turn").click()
        placed += 1
        assert drawn_cubes(page) == placed
        floor = (placed - 1) // 4 + 1
        plan = page.locator(f".tower section.floor[aria-label='floor {floor}'] .cell.{corner.lower()}")
        assert plan.locator(".cube").text_content() == cube
        if page.locator("p.status", has_text="The game is over").count():
            break
        assert page.locator("p.status", has_text=f"Waiting for {other.capitalize()}").is_visible()
        who, other = other, who
    # The game ended: a complete tower (a draw) or a player who could not place.
    assert placed >= 6
    for page in pages.values():
        page.reload()
        assert drawn_cubes(page) == placed
        assert no_sideways_scroll(page)


def test_without_javascript_a_corner_is_a_link_to_its_ways(server, browser):
    server.flask("new-game", "--game", "babel-tower", "--player", "Anna <anna@example.org>",
                 "--player", "Bob <bob@example.org>", "--first", "0", "--seed", "3",
                 "--option", "draft=random")
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(server.url + "/outbox")
    page.locator("tr", has_text="anna@example.org").filter(has_text="your turn").first.locator("a").click()
    page.locator("pre.mailtext a[href*='/t/']").first.click()
    page.wait_for_load_state()
    corner = page.locator("svg.towerpic a.freecorner").first
    name = corner.get_attribute("data-corner")
    corner.click()
    assert page.url.endswith(f"#corner-{name.lower()}")
    listing = page.locator(f"details.placecorner[data-corner='{name}']")
    assert listing.get_attribute("open") is not None       # the browser opens the list it jumps to
    way = listing.locator("button[name=compose]").first
    assert way.is_visible()
    notation = way.get_attribute("value")
    with page.expect_navigation():
        way.click()
    assert page.get_by_role("heading", name="Submit this turn?").is_visible()
    assert page.locator("section.after g.icube.last").get_attribute("data-corner") == name
    with page.expect_navigation():
        page.get_by_role("button", name="Yes, submit my turn").click()
    assert page.get_by_text("Waiting for Bob").is_visible()
    assert page.locator("svg.towerpic g.icube").count() == 1
    assert notation.split()[2] == name
    context.close()
