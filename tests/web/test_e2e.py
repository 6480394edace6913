"""The turn server's "done when": whole games played to their end by following the mails' links.

Each game is created through the start page's form, its mails go through a real
SMTP server, and every decision is a random legal one submitted through the
page's own HTML form: the composer (`steps`, `action=submit`) for a turn, the
discard form (`compose` checkboxes) for owed halving discards. A seat that
discards goes on at once: the server redirects him to his fresh turn link
instead of mailing him.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from html import escape

import pytest

from pbem.games.babel.cards import plural
from pbem.games.babel.game import GAME
from pbem.games.rng import Rng
from pbem.policy import links
from pbem.store import gamelog
from pbem_web import text_of  # tests/helpers

NAMES = ("Anna", "Bob")
EMAILS = ("anna@example.org", "bob@example.org")
MAX_DECISIONS = 200          # far above a game of random play (about 25 decisions)
LINK = re.compile(r"https?://[^/\s]+(/[ts]/[A-Za-z0-9_.\-]+)")


def turn_link(msg) -> str | None:
    return next((p for p in LINK.findall(text_of(msg)) if p.startswith("/t/")), None)


# -- choosing games with the engine alone ------------------------------------------

def simulate(seed: int, first: int | None, sumerians: str) -> list[dict]:
    """The events of the game the e2e test will play: seed, options and Rng(seed) decide all."""
    state = GAME.start(seed, {"sumerians": sumerians}, 2, first)
    rng, events = Rng(seed), []
    while GAME.outcome(state) is None and len(events) < MAX_DECISIONS:
        [decision] = GAME.to_act(state)
        event = GAME.decide(state, decision.seat, GAME.random_submission(state, decision.seat, rng))
        state = GAME.apply(state, event)
        events.append(event)
    return events


@cache
def games_with_discards(first: int | None, sumerians: str) -> int:
    """The first seed whose game has halving discards and a winner (not a draw)."""
    for seed in range(1, 500):
        events = simulate(seed, first, sumerians)
        state = GAME.replay(seed, {"sumerians": sumerians}, 2, first, events)
        if any(e["type"] == "discard" for e in events) and GAME.outcome(state).winner is not None:
            return seed
    raise AssertionError("no game with discards among the searched seeds")


# -- playing through the server ------------------------------------------------------

@pytest.fixture
def pin_seed(monkeypatch):
    """Games created through the form get this seed (the form never asks for one)."""
    def pin(seed: int):
        create_game = gamelog.create_game

        def pinned(engine, players, options=None, first=None, _seed=None, **settings):
            return create_game(engine, players, options, first, seed, **settings)
        monkeypatch.setattr(gamelog, "create_game", pinned)
    return pin


def create_through_form(table, first: str, sumerians: str) -> str:
    """The start page's form, then the link in the creator's mail and its button."""
    client = table.client
    page = client.get("/")
    assert page.status_code == 200 and 'action="/games"' in page.data.decode()
    data = {"game": "babel", "first": first, "option.sumerians": sumerians}
    for i, (name, addr) in enumerate(zip(NAMES, EMAILS)):
        data[f"name{i}"], data[f"email{i}"] = name, addr
    response = client.post("/games", data=data)
    assert response.status_code == 303, response.data
    location = response.headers["Location"]
    assert re.fullmatch(r"/games/[^/]+/proposed", location)
    assert "Check your mailbox" in client.get(location).data.decode()
    [confirmation] = table.mails_to(0)
    assert table.mails_to(1) == []   # nobody else hears of the game before it is confirmed
    link = re.search(r"http://pbem\.test(/c/\S+)", text_of(confirmation)).group(1)
    assert "Start the game" in client.get(link).data.decode()
    started = client.post(link)
    assert started.status_code == 303
    assert re.fullmatch(r"/games/[^/]+/record\?created=1", started.headers["Location"])
    return location.split("/")[2]


@dataclass
class Played:
    game_id: str
    submissions: int = 0
    used: list[str] = field(default_factory=list)     # every turn link a decision was sent to
    redirects_on: int = 0                             # times a discarding seat was sent on at once


class Table:
    """Two players who act on the links they are given, and nothing else."""

    def __init__(self, app, client, smtp, actions):
        self.app, self.client, self.smtp, self.actions = app, client, smtp, actions

    def mails_to(self, seat: int) -> list:
        self.actions.deliver()
        return self.smtp.to(EMAILS[seat])

    def owed(self, game_id: str):
        loaded = self.actions.state(game_id)
        decisions = GAME.to_act(loaded.state)
        assert len(decisions) <= 1
        return loaded, (decisions[0] if decisions else None)

    def open_turn(self, link: str, decision) -> str:
        page = self.client.get(link)
        assert page.status_code == 200, link
        html = page.data.decode()
        assert "<strong>It is your turn</strong>" in html
        assert f"You play <strong>{NAMES[decision.seat]}</strong>" in html
        if decision.kind == "discard":
            assert 'type="checkbox" name="compose"' in html and 'id="composer"' not in html
        else:
            assert 'id="composer"' in html and 'name="steps"' in html
        return html

    @staticmethod
    def form_data(decision, text: str) -> dict:
        """What the page's form posts for this decision."""
        if decision.kind == "discard":
            assert text.startswith("discard ")
            return {"compose": ["discard", *text.split()[1:]], "action": "submit"}
        return {"steps": text, "action": "submit"}

    def play(self, game_id: str, rng: Rng, until=None) -> Played:
        """Follow the links until the game is over (or `until(loaded, decision)` holds)."""
        played = Played(game_id)
        carried = None          # (seat, path): where the server sent a seat that goes on
        for _ in range(MAX_DECISIONS):
            loaded, decision = self.owed(game_id)
            if decision is None or (until and until(loaded, decision)):
                return played
            seat = decision.seat
            if carried:
                assert carried[0] == seat
                link = carried[1]
            else:
                mail = self.mails_to(seat)[-1]
                assert "your turn" in mail["Subject"]
                assert decision.label in " ".join(text_of(mail).split())   # (folded at 78)
                link = turn_link(mail)
            self.open_turn(link, decision)
            mails_before = len(self.mails_to(seat))
            text = GAME.random_submission(loaded.state, seat, rng)
            response = self.client.post(link, data=self.form_data(decision, text))
            assert response.status_code == 303, (text, response.data[:500])
            played.submissions += 1
            played.used.append(link)
            location = response.headers["Location"]
            after, next_decision = self.owed(game_id)
            assert len(after.events) == loaded.seq + 1
            if next_decision is not None and next_decision.seat == seat:
                assert decision.kind == "discard" and next_decision.kind == "turn"
                assert location.startswith("/t/"), location
                with self.app.app_context():
                    assert links.read(links.TURN, location[3:]) == links.Link(
                        links.TURN, game_id, seat, after.seq, gamelog.current_nonce(game_id, seat))
                # Sent on in the page, and mailed too (in case he closed it): the same link.
                assert len(self.mails_to(seat)) == mails_before + 1
                with self.app.app_context():   # (signed at another second, maybe)
                    assert links.read(links.TURN, turn_link(self.mails_to(seat)[-1])[3:]) == \
                        links.read(links.TURN, location[3:])
                carried = (seat, location)
                played.redirects_on += 1
            else:
                assert location.startswith("/s/"), location
                carried = None
        raise AssertionError(f"no end after {MAX_DECISIONS} decisions")


