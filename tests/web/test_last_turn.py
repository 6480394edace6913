"""The last turns told to a seat (in words, marked on the board) and endings that explain
themselves, on pages, in JSON and in the game-over mail (issue 17)."""

from __future__ import annotations

import re

from html_tree import Page
from pbem.games import get
from pbem.games.rng import Rng
from pbem.play import turns
from pbem.store import gamelog
from pbem_web import text_of  # tests/helpers

LINK_PATH = r"http://[^/\s]+(/[ts]/[A-Za-z0-9_.\-]+)"

ANNA, BOB, CARL = "anna@example.org", "bob@example.org", "carl@example.org"
JSON = {"Accept": "application/json"}


def create(app, kind="babel", players=(("Anna", ANNA), ("Bob", BOB)), options=None, seed=7):
    with app.app_context():
        spec = turns.Spec(kind, list(players), options or {}, 0, None, seed)
        return turns.create_game(spec).id


def play(app, game_id: str, rng: Rng, *, until=None) -> gamelog.Loaded:
    """Random legal decisions through the turn service, until the game is over or `until`
    (the loaded game, the seat owing) holds; returns the game as it then stands."""
    origin = turns.Origin(turns.WEB, client="127.0.0.1")
    for _ in range(2000):
        with app.app_context():
            loaded = gamelog.load(game_id)
            owed = loaded.engine.to_act(loaded.state)
            if not owed or (until and until(loaded, owed[0].seat)):
                _ = loaded.events   # read the log now, inside the app
                return loaded
            seat = owed[0].seat
            text = loaded.engine.random_submission(loaded.state, seat, rng)
            turns.submit(game_id, seat, loaded.seq, text, origin)
    raise AssertionError("the game did not end")


def before_last(app, loaded: gamelog.Loaded):
    """The state the game's last event was applied to."""
    engine, info = loaded.engine, loaded.row
    return engine.replay(info.seed, info.options, info.seats, info.first, loaded.events[:-1])


def seat_links(actions, address: str) -> dict:
    """The seat's latest links from its mails (the seat link is in every mail)."""
    actions.deliver()
    for mail in reversed(actions.smtp.to(address)):
        paths = [p for p in re.findall(LINK_PATH, text_of(mail)) if "/renew" not in p]
        found = {"turn": next((p for p in paths if p.startswith("/t/")), None),
                 "seat": next((p for p in paths if p.startswith("/s/")), None)}
        if found["seat"]:
            return found
    raise AssertionError(f"no seat link mailed to {address}")


def test_the_player_whose_turn_ended_the_game_is_shown_that_turn(app, client, actions):
    """B2: his end page and his game-over mail showed the opponent's turn before it."""
    game = create(app)
    loaded = play(app, game, Rng(3))
    last = loaded.events[-1]
    ender, other = last["seat"], 1 - last["seat"]
    engine = loaded.engine
    ender_addr, other_addr = (ANNA, BOB) if ender == 0 else (BOB, ANNA)
    names = ["Anna", "Bob"]

    page = client.get(seat_links(actions, ender_addr)["seat"]).data.decode()
    section = parse_html(page).one("section", "lastturn")
    assert section.one("h2").text() == "Your last turn"
    assert section.one("pre").text() == engine.notation(last, ender)
    told = engine.recount(before_last(app, loaded), last, ender).words
    assert section.one("p", "told").text() == f"You {told}."

    over = actions.last_mail(ender_addr)
    assert over["Subject"].endswith("the game is over")
    long = [line for line in text_of(over).splitlines() if len(line) > 78 and "://" not in line]
    assert long == []                     # read at 80 columns
    text = " ".join(text_of(over).split())
    assert f"Your last turn: {engine.notation(last, ender)} You {told}." in text
    assert f"{names[other]}'s last turn" not in text

    # The opponent reads the same turn as the ender's, in his words.
    page = client.get(seat_links(actions, other_addr)["seat"]).data.decode()
    section = parse_html(page).one("section", "lastturn")
    assert section.one("h2").text() == f"{names[ender]}'s last turn"
    assert section.one("p", "told").text().startswith(f"{names[ender]} ")


