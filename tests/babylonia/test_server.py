"""The server hosts Babylonia, for 2 to 4 players, through the game interface alone: the start
page, invitations naming the first player, the SVG hex map, the grouped composer, mails, mail
replies, the record, hidden river tokens, and the turn that pauses while another player owes
`card N` for a ziggurat he won (like Babel's owed discards: who owes what comes from `to_act`).

Whole games are played with random legal submissions (`GAME.random_submission`), the way
people send them: JSON from scripts, form posts from the pages, and replies to turn mails.
"""

from __future__ import annotations

import re

import pytest

from html_tree import Node, page
from pbem.games.babylonia import GAME
from pbem.games.base import Outcome
from pbem.games.rng import Rng
from pbem_web import html_of, reply_to, started, text_of

NAMES = ("Anna", "Bob", "Carl", "Dora")
EMAILS = ("anna@example.org", "bob@example.org", "carl@example.org", "dora@example.org")
KIND_WORDS = {"F": "farmer", "P": "priest", "M": "merchant", "O": "official"}

# Seeds whose random games (seat 0 first, submissions drawn from Rng(seed * 7 + 1)) pause for a
# card owed by a seat not on turn; and one whose two players end equal in points and cities.
PAUSE_2, PAUSE_3, SHARED_2 = 13, 1, 33


# -- reading pages ---------------------------------------------------------------------------

def drawn_hexes(root: Node) -> dict[str, dict]:
    """The hex map as drawn: each hex's classes, its label, the letter of its token (if any)."""
    svg = root.one("svg", "hexmap")
    hexes = {}
    for g in svg.all("g", "hx"):
        name = g.attrs["data-hex"]
        token = g.all("text", "tokl")
        hexes[name] = {"classes": g.classes, "label": g.one("text", "hname").text(),
                       "title": g.one("title").text(),
                       "token": token[0].text() if token else None,
                       "tile": next((t.text() for t in g.all("text", "cityl") + g.all("text", "fieldv")),
                                    None)}
    return hexes


# -- playing -----------------------------------------------------------------------------------

def cli(app, *args, input=None) -> str:
    result = app.test_cli_runner().invoke(args=list(args), input=input)
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def new_game(app, seed: int, players: int, first: int = 0, cards: str = "basic") -> str:
    args = ["new-game", "--game", "babylonia", "--first", str(first), "--seed", str(seed),
            "--option", f"ziggurat_cards={cards}"]
    for name, addr in zip(NAMES[:players], EMAILS[:players]):
        args += ["--player", f"{name} <{addr}>"]
    return cli(app, *args).strip()


def answer(mail, steps: str) -> bytes:
    """A reply to `mail` as a mail client writes it: the steps on top, the mail quoted below."""
    return reply_to(mail, steps, dict(zip(EMAILS, NAMES)))


def turn_mails(smtp, addr: str) -> list:
    return [m for m in smtp.to(addr) if m["Reply-To"] is not None]


class Table:
    """Every seat at its mailbox and its pages. A seat's turn link comes from the page it is on
    (the web goes straight on to the actor's next decision), else from its latest mail."""

    CHANNELS = ("json", "form", "mail")

    def __init__(self, app, client, actions, smtp, game: str, players: int):
        self.app, self.client, self.actions, self.smtp = app, client, actions, smtp
        self.game, self.players, self.next = game, players, {}

    def latest_turn_mail(self, seat: int):
        self.actions.deliver()
        mails = turn_mails(self.smtp, EMAILS[seat])
        assert mails, f"no turn mail to {NAMES[seat]}"
        return mails[-1]

    def link(self, seat: int) -> str:
        if seat in self.next:
            return self.next.pop(seat)
        link = self.actions.links(EMAILS[seat])["turn"]
        assert link, f"no turn link for {NAMES[seat]}"
        return link

    def submit(self, seat: int, text: str, channel: str) -> None:
        if channel == "mail" and seat not in self.next:
            mail = self.latest_turn_mail(seat)
            output = cli(self.app, "ingest", input=answer(mail, text))
            assert output.startswith(f"applied (game {self.game}): "), output
            return
        link = self.link(seat)
        if channel == "json":
            response = self.client.post(link, json={"steps": text})
            assert response.status_code == 200, response.get_json()
            went = response.get_json()["next"].removeprefix("http://pbem.test")
        else:
            confirm = self.client.post(link, data={"steps": text, "action": "confirm"})
            assert confirm.status_code == 200, confirm.data.decode()[:3000]
            assert page(confirm).one("h1").text() == "Submit this turn?"
            done = self.client.post(link, data={"steps": text, "action": "submit"})
            assert done.status_code == 303, done.data.decode()[:3000]
            went = done.headers["Location"]
        if went.startswith("/t/"):
            self.next[seat] = went


