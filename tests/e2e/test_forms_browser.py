"""Forms in Chromium (issue 26). The start page's script: who takes over a seat is asked only
for a game of 3 or 4; a time per turn and a time bank together, or one address in two seats, are
refused at the field before the form is sent (the server refuses them too:
tests/web/test_start_page.py). The home: the device's time zone offered first; a form sent lands
on a page that can be reloaded, saying what was saved. Screenshots go to PBEM_SHOTS.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

SHOTS = Path(os.environ.get("PBEM_SHOTS", "/tmp/pbem-shots"))


def open_start_page(browser, server, width=1280):
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(server.url + "/")
    return page


def fill(page, seat: int, name: str, email: str) -> None:
    page.fill(f"input[name=name{seat}]", name)
    page.fill(f"input[name=email{seat}]", email)


def test_the_takeover_is_asked_only_for_a_game_of_three_or_four(server, browser):
    page = open_start_page(browser, server)
    takeover = page.locator("label.takeover")
    assert not takeover.is_visible()                      # Babel: two players
    page.check("input[name=game][value=babylonia]")
    fill(page, 0, "Anna", "anna@example.org")
    fill(page, 1, "Bob", "bob@example.org")
    assert not takeover.is_visible()                      # Babylonia, two so far
    page.select_option("select[name=bot2]", "easy")
    assert takeover.is_visible()                          # a third seat: the computer
    page.select_option("select[name=bot2]", "person")
    assert not takeover.is_visible()
    fill(page, 2, "Carol", "carol@example.org")
    assert takeover.is_visible()
    page.check("input[name=game][value=babel]")           # back to a game of two
    assert not takeover.is_visible()
    page.close()


def test_two_clocks_or_one_address_twice_are_refused_before_sending(server, browser):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = open_start_page(browser, server)
    fill(page, 0, "Anna", "anna@example.org")
    fill(page, 1, "Bob", "bob@example.org")
    page.select_option("select[name=time_limit]", "7")
    page.select_option("select[name=clock]", "bank:7+1/14")
    page.click("form.newgame button[type=submit]")
    assert page.url == server.url + "/"                    # not sent
    said = page.eval_on_selector("select[name=clock]", "e => e.validationMessage")
    assert said == "Choose one clock: a time per turn or a time bank, not both."
    page.select_option("select[name=time_limit]", "none")
    assert page.eval_on_selector("select[name=clock]", "e => e.validationMessage") == ""

    page.fill("input[name=email1]", " Anna@Example.org")
    page.click("form.newgame button[type=submit]")
    assert page.url == server.url + "/"
    said = page.eval_on_selector("input[name=email1]", "e => e.validationMessage")
    assert said == "Players 1 and 2 have the same mail address: each player needs one of his own."
    assert page.eval_on_selector("input[name=email0]", "e => e.validationMessage") == ""
    page.set_viewport_size({"width": 360, "height": 800})
    page.screenshot(path=str(SHOTS / "start-refused-phone.png"), full_page=True)

    page.fill("input[name=email1]", "bob@example.org")
    page.click("form.newgame button[type=submit]")
    page.wait_for_url(re.compile(r".*/games/[A-Za-z0-9_-]+/proposed$"))
    page.close()


def test_without_the_script_the_server_refuses_both_and_keeps_the_form(server, browser):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server.url + "/")
    fill(page, 0, "Anna", "anna@example.org")
    fill(page, 1, "Bob", "anna@example.org")
    page.click("form.newgame button[type=submit]")
    assert "Players 1 and 2 have the same mail address, anna@example.org" in page.inner_text(".error")
    assert page.input_value("input[name=name1]") == "Bob"
    context.close()


def test_screenshots_of_the_start_page(server, browser):
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, name in ((360, "phone"), (1280, "desktop")):
        page = open_start_page(browser, server, width)
        page.check("input[name=game][value=babylonia]")
        fill(page, 0, "Anna", "anna@example.org")
        fill(page, 1, "Bob", "bob@example.org")
        page.select_option("select[name=bot2]", "easy")
        page.screenshot(path=str(SHOTS / f"start-{name}.png"), full_page=True)
        page.close()


def home_link(server, page) -> str:
    server.flask("new-game", "--game", "babel", "--seed", "3", "--player", "Anna <anna@example.org>",
                 "--player", "Bob <bob@example.org>")
    page.goto(server.url + "/outbox")
    page.locator("tr", has_text="anna@example.org").first.locator("a").first.click()
    return page.locator("pre.mailtext a[href*='/h/']").first.get_attribute("href")


def test_the_home_offers_the_device_s_zone_first_and_lands_on_a_saved_notice(server, browser):
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(timezone_id="Asia/Calcutta", viewport={"width": 360, "height": 780})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    home = home_link(server, page)
    page.goto(home)
    first = page.locator("select[name=time_zone] option").first
    # Chromium names India's zone by its old alias: offered all the same, and taken.
    assert first.text_content() == "Asia/Calcutta (this device's time zone)"
    assert page.locator("select[name=time_zone] option[value='Asia/Calcutta']").count() == 1
    page.locator("select[name=time_zone]").select_option(index=0)
    with page.expect_navigation():
        page.get_by_role("button", name="Save settings").click()
    assert page.url == home + "?saved=settings"
    assert page.locator("p.ok[role=status]").text_content() == "Your settings were saved."
    assert page.get_by_text("times in Asia/Calcutta").is_visible()
    page.reload()   # a page the browser can reload: no "send the form again?"
    assert page.url == home + "?saved=settings" and page.get_by_text("times in Asia/Calcutta").is_visible()
    for width, name in ((360, "phone"), (1280, "desktop")):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(SHOTS / f"home-saved-{name}.png"), full_page=True)
    assert errors == []
    context.close()
