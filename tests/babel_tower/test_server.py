"""The server hosts Babel Tower without naming it: the start page, `flask new-game`, the pick
and place pages, mails, mail replies and the record, as it does for Babel.

Games are played the way people play them: form posts from the pages (compose a step with a
button, confirm it, submit), JSON from scripts, and mail replies through `flask ingest`.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from tower_kit import the_tower, tower_game

from html_tree import Node, page
from pbem.games.babel_tower import GAME
from pbem.games.babel_tower.cli import random_game
from pbem_web import ANNA, BOB, html_of, reply_to, started, text_of

ROOT = Path(__file__).resolve().parents[2]
NAMES = {ANNA: "Anna", BOB: "Bob"}
SEAT_ADDR = (ANNA, BOB)
WORDS = {"U": "up", "D": "down", "N": "north", "E": "east", "S": "south", "W": "west"}


# -- reading pages ---------------------------------------------------------------------------

def board_floors(root: Node) -> list[dict]:
    """The floors a page draws, in the order drawn: number, current or not, and each cell."""
    floors = []
    for section in root.one("div", "tower").all("section", "floor"):
        number = int(re.fullmatch(r"floor (\d)", section.attrs["aria-label"]).group(1))
        cells = {}
        for cell in section.all("div", "cell"):
            corner = cell.one("span", "corner").text()
            if "filled" in cell.classes:
                cells[corner] = (cell.one("span", "cube").text(), cell.one("span", "bumps").text(),
                                 cell.one("span", "by").text())
            else:
                cells[corner] = None
        floors.append({"number": number, "current": "current" in section.classes,
                       "heading": section.one("h4").text(), "cells": cells})
    return floors


def bump_words(faces: str) -> str:
    return "no bumps" if faces == "-" else ", ".join(WORDS[f] for f in faces)


# -- playing ------------------------------------------------------------------------------------

def create_by_form(client, draft="pick", first="0") -> str:
    """As a browser sends the start page: every game's options come along."""
    data = {"game": "babel-tower", "first": first, "option.draft": draft, "option.sumerians": "top-run",
            "name0": "Anna", "email0": ANNA, "name1": "Bob", "email1": BOB, "time_limit": "none"}
    response = client.post("/games", data=data)
    assert response.status_code == 303, response.data
    return started(client, response)


def cli(app, *args, input=None) -> str:
    result = app.test_cli_runner().invoke(args=list(args), input=input)
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def new_game(app, seed: int, draft: str = "random", first: int = 0) -> str:
    return cli(app, "new-game", "--game", "babel-tower", "--player", f"Anna <{ANNA}>",
               "--player", f"Bob <{BOB}>", "--first", str(first), "--seed", str(seed),
               "--option", f"draft={draft}").strip()


def turn_link(actions, seat: int) -> str:
    link = actions.links(SEAT_ADDR[seat])["turn"]
    assert link, f"no turn link for seat {seat}"
    return link


def play_by_pages(client, link: str, step: str) -> str:
    """One decision as a person makes it: the turn page, a button, the confirmation, submit.
    Where the page goes next: the seat's next turn, or its standing view."""
    shown = page(client.get(link))
    form = shown.one("form", "towerpick" if step.startswith("pick") else "towerplace")
    assert form.all("input", type="hidden", name="action", value="confirm")
    assert form.all("button", name="compose", value=step), f"{step} is not offered"
    confirm = client.post(link, data={"compose": step, "action": "confirm"})
    assert confirm.status_code == 200
    confirmation = page(confirm)
    assert confirmation.one("h1").text() == "Submit this turn?"
    assert confirmation.one("input", type="hidden", name="steps").attrs["value"] == step
    assert confirmation.one("pre", "notation").text() == step
    words = GAME.explain(None, 0, step)[0]
    assert confirmation.one("p", "words").text() == words[0].upper() + words[1:] + "."
    done = client.post(link, data={"steps": step, "action": "submit"})
    assert done.status_code == 303, done.data.decode()[:2000]
    return done.headers["Location"]


