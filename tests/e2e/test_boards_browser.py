"""Games played by touching the board, at 360 and 1280 px (issue 17): a whole game of Babel (a
territory moves the figure there, a hand card settles, the own column builds) and a whole
game of Babylonia for two (a hex takes a token), each to its ending, which must explain itself
to both players; turns of Babylonia for three; the others' last turns told in words and marked
on the board after they moved, no sideways scrolling, and a turn by keyboard alone.
Screenshots of the marked last turn go to docs/screenshots/ for the README and docs/.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pytest

from browser_pages import no_sideways_scroll, open_turn_mail, tap_and_wait

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PHONE, DESKTOP = {"width": 360, "height": 780}, {"width": 1280, "height": 900}
ANNA, BOB, CARL = "anna@example.org", "bob@example.org", "carl@example.org"


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
    """Owed discards picked as cards; then the board touched until nothing on it is playable:
    the own column builds first (building ends the game soonest), else a territory moves the
    figure there (once a turn), else a hand card settles; submitted. The steps played."""
    if page.locator("form.discard").count():
        owed = int(page.locator("form.discard").get_attribute("data-owed"))
        for n in range(owed):
            page.locator("label.pickcard").nth(n).click()
        with page.expect_navigation():
            page.get_by_role("button", name="Discard these and draw").click()
    moved = False
    for _ in range(12):
        column = page.locator("#draft .column.playable[data-target=mine]")
        territory = page.locator("#draft section.territory.playable")
        card = page.locator("#draft .hand .card.playable")
        if column.count():
            tap_and_wait(page, column)
            assert steps(page)[-1].split()[-1] == "mine"
        elif territory.count() and not moved:
            letter = territory.first.get_attribute("data-target")
            tap_and_wait(page, territory.first)
            assert steps(page)[-1] == f"move {letter}"
            assert page.locator(f"#draft section.territory.t-{letter} h4 .figure.me").count() == 1
            moved = True
        elif card.count():
            tribe = card.first.get_attribute("data-target")
            tap_and_wait(page, card.first)
            assert steps(page)[-1].startswith("settle ") and steps(page)[-1].endswith(tribe)
        else:
            break
    assert page.locator("#draft .ok").count() or not steps(page)
    assert no_sideways_scroll(page)
    played = steps(page)
    submit(page)
    return played


def status(page) -> str:
    return " ".join(page.locator("p.status").text_content().split())


def waiting_for(page) -> str | None:
    """Whom the page after a submission waits for (None: the game is over)."""
    text = status(page)
    if text.startswith("The game is over"):
        return None
    return text.split("Waiting for ")[1].split()[0].rstrip(".")   # "Waiting for Bob."


def open_over_mail(page, server, to: str) -> None:
    """The game-over mail to `to` in the local outbox, and its standing link."""
    page.goto(server.url + "/outbox")
    page.locator("tr", has_text=to).filter(has_text="the game is over").first.locator("a").click()
    with page.expect_navigation():
        page.locator("pre.mailtext a[href*='/s/']").first.click()


def endings(pages: dict) -> dict[str, str]:
    """Each player's ending, read on his page: whoever wins, and why, from his side."""
    said = {}
    for name, page in pages.items():
        text = status(page)
        assert text.startswith("The game is over: "), text
        said[name] = text.removeprefix("The game is over: ")
    return said


