"""What the browser tests do on every game's pages: open a turn link from the local outbox, tap
a place of the board and wait for the server's preview, and check that a page never scrolls
sideways."""

from __future__ import annotations


def open_turn_mail(page, server, to: str):
    """From the local outbox, the newest mail to `to` that has a turn link, and that link."""
    page.goto(server.url + "/outbox")
    page.locator("tr", has_text=to).filter(has_text="your turn").first.locator("a").click()
    with page.expect_navigation():      # to its load event: pbem.js (deferred) has run, so
        page.locator("pre.mailtext a[href*='/t/']").first.click()   # clicks are previews


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


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