def play_out(app, client, actions, smtp, seed: int, players: int, on_pause=None):
    """A whole random game through the server; every pause is checked as it happens.
    Returns the game's id, the engine's own state at the end, and how many pauses there were."""
    game = new_game(app, seed, players)
    table = Table(app, client, actions, smtp, game, players)
    state, rng, pauses = GAME.start(seed, {}, players, 0), Rng(seed * 7 + 1), 0
    number = 0
    while GAME.outcome(state) is None:
        (decision,) = GAME.to_act(state)
        seat = decision.seat
        text = GAME.random_submission(state, seat, rng)
        actions.deliver()
        before = {s: len(smtp.to(EMAILS[s])) for s in range(players)}
        table.submit(seat, text, Table.CHANNELS[number % 3])
        number += 1
        state = GAME.apply(state, GAME.decide(state, seat, text))
        actions.deliver()
        after = GAME.to_act(state)
        if after and after[0].kind == "card":
            pauses += 1
            owing = after[0].seat
            assert owing != seat and state.to_move == seat
            # The seat that owes the card is mailed a turn link; the mover is asked nothing.
            mail = table.latest_turn_mail(owing)
            assert len(smtp.to(EMAILS[owing])) == before[owing] + 1
            assert "choose a ziggurat card" in text_of(mail)
            assert str(mail["Subject"]).endswith(f": your turn, {NAMES[owing]}")
            assert len(smtp.to(EMAILS[seat])) == before[seat]
            if on_pause:
                on_pause(table, state, seat, owing)
        elif decision.kind == "card":
            # The card resolved the rest of the turn by itself: the next player is on turn.
            assert state.card_due is None and after[0].kind == "turn"
            if after[0].seat != seat:
                assert len(turn_mails(smtp, EMAILS[after[0].seat])) > 0
                assert len(smtp.to(EMAILS[after[0].seat])) == before[after[0].seat] + 1
    loaded = actions.state(game)
    assert loaded.state == state and len(loaded.events) == number
    return game, state, pauses


# -- the start page and creating games ---------------------------------------------------------

def form_data(players: int, first: str = "random", **extra) -> dict:
    data = {"game": "babylonia", "first": first, "time_limit": "none",
            "option.ziggurat_cards": "basic", "option.sumerians": "top-run", "option.draft": "pick"}
    for i in range(players):
        data[f"name{i}"], data[f"email{i}"] = NAMES[i], EMAILS[i]
    data.update(extra)
    return data


def test_the_start_page_offers_babylonia_for_two_to_four(client):
    root = page(client.get("/"))
    form = root.one("form", "newgame")
    radio = form.one("input", type="radio", name="game", value="babylonia")
    assert (radio.attrs["data-min-seats"], radio.attrs["data-max-seats"]) == ("2", "4")
    labels = {label.one("input").attrs["value"]: label.text() for label in form.all("label")
              if label.all("input", name="game")}
    assert labels["babylonia"] == "Babylonia (2–4 players)"
    assert [d.attrs["data-seat"] for d in form.all("div", "player")] == ["0", "1", "2", "3"]
    assert form.all("input", name="email3", type="email")
    starts = [o.attrs["value"] for o in form.one("select", name="first").all("option")]
    assert starts == ["random", "0", "1", "2", "3"]
    options = form.one("fieldset", "game-options", data_game="babylonia")
    assert options.one("legend").text() == "Babylonia options"
    cards = {i.attrs["value"]: i for i in options.all("input", type="radio", name="option.ziggurat_cards")}
    assert set(cards) == {"basic", "advanced"} and "checked" in cards["basic"].attrs


