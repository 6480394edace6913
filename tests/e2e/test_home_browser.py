"""The player's home in a browser, at 360 and 1280 pixels: Anna's games waiting for her (the
most urgent deadline first), waiting for others, finished with a rematch button; her settings
saved from the page. Screenshots go to docs/screenshots/ (home-*.png), shown in the README and docs/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.helpers.browser_pages import no_sideways_scroll

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
WIDTHS = {"phone": {"width": 360, "height": 780}, "desktop": {"width": 1280, "height": 900}}
ANNA = "Anna <anna@example.org>"


def shoot(page, name: str) -> None:
    for label, size in WIDTHS.items():
        page.set_viewport_size(size)
        assert no_sideways_scroll(page), (name, label)
        page.screenshot(path=str(SHOTS / f"home-{name}-{label}.png"), full_page=True)
    page.set_viewport_size(WIDTHS["phone"])


def game(server, *players: str, first: int = 0, limit: int | None = None) -> str:
    args = ["new-game", "--game", "babel", "--first", str(first), "--seed", "3"]
    for player in players:
        args += ["--player", player]
    if limit:
        args += ["--time-limit", str(limit)]
    return server.flask(*args)


def seat_link(server, game_id: str, name: str) -> str:
    shown = json.loads(server.flask("games", "show", game_id, "--json"))
    return next(p["seat_link"] for p in shown["players"] if p["name"] == name)


def test_the_home_on_a_phone_and_a_desktop(server, browser):
    games = [game(server, ANNA, "Bob <bob@example.org>", limit=7),
             game(server, "Carl <carl@example.org>", ANNA, first=1, limit=3),
             game(server, ANNA, "Dave <dave@example.org>", first=1),
             game(server, ANNA, "Eve <eve@example.org>")]
    page = browser.new_page(viewport=WIDTHS["phone"])
    page.on("pageerror", lambda error: pytest.fail(f"script error: {error}"))
    page.goto(seat_link(server, games[3], "Eve") + "/resign")   # Eve resigns: Anna won
    with page.expect_navigation():
        page.get_by_role("button", name="Yes, resign the game").click()
    # Anna's home link is in the footer of every mail she gets.
    page.goto(server.url + "/outbox")
    page.locator("tr", has_text="anna@example.org").first.locator("a").first.click()
    home = page.locator("pre.mailtext a[href*='/h/']").first.get_attribute("href")
    page.goto(home)
    assert page.locator("h1").text_content() == "Your games"
    order = page.locator("li.game").evaluate_all("items => items.map(i => i.dataset.game)")
    assert order == [games[1], games[0], games[2], games[3]]
    assert page.locator("li.game.yours").count() == 2
    assert page.get_by_text("waiting for Dave").is_visible()
    assert page.get_by_text("You won").is_visible()
    page.locator("select[name=time_zone]").select_option("Europe/Berlin")
    with page.expect_navigation():
        page.get_by_role("button", name="Save settings").click()
    assert page.get_by_text("Your settings were saved.").is_visible()
    assert page.get_by_text("times in Europe/Berlin").is_visible()
    assert page.locator("li.game.yours .when").first.text_content().strip().endswith(("CET", "CEST"))
    shoot(page, "games")
    # The finished game's own page and its record offer the rematch.
    with page.expect_navigation():
        page.locator("li.game.finished a.title").click()
    assert page.get_by_role("button", name="Rematch: the same players again").is_visible()
    shoot(page, "finished")
    page.goto(f"{server.url}/games/{games[3]}/record")
    assert page.get_by_role("button", name="Mail me the link to ask for it").is_visible()
    shoot(page, "record")
    page.goto(home)
    with page.expect_navigation():
        page.locator("li.game.finished").get_by_role("button", name="Rematch").click()
    assert page.get_by_text("it starts when Eve says yes").is_visible()


def test_a_vacation_from_the_home_and_deadlines_in_her_own_time(server, browser):
    """Anna chooses Berlin's time: her seat page says her deadline in it; she goes on vacation
    from her home (Bob sees until when) and comes back from it."""
    game_id = game(server, ANNA, "Bob <bob@example.org>", limit=3)
    page = browser.new_page(viewport=WIDTHS["phone"])
    page.on("pageerror", lambda error: pytest.fail(f"script error: {error}"))
    page.goto(server.url + "/outbox")
    page.locator("tr", has_text="anna@example.org").first.locator("a").first.click()
    home = page.locator("pre.mailtext a[href*='/h/']").first.get_attribute("href")
    page.goto(home)
    assert page.get_by_text("You have 30 days left this year").is_visible()
    page.locator("select[name=time_zone]").select_option("Europe/Berlin")
    with page.expect_navigation():
        page.get_by_role("button", name="Save settings").click()
    page.goto(seat_link(server, game_id, "Anna"))
    deadline = page.locator("p.deadline").text_content() or ""
    assert deadline.startswith("Your time for this turn runs out on ")
    assert deadline.endswith(("CET (3 days a turn).", "CEST (3 days a turn)."))
    shoot(page, "deadline")
    page.goto(home)
    page.locator("#vacation-days").fill("2")
    with page.expect_navigation():
        page.get_by_role("button", name="Start my vacation").click()
    until = page.locator(".home-vacation p.away strong").text_content() or ""
    assert until.endswith(("CET", "CEST"))
    assert page.get_by_role("button", name="I am back: end my vacation").is_visible()
    page.locator("#vacation").scroll_into_view_if_needed()
    shoot(page, "vacation")
    page.goto(seat_link(server, game_id, "Bob"))
    assert page.get_by_text("Anna is on vacation until").is_visible()
    page.goto(home)
    with page.expect_navigation():
        page.get_by_role("button", name="I am back: end my vacation").click()
    assert page.get_by_text("Welcome back: your vacation has ended").is_visible()
    assert page.get_by_text("You have 29 days left this year").is_visible()


def test_rest_days_quiet_hours_and_feeds_on_the_home(server, browser):
    """Anna picks Saturday and Sunday and quiet hours on her home; her 7-day deadline then says
    it was moved on by them, and the home links her two feeds, which open."""
    game(server, ANNA, "Bob <bob@example.org>", limit=7)
    page = browser.new_page(viewport=WIDTHS["phone"])
    page.on("pageerror", lambda error: pytest.fail(f"script error: {error}"))
    page.goto(server.url + "/outbox")
    page.locator("tr", has_text="anna@example.org").first.locator("a").first.click()
    home = page.locator("pre.mailtext a[href*='/h/']").first.get_attribute("href")
    page.goto(home)
    page.get_by_label("Saturday").check()
    page.get_by_label("Sunday").check()
    page.locator("input[name=quiet_from]").fill("22:00")
    page.locator("input[name=quiet_until]").fill("07:00")
    with page.expect_navigation():
        page.get_by_role("button", name="Save rest days and quiet hours").click()
    assert page.get_by_text("Your rest days and quiet hours were saved").is_visible()
    assert page.get_by_label("Saturday").is_checked() and not page.get_by_label("Monday").is_checked()
    assert page.locator("input[name=quiet_from]").input_value() == "22:00"
    assert page.locator("li.game.yours .after-rest").is_visible()   # 7 days hold a weekend
    assert page.get_by_role("link", name="Your deadlines (iCalendar)").is_visible()
    page.locator("#rest").scroll_into_view_if_needed()
    for label, size in WIDTHS.items():
        page.set_viewport_size(size)
        assert no_sideways_scroll(page), label
        page.screenshot(path=str(SHOTS / f"home-rest-{label}.png"), full_page=True)
    for link in ("Your deadlines (iCalendar)", "Your notices (Atom)"):
        href = page.get_by_role("link", name=link).get_attribute("href")
        answer = page.request.get(server.url + href if href.startswith("/") else href)
        assert answer.status == 200 and answer.body()