class Players:
    """Both players at their pages: a seat's next turn link comes from the page it is on
    (the web goes straight on to the actor's next decision), else from its latest mail."""

    def __init__(self, client, actions):
        self.client, self.actions, self.next = client, actions, {}

    def play(self, seat: int, step: str) -> None:
        link = self.next.pop(seat, None) or turn_link(self.actions, seat)
        went = play_by_pages(self.client, link, step)
        if went.startswith("/t/"):
            self.next[seat] = went


def answer(mail, steps: str, *, quote: str = "header") -> bytes:
    return reply_to(mail, steps, NAMES, quote=quote)


# -- the start page and creating games ---------------------------------------------------------

def test_the_start_page_offers_both_games_and_the_towers_draft(client):
    root = page(client.get("/"))
    form = root.one("form", "newgame")
    games = {i.attrs["value"]: i for i in form.all("input", type="radio", name="game")}
    assert {"babel", "babel-tower"} <= set(games)
    labels = {label.one("input").attrs["value"]: label.text() for label in form.all("label")
              if label.all("input", name="game")}
    assert labels["babel-tower"] == "Babel Tower (cuboro) (2 players)"
    drafts = {i.attrs["value"]: i for i in form.all("input", type="radio", name="option.draft")}
    assert set(drafts) == {"pick", "random"}
    assert "checked" in drafts["pick"].attrs and "checked" not in drafts["random"].attrs
    legends = [legend.text() for legend in form.all("legend")]
    assert "Babel Tower (cuboro) options" in legends
    assert form.all("input", type="radio", name="option.sumerians")          # Babel's are there too


@pytest.mark.parametrize("draft", ["pick", "random"])
def test_creating_a_tower_game_through_the_form(app, client, actions, draft):
    game = create_by_form(client, draft)
    loaded = actions.state(game)
    assert loaded.row.kind == "babel-tower" and loaded.row.options == {"draft": draft}
    assert loaded.state.phase == ("draft" if draft == "pick" else "build")
    assert [d.kind for d in GAME.to_act(loaded.state)] == ["pick" if draft == "pick" else "place"]
    created = client.get(f"/games/{game}/record?created=1").data.decode()
    assert "Babel Tower (cuboro): Anna vs Bob" in created and "invitations were mailed" in created
    invite = actions.last_mail(ANNA)
    assert str(invite["Subject"]) == "Babel Tower (cuboro) with Bob: your turn"
    assert str(actions.last_mail(BOB)["Subject"]) == "Babel Tower (cuboro) with Anna: you are invited"


def test_a_bad_draft_option_is_refused_on_the_form(client, actions):
    data = {"game": "babel-tower", "first": "0", "option.draft": "deal",
            "name0": "Anna", "email0": ANNA, "name1": "Bob", "email1": BOB}
    response = client.post("/games", data=data)
    assert response.status_code == 400
    assert "option draft=&#39;deal&#39; is not one of pick, random" in response.data.decode()
    assert actions.mail_count() == 0


def test_new_game_on_the_command_line(app, actions):
    game = new_game(app, seed=41, draft="random", first=0)
    loaded = actions.state(game)
    assert loaded.row.kind == "babel-tower" and loaded.row.seed == 41 and loaded.row.first == 0
    assert loaded.row.options == {"draft": "random"}
    assert loaded.state == GAME.start(41, {"draft": "random"}, 2, 0)
    assert actions.mail_count() == 2
    result = app.test_cli_runner().invoke(args=["new-game", "--game", "babel-tower",
                                                "--player", f"A <{ANNA}>", "--player", f"B <{BOB}>",
                                                "--option", "draft=deal"])
    assert result.exit_code == 2 and "is not one of pick, random" in result.output
    result = app.test_cli_runner().invoke(args=["new-game", "--game", "babel-towers",
                                                "--player", f"A <{ANNA}>", "--player", f"B <{BOB}>"])
    assert result.exit_code == 2 and "unknown game 'babel-towers'; games: babel, babel-tower" in result.output