def test_the_opponents_turn_in_words_and_marked_until_the_next_turn(app, client, actions):
    game = create(app)
    # Anna's first turn: move, settle, build the starting card.
    with app.app_context():
        loaded = gamelog.load(game)
        hand = loaded.engine.view(loaded.state, 0)["players"][0]["hand"]
        turns.submit(game, 0, loaded.seq, f"move {hand[0]}\nsettle {hand[1]}\nbuild mine",
                     turns.Origin(turns.WEB))
    names = {"A": "Assyrians", "H": "Hittites", "M": "Medes", "P": "Persians", "S": "Sumerians"}
    there, settled = names[hand[0]], names[hand[1]]
    words = (f"Anna moved to the {there}, settled 1 {settled} there and built level 1 there "
             f"from their column.")
    bob = seat_links(actions, BOB)["turn"]
    data = client.get(bob, headers=JSON).get_json()
    assert [t["words"] for t in data["told"]] == [words]
    assert data["marks"] == {"territories": [hand[0]], "rows": [[0, hand[0]]],
                             "temples": [[0, hand[0]]], "columns": [0]}
    tree = parse_html(client.get(bob).data.decode())
    assert tree.one("section", "lastturn").one("p", "told").text() == words
    marked = tree.all("section", "changed")
    assert [s.attrs["aria-label"] for s in marked] == [f"{there} territory"]
    # Anna herself is not told her own turn while the game goes on, and nothing is marked.
    anna = client.get(seat_links(actions, ANNA)["seat"], headers=JSON).get_json()
    assert anna["told"] == [] and anna["marks"] == {}
    # Once Bob has played, Anna's marks are his, and his page marks nothing any more.
    play(app, game, Rng(1), until=lambda loaded, seat: seat == 0)
    bob_view = client.get(seat_links(actions, BOB)["seat"], headers=JSON).get_json()
    assert bob_view["told"] == [] and bob_view["marks"] == {}
    anna = client.get(seat_links(actions, ANNA)["turn"], headers=JSON).get_json()
    assert [t["name"] for t in anna["told"]] == ["Bob"]


def test_babylonia_marks_every_token_placed_since_the_seats_own_turn(app, client, actions):
    players = (("Anna", ANNA), ("Bob", BOB), ("Carl", CARL))
    game = create(app, "babylonia", players, seed=11)
    # Anna, Bob and Carl play a turn each (and answer any card owed); then Anna is told both.
    played = play(app, game, Rng(5), until=lambda loaded, seat: (
        seat == 0 and sum(e["type"] == "turn" for e in loaded.events) == 3))
    placed = [hex for e in played.events if e["type"] == "turn" and e["seat"] != 0
              for hex in _hexes(e["steps"])]
    anna = client.get(seat_links(actions, ANNA)["turn"], headers=JSON).get_json()
    assert [t["name"] for t in anna["told"]] == [
        ["Anna", "Bob", "Carl"][e["seat"]] for e in played.events if e["seat"] != 0]
    assert sorted(anna["marks"]["hexes"]) == sorted(placed) and placed
    # The others' face-down river tokens keep their secret in the words.
    for told, event in zip(anna["told"], [e for e in played.events if e["seat"] != 0]):
        assert told["notation"] == get("babylonia").notation(event, 0)
        for step in event["steps"].split("\n"):
            kind, _, hex = step.partition(" ")
            if kind in ("farmer", "priest", "merchant", "official") and \
                    f"? {hex}" in told["notation"]:
                assert f"face-down token on {hex}" in told["words"]
                assert f"{kind} on {hex}" not in told["words"]
    page = parse_html(client.get(seat_links(actions, ANNA)["turn"]).data.decode())
    assert sorted(g.attrs["data-hex"] for g in page.all("g", "changed")) == sorted(placed)


def _hexes(steps: str) -> list[str]:
    return [s.split()[1] for s in steps.split("\n")
            if s.split()[0] in ("farmer", "priest", "merchant", "official")]


def test_the_ending_explains_itself_to_each_reader(app, client, actions):
    game = create(app)
    loaded = play(app, game, Rng(3))
    outcome = loaded.engine.outcome(loaded.state)
    for seat, address in ((0, ANNA), (1, BOB)):
        ending = loaded.engine.ending(loaded.state, seat, ["Anna", "Bob"])
        assert ending.startswith("You win: " if outcome.winner == seat else
                                 f"{['Anna', 'Bob'][outcome.winner]} wins: ")
        page = client.get(seat_links(actions, address)["seat"])
        status = parse_html(page.data.decode()).one("p", "status").text()
        assert f"The game is over: {ending}." in " ".join(status.split())
        data = client.get(seat_links(actions, address)["seat"], headers=JSON).get_json()
        assert data["ending"] == ending
        assert " ".join(f"{ending}.".split()) in " ".join(text_of(actions.last_mail(address)).split())