@pytest.fixture
def table(app, client, smtp, actions):
    return Table(app, client, smtp, actions)


# -- the tests ------------------------------------------------------------------------

GAMES = [
    pytest.param("random", "top-run", id="random-first-top-run"),
    pytest.param("1", "all", id="bob-first-all"),
]


@pytest.mark.parametrize("first, sumerians", GAMES)
def test_a_whole_game_by_following_the_mails(table, client, pin_seed, first, sumerians):
    seed = games_with_discards(None if first == "random" else int(first), sumerians)
    pin_seed(seed)
    game_id = create_through_form(table, first, sumerians)
    invites = [table.mails_to(seat) for seat in (0, 1)]
    assert [len(m) for m in invites] == [2, 1]   # the creator's confirmation, then invitations
    assert all("Babel with" in m[-1]["Subject"] for m in invites)

    played = table.play(game_id, Rng(seed))

    loaded = table.actions.state(game_id)
    assert loaded.row.seed == seed and loaded.row.options == {"sumerians": sumerians}
    outcome = GAME.outcome(loaded.state)
    assert outcome is not None and outcome.winner is not None
    winner = NAMES[outcome.winner]
    assert table.actions.event_count(game_id) == played.submissions == len(loaded.events)
    assert played.redirects_on == sum(e["type"] == "discard" for e in loaded.events) >= 1

    # Both players are told the game is over, and who won.
    for seat in (0, 1):
        mail = table.mails_to(seat)[-1]
        assert mail["Subject"].endswith("the game is over")
        text = text_of(mail)
        ending = GAME.ending(loaded.state, seat, list(NAMES))   # from the reader's side
        assert ending.startswith("You win: " if seat == outcome.winner else f"{winner} wins: ")
        assert f"{ending}." in " ".join(text.split())
        assert turn_link(mail) is None
        assert f"{escape(ending)}.</strong>" in mail.get_body(("html",)).get_content()

    # The record lists every decision in notation, the result and the score chart.
    record = client.get(f"/games/{game_id}/record")
    assert record.status_code == 200
    html = record.data.decode()
    listed = re.findall(r'<li id="turn-(\d+)"[^>]*>\s*<a href="\?turn=\1#board"><strong>(\w+)</strong>: '
                        r'<code>([^<]*)</code>', html)
    assert listed == [(str(i), NAMES[e["seat"]], GAME.notation(e))
                      for i, e in enumerate(loaded.events, 1)]
    told = GAME.ending(loaded.state, None, list(NAMES))   # as anybody reads it: who won and why
    assert told.startswith(f"{winner} wins: ")
    assert f"<strong>Result:</strong> {escape(told)}." in html
    assert re.search(r'<svg [^>]*class="scorechart"', html)
    assert html.count("<polyline ") == 2
    scores = GAME.scores(loaded.state)
    for seat in (0, 1):
        assert f"{NAMES[seat]}: <strong>{scores[seat]}</strong></span></li>" in html   # the legend
    data = client.get(f"/games/{game_id}/record", headers={"Accept": "application/json"}).get_json()
    assert len(data["turns"]) == len(loaded.events)
    assert data["outcome"]["winner"] == outcome.winner and data["scores"][-1] == scores

    # Every used link now shows the final view, read-only.
    for link in played.used:
        page = client.get(link)
        assert page.status_code == 200
        html = page.data.decode()
        seat = client.get(link, headers={"Accept": "application/json"}).get_json()["seat"]
        ending = escape(GAME.ending(loaded.state, seat, list(NAMES)))   # the reader's side
        assert "The game is over" in html and f"{ending}." in html
        assert 'id="composer"' not in html and 'name="compose"' not in html
        assert 'name="action"' not in html and "Play your turn" not in html
    again = client.post(played.used[-1], data={"steps": "pass", "action": "submit"})
    assert again.status_code == 409
    assert table.actions.event_count(game_id) == played.submissions