def test_creating_three_and_four_player_games_through_the_form(app, client, actions, smtp):
    response = client.post("/games", data=form_data(3, first="2"))
    assert response.status_code == 303, response.data.decode()
    three = started(client, response)
    loaded = actions.state(three)
    assert (loaded.row.kind, loaded.row.seats, loaded.row.first) == ("babylonia", 3, 2)
    assert loaded.row.options == {"ziggurat_cards": "basic"}
    assert loaded.names == ["Anna", "Bob", "Carl"]
    assert [(d.seat, d.kind) for d in GAME.to_act(loaded.state)] == [(2, "turn")]
    created = client.get(f"/games/{three}/record?created=1").data.decode()
    assert "Babylonia: Anna, Bob and Carl" in created and "invitations were mailed" in created
    actions.deliver()
    for seat in range(3):
        invite = smtp.to(EMAILS[seat])[-1]   # (the creator had his confirmation first)
        text = text_of(invite)
        others = " and ".join(n for i, n in enumerate(NAMES[:3]) if i != seat)
        assert f"you are invited to a game of Babylonia with {others}." in text
        assert str(invite["From"]).startswith('"Babylonia: Anna, Bob and Carl"')
        if seat == 2:
            assert str(invite["Subject"]) == "Babylonia with Anna and Bob: your turn"
            assert "You start: play your turn." in text and invite["Reply-To"] is not None
            assert "Your stand:" in text
        else:
            assert str(invite["Subject"]).endswith(": you are invited")
            assert "Carl starts; you will get a mail when it is your turn." in text
            assert "Carl starts; you will get a mail" in html_of(invite)
            assert invite["Reply-To"] is None

    smtp.clear()
    response = client.post("/games", data=form_data(4, **{"option.ziggurat_cards": "advanced"}))
    assert response.status_code == 303, response.data.decode()
    four = started(client, response)
    loaded = actions.state(four)
    assert loaded.row.seats == 4 and loaded.row.first is None
    assert loaded.row.options == {"ziggurat_cards": "advanced"}
    assert len(loaded.state.available) == 7
    first = loaded.state.to_move
    actions.deliver()
    for seat in range(4):
        invite = smtp.to(EMAILS[seat])[-1]   # (the creator had his confirmation first)
        others = [NAMES[s] for s in range(4) if s != seat]
        assert str(invite["Subject"]) == (f"Babylonia with {others[0]}, {others[1]} and {others[2]}: "
                                          + ("your turn" if seat == first else "you are invited"))
        if seat != first:
            assert f"{NAMES[first]} starts; you will get a mail when it is your turn." in text_of(invite)
    record = page(client.get(f"/games/{four}/record"))
    assert record.one("h1").text() == "Babylonia: Anna, Bob, Carl and Dora"


def test_the_form_refuses_rows_a_game_has_no_seat_for(client, actions):
    data = form_data(3, game="babel")
    response = client.post("/games", data=data)
    assert response.status_code == 400
    assert "Babel is a game for 2 players: leave player 3 empty." in response.data.decode()
    response = client.post("/games", data=form_data(1))
    assert response.status_code == 400 and "Player 2 needs a mail address." in response.data.decode()
    response = client.post("/games", json={**form_data(4), "name4": "Eve", "email4": "eve@example.org"})
    assert response.status_code == 400
    assert response.get_json()["error"] == "Babylonia is a game for 2 to 4 players: leave player 5 empty."
    assert actions.mail_count() == 0