def test_a_resignation_is_told_from_each_side(app, client, actions):
    game = create(app)
    anna = seat_links(actions, ANNA)["seat"]
    assert client.post(anna + "/resign", data={"confirm": "yes"}).status_code == 303
    texts = {address: " ".join(parse_html(client.get(seat_links(actions, address)["seat"])
                                          .data.decode()).one("p", "status").text().split())
             for address in (ANNA, BOB)}
    assert "The game is over: Bob wins: you resigned." in texts[ANNA]
    assert "The game is over: You win: Anna resigned." in texts[BOB]
    assert "You win: Anna resigned." in text_of(actions.last_mail(BOB))
    del game


def test_the_page_title_says_whose_turn_it_is(app, client, actions):
    create(app)
    anna = parse_html(client.get(seat_links(actions, ANNA)["turn"]).data.decode())
    assert anna.one("title").text() == "Your turn · Babel with Bob"
    bob = parse_html(client.get(seat_links(actions, BOB)["seat"]).data.decode())
    assert bob.one("title").text() == "Anna's turn · Babel with Anna"


def parse_html(html: str):
    return Page(html).root


def test_small_things_of_the_turn_page(app, client, actions):
    """The composer's form returns to itself without JavaScript, the page has a favicon, and
    "not finished yet" waits until the player has done something."""
    game = create(app, "babylonia")
    play(app, game, Rng(2), until=lambda loaded, seat: seat == 1)   # Anna's one token
    bob = seat_links(actions, BOB)["turn"]
    tree = parse_html(client.get(bob).data.decode())
    assert tree.one("form", id="composer").attrs["action"] == f"{bob}#composer"
    assert tree.one("link", rel="icon").attrs["href"] == "/static/favicon.svg"
    assert client.get("/static/favicon.svg").status_code == 200
    assert tree.all("p", "notice") == []            # two tokens are owed, but nothing is done yet
    data = client.get(bob, headers=JSON).get_json()
    step = next(s["notation"] for s in data["legal_steps"] if not s["ends"])
    page = parse_html(client.post(bob, data={"steps": "", "add": step}).data.decode())
    assert page.one("p", "notice").text().startswith("Not finished yet: ")


def test_the_turns_told_are_the_same_from_a_cold_load_a_warm_one_and_a_whole_replay(app):
    """The states before the told turns come from a cold load's snapshot, the log at hand, or
    the database (a snapshot at or before them and the events after it): all tell the same."""
    from pbem.views import seatview
    app.config["SNAPSHOT_EVERY"] = 3
    players = (("Anna", ANNA), ("Bob", BOB), ("Carl", CARL), ("Dora", "dora@example.org"))
    game = create(app, "babylonia", players, seed=3)
    names = [n for n, _ in players]
    for decisions in (2, 9, 14, 23):
        loaded = play(app, game, Rng(decisions),
                      until=lambda loaded, seat, n=decisions: loaded.seq >= n)
        engine, info = loaded.engine, loaded.row
        events = loaded.events
        with app.app_context():
            for seat in range(4):
                mine = [n for n, e in enumerate(events, 1) if e["seat"] == seat
                        and e["type"] == "turn"]
                since = mine[-1] if mine else 0
                expected = []
                for number in range(since + 1, len(events) + 1):
                    event = events[number - 1]
                    if event["seat"] != seat:
                        before = engine.replay(info.seed, info.options, info.seats, info.first,
                                               events[:number - 1])
                        expected.append(f"{names[event['seat']]} "
                                        f"{engine.recount(before, event, seat).words}.")
                views = []
                for warm in (False, True):
                    if not warm:
                        app.extensions["pbem.replay_cache"].clear()
                    seatview._TOLD = seatview._ToldCache()
                    loaded_now = gamelog.load(game)
                    assert (loaded_now.anchor is None) == warm
                    views.append([t.words for t in seatview.told_to(loaded_now, seat, names)])
                assert views[0] == views[1] == expected[-seatview.TOLD_AT_MOST:], (decisions, seat)
