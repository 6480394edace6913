"""The pages behind the links that change something, in a real browser, phone and desktop:
starting a game from the creator's mail, declining an invitation, replacing leaked links,
and never being mailed again. Each acts only through its button; screenshots of each go to
docs/screenshots/ (mailbox-*.png)."""

from __future__ import annotations

from pathlib import Path

import pytest

from browser_pages import no_sideways_scroll

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIZES = {"phone": {"width": 360, "height": 780}, "desktop": {"width": 1280, "height": 900}}


def open_mail(page, server, to: str, subject: str):
    """From the local outbox, the newest mail to `to` whose subject says `subject`."""
    page.goto(server.url + "/outbox")
    page.locator("tr", has_text=to).filter(has_text=subject).first.locator("a").click()
    page.wait_for_load_state()


def follow(page, path_part: str):
    """The first link in the open mail whose address holds `path_part`."""
    with page.expect_navigation():
        page.locator(f"pre.mailtext a[href*='{path_part}']").first.click()


def shot(page, name: str, size: str):
    assert no_sideways_scroll(page), name
    page.screenshot(path=str(SHOTS / f"mailbox-{name}-{size}.png"), full_page=True)


@pytest.mark.parametrize("size", SIZES)
def test_start_decline_replace_and_unsubscribe_by_buttons(server, browser, size):
    page = browser.new_page(viewport=SIZES[size])
    page.goto(server.url + "/")
    page.fill("input[name=name0]", "Anna")
    page.fill("input[name=email0]", "anna@example.org")
    page.fill("input[name=name1]", "Bob")
    page.fill("input[name=email1]", "bob@example.org")
    page.get_by_role("button", name="Create the game (we mail you a link to confirm it)").click()
    page.wait_for_load_state()
    assert "Check your mailbox" in page.locator("h1").text_content()
    shot(page, "proposed", size)

    # The creator's mail: the link opens the game as asked for; only the button starts it.
    open_mail(page, server, "anna@example.org", "Confirm your game")
    follow(page, "/c/")
    assert page.locator("h1").text_content() == "Start this game of Babel?"
    shot(page, "confirm", size)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_load_state()
    assert "invitations were mailed" in page.content()

    # Bob declines from his invitation: a page that asks, then the game is called off.
    open_mail(page, server, "bob@example.org", "Babel with Anna")
    follow(page, "/d/")
    assert page.locator("h1").text_content() == "Decline this game of Babel?"
    shot(page, "decline", size)
    page.get_by_role("button", name="Yes, decline the game").click()
    page.wait_for_load_state()
    status = page.locator("p.status").text_content()
    assert "nobody wins" in status and "Bob declined the invitation." in status

    # Anna's links leaked: her page asks her own mailbox; the link there replaces them.
    open_mail(page, server, "anna@example.org", "Babel with Bob")
    follow(page, "/s/")
    old_seat = page.url
    page.get_by_role("button", name="My links reached somebody else: replace them").click()
    page.wait_for_load_state()
    assert "Check your mailbox" in page.locator("h1").text_content()
    open_mail(page, server, "anna@example.org", "replace your links?")
    follow(page, "/r/")
    assert page.locator("h1").text_content() == "Replace your links?"
    shot(page, "replace", size)
    page.get_by_role("button", name="Replace my links").click()
    page.wait_for_load_state()
    assert "Links replaced" in page.locator("h1").text_content()
    assert page.goto(old_seat).status == 410

    # Never mail me again, from any mail's footer; and back again.
    open_mail(page, server, "bob@example.org", "the game is over")
    follow(page, "/u/")
    assert page.locator("h1").text_content() == "Stop all mail to bob@example.org?"
    shot(page, "unsubscribe", size)
    page.get_by_role("button", name="Never mail me again").click()
    page.wait_for_load_state()
    assert page.locator("h1").text_content() == "No more mail to bob@example.org"
    page.get_by_role("button", name="Mail me again after all").click()
    page.wait_for_load_state()
    assert "Mail to bob@example.org is on again" in page.content()
    page.close()