# -- the page ------------------------------------------------------------------------------------

def test_the_turn_page_draws_the_hex_map_and_groups_the_placements(app, client, actions):
    game = new_game(app, seed=5, players=3)
    loaded = actions.state(game)
    link = actions.links(EMAILS[0])["turn"]
    root = page(client.get(link))
    assert root.one("h1").text() == "Babylonia: Anna, Bob and Carl"
    assert root.one("p", "status").text() == "It is your turn: play your turn."
    view = GAME.view(loaded.state, 0)
    hexes = drawn_hexes(root)
    assert set(hexes) == {h["name"] for h in view["hexes"]}
    for h in view["hexes"]:
        drawn = hexes[h["name"]]
        assert drawn["label"] == h["name"] and drawn["title"].startswith(h["name"] + ": ")
        assert h["kind"] in drawn["classes"]
        if h["area"] and h["kind"] == "land":
            assert f"a-{h['area']}" in drawn["classes"]
        if h["kind"] == "river":
            assert "river" in drawn["title"]
        if h["tile"] and h["tile"].startswith("city"):
            assert drawn["tile"] == " ".join(h["tile"].split()[1])
        elif h["tile"]:
            assert drawn["tile"] == h["tile"].split()[1]
    svg = root.one("svg", "hexmap")
    assert re.fullmatch(r"0 0 [\d.]+ [\d.]+", svg.attrs["viewbox"])
    side = root.one("div", "bab-side")
    seats = side.all("li", "seat")
    assert [s.one("h3").text().split(" (you)")[0].split(" ")[0] for s in seats] == ["Anna", "Bob", "Carl"]
    assert "Your stand:" in seats[0].text() and "Stand: 5 tokens" in seats[1].text()
    for words in view["card_words"].values():
        assert words in side.one("section", "zcards").text()
    assert f"Cities left on the board: {view['cities_on_board']}" in side.text()
    # The composer: one folded group per kind on the stand, a small button per hex.
    legal = GAME.legal_steps(loaded.state, 0)
    groups = {}
    for option in legal:
        groups.setdefault(option.group, []).append(option)
    draft = root.one("div", id="draft")
    folded = draft.all("details", "step-group")
    assert [d.attrs["data-group"] for d in folded] == list(groups)
    for details in folded:
        options = groups[details.attrs["data-group"]]
        assert "open" not in details.attrs
        assert details.one("summary").text() == f"{details.attrs['data-group']} ({len(options)} choices)"
        buttons = details.all("button", name="add")
        assert [b.attrs["value"] for b in buttons] == [o.notation for o in options]
        assert [b.text() for b in buttons] == [o.label for o in options]
    assert root.one("details", "help").all("table", "notation-help")
    # The same through JSON: the legal steps carry their group.
    data = client.get(link, headers={"Accept": "application/json"}).get_json()
    assert data["kind"] == "babylonia" and data["view"] == view
    first = legal[0]
    assert data["legal_steps"][0] == {"notation": first.notation, "label": first.label,
                                      "ends": False, "group": first.group}
    assert actions.event_count(game) == 0