def test_flask_new_game_as_a_real_command(app, actions, database_url):
    """`flask --app pbem new-game --game babel-tower ...` in its own process, on the test's database."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FLASK_", "DATABASE_URL", "SECRET_KEY"))}
    env.update(DATABASE_URL=database_url, SECRET_KEY=app.config["SECRET_KEY"],
               BASE_URL=app.config["BASE_URL"], MAIL_URL=app.config["MAIL_URL"],
               MAIL_FROM=app.config["MAIL_FROM"])
    done = subprocess.run([sys.executable, "-m", "flask", "--app", "pbem", "new-game",
                           "--game", "babel-tower",
                           "--player", f"Anna <{ANNA}>", "--player", f"Bob <{BOB}>", "--first", "1",
                           "--seed", "77", "--option", "draft=random"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    game = done.stdout.strip()
    loaded = actions.state(game)
    assert loaded.row.kind == "babel-tower" and loaded.row.options == {"draft": "random"}
    assert loaded.state == GAME.start(77, {"draft": "random"}, 2, 1)
    assert [d.seat for d in GAME.to_act(loaded.state)] == [1]
    link = turn_link(actions, 1)                  # Bob places first; his mail's link works here
    assert "Place a cube on floor 1" in actions.client.get(link).data.decode()


# -- the pages -----------------------------------------------------------------------------------

def test_the_pick_page_and_its_confirmation(app, client, actions):
    game = create_by_form(client, "pick")
    link = turn_link(actions, 0)
    root = page(client.get(link))
    assert root.one("h1").text() == "Babel Tower (cuboro): Anna vs Bob"
    assert root.one("p", "status").text() == "It is your turn: pick a cube."
    form = root.one("form", "towerpick")
    assert form.attrs["method"] == "post" and form.attrs["action"] == link
    assert [i.attrs["value"] for i in form.all("input", type="hidden", name="action")] == ["confirm"]
    buttons = {b.attrs["value"]: b.text() for b in form.all("button", name="compose")}
    assert buttons == {"pick 0": "Pick a 0 (6 left)", "pick 1": "Pick a 1 (6 left)",
                       "pick 2": "Pick a 2 (2 left)", "pick 3": "Pick a 3 (6 left)",
                       "pick 4": "Pick a 4 (4 left)"}
    assert "Still in the pool:" in root.one("div", "tower").text()
    confirm = page(client.post(link, data={"compose": "pick 2", "action": "confirm"}))
    assert confirm.one("p", "words").text() == "Pick a 2."
    assert actions.event_count(game) == 0                     # nothing is played before submitting
    # "No, back to editing" shows the page as it was, with every pick still offered.
    back = page(client.post(link, data={"steps": "pick 2", "action": "preview"}))
    assert len(back.one("form", "towerpick").all("button", name="compose")) == 5
    assert "Anna's cubes: none · placed 0" in back.one("div", "tower").text()
    assert client.post(link, data={"steps": "pick 2", "action": "submit"}).status_code == 303
    assert actions.state(game).events[-1] == {"v": 1, "type": "pick", "seat": 0, "step": "pick 2"}
    # The link has been used; Bob's turn mail brings his.
    assert client.post(link, data={"steps": "pick 2", "action": "submit"}).status_code == 409
    bob = page(client.get(turn_link(actions, 1)))
    assert bob.one("form", "towerpick").all("button", name="compose", value="pick 2")
    assert "Pick a 2 (1 left)" in bob.one("form", "towerpick").text()


def test_the_place_page_groups_the_legal_placements_per_corner_and_cube(app, client, actions):
    game = new_game(app, seed=3)
    link = turn_link(actions, 0)
    root = page(client.get(link))
    form = root.one("form", "towerplace")
    assert form.one("h2").text() == "Place a cube on floor 1"
    assert [i.attrs["value"] for i in form.all("input", type="hidden", name="action")] == ["confirm"]
    legal = {o.notation: o.label for o in GAME.legal_steps(actions.state(game).state, 0)}
    offered = {}
    corners = form.all("details", "placecorner")
    assert [c.attrs["id"] for c in corners] == ["corner-nw", "corner-ne", "corner-sw", "corner-se"]
    for group in corners:       # a free corner (the picture's links lead here): its cubes and ways
        corner = group.attrs["data-corner"]
        summary = re.fullmatch(r"(NW|NE|SE|SW): (\d) cubes? fits? \((\d+) ways?\)",
                               group.one("summary").text())
        assert summary and summary.group(1) == corner, group.one("summary").text()
        buttons = group.all("button", name="compose")
        assert len(buttons) == int(summary.group(3))
        assert len({b.attrs["value"].split()[1] for b in buttons}) == int(summary.group(2))
        for button in buttons:
            assert button.attrs["value"].split()[2] == corner
            offered[button.attrs["value"]] = button.attrs["aria-label"]
    assert offered == legal                                  # every legal placement, once, in words
    assert not any(v.startswith("place 4") for v in offered)   # never a 4 first
    # Typing a placement: Enter in the field submits the form's first submit button, so that
    # form holds no placement button, only "Place…" (and action=confirm).
    typed = next(f for f in root.all("form") if f.all("input", name="steps"))
    assert typed.attrs["action"] == link and not typed.all("button", name="compose")
    assert [b.text() for b in typed.all("button")] == ["Place…"]
    assert [i.attrs["value"] for i in typed.all("input", name="action")] == ["confirm"]
    # A preview, as the page's script or another client asks for it.
    step = next(iter(legal))
    preview = client.post(link + "/preview", json={"steps": step}).get_json()
    assert preview["steps"] == [step] and preview["done"] is True and preview["error"] is None
    assert preview["sentence"] == legal[step][0].upper() + legal[step][1:] + "."
    assert sum(c is not None for c in preview["view"]["floors"][0].values()) == 1
    assert actions.event_count(game) == 0
    # The same through JSON.
    data = client.get(link, headers={"Accept": "application/json"}).get_json()
    assert data["kind"] == "babel-tower" and data["decision"] == {"kind": "place", "label": "place a cube"}
    assert {o["notation"]: o["label"] for o in data["legal_steps"]} == legal
    assert data["view"] == GAME.view(actions.state(game).state, 0)


def test_an_illegal_typed_placement_is_refused_and_the_choices_stay(app, client, actions):
    game = new_game(app, seed=3)
    link = turn_link(actions, 0)
    response = client.post(link, data={"steps": "place 2 NW NU", "action": "confirm"})
    assert response.status_code == 422
    root = page(response)
    assert root.one("p", "error").text() == "step 1 (place 2 NW NU): a bump faces outward (N) at NW."
    form = root.one("form", "towerplace")
    assert len(form.all("button", name="compose")) == len(GAME.legal_steps(actions.state(game).state, 0))
    assert "None of your cubes fits" not in form.text()
    response = client.post(link, data={"steps": "place 2 NW NU", "action": "submit"})
    assert response.status_code == 422 and actions.event_count(game) == 0
    response = client.post(link, json={"steps": "place 3 NW UNE"})
    assert response.status_code == 422
    assert response.get_json() == {"error": "step 1 (place 3 NW UNE): a bump faces outward (N) at NW.",
                                   "step": 1}
    response = client.post(link, json={"steps": "place 0 NW -\nplace 0 NE -"})
    assert response.get_json()["error"] == "step 2 (place 0 NE -): a turn is exactly one step."
    # Typed in, a legal placement goes through the same confirmation.
    step = GAME.legal_steps(actions.state(game).state, 0)[0].notation
    confirm = page(client.post(link, data={"steps": step.lower(), "action": "confirm"}))
    assert confirm.one("h1").text() == "Submit this turn?"
    assert client.post(link, data={"steps": step.lower(), "action": "submit"}).status_code == 303
    assert actions.state(game).events[-1]["step"] == step


def test_a_complete_tower_played_through_the_pages_is_a_draw(app, client, actions, smtp, make_app):
    game = create_by_form(client, "pick", first="0")
    steps = tower_game(first=0)
    players = Players(client, actions)
    for number, (seat, step) in enumerate(steps, 1):
        players.play(seat, step)
        if number == 32:              # the page draws the floors as they stand mid-game
            seat_page = page(client.get(actions.links(ANNA)["seat"]))
            drawn = board_floors(seat_page)
            assert [(f["number"], f["current"]) for f in drawn] == [(3, True), (2, False), (1, False)]
            assert drawn[0]["heading"] == "Floor 3 (building now)" and drawn[1]["heading"] == "Floor 2"
            assert all(c is None for c in drawn[0]["cells"].values())
            for floor in drawn[1:]:
                for i in range(4):
                    kind, corner, bumps = the_tower()[(floor["number"] - 1) * 4 + i]
                    cube, words, by = floor["cells"][corner]
                    faces = "".join(f for f in "UDNESW" if f in bumps)
                    assert (cube, words) == (str(kind), bump_words(faces))
                    assert by in ("Anna", "Bob")
    loaded = actions.state(game)
    assert len(loaded.events) == 48
    outcome = GAME.outcome(loaded.state)
    assert (outcome.winner, outcome.reason) == (None, "complete")
    # Another process loads it cold, from the stored snapshots: the same state.
    from pbem.store import gamelog
    from pbem.store.models import Snapshot
    other = make_app()
    with other.app_context():
        from sqlalchemy import select

        from pbem.extensions import db
        assert db.session.scalars(select(Snapshot.seq).where(Snapshot.game_id == game)
                                  .order_by(Snapshot.seq)).all() == [16, 32, 48]
        assert gamelog.load(game).state == loaded.state
    # Both players are told: a draw, the tower is complete.
    actions.deliver()
    for addr in (ANNA, BOB):
        over = smtp.to(addr)[-1]
        assert str(over["Subject"]).endswith(": the game is over")
        assert "A draw: the tower is complete, all 24 cubes placed." in text_of(over)
        assert over["Reply-To"] is None
    # The seat page: the status, and all six floors drawn as finished.
    root = page(client.get(actions.links(BOB)["seat"]))
    assert ("The game is over: A draw: the tower is complete, all 24 cubes placed."
            in root.one("p", "status").text())
    assert [(f["number"], f["current"]) for f in board_floors(root)] == [(n, False) for n in range(6, 0, -1)]
    # The record lists every step and replays the game turn by turn.
    record = page(client.get(f"/games/{game}/record"))
    assert "Result: A draw: the tower is complete, all 24 cubes placed." in record.one("p", "status").text()
    turns = record.one("ol", "turns").all("li")
    assert [li.one("code").text() for li in turns] == [s for _, s in steps]
    assert [li.one("strong").text() for li in turns] == [("Anna", "Bob")[seat] for seat, _ in steps]
    for shown in range(0, 49, 4):
        replay = page(client.get(f"/games/{game}/record?turn={shown}")).one("section", "replay")
        heading = replay.one("h2").text()
        if shown:
            seat, step = steps[shown - 1]
            assert heading == f"After turn {shown}: {('Anna', 'Bob')[seat]} played {step}"
        else:
            assert heading == "The start of the game"
        cells = [c for f in board_floors(replay) for c in f["cells"].values() if c]
        assert len(cells) == max(0, shown - 24)
        assert ("Still in the pool" in replay.text()) == (shown < 24)
    data = client.get(f"/games/{game}/record", headers={"Accept": "application/json"}).get_json()
    assert [t["notation"] for t in data["turns"]] == [s for _, s in steps]
    assert data["outcome"]["reason"] == "complete" and data["scores"][-1] == [12, 12]


def blocked_seed() -> tuple[int, list[dict]]:
    """A seed whose random dealt game (Anna placing first) ends quickly with a player blocked."""
    for seed in range(500):
        events, state = random_game(seed, "random", 0)
        if state.result.reason == "blocked" and len(events) <= 6:
            return seed, events
    raise AssertionError("no quick blocked game in 500 seeds")


def test_a_player_who_cannot_place_loses_and_both_are_told(app, client, actions, smtp):
    seed, events = blocked_seed()
    game = new_game(app, seed=seed, draft="random", first=0)
    for event in events:
        link = turn_link(actions, event["seat"])
        data = client.get(link, headers={"Accept": "application/json"}).get_json()
        assert event["step"] in [o["notation"] for o in data["legal_steps"]]
        response = client.post(link, json={"steps": event["step"]})
        assert response.status_code == 200, response.get_json()
    loaded = actions.state(game)
    outcome = GAME.outcome(loaded.state)
    winner = events[-1]["seat"]
    assert (outcome.winner, outcome.reason) == (winner, "blocked")
    assert response.get_json()["outcome"] == {"winner": winner, "winners": [winner], "reason": "blocked",
                                              "description": "the opponent could not place any of his cubes"}
    actions.deliver()
    name = ("Anna", "Bob")[winner]
    for addr in (ANNA, BOB):
        over = smtp.to(addr)[-1]
        assert str(over["Subject"]).endswith(": the game is over")
        text = text_of(over)
        loser = ("Anna", "Bob")[1 - winner]
        assert (f"You win: {loser} could not place any of their cubes." if addr == SEAT_ADDR[winner]
                else f"{name} wins: you could not place any of your cubes.") in text
        if addr != SEAT_ADDR[winner]:
            assert f"{name}'s last turn:\n  {events[-1]['step']}" in text
    record = page(client.get(f"/games/{game}/record"))
    loser = ("Anna", "Bob")[1 - winner]
    assert (f"Result: {name} wins: {loser} could not place any of their cubes."
            in record.one("p", "status").text())


def test_resigning_from_the_seat_page(app, client, actions, smtp):
    game = new_game(app, seed=5, draft="pick", first=1)
    seat_link = actions.links(ANNA)["seat"]
    ask = page(client.get(seat_link + "/resign"))
    assert ask.one("h1").text() == "Resign this game of Babel Tower (cuboro)?"
    assert client.post(seat_link + "/resign", data={"confirm": "yes"}).status_code == 303
    outcome = GAME.outcome(actions.state(game).state)
    assert (outcome.winner, outcome.reason) == (1, "resigned")
    actions.deliver()
    for addr, ending in ((ANNA, "Bob wins: you resigned."), (BOB, "You win: Anna resigned.")):
        assert ending in text_of(smtp.to(addr)[-1])


def test_the_board_draws_each_cube_with_its_type_and_bump_faces_in_words(app, client, actions):
    game = new_game(app, seed=3)
    state = actions.state(game).state
    steps = []
    players = Players(client, actions)
    for _ in range(5):                       # five legal placements: floor 1 full, one on floor 2
        seat = state.to_move
        step = sorted(o.notation for o in GAME.legal_steps(state, seat))[-1]
        players.play(seat, step)
        state = GAME.apply(state, GAME.decide(state, seat, step))
        steps.append((seat, step))
    assert state.floor == 1
    root = page(client.get(actions.links(ANNA)["seat"]))
    drawn = board_floors(root)
    assert [(f["number"], f["current"], f["heading"]) for f in drawn] == [
        (2, True, "Floor 2 (building now)"), (1, False, "Floor 1")]
    for seat, step in steps:
        _, kind, corner, faces = step.split()
        number = 2 if (seat, step) == steps[-1] else 1
        cells = next(f["cells"] for f in drawn if f["number"] == number)
        assert cells[corner] == (kind, bump_words(faces), ("Anna", "Bob")[seat])
    css = (ROOT / "templates" / "games" / "babel-tower" / "babel-tower.css").read_text()   # its own
    assert ".tower .floor.current .cell" in css and ".tower .floor:not(.current) .square" in css


def test_mails_carry_the_towers_summary_and_a_reply_to(app, actions, smtp):
    game = new_game(app, seed=3, draft="random", first=0)
    state = actions.state(game).state
    actions.deliver()
    invite = smtp.to(ANNA)[-1]
    assert re.fullmatch(r"turns\+[a-z2-7]+-[a-z2-7]+@pbem\.test", str(invite["Reply-To"]))
    text = text_of(invite)
    mine = " ".join(str(t) for t in range(5) for _ in range(state.hands[0][t]))
    theirs = " ".join(str(t) for t in range(5) for _ in range(state.hands[1][t]))
    assert (f"The game as you see it:\n  Your cubes: {mine}\n  Your opponent's cubes: {theirs}\n"
            in text)
    assert "You start: place a cube." in text
    bob_invite = smtp.to(BOB)[-1]
    assert bob_invite["Reply-To"] is None and "Anna starts" in text_of(bob_invite)
    # After a placement Bob's turn mail shows the floor as text, and Anna's step.
    link = turn_link(actions, 0)
    step = sorted(o.notation for o in GAME.legal_steps(state, 0))[0]
    assert actions.client.post(link, json={"steps": step}).status_code == 200
    actions.deliver()
    turn = smtp.to(BOB)[-1]
    assert str(turn["Subject"]) == "Babel Tower (cuboro) with Anna: your turn, Bob"
    assert turn["Reply-To"] is not None
    _, kind, corner, faces = step.split()
    text = text_of(turn)
    assert f"Anna's last turn:\n  {step}\n" in text
    assert f"  Floor 1: {corner} {kind} {faces}\n" in text
    assert f"Floor 1: {corner} {kind} {faces}" in html_of(turn) and "Your cubes: " in html_of(turn)
    assert "Cubes placed: Anna 1, Bob 0." in text and "Scores" not in text + html_of(turn)


def test_a_mail_reply_places_a_cube(app, actions, smtp):
    game = new_game(app, seed=3, draft="random", first=0)
    actions.deliver()
    invite = smtp.to(ANNA)[-1]
    state = actions.state(game).state
    # An illegal placement: answered with its sentence, nothing applied.
    output = cli(app, "ingest", input=answer(invite, "place 4 NW UDES"))
    assert output.startswith(f"failed (game {game}): step 1 (place 4 NW UDES): "
                             "a bump faces down on the ground floor at NW.")
    assert actions.event_count(game) == 0
    failed = actions.last_mail(ANNA)
    assert str(failed["Subject"]) == "Babel Tower (cuboro) with Bob: your reply was not applied"
    assert "a bump faces down on the ground floor at NW." in text_of(failed)
    # A legal one, written sloppily, is applied like a web submission.
    step = sorted(o.notation for o in GAME.legal_steps(state, 0))[-1]
    _, kind, corner, faces = step.split()
    sloppy = f"  PLACE {kind} {corner.lower()} {faces[::-1].lower()}   # my first cube"
    output = cli(app, "ingest", input=answer(invite, sloppy))
    assert output.strip() == f"applied (game {game}): {step}"
    loaded = actions.state(game)
    assert loaded.events == [{"v": 1, "type": "place", "seat": 0, "step": step}]
    turn = actions.last_mail(BOB)
    assert f"Anna's last turn:\n  {step}" in text_of(turn)
    # Bob answers his turn mail in turn, quoting it bare (no "wrote:" line).
    bob_step = sorted(o.notation for o in GAME.legal_steps(loaded.state, 1))[0]
    output = cli(app, "ingest", input=answer(turn, bob_step, quote="bare"))
    assert output.strip() == f"applied (game {game}): {bob_step}"
    assert actions.event_count(game) == 2


def test_a_tower_reply_quoting_a_long_mail_bare_is_still_read(app, actions, smtp, client):
    """Late in a game the turn mail lists every floor; quoted without a "wrote:" line the whole
    mail stays in the reply's text, and the quoted lines are skipped."""
    game = create_by_form(client, "pick", first="0")
    steps = tower_game(first=0)
    with app.app_context():
        from pbem.mail import notify
        from pbem.store import gamelog
        from pbem.store.transaction import transaction
        loaded = gamelog.load(game)
        with transaction():   # many decisions at once, as if played: the test's shortcut
            for seat, step in steps[:-1]:
                loaded = gamelog.append(loaded, GAME.decide(loaded.state, seat, step))
            notify.event_appended(loaded, None)
    seat, last = steps[-1]
    turn = actions.last_mail(SEAT_ADDR[seat])
    assert "Floor 6:" in text_of(turn)
    output = cli(app, "ingest", input=answer(turn, last, quote="bare"))
    assert output.strip() == f"applied (game {game}): {last}"
    assert GAME.outcome(actions.state(game).state).reason == "complete"