def test_a_babel_game_played_to_its_end_by_touching_the_board(server, browser):
    """A whole game, Anna on a phone and Bob at a desk, every step a touch of the board (the
    halving's discards are picked as cards); each turn the other's last turn is told and marked.
    The ending says who won and why, from each side, with the scores."""
    server.flask("new-game", "--game", "babel", "--player", "Anna <anna@example.org>",
                 "--player", "Bob <bob@example.org>", "--first", "0", "--seed", "3")
    phone, desktop = new_page(browser, PHONE), new_page(browser, DESKTOP)
    players = {"Anna": (phone, ANNA), "Bob": (desktop, BOB)}
    name, turn, last_played = "Anna", 0, []
    for turn in range(60):
        page, address = players[name]
        other = "Bob" if name == "Anna" else "Anna"
        open_turn_mail(page, server, address)
        assert page.title() == f"Your turn · Babel with {other}"
        if turn and last_played:
            # The other's turn in words, and on the board what it changed.
            told = page.locator("section.lastturn p.told").text_content()
            assert told.startswith(f"{other} ") and told.endswith(".")
            assert page.locator(".board .changed").count() >= 1
            if turn in (1, 2):
                page.screenshot(path=str(SHOTS / "lastturn-phone.png"
                                         if page is phone else SHOTS / "lastturn-desktop.png"),
                                full_page=True)
        last_played = babel_turn_by_touch(page)
        after = waiting_for(page)
        if after is None:
            break
        assert after == other
        assert page.title() == f"{other}'s turn · Babel with {other}"
        # Once he has played, his own board marks nothing any more.
        assert page.locator(".board .changed").count() == 0
        assert page.locator("section.lastturn").count() == 0
        name = other
    else:
        raise AssertionError("the game did not end in 60 turns")
    assert turn >= 10
    # The one who ended it reads his own last turn, the other reads it too, from the mail.
    assert page.locator("section.lastturn h2").text_content() == "Your last turn"
    open_over_mail(players[other][0], server, players[other][1])
    other_page = players[other][0]
    assert other_page.locator("section.lastturn h2").text_content() == f"{name}'s last turn"
    said = endings({n: p for n, (p, _) in players.items()})
    winner = next((n for n, text in said.items() if text.startswith("You win: ")), None)
    if winner is None:
        assert all(text.startswith("A draw: the temple supply ran out at ") for text in said.values())
    else:
        loser = "Bob" if winner == "Anna" else "Anna"
        assert said[loser].startswith(f"{winner} wins: ")
        # The scores that decided it, from each side: "(16 to 12)".
        mine = re.search(r"\((\d+) to (\d+)\)", said[winner]).groups()
        theirs = re.search(r"\((\d+) to (\d+)\)", said[loser]).groups()
        assert mine == theirs and int(mine[0]) >= int(mine[1])
        reasons = ("reached 15 points", "reached 20 points", "fell below 10 points",
                   "the temple supply ran out")
        assert any(r in said[winner] for r in reasons), said[winner]
    for page, _ in players.values():
        assert no_sideways_scroll(page)
        assert page.locator("#composer").count() == 0


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
    """Tokens onto hexes by tapping the map, until the turn may be submitted (a step with no
    place on the map by its button); submitted. The steps played."""
    for _ in range(6):
        if page.locator("#draft .ok").count():
            break
        hexes = page.locator("#draft svg.hexmap g.hx.playable")
        if not hexes.count():
            # A ziggurat card or a scoring order: no place on the map, its step button.
            button = page.locator("#draft section.legal button[name=add]:visible").first
            fresh = page.locator("#draft").get_attribute("data-fresh")
            button.click()
            page.wait_for_function("f => document.getElementById('draft').dataset.fresh !== f",
                                   arg=fresh)
            continue
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


def test_a_babylonia_game_for_two_played_to_its_end_by_touching_the_map(server, browser):
    """A whole game for two, Anna on a phone and Bob at a desk: every token goes onto the map
    by a tap. A step with no place on the map (a ziggurat card owed, or a scoring order) is
    taken with its step button. Whoever owes a decision next is the one the page waits for.
    The ending says who won, why the game ended (whose stand ran empty, or how few cities were
    left) and the points, from each side."""
    server.flask("new-game", "--game", "babylonia", "--player", "Anna <anna@example.org>",
                 "--player", "Bob <bob@example.org>", "--first", "0", "--seed", "1")
    phone, desktop = new_page(browser, PHONE), new_page(browser, DESKTOP)
    players = {"Anna": (phone, ANNA), "Bob": (desktop, BOB)}
    name, turns = "Anna", 0
    for turns in range(1, 80):  # noqa: B007 - the count is read after the loop
        page, address = players[name]
        open_turn_mail(page, server, address)
        assert page.title().startswith("Your turn · Babylonia with ")
        assert page.locator("#draft .notice").count() == 0
        babylonia_turn_by_touch(page)
        after = waiting_for(page)
        if after is None:
            break
        assert after in players
        name = after
    else:
        raise AssertionError("the game did not end in 80 decisions")
    assert turns >= 10
    assert page.locator("section.lastturn h2").text_content() == "Your last turn"
    other = "Bob" if name == "Anna" else "Anna"
    open_over_mail(players[other][0], server, players[other][1])
    said = endings({n: p for n, (p, _) in players.items()})
    why = re.compile(r"(?P<head>You win|Anna wins|Bob wins|You and \w+ share the win|\w+ and you "
                     r"share the win): (?P<why>your stand ran empty|\w+'s stand ran empty|only)"
                     r"[^.]* \d+ cit(y|ies) left on the board\. Points: (?P<points>.*)\.$")
    found = {n: why.match(text) for n, text in said.items()}
    assert all(found.values()), said
    heads = sorted(m["head"] for m in found.values())
    assert heads in (["Bob wins", "You win"], ["Anna wins", "You win"]) or \
        all("share the win" in h for h in heads), said
    for n, m in found.items():
        # The points of both, the reader's own as "you".
        assert "you " in m["points"] and f"{'Bob' if n == 'Anna' else 'Anna'} " in m["points"]
    for page, _ in players.values():
        assert no_sideways_scroll(page)
        assert page.locator("#composer").count() == 0


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
    shown = datetime.strptime(iso, "%Y-%m-%dT%H:%MZ").strftime("%a %d %b %Y, %H:%M UTC")
    assert deadline.text_content() == shown
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