def test_without_javascript_a_button_adds_its_step_and_its_group_stays_open(app, client, actions):
    game = new_game(app, seed=5, players=3)
    state = actions.state(game).state
    step = GAME.legal_steps(state, 0)[0].notation
    assert client.post(actions.links(EMAILS[0])["turn"], json={"steps": step}).status_code == 200
    state = actions.state(game).state                  # Bob plays two tokens
    stand = GAME.view(state, 1)["stands"][1]
    kind = next(k for k, n in stand.items() if n >= 2)
    option = next(o for o in GAME.legal_steps(state, 1) if o.notation.startswith(kind + " "))
    link = actions.links(EMAILS[1])["turn"]
    shown = page(client.post(link, data={"steps": "", "add": option.notation}))
    assert [c.text() for c in shown.one("ol", "draft-steps").all("code")] == [option.notation]
    assert shown.one("textarea", id="steps").text() == option.notation
    opened = [d.attrs["data-group"] for d in shown.all("details", "step-group") if "open" in d.attrs]
    assert opened == [option.group]
    hex = drawn_hexes(shown)[option.notation.split()[1]]
    assert hex["token"] == kind[0].upper() and "played this turn" in hex["title"]
    turn_now = shown.one("section", "turnnow")
    assert turn_now.one("h3").text() == "Bob's turn so far"
    assert turn_now.one("ol", "placed").text() == f"{kind[0].upper()} {kind} on {option.notation.split()[1]}"
    # Removing it brings the page back to where it began; nothing was played.
    again = page(client.post(link, data={"steps": option.notation, "remove": "1"}))
    assert not again.all("ol", "draft-steps") and not again.all("section", "turnnow")
    assert actions.event_count(game) == 1


def test_a_bad_step_is_refused_naming_the_step_and_the_rule(app, client, actions):
    game = new_game(app, seed=5, players=2)
    state = actions.state(game).state
    link = actions.links(EMAILS[0])["turn"]
    legal = [o.notation for o in GAME.legal_steps(state, 0)]
    one = legal[0]
    two = next(n for n in legal if n.split()[0] != one.split()[0] and n.split()[1] != one.split()[1])
    response = client.post(link, data={"steps": f"{one}\n{two}", "action": "confirm"})
    assert response.status_code == 422
    root = page(response)
    # (The engine's rule sentences end without a full stop so far: either way is accepted.)
    expected = f"step 2 ({two}): in the first round the first player plays exactly 1 token"
    assert root.one("p", "error").text().rstrip(".") == expected
    assert [c.text() for c in root.one("ol", "draft-steps").all("code")] == [one]
    response = client.post(link, json={"steps": f"{one}\n{two}"})
    assert response.status_code == 422 and response.get_json()["step"] == 2
    assert response.get_json()["error"].rstrip(".") == expected
    response = client.post(link, data={"steps": "merchant zz9", "action": "submit"})
    assert response.status_code == 422
    assert page(response).one("p", "error").text() == (
        "step 1 (merchant zz9): 'zz9' is not a hex of the board (a1 to q13).")
    assert actions.event_count(game) == 0


# -- hidden river tokens -------------------------------------------------------------------------