def test_the_server_names_no_game_but_in_its_registry():
    server = [p for p in (ROOT / "pbem").rglob("*.py") if "games" not in p.parts]
    server += [p for p in (ROOT / "templates").rglob("*.*") if "games" not in p.parts]
    server += list((ROOT / "static").rglob("*.js"))
    for path in server:
        assert not re.search(r"tower|cuboro", path.read_text(encoding="utf-8"), re.IGNORECASE), path
    registry = (ROOT / "pbem" / "games" / "__init__.py").read_text()
    assert '"babel-tower": "pbem.games.babel_tower:GAME"' in registry


def test_turn_mails_give_the_towers_own_example_step(app, actions, smtp):
    actions.deliver()
    game = app.test_cli_runner().invoke(args=[
        "new-game", "--game", "babel-tower", "--player", "Anna <anna@example.org>",
        "--player", "Bob <bob@example.org>", "--first", "0", "--option", "draft=random"]).output.strip()
    assert game
    mail = actions.last_mail("anna@example.org")
    text = mail.get_body(("plain",)).get_content()
    # The example is a placement that fits the tower as it stands (here: empty).
    example = re.search(r'\(e\.g\. "(place [^"]+)"\)', text)
    assert example and "move M" not in text
    from pbem.store import gamelog
    with app.app_context():
        loaded = gamelog.load(game)
    assert example.group(1) in [o.notation for o in GAME.legal_steps(loaded.state, 0)]


