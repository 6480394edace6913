"""Open challenges in a browser, at 360 and 1280 pixels: Anna (a public name, a rated game lost
to the computer) posts a rated challenge from the start page's form and confirms it from her
mail; Bob, without a public name, posts an unrated one for three; Dave takes Anna's up from the
list and his mail, and the game starts. Screenshots go to docs/screenshots/ (challenges-*.png,
start-challenge-*.png: the start page with the rated box, the computers' ratings and the
challenge's form; challenge-accept-*.png, home-challenges-*.png), shown in docs/players.md.
Bob withdraws his from his home."""

from __future__ import annotations

import pytest
from tests.e2e.test_players_browser import WIDTHS, choose_name, game, resign, shoot


def mail_link(page, server, address: str, prefix: str) -> str:
    """The newest link of one kind (`/ch/`, `/ca/` …) in the mails to an address (the outbox)."""
    page.goto(server.url + "/outbox")
    page.locator("tr", has_text=address).first.locator("a").first.click()
    return page.locator(f"pre.mailtext a[href*='{prefix}']").first.get_attribute("href")


def post_challenge(page, server, address: str, name: str, game_name: str, seats: str,
                   rated: bool) -> None:
    page.goto(server.url + "/#challenge")
    form = page.locator("form.challenge")
    form.locator(f"input[name=game][value={game_name}]").check()
    form.locator("select[name=seats]").select_option(seats)
    form.locator("select[name=clock]").select_option("bank:7+1/14")
    if rated:
        form.locator("input[name=rated]").check()
        form.locator("input[name=lowest]").fill("1200")
        form.locator("input[name=highest]").fill("1800")
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=address]").fill(address)
    with page.expect_navigation():
        form.get_by_role("button").click()
    assert page.get_by_text("A mail with a link to confirm your challenge went to").is_visible()
    page.goto(mail_link(page, server, address, "/ch/"))
    with page.expect_navigation():
        page.get_by_role("button", name="Post the challenge").click()
    assert page.get_by_text("Your challenge is up until").is_visible()


def test_challenges_posted_listed_and_taken_up_on_a_phone_and_a_desktop(server, browser):
    computer = game(server, "Anna <anna@example.org>", "bot:normal")
    page = browser.new_page(viewport=WIDTHS["phone"])
    page.on("pageerror", lambda error: pytest.fail(f"script error: {error}"))
    choose_name(page, server, "anna@example.org", "Anna K.")
    resign(page, server, computer, "Anna")

    page.goto(server.url + "/")
    assert page.locator("p.computer-ratings").is_visible()   # "normal" has a rating now
    assert page.locator("input[name=rated]").first.is_visible()
    page.locator("#c-title").scroll_into_view_if_needed()
    shoot(page, "start-challenge")

    post_challenge(page, server, "anna@example.org", "Anna", "babel", "2", rated=True)
    post_challenge(page, server, "bob@example.org", "Bob", "babylonia", "3", rated=False)
    page.goto(server.url + "/challenges")
    assert page.locator("li.challenge").count() == 2
    assert "@" not in page.locator("main").inner_text()
    assert page.get_by_text("a player without a public name").is_visible()
    shoot(page, "challenges")

    anna = page.locator("li.challenge", has_text="Anna K.")
    anna.locator("input[name=address]").fill("dave@example.org")
    with page.expect_navigation():
        anna.get_by_role("button").click()
    assert page.get_by_text("A mail went to the address you gave").is_visible()
    page.goto(mail_link(page, server, "dave@example.org", "/ca/"))
    # Dave has no public name: a rated challenge is not for him yet.
    assert page.get_by_text("A rated challenge is for players with a public name").is_visible()
    choose_name(page, server, "dave@example.org", "Dave")
    page.goto(mail_link(page, server, "dave@example.org", "/ca/"))
    shoot(page, "challenge-accept")
    with page.expect_navigation():
        page.get_by_role("button", name="Take my seat").click()
    assert "/record" in page.url
    page.goto(server.url + "/challenges")
    assert page.locator("li.challenge").count() == 1
    # Bob's home lists his challenge, which he may withdraw there.
    page.goto(mail_link(page, server, "bob@example.org", "/h/"))
    page.locator("#h-challenges").scroll_into_view_if_needed()
    assert page.locator(".home-challenges li").count() == 1
    shoot(page, "home-challenges")
    with page.expect_navigation():
        page.get_by_role("button", name="Withdraw the challenge").click()
    assert page.get_by_text("Your challenge is withdrawn").is_visible()
    page.goto(server.url + "/challenges")
    assert page.locator("li.challenge").count() == 0
    page.get_by_role("link", name="Play the computer").click()
    assert page.locator("select[name=bot1]").input_value() == "normal"