def test_river_tokens_are_hidden_from_the_others_on_pages_in_json_mails_and_the_record(
        app, client, actions, smtp):
    game = new_game(app, seed=5, players=2)
    state = actions.state(game).state
    land = next(o.notation for o in GAME.legal_steps(state, 0) if "river" not in o.label)
    assert client.post(actions.links(EMAILS[0])["turn"], json={"steps": land}).status_code == 200
    state = actions.state(game).state
    river = next(o for o in GAME.legal_steps(state, 1) if "river" in o.label)
    kind, hex = river.notation.split()
    state = GAME.draft(state, 1, river.notation).state
    other = next(o.notation for o in GAME.legal_steps(state, 1)
                 if not o.ends and "river" not in o.label)
    text = f"{river.notation}\n{other}"
    assert client.post(actions.links(EMAILS[1])["turn"], json={"steps": text}).status_code == 200
    letter = next(k for k, w in KIND_WORDS.items() if w == kind)
    # Bob sees his own token's kind, face down; Anna and the record see "?".
    bob = page(client.get(actions.links(EMAILS[1])["seat"]))
    assert drawn_hexes(bob)[hex]["token"] == letter and "(face down)" in drawn_hexes(bob)[hex]["title"]
    anna_link = actions.links(EMAILS[0])["turn"]
    anna = page(client.get(anna_link))
    assert drawn_hexes(anna)[hex]["token"] == "?"
    assert "Bob's face-down token" in drawn_hexes(anna)[hex]["title"]
    assert anna.one("section", "lastturn").one("pre").text() == f"? {hex}; {other}"
    data = client.get(anna_link, headers={"Accept": "application/json"}).get_json()
    token = next(h["token"] for h in data["view"]["hexes"] if h["name"] == hex)
    assert token == {"seat": 1, "kind": "?", "down": True}
    assert f"{kind} {hex}" not in data["last_turn"] and data["last_turn"] == f"? {hex}; {other}"
    bob_data = client.get(actions.links(EMAILS[1])["seat"], headers={"Accept": "application/json"}).get_json()
    assert next(h["token"] for h in bob_data["view"]["hexes"] if h["name"] == hex)["kind"] == letter
    turn = actions.last_mail(EMAILS[0])
    assert f"Bob's last turn:\n  ? {hex}; {other}" in text_of(turn)
    assert f"{kind} {hex}" not in text_of(turn) + html_of(turn)
    record = client.get(f"/games/{game}/record")
    root = page(record)
    assert drawn_hexes(root)[hex]["token"] == "?"
    assert [li.one("code").text() for li in root.one("ol", "turns").all("li")] == [land, f"? {hex}; {other}"]
    assert f"{kind} {hex}" not in record.data.decode()
    for step in (1, 2):    # stepping through Bob's turn: the token lands face down at step 1
        stepped = client.get(f"/games/{game}/record?turn=2&step={step}")
        assert drawn_hexes(page(stepped))[hex]["token"] == "?"
        assert f"{kind} {hex}" not in stepped.data.decode()
    data = client.get(f"/games/{game}/record", headers={"Accept": "application/json"}).get_json()
    assert data["turns"][1]["notation"] == f"? {hex}; {other}"
    assert f"{kind} {hex}" not in str(data)


# -- whole games ---------------------------------------------------------------------------------

def check_pause(client, actions):
    """While a turn pauses: the owing seat's page offers only cards; the mover waits."""
    def check(table, state, mover, owing):
        link = table.next.get(owing) or actions.links(EMAILS[owing])["turn"]
        root = page(client.get(link))
        status = root.one("p", "status").text()
        assert status.startswith("It is your turn: choose a ziggurat card"), status
        values = [b.attrs["value"] for b in root.one("div", id="draft").all("button", name="add")]
        assert values == [f"card {c}" for c in state.available]
        assert not root.all("details", "step-group")
        assert "owes a card" in root.one("div", "bab-side").text()
        mover_page = page(client.get(actions.links(EMAILS[mover])["seat"]))
        assert f"Waiting for {NAMES[owing]}" in mover_page.one("p", "status").text()
        assert not mover_page.all("form", id="composer")
        turn_now = mover_page.one("section", "turnnow").text()
        assert f"Waiting for {NAMES[owing]} to choose a ziggurat card" in turn_now
    return check


@pytest.mark.parametrize("players, seed", [(2, PAUSE_2), (3, PAUSE_3)])
def test_a_whole_game_with_a_card_owed_by_a_seat_not_on_turn(app, client, actions, smtp, players, seed):
    game, state, pauses = play_out(app, client, actions, smtp, seed, players,
                                   on_pause=check_pause(client, actions))
    assert pauses >= 1
    outcome = GAME.outcome(state)
    assert outcome.reason == "end" and len(outcome.winners) == 1
    winner = NAMES[outcome.winner]
    actions.deliver()
    for seat in range(players):
        over = smtp.to(EMAILS[seat])[-1]
        assert str(over["Subject"]).endswith(": the game is over") and over["Reply-To"] is None
        ending = GAME.ending(state, seat, list(NAMES))     # from the reader's side
        assert ending.startswith("You win: " if seat == outcome.winner else f"{winner} wins: ")
        assert f"{ending}." in " ".join(text_of(over).split())
    record = page(client.get(f"/games/{game}/record"))
    assert f"Result: {winner} wins" in record.one("p", "status").text()
    turns = record.one("ol", "turns").all("li")
    events = actions.state(game).events
    assert len(turns) == len(events)
    cards = [i for i, e in enumerate(events) if e["type"] == "card"]
    assert cards and all(turns[i].one("code").text() == f"card {events[i]['card']}" for i in cards)
    # No river token's kind reaches the record: each reads "?".
    rivers = {h["name"] for h in GAME.view(state, None)["hexes"] if h["kind"] == "river"}
    for li, event in zip(turns, events):
        for line in event["steps"].splitlines() if event["type"] == "turn" else []:
            word, hex = (line.split() + [""])[:2]
            if word in KIND_WORDS.values() and hex in rivers:
                assert f"? {hex}" in li.one("code").text() and line not in li.text()
    drawn = drawn_hexes(record)
    for h in GAME.view(state, None)["hexes"]:
        if h["token"] and h["token"]["down"]:
            assert drawn[h["name"]]["token"] == "?"


