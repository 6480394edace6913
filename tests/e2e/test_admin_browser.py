"""The operator's page in a real browser: signing in with the mailed link (from the local
outbox), the dashboard at 360 and 1280 pixels, and a game's page on a phone."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from browser_pages import no_sideways_scroll

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "docs" / "screenshots"
FLASK = str(Path(sys.executable).with_name("flask"))


def new_game(server, *players: str, game: str = "babel", first: str = "0") -> str:
    args = ["new-game", "--game", game, "--first", first]
    for player in players:
        args += ["--player", player]
    return server.flask(*args)


def games(server, *which: str) -> list[dict]:
    return json.loads(server.flask("games", "list", *which, "--json"))


def until(check, seconds: float = 20.0):
    """Wait for the server's worker (it delivers every two seconds)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if value := check():
            return value
        time.sleep(0.3)
    raise AssertionError("the server did not get there in time")


def mail_text(page, server, to: str, subject: str) -> str:
    """The text of the newest mail to `to` with this subject, from the local outbox."""
    page.goto(server.url + "/outbox")
    page.locator("tr", has_text=to).filter(has_text=subject).first.locator("a").click()
    return page.locator("pre.mailtext").text_content()


def ingest_too_large(server) -> None:
    """An incoming mail larger than the server takes: quarantined for the operator."""
    raw = (b"From: Zed <zed@example.net>\r\nTo: turns@pbem.test\r\nSubject: my whole turn, "
           b"with photos\r\n\r\n" + b"x" * 4000)
    done = subprocess.run([FLASK, "--app", "pbem", "ingest"], input=raw, cwd=ROOT,
                          env={**server.env, "INGEST_MAX_BYTES": "1000"}, capture_output=True,
                          timeout=60)
    assert done.returncode == 0 and b"quarantined" in done.stdout, done


def play_first_legal_step(page, server, game_id: str) -> None:
    """The first legal step of whoever owes a decision, through the JSON API."""
    [wait] = json.loads(server.flask("games", "show", game_id, "--json"))["waiting"]
    turn = page.request.get(wait["turn_link"], headers={"Accept": "application/json"}).json()
    played = page.request.post(wait["turn_link"], data=json.dumps(
        {"steps": turn["legal_steps"][0]["notation"]}), headers={"Content-Type": "application/json"})
    assert played.ok, played.text()


def a_server_with_some_history(page, server) -> dict[str, str]:
    ids = {
        "waiting": new_game(server, "Anna <anna@example.org>", "Bob <bob@example.org>"),
        "three": new_game(server, "Carol <carol@example.org>", "Dave <dave@example.org>",
                          "Erin <erin@example.org>", game="babylonia"),
        "aborted": new_game(server, "Finn <finn@example.org>", "Gus <gus@example.org>",
                            game="babel-tower"),
        "stalled": new_game(server, "Hana <hana@example.org>", "Ivo <ivo@example.org>"),
        "resigned": new_game(server, "Jo <jo@example.org>", "Kai <kai@example.org>"),
        "running": new_game(server, "Lea <lea@example.org>", "Max <max@example.org>",
                            game="babel-tower"),
    }
    play_first_legal_step(page, server, ids["running"])
    server.flask("games", "abort", ids["aborted"], "--why", "Finn and Gus met in person instead.")
    seat = json.loads(server.flask("games", "show", ids["resigned"], "--json"))["players"][1]
    resigned = page.request.post(seat["seat_link"] + "/resign", data=json.dumps({"confirm": True}),
                                 headers={"Content-Type": "application/json"})
    assert resigned.ok, resigned.text()
    # Hana stops all mail from her invitation; her seat's address set again (the operator's
    # correction) mails her the invitation anew, which is not sent: stalled. (`resend` refuses a
    # suppressed address outright.)
    text = mail_text(page, server, "hana@example.org", "you")
    stop = re.search(r"(http://\S+/u/\S+)", text).group(1)
    assert page.request.post(stop).ok
    server.flask("games", "set-address", ids["stalled"], "0", "hana@example.org")
    until(lambda: games(server, "--stalled"))
    ingest_too_large(server)
    return ids