def test_owed_discards_are_chosen_on_the_page_then_the_seat_plays_on(table, actions, client,
                                                                       pin_seed):
    seed = games_with_discards(0, "top-run")
    pin_seed(seed)
    game_id = create_through_form(table, "0", "top-run")
    table.play(game_id, Rng(seed), until=lambda loaded, decision: decision.kind == "discard")
    loaded, decision = table.owed(game_id)
    assert decision.kind == "discard"
    seat, other = decision.seat, 1 - decision.seat
    player = loaded.state.players[seat]
    owed = loaded.state.discards_due(seat)
    hand = player.hand_letters()
    assert owed >= 1 and len(hand) >= owed + 1

    # He is mailed, and his page shows the discard form: one checkbox per card of his hand.
    mail = table.mails_to(seat)[-1]
    said = " ".join(text_of(mail).split())   # (read as words: the text is folded at 78)
    assert f"discard {plural(owed, 'card')} (halving) before you draw" in said
    assert "Answer with your" in said and "alone" in said
    link = turn_link(mail)
    html = table.open_turn(link, decision)
    assert f"Halving: discard {plural(owed, 'card')} before you draw" in html
    boxes = re.findall(r'<input type="checkbox" name="compose" value="([AHMPS])">', html)
    assert "".join(boxes) == hand

    # The wrong number of cards: refused with the step's sentence; nothing written, nobody mailed.
    mails_before = actions.mail_count()
    wrong = {"compose": ["discard", *hand[:owed + 1]], "action": "submit"}
    response = client.post(link, data=wrong)
    assert response.status_code == 422
    sentence = (f"step 1 (discard {' '.join(hand[:owed + 1])}): you owe {plural(owed, 'card')} "
                f"from halvings; you discard {owed + 1}.")
    page = response.data.decode()
    assert sentence in page and 'type="checkbox" name="compose"' in page
    assert actions.event_count(game_id) == loaded.seq and actions.mail_count() == mails_before

    # The right number: on to his fresh turn link at once, and that link mailed to him only
    # (a player who closed the page, or a client of the JSON API, learns of it so).
    mine, theirs = len(table.mails_to(seat)), len(table.mails_to(other))
    response = client.post(link, data={"compose": ["discard", *hand[:owed]], "action": "submit"})
    assert response.status_code == 303
    location = response.headers["Location"]
    with table.app.app_context():
        assert links.read(links.TURN, location[3:]) == links.Link(
            links.TURN, game_id, seat, loaded.seq + 1, gamelog.current_nonce(game_id, seat))
    assert actions.event_count(game_id) == loaded.seq + 1 and actions.mail_count() == mails_before + 1
    assert (len(table.mails_to(seat)), len(table.mails_to(other))) == (mine + 1, theirs)
    with table.app.app_context():
        assert links.read(links.TURN, turn_link(table.mails_to(seat)[-1])[3:]) == \
            links.read(links.TURN, location[3:])
    after, next_decision = table.owed(game_id)
    assert next_decision.seat == seat and next_decision.kind == "turn"
    html = table.open_turn(location, next_decision)
    data = client.get(location, headers={"Accept": "application/json"}).get_json()
    assert data["can_act"] and data["view"]["players"][seat]["owes"] == 0
    assert len(data["view"]["players"][seat]["hand"]) == len(hand) - owed + 3

    # The discard link is used up: it shows the game and offers the fresh turn link.
    used = client.get(link).data.decode()
    # It points to the fresh turn link (the same payload; the signature's second may differ).
    assert "already submitted" in used and f'href="{location.rsplit(".", 2)[0]}.' in used
    assert client.post(link, data={"compose": ["discard", *hand[:owed]],
                                   "action": "submit"}).status_code == 409

    # His turn goes on from the redirect's link; only then is the other seat mailed.
    text = GAME.random_submission(after.state, seat, Rng(seed))
    response = client.post(location, data={"steps": text, "action": "submit"})
    assert response.status_code == 303 and response.headers["Location"].startswith("/s/")
    assert len(table.mails_to(seat)) == mine + 1
    assert len(table.mails_to(other)) == theirs + 1
    assert turn_link(table.mails_to(other)[-1]) is not None