def test_the_tower_is_drawn_and_the_last_cube_marked_on_every_page(app, client, actions):
    """The picture draws every placed cube; the opponent's last one is marked on the turn page,
    and still on the waiting page of the player who placed after it (his own cube may stand
    above it); the confirmation marks the reader's own; the record the shown turn's."""
    game = new_game(app, seed=3)
    players = Players(client, actions)
    played = []
    for n in range(6):
        seat = n % 2
        state = actions.state(game).state
        step = next(o.notation for o in GAME.legal_steps(state, seat))
        if n == 5:       # the confirmation: the tower after the placement, the new cube marked
            confirm = page(client.post(turn_link(actions, seat), data={"compose": step,
                                                                          "action": "confirm"}))
            after = confirm.one("section", "after")
            assert after.one("svg", "towerpic").attrs["data-cubes"] == str(n + 1)
            assert [g.attrs["data-corner"] for g in after.all("g", "last")] == [step.split()[2]]
            assert after.one("span", "lastmark").text() == "your placement"
        players.play(seat, step)
        played.append(step)
        mover, other = page(client.get(actions.links(SEAT_ADDR[seat])["seat"])), \
            page(client.get(turn_link(actions, 1 - seat)))
        for shown in (mover, other):
            assert shown.one("svg", "towerpic").attrs["data-cubes"] == str(n + 1)
        # The other sees the step just made marked.
        marked = [(g.attrs["data-floor"], g.attrs["data-corner"]) for g in other.all("g", "last")]
        assert marked == [(str(n // 4 + 1), step.split()[2])]
        assert other.one("span", "lastmark").text() == f"placed last by {NAMES[SEAT_ADDR[seat]]}"
        # The mover has seen the other's cube before his own placement: nothing is marked for
        # him until the other places again (marks last until the reader's next turn).
        assert mover.all("g", "last") == []
        # Only the placing page links its free corners; the others draw them as outlines.
        assert other.all("a", "freecorner") and not mover.all("a", "freecorner")
    for turn, step in enumerate(played, 1):
        record = page(client.get(f"/games/{game}/record?turn={turn}"))
        picture = record.one("svg", "towerpic")
        assert picture.attrs["data-cubes"] == str(turn)
        assert [g.attrs["data-corner"] for g in picture.all("g", "last")] == [step.split()[2]]
