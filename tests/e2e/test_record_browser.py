"""A game's record in a real browser, at 360 and 1280 pixels: Anna plays a few turns of Babel
against a computer through the JSON API, then the record is stepped through step by step (by
the links, the arrow keys and ▶ Play), the chart with its axes and a legend beside it."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from browser_pages import no_sideways_scroll

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PHONE = {"width": 360, "height": 780}
DESKTOP = {"width": 1280, "height": 900}


def call(url: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Accept": "application/json",
                                              "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def play_turns(seat_link: str, turns: int) -> None:
    """Anna's next `turns` decisions, a few steps each (the first legal ones), the computer's
    turns in between played by the server's worker."""
    for _ in range(turns):
        deadline = time.monotonic() + 60
        while not (seen := call(seat_link)).get("turn_link"):
            assert time.monotonic() < deadline, "the computer did not play"
            time.sleep(0.3)
        link, steps = seen["turn_link"], []
        while True:
            draft = call(link + "/preview", {"steps": "\n".join(steps)})
            options = draft["legal_steps"]
            may_end = draft["done"] or any(o["ends"] for o in options)
            more = [o for o in options if not o["ends"]]
            if may_end and (len(steps) >= 2 or not more):
                break
            assert more, (steps, draft)
            # Not the same kind of step again and again (moves could go on for ever).
            kinds = {s.split()[0] for s in steps}
            fresh = [o for o in more if o["notation"].split()[0] not in kinds]
            steps.append((fresh or more)[0]["notation"])
        call(link, {"steps": "\n".join(steps)})


def heading(page) -> str:
    return page.locator("#board h2").text_content()


def test_stepping_through_the_record(server, browser):
    game = server.flask("new-game", "--game", "babel", "--player", "Anna <anna@example.org>",
                        "--player", "bot:random", "--first", "0", "--seed", "4")
    seat = json.loads(server.flask("games", "show", game, "--json"))["players"][0]["seat_link"]
    play_turns(seat, 3)
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page = browser.new_page(viewport=size)
        page.on("pageerror", lambda error: pytest.fail(f"script error: {error}"))
        page.goto(f"{server.url}/games/{game}/record?turn=0")
        assert heading(page) == "The start of the game"
        # The chart: axes with titles, a legend beside it naming Anna first (she began).
        chart = page.locator("svg.scorechart")
        assert chart.locator("text.axistitle").all_text_contents() == ["turns played", "score"]
        assert chart.locator("polyline").count() == 2
        legend = page.locator("ol.legend li")
        assert [t.split(":")[0] for t in legend.all_text_contents()] == [
            "Anna", "Computer (random)"]
        box, key = chart.bounding_box(), page.locator("ol.legend").bounding_box()
        over = (key["x"] < box["x"] + box["width"] and box["x"] < key["x"] + key["width"]
                and key["y"] < box["y"] + box["height"] and box["y"] < key["y"] + key["height"])
        assert not over, "the legend lies over the chart"
        # Step by step through Anna's first turn, by the links (a page each).
        with page.expect_navigation():
            page.locator("#board a[rel=next]").click()
        first = heading(page)
        assert first.startswith("After turn 1, step 1 of ")
        count = int(first.split(" of ")[1].split(":")[0])
        assert page.locator("ol.turnsteps li").count() == count
        for k in range(2, count + 1):
            with page.expect_navigation():
                page.locator("#board a[rel=next]").click()
            assert heading(page).startswith(f"After turn 1, step {k} of {count}" if k < count
                                            else "After turn 1: Anna played")
            assert page.locator("ol.turnsteps li.current").count() == 1
        assert "step=" not in page.url      # the last step is the whole turn
        assert no_sideways_scroll(page)
        # The arrow keys step too (the script swaps the page in place).
        page.keyboard.press("ArrowLeft")
        expect(page.locator("#board h2")).to_contain_text(f"After turn 1, step {count - 1} of {count}")
        page.keyboard.press("ArrowRight")
        expect(page.locator("#board h2")).to_contain_text("After turn 1: Anna played")
        # ▶ Play goes on by itself into the next turns, and stops when paused.
        play = page.locator("#board [data-play]")
        assert play.is_visible() and play.text_content() == "▶ Play"
        play.click()
        expect(page.locator("#board h2")).to_contain_text("After turn 2", timeout=15000)
        assert page.locator("#board [data-play]").text_content() == "⏸ Pause"
        page.locator("#board [data-play]").click()
        paused = heading(page)
        time.sleep(2)
        assert heading(page) == paused
        assert "turn=2" in page.url
        assert no_sideways_scroll(page)
        # At the end, ▶ Play starts again from the start.
        page.goto(f"{server.url}/games/{game}/record")
        assert page.locator("#board a[rel=next]").count() == 0
        page.locator("#board [data-play]").click()
        expect(page.locator("#board h2")).to_contain_text("After turn 1", timeout=15000)
        page.locator("#board [data-play]").click()
        assert page.locator("#board [data-play]").text_content() == "▶ Play"
        page.goto(f"{server.url}/games/{game}/record?turn=3&step=1")
        assert heading(page).startswith("After turn 3, step 1 of")
        page.screenshot(path=str(SHOTS / f"record-steps-{label}.png"), full_page=True)
        page.close()


@pytest.mark.parametrize("game, players", [
    ("babel-tower", ["--player", "bot:random", "--option", "draft=random"]),
    ("babylonia", ["--player", "bot:random", "--player", "bot:random"]),
])
def test_the_record_of_the_other_games_steps_too(server, browser, game, players):
    """Babel Tower's record marks the cube each turn placed; Babylonia's turns step token by
    token. Both at 360 pixels without sideways scrolling."""
    game_id = server.flask("new-game", "--game", game, "--player", "Anna <anna@example.org>",
                           *players, "--first", "0", "--seed", "4")
    seat = json.loads(server.flask("games", "show", game_id, "--json"))["players"][0]["seat_link"]
    play_turns(seat, 2)
    page = browser.new_page(viewport=PHONE)
    page.on("pageerror", lambda error: pytest.fail(f"script error: {error}"))
    page.goto(f"{server.url}/games/{game_id}/record?turn=1")
    names = [t.split(":")[0] for t in page.locator("ol.legend li").all_text_contents()]
    assert names[0] == "Anna" and len(names) == len(players) // 2 + 1 - (game == "babel-tower")
    if game == "babel-tower":
        for turn in (1, 2, 3):
            page.goto(f"{server.url}/games/{game_id}/record?turn={turn}")
            assert page.locator("svg.towerpic g.icube").count() == turn
            marked = page.locator("svg.towerpic g.icube.last")
            corner = heading(page).split()[-2]          # "… played place 3 SW UNE"
            assert marked.count() == 1 and marked.get_attribute("data-corner") == corner
            assert page.locator("svg.towerpic a.freecorner").count() == 0   # nothing to tap
            assert no_sideways_scroll(page)
        page.screenshot(path=str(SHOTS / "record-tower-phone.png"), full_page=True)
    else:     # the second player places two tokens (the first only one, in his first turn)
        page.goto(f"{server.url}/games/{game_id}/record?turn=2")
        assert heading(page).startswith("After turn 2: ")       # the whole turn
        count = page.locator("ol.turnsteps li").count()
        assert count >= 2, heading(page)
        with page.expect_navigation():
            page.locator("ol.turnsteps li a").first.click()
        assert heading(page).startswith(f"After turn 2, step 1 of {count}")
        assert page.locator("ol.turnsteps li.current").text_content().strip() == (
            page.locator("ol.turnsteps li a").first.text_content().strip())
        assert no_sideways_scroll(page)