def test_a_shared_win_is_announced_with_both_names(app, client, actions, smtp):
    game, state, _ = play_out(app, client, actions, smtp, SHARED_2, 2)
    outcome = GAME.outcome(state)
    assert outcome.winner is None and outcome.winners == (0, 1)
    actions.deliver()
    for seat, winners in ((0, "You and Bob"), (1, "Anna and you")):   # from the reader's side
        text = " ".join(text_of(smtp.to(EMAILS[seat])[-1]).split())
        assert f"{winners} share the win: " in text
        assert (f"equal points ({state.scores[0]}) and equal cities in front "
                f"({len(state.cities[0])})") in text
    record = page(client.get(f"/games/{game}/record"))
    assert "Result: Anna and Bob share the win" in record.one("p", "status").text()
    seat_page = page(client.get(actions.links(EMAILS[1])["seat"]))
    assert "The game is over: Anna and you share the win" in seat_page.one("p", "status").text()
    data = client.get(f"/games/{game}/record", headers={"Accept": "application/json"}).get_json()
    assert data["outcome"]["winner"] is None and data["outcome"]["winners"] == [0, 1]


def test_the_result_in_words_for_one_several_or_no_winners(app):
    from flask import render_template_string

    from pbem.views.words import listing, match_title, winner_names
    names = ["Anna", "Bob", "Carl", "Dora"]
    shared = Outcome(None, "end", "equal points and cities: the win is shared", (0, 2))
    assert winner_names(shared, names) == ["Anna", "Carl"]
    assert winner_names(Outcome(1, "end", "x"), names) == ["Bob"]
    assert winner_names(Outcome(None, "draw", "x"), names) == []
    assert listing(["Anna", "Bob", "Carl"]) == "Anna, Bob and Carl" and listing(["Anna"]) == "Anna"
    assert match_title(["Anna", "Bob"]) == "Anna vs Bob"
    assert match_title(names) == "Anna, Bob, Carl and Dora"
    with app.test_request_context():
        status = render_template_string('{% include "play/_status.html" %}', outcome=shared,
                                        winner_names=["Anna", "Carl"], to_act=[], seat=1)
        assert " ".join(status.split()) == ('<p class="status" role="status"> <strong>The game is '
                                            'over:</strong> Anna and Carl share the win (equal '
                                            'points and cities: the win is shared). </p>')
        three = render_template_string('{% from "_result.html" import result %}{{ result(w) }}',
                                       w=["Anna", "Bob", "Dora"])
        assert three == "Anna, Bob and Dora share the win"
        assert render_template_string(
            '{% from "_result.html" import result %}{{ result(w, "It is a draw") }}', w=[]) == "It is a draw"


def test_the_server_names_no_game_but_in_its_registry():
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    server = [p for p in (root / "pbem").rglob("*.py") if "games" not in p.parts]
    server += [p for p in (root / "templates").rglob("*.*") if "games" not in p.parts]
    server += list((root / "static").rglob("*.js"))
    for path in server:
        assert not re.search(r"babylon|ziggurat", path.read_text(encoding="utf-8"), re.IGNORECASE), path
