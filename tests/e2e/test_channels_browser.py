"""The home's channels in a real browser (a live server, Chromium): a webhook saved from the
page gets the next notice (a receiver on loopback checks its signature with the secret the
page shows) and the page says when it was delivered; "Notify this browser" registers the
service worker and asks the push service for a subscription. Headless Chromium has no push
service (Debian's build talks to none): its `subscribe()` fails, the page says so and nothing
is written; the subscription the script would send is tested in tests/web/test_push.py.
Screenshots of the section at 360 and 1280 px: docs/screenshots/channels-*.png."""

from __future__ import annotations

import hashlib
import hmac
import re
import time
from pathlib import Path

import pytest
from tests.e2e.conftest import LiveServer, _need_browser, migrated
from tests.helpers.browser_pages import no_sideways_scroll

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
WIDTHS = {"phone": {"width": 360, "height": 780}, "desktop": {"width": 1280, "height": 900}}
ANNA = "Anna <anna@example.org>"


@pytest.fixture
def hook_server(tmp_path, templates):
    _need_browser()
    live = LiveServer(migrated(tmp_path, templates), WEBHOOK_ALLOW_PRIVATE="1")
    yield live
    live.stop()


def game(server, *players: str, first: int = 0) -> str:
    args = ["new-game", "--game", "babel", "--first", str(first), "--seed", "3"]
    for player in players:
        args += ["--player", player]
    return server.flask(*args)


def home_of(page, server) -> str:
    page.goto(server.url + "/outbox")
    page.locator("tr", has_text="anna@example.org").first.locator("a").first.click()
    return page.locator("pre.mailtext a[href*='/h/']").first.get_attribute("href")


def test_a_webhook_set_on_the_home_gets_the_next_notice(hook_server, browser, receiver):
    game(hook_server, ANNA, "Bob <bob@example.org>")
    context = browser.new_context(viewport=WIDTHS["phone"])
    context.grant_permissions(["notifications"], origin=hook_server.url)
    page = context.new_page()
    page.on("pageerror", lambda error: pytest.fail(f"script error: {error}"))
    home = home_of(page, hook_server)
    page.goto(home)
    page.fill("#webhook-url", receiver.url)
    with page.expect_navigation():
        page.get_by_role("button", name="Save webhook").click()
    assert page.get_by_text("Your webhook was saved.").is_visible()
    secret = page.locator("code.secret").text_content()
    game(hook_server, ANNA, "Carl <carl@example.org>")   # Anna's turn: a notice
    [got] = receiver.wait_for(1, timeout=20)
    expected = "sha256=" + hmac.new(secret.encode(), got.body, hashlib.sha256).hexdigest()
    assert got.headers["X-Pbem-Signature"] == expected
    for _ in range(50):   # (the worker marks it delivered just after)
        page.goto(home)
        if page.get_by_text("Last notice delivered").count():
            break
        time.sleep(0.2)
    assert page.get_by_text("Last notice delivered").is_visible()

    # "Notify this browser": the worker registers; the push service is what headless lacks.
    page.get_by_role("button", name="Notify this browser").click()
    page.wait_for_selector("#push .push-said:not(:empty)", timeout=20_000)
    said = page.locator("#push .push-said").text_content()
    registered = page.evaluate("navigator.serviceWorker.getRegistration('/static/sw.js')"
                               ".then(r => !!r)")
    assert registered
    if "will be notified" in said:   # a browser with a push service: the channel is there
        page.goto(home)
        assert page.locator("li.channel[data-channel=push]").count() == 1
    else:
        assert "cannot be notified" in said
        assert re.search(r"push service|Registration failed|AbortError|not available", said), said
        page.goto(home)
        assert page.locator("li.channel[data-channel=push]").count() == 0
    section = page.locator("#channels")
    for label, size in WIDTHS.items():
        page.set_viewport_size(size)
        assert no_sideways_scroll(page), label
        section.screenshot(path=str(SHOTS / f"channels-{label}.png"))
    print("push in headless Chromium:", said)


def seat_link_of(page, server, address: str) -> str:
    """The seat link in the newest mail to `address` (its invitation), from the local outbox."""
    page.goto(server.url + "/outbox")
    page.locator("tr", has_text=address).first.locator("a").first.click()
    return page.locator("pre.mailtext a[href*='/s/']").first.get_attribute("href")


def test_a_game_s_webhook_set_by_one_player_is_shown_to_the_others(hook_server, browser, receiver):
    """Bob sets the game's webhook on his seat page; Anna's page says where it posts, that Bob
    set it and when, and its secret. Screenshots of her section: docs/screenshots/game-hook-*."""
    hook_server.flask("new-game", "--game", "babylonia", "--first", "0", "--seed", "3",
                      "--player", ANNA, "--player", "Bob <bob@example.org>",
                      "--player", "Cleo <cleo@example.org>")
    context = browser.new_context(viewport=WIDTHS["phone"])
    page = context.new_page()
    page.on("pageerror", lambda error: pytest.fail(f"script error: {error}"))
    bob = seat_link_of(page, hook_server, "bob@example.org")
    anna = seat_link_of(page, hook_server, "anna@example.org")
    page.goto(bob)
    page.locator("#hook summary").click()
    page.fill("#game-hook-url", receiver.url)
    with page.expect_navigation():
        page.locator("#hook").get_by_role("button", name="Save webhook").click()
    assert page.get_by_text("The game's webhook was saved; every player of the game sees it.").is_visible()
    page.goto(anna)
    section = page.locator("#hook")
    assert section.get_attribute("open") is not None
    assert "set by Bob" in section.text_content() and receiver.url in section.text_content()
    assert section.locator("code.secret").text_content()
    for label, size in WIDTHS.items():
        page.set_viewport_size(size)
        assert no_sideways_scroll(page), label
        section.screenshot(path=str(SHOTS / f"game-hook-{label}.png"))