def sign_in(page, server) -> None:
    page.goto(server.url + "/admin")
    operator = server.env["ADMIN_EMAIL"]
    page.get_by_label("The operator's mail address").fill(operator)
    with page.expect_navigation():
        page.get_by_role("button", name="Mail me a sign-in link").click()
    assert page.get_by_text("a sign-in link is on its way").is_visible()
    page.goto(server.url + "/outbox")
    page.locator("tr", has_text=operator).first.locator("a").click()
    with page.expect_navigation():
        page.locator("pre.mailtext a[href*='/admin/in/']").click()
    assert page.get_by_role("heading", name="Sign in as the operator?").is_visible()
    with page.expect_navigation():
        page.get_by_role("button", name="Sign in").click()
    assert page.get_by_role("heading", name="The server").is_visible()


def test_the_operator_signs_in_and_sees_the_server(operated_server, browser):
    server = operated_server
    page = browser.new_page(viewport={"width": 360, "height": 780})
    page.on("pageerror", lambda error: pytest.fail(f"script error: {error}"))
    ids = a_server_with_some_history(page, server)
    sign_in(page, server)

    stalled = page.locator("#stalled")
    assert stalled.get_by_role("link").count() == 1
    assert "Hana's last mail" in stalled.text_content()
    assert page.locator("#finished").get_by_text("Finn and Gus met in person instead.").is_visible()
    assert page.locator("#quarantine").get_by_text("larger than 1000 bytes").is_visible()
    assert page.locator("#suppressed").get_by_text("hana@example.org").is_visible()
    assert no_sideways_scroll(page)
    page.screenshot(path=str(SHOTS / "admin-phone.png"), full_page=True)

    page.set_viewport_size({"width": 1280, "height": 900})
    page.reload()
    assert no_sideways_scroll(page)
    page.screenshot(path=str(SHOTS / "admin-desktop.png"), full_page=True)

    # A game's page, on the phone again: its actions fit, and one acts.
    page.set_viewport_size({"width": 360, "height": 780})
    with page.expect_navigation():
        page.locator("#stalled").get_by_role("link").first.click()
    assert page.get_by_role("heading", name="Babel: Hana vs Ivo").is_visible()
    assert no_sideways_scroll(page)
    page.screenshot(path=str(Path(server.env["PBEM_INSTANCE_PATH"]) / "admin-game-phone.png"),
                    full_page=True)
    page.get_by_role("textbox", name="New address").first.fill("hana.new@example.org")
    with page.expect_navigation():
        page.get_by_role("button", name="Set address").first.click()
    assert page.get_by_text("Seat 0 now plays from hana.new@example.org").is_visible()
    detail = json.loads(server.flask("games", "show", ids["stalled"], "--json"))
    assert detail["players"][0]["address"] == "hana.new@example.org"


# -- the job queues (PostgreSQL) ------------------------------------------------------------

def a_failed_job(server) -> None:
    from pbem import create_app
    from pbem.extensions import db
    from pbem.jobs import engine
    app = create_app({"SECRET_KEY": server.env["SECRET_KEY"],
                      "SQLALCHEMY_DATABASE_URI": server.env["DATABASE_URL"]})
    with app.app_context():
        engine.defer_thinking(db.session, [("no-such-game", 1, 0)])
        db.session.commit()
        db.engine.dispose()


def test_the_operator_sees_the_queues_and_retries_a_failed_job(pg_operated_server, browser):
    server = pg_operated_server
    page = browser.new_page(viewport={"width": 360, "height": 780})
    page.on("pageerror", lambda error: pytest.fail(f"script error: {error}"))
    a_failed_job(server)
    sign_in(page, server)
    deadline = time.monotonic() + 30
    while "bots · think" not in page.locator("#background").text_content():
        assert time.monotonic() < deadline, "the job did not fail in time"
        time.sleep(0.5)
        page.reload()
    background = page.locator("#background")
    assert background.get_by_role("table").is_visible()
    row = background.locator("tbody tr", has_text="bots")
    assert row.locator("td").nth(3).text_content() == "1"   # failed (after due, later, running)
    assert no_sideways_scroll(page)
    background.screenshot(path=str(SHOTS / "admin-jobs-phone.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.reload()
    assert no_sideways_scroll(page)
    page.locator("#background").screenshot(path=str(SHOTS / "admin-jobs-desktop.png"))

    with page.expect_navigation():
        page.locator("#background").get_by_role("button", name="Retry", exact=True).click()
    assert page.get_by_text("1 failed job(s) queued again.").is_visible()
    assert Path(SHOTS / "admin-jobs-desktop.png").exists()
