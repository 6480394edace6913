"""A league in a browser, at 360 and 1280 pixels: the operator creates it, four players join
from its page (each opens the link mailed to him; one without a public name chooses it as he
joins), the round starts it, its games end (by resigning), and the standings name the winner.
Screenshots go to docs/screenshots/ (league-open-*.png, league-standings-*.png,
league-joined-*.png, league-new-*.png), shown in docs/players.md."""

from __future__ import annotations

import json
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from tests.helpers.browser_pages import no_sideways_scroll

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
WIDTHS = {"phone": {"width": 360, "height": 780}, "desktop": {"width": 1280, "height": 900}}
PLAYERS = [("anna@example.org", "Anna K."), ("bob@example.org", "Bob the Builder"),
           ("carl@example.org", "Carl"), ("dave@example.org", "Dave from Brno")]


def shoot(page, name: str) -> None:
    for label, size in WIDTHS.items():
        page.set_viewport_size(size)
        assert no_sideways_scroll(page), (name, label)
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=True)
    page.set_viewport_size(WIDTHS["phone"])


def as_json(url: str) -> dict:
    asked = urllib.request.Request(url, headers={"Accept": "application/json"})
    with urllib.request.urlopen(asked) as answer:
        return json.loads(answer.read())


def join(page, server, league: str, address: str, name: str) -> str:
    """He asks on the league's page and presses the button behind the mailed link; his home's
    link (from that mail's footer)."""
    page.goto(f"{server.url}/leagues/{league}")
    page.locator("form.league-join input[name=email]").fill(address)
    with page.expect_navigation():
        page.get_by_role("button", name="Mail me the link to join").click()
    assert page.locator("p.notice").is_visible()
    page.goto(server.url + "/outbox")
    page.locator("tr", has_text=address).filter(has_text="Joining the league").first.locator("a").click()
    page.wait_for_selector("pre.mailtext")
    home = page.locator("pre.mailtext a[href*='/h/']").first.get_attribute("href")
    page.goto(page.locator("pre.mailtext a[href*='/lj/']").first.get_attribute("href"))
    page.locator("input[name=name]").fill(name)
    with page.expect_navigation():
        page.get_by_role("button", name="Join the league").click()
    assert page.get_by_text(f"You are in this league, as {name}.").is_visible()
    return home


def resign(page, server, game_id: str, name: str) -> None:
    shown = json.loads(server.flask("games", "show", game_id, "--json"))
    page.goto(next(p["seat_link"] for p in shown["players"] if p["name"] == name) + "/resign")
    with page.expect_navigation():
        page.get_by_role("button", name="Yes, resign the game").click()


def test_a_league_page_and_its_standings_on_a_phone_and_a_desktop(server, browser):
    starts = (datetime.now(UTC) + timedelta(days=7)).date()
    league = server.flask("league", "create", "--name", "Autumn Tower 2026", "--game", "babel-tower",
                          "--players", "4-8", "--starts", starts.isoformat(), "--clock", "move:3",
                          "--rated", "--min-on-time", "75").split()[0]
    page = browser.new_page(viewport=WIDTHS["phone"])
    page.on("pageerror", lambda error: pytest.fail(f"script error: {error}"))
    homes = [join(page, server, league, address, name) for address, name in PLAYERS]
    assert page.get_by_role("button", name="Leave the league").is_visible()
    shoot(page, "league-joined")
    # Anna's home leads to the form for a league of her own.
    page.goto(homes[0])
    page.get_by_role("link", name="Start a league").click()
    page.wait_for_selector("form.league-new")
    page.locator("input[name=name]").fill("Babylonia im Winter")
    page.locator("input[name=starts]").fill(starts.isoformat())
    shoot(page, "league-new")
    page.goto(f"{server.url}/leagues/{league}")
    assert page.locator("ul.league-members li").all_inner_texts() == [n for _, n in PLAYERS]
    assert "@" not in page.content().replace('type="email"', "")
    shoot(page, "league-open")

    later = datetime.combine(starts, datetime.min.time()) + timedelta(minutes=1)
    assert server.flask("league", "tend", "--now", later.isoformat()).startswith("started 1")
    games = as_json(f"{server.url}/leagues/{league}")["games"]
    assert len(games) == 6
    # The earlier-joined player of each pairing wins, but Dave beats Anna: a table with a tie-break.
    order = [n for _, n in PLAYERS]
    for g in games[:5]:
        first, second = g["players"]
        loser = second if order.index(first) < order.index(second) else first
        if {first, second} == {"Anna K.", "Dave from Brno"}:
            loser = "Anna K."
        resign(page, server, g["game"], loser)
    page.goto(f"{server.url}/leagues/{league}")
    assert page.locator("table.standings tbody tr").count() == 4
    assert page.get_by_text("(being played)").count() == 1
    last = games[5]
    resign(page, server, last["game"], last["players"][1])
    assert server.flask("league", "tend", "--now", later.isoformat()).endswith("finished 1")
    page.goto(f"{server.url}/leagues/{league}")
    assert page.locator("p.winner").is_visible()
    assert "@" not in page.content()
    page.locator("#standings").scroll_into_view_if_needed()
    shoot(page, "league-standings")
    winner = as_json(f"{server.url}/leagues/{league}")["winners"][0]
    page.goto(f"{server.url}/p/{urllib.request.quote(winner)}")
    assert page.locator("strong.league-winner").is_visible()
