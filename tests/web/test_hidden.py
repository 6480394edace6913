"""Hidden information: nobody sees what his seat may not know, in pages, mails, JSON or HTML source.

docs/games/babel-rulings.md, "Public and hidden information": two states that differ only in
what a seat may not know give that seat byte-identical pages, emails and JSON.
The tests search seeds for such pairs of games (what the rulings let the seat
know agrees, read from the states themselves; the hidden parts differ), play them
alike through the server and compare everything the seat is shown, after
replacing only what legitimately differs between two games: the game's id, the
link tokens, Message-IDs and dates.
"""

from __future__ import annotations

import json
import re
from functools import cache

from pbem.games.babel.cards import TRIBES
from pbem.games.babel.game import GAME
from pbem.games.rng import Rng
from pbem_web import text_of  # tests/helpers

PLAYERS = [("Anna", "anna@example.org"), ("Bob", "bob@example.org")]
ANNA, BOB = 0, 1
JSON = {"Accept": "application/json"}
FRAGMENT = {"X-Fragment": "1"}
SEARCH = range(1, 3000)      # a few hundred seeds suffice; the bound only keeps a bug from looping


# -- finding twin games with the engine alone ---------------------------------

def known_to(state, seat) -> tuple:
    """What the rulings let `seat` know of a state, read from the state itself (not from the
    engine's view, which is under test too): everything but the other hand and the orders of
    the supplies (except temple cards put back by a destroy)."""
    players = tuple((p.hand_letters() if i == seat else None, p.hand_size, state.discards_due(i),
                     p.figure, p.column, p.first_turn, tuple(sorted(p.rows.items())),
                     tuple(sorted(p.temples.items())))
                    for i, p in enumerate(state.players))
    supply = state.temple_supply
    on_top = supply[len(supply) - state.temple_known:] if state.temple_known else ()
    return (players, state.to_move, state.phase, state.end_phase, state.migrated, state.sumerians,
            state.result, state.pending_discard, len(state.tribe_supply), state.discard,
            len(state.temple_supply), on_top)


def public(state, seat) -> str:
    """What `seat` may know of a state, as the engine says."""
    return json.dumps(GAME.view(state, seat), sort_keys=True)


def hidden(state) -> tuple:
    """Everything nobody at the table may know: both hands and the orders of both supplies."""
    return (state.players[0].hand_letters(), state.players[1].hand_letters(),
            state.tribe_supply, state.temple_supply)


def opening(seed: int):
    """A game Bob starts (Anna waits), after Bob's draw."""
    return GAME.start(seed, {}, 2, BOB)


def first_turns(hand: str) -> list[str]:
    """Every first turn `move X; settle Y; build mine` a hand allows, in a fixed order."""
    return [f"move {x}\nsettle {y}\nbuild mine" for x in TRIBES for y in TRIBES
            if x in hand and y in hand.replace(x, "", 1)]


@cache
def twins_for_the_waiting_seat() -> tuple[int, int, str]:
    """Two seeds and a first turn of Bob's, legal in both games, such that Anna's view is the
    same before Bob's turn and after it (with her own draw: Bob's two temple cards and her three
    tribe cards agree), while Bob's hand and the orders of the supplies differ."""
    seen = {}
    for seed in SEARCH:
        state = opening(seed)
        bob = state.players[BOB].hand_letters()
        before = known_to(state, ANNA)
        for text in first_turns(bob):
            after = GAME.apply(state, GAME.decide(state, BOB, text))
            other, other_bob = seen.setdefault((before, text, known_to(after, ANNA)), (seed, bob))
            if other_bob != bob:
                return other, seed, text
    raise AssertionError("no twin games for the waiting seat among the searched seeds")


@cache
def twins_for_the_seat_to_act() -> tuple[int, int]:
    """Two seeds where Bob, who starts, holds the same hand but Anna does not."""
    by_view = {}
    for seed in SEARCH:
        state = opening(seed)
        key = known_to(state, BOB)
        other = by_view.setdefault(key, seed)
        anna = state.players[ANNA].hand_letters()
        if other != seed and opening(other).players[ANNA].hand_letters() != anna:
            return other, seed
    raise AssertionError("no twin games for the seat to act among the searched seeds")


# -- games through the server ---------------------------------------------------

def create(app, seed: int, via_cli: bool = False) -> str:
    """A game with this seed in which Bob starts; its invitations are queued."""
    if via_cli:
        runner = app.test_cli_runner()
        # `flask` pushes an app context for every command; the test runner does not.
        with app.app_context():
            result = runner.invoke(args=[
                "new-game", "--game", "babel", "--first", str(BOB), "--seed", str(seed),
                *(arg for name, addr in PLAYERS for arg in ("--player", f"{name} <{addr}>"))])
        assert result.exit_code == 0, result.output
        return result.output.strip()
    from pbem.play import turns
    with app.app_context():
        return turns.create_game(turns.Spec("babel", list(PLAYERS), {}, BOB, seed=seed)).id


# signed links: turn, seat, decline, unsubscribe, home ...
TOKEN = re.compile(r"/([tsduhmrc])/[A-Za-z0-9_.\-]+")
LINK = re.compile(r"https?://[^/\s]+(/[ts]/[A-Za-z0-9_.\-]+)")


def links_in(msg) -> dict:
    """The turn and seat links of a mail, as paths."""
    paths = LINK.findall(text_of(msg))
    return {kind: next((p for p in paths if p.startswith(f"/{kind[0]}/")), None)
            for kind in ("turn", "seat")}


def normalized(text: str, game_id: str) -> str:
    """The text with what legitimately differs between two games replaced by placeholders."""
    return TOKEN.sub(r"/\1/TOKEN", text).replace(game_id, "GAME")


def mails(smtp, seat: int, game_id: str) -> list:
    """The seat's mails about one game, in the order they arrived."""
    return [m for m in smtp.to(PLAYERS[seat][1]) if m["Message-ID"].startswith(f"<{game_id}.")]


def mail_as_seen(msg, game_id: str) -> dict:
    """A mail without its Message-ID and date: what must not differ between twin games."""
    return {
        # (the second of two games of the same players says so in its subjects)
        "from": msg["From"], "to": msg["To"], "subject": re.sub(r" \(game \d+\)", "", msg["Subject"]),
        "in-reply-to": normalized(msg["In-Reply-To"] or "", game_id),
        "references": normalized(msg["References"] or "", game_id),
        "text": normalized(text_of(msg), game_id),
        "html": normalized(msg.get_body(("html",)).get_content(), game_id),
    }


class Game:
    """One game seen through the server, for comparing it with its twin."""

    def __init__(self, actions, client, game_id: str):
        self.actions, self.client, self.id = actions, client, game_id

    def mail_links(self, seat: int) -> dict:
        self.actions.deliver()
        return links_in(mails(self.actions.smtp, seat, self.id)[-1])

    def get(self, path: str, json: bool = False) -> str:
        response = self.client.get(path, headers=JSON if json else {})
        assert response.status_code == 200, (path, response.status_code)
        return normalized(response.data.decode(), self.id)

    def post(self, path: str, status: int = 200, **kwargs) -> str:
        response = self.client.post(path, **kwargs)
        assert response.status_code == status, (path, response.status_code, response.data[:300])
        return normalized(response.data.decode(), self.id)

    def record(self) -> dict:
        path = f"/games/{self.id}/record"
        steps = {f"step {k}": self.get(f"{path}?turn=1&step={k}") for k in range(1, 5)}
        return {"html": self.get(path), "json": self.get(path, json=True), **steps}


def hand_values(data) -> list:
    """The value of every key "hand" anywhere in a JSON document."""
    found = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "hand":
                found.append(value)
            found.extend(hand_values(value))
    elif isinstance(data, list):
        for value in data:
            found.extend(hand_values(value))
    return found


def assert_only_own_hand(data: dict, seat: int, own: str) -> None:
    players = data["view"]["players"]
    assert players[seat]["hand"] == own
    assert players[1 - seat]["hand"] is None
    assert hand_values(data) == [own if p["seat"] == seat else None for p in players]


def assert_no_hand_at_all(record: dict) -> None:
    assert all(v is None for v in hand_values(record))


# -- the tests --------------------------------------------------------------------

def test_twin_games_differ_only_in_what_the_waiting_seat_may_not_know():
    """The seed search itself: same public view for Anna, different hidden parts."""
    one, two, text = twins_for_the_waiting_seat()
    a, b = opening(one), opening(two)
    assert known_to(a, ANNA) == known_to(b, ANNA)
    assert public(a, ANNA) == public(b, ANNA)      # the engine's view agrees
    assert a.players[BOB].hand_letters() != b.players[BOB].hand_letters()
    a, b = GAME.apply(a, GAME.decide(a, BOB, text)), GAME.apply(b, GAME.decide(b, BOB, text))
    assert known_to(a, ANNA) == known_to(b, ANNA)
    assert public(a, ANNA) == public(b, ANNA) and public(a, None) == public(b, None)
    assert a.to_move == ANNA and GAME.to_act(a)[0].kind == "turn"
    assert a.players[ANNA].hand_letters() == b.players[ANNA].hand_letters()
    ha, hb = hidden(a), hidden(b)
    assert ha[1] != hb[1], "Bob's hands should differ"
    assert ha[2] != hb[2] and ha[3] != hb[3], "the supplies' orders should differ"
    assert public(a, BOB) != public(b, BOB)   # what Bob sees does differ


def test_waiting_seat_sees_byte_identical_pages_mails_and_json(app, actions, client, smtp):
    """Anna's every page, JSON answer and mail is the same in two games that differ only in
    Bob's hand and the orders of the supplies: before Bob's first turn and after it."""
    one, two, text = twins_for_the_waiting_seat()
    games = [Game(actions, client, create(app, one)),
             Game(actions, client, create(app, two, via_cli=True))]

    def seen_before(g: Game) -> dict:
        seat_link = g.mail_links(ANNA)["seat"]
        assert g.mail_links(ANNA)["turn"] is None      # Bob starts
        return {"seat": g.get(seat_link), "seat json": g.get(seat_link, json=True), **g.record()}

    before = [seen_before(g) for g in games]
    assert before[0] == before[1]

    hands = []
    for g in games:     # Bob plays the same first turn in both, through the form
        bob = g.mail_links(BOB)["turn"]
        hands.append(json.loads(g.get(bob, json=True))["view"]["players"][BOB]["hand"])
        response = client.post(bob, data={"steps": text, "action": "submit"})
        assert response.status_code == 303
    assert hands[0] != hands[1]

    def seen_after(g: Game) -> dict:
        links = g.mail_links(ANNA)
        turn, seat = links["turn"], links["seat"]
        data = json.loads(g.get(turn, json=True))
        assert data["can_act"] and data["seat"] == ANNA
        hand = data["view"]["players"][ANNA]["hand"]
        draft = f"move {hand[0]}\nsettle {hand[1]}"
        illegal = f"move {hand[0]}\nbuild theirs"
        seen = {
            "turn": g.get(turn),
            "turn json": g.get(turn, json=True),
            "seat": g.get(seat),
            "seat json": g.get(seat, json=True),
            "preview fragment": g.post(turn + "/preview", data={"steps": draft}, headers=FRAGMENT),
            "preview json": g.post(turn + "/preview", json={"steps": draft}),
            "compose without script": g.post(turn, data={"steps": draft, "add": "build mine"}),
            "remove a step": g.post(turn, data={"steps": draft, "remove": "1"}),
            "illegal submission": g.post(turn, 422, data={"steps": illegal, "action": "submit"}),
            "illegal submission json": g.post(turn, 422, json={"steps": illegal}),
            **g.record(),
        }
        assert f'value="move {hand[0]}"' in seen["turn"]
        assert f"<code>settle {hand[1]}</code>" in seen["preview fragment"]
        return seen

    after = [seen_after(g) for g in games]
    for key in after[0]:
        assert after[0][key] == after[1][key], key

    anna = [[mail_as_seen(m, g.id) for m in mails(smtp, ANNA, g.id)] for g in games]
    assert [m["subject"] for m in anna[0]] == [
        "Babel with Bob: you are invited", "Babel with Bob: your turn, Anna"]
    assert anna[0] == anna[1]
    assert "build mine" in anna[0][1]["text"]      # Bob's turn, in notation: public

    # Bob's hand is nowhere a hand in Anna's JSON; the spectators' JSON has no hand at all.
    for g, bob_hand in zip(games, hands):
        links = g.mail_links(ANNA)
        for path in (links["turn"], links["seat"]):
            data = client.get(path, headers=JSON).get_json()
            own = data["view"]["players"][ANNA]["hand"]
            assert_only_own_hand(data, ANNA, own)
            assert bob_hand not in hand_values(data)
        preview = client.post(links["turn"] + "/preview", json={"steps": "pass"}).get_json()
        assert_only_own_hand(preview, ANNA, own)
        record = client.get(f"/games/{g.id}/record", headers=JSON).get_json()
        assert len(hand_values(record)) == 4     # both players, after Bob's turn and now
        assert_no_hand_at_all(record)
        assert "Your hand" not in client.get(f"/games/{g.id}/record").data.decode()


def test_seat_to_act_sees_byte_identical_pages_and_mails(app, actions, client, smtp):
    """Bob starts with the same hand in two games where Anna's hands differ: his turn page,
    previews, JSON and invitation are the same."""
    one, two = twins_for_the_seat_to_act()
    assert public(opening(one), BOB) == public(opening(two), BOB)
    games = [Game(actions, client, create(app, seed)) for seed in (one, two)]
    seen = []
    for g in games:
        links = g.mail_links(BOB)
        data = client.get(links["turn"], headers=JSON).get_json()
        assert_only_own_hand(data, BOB, data["view"]["players"][BOB]["hand"])
        hand = data["view"]["players"][BOB]["hand"]
        draft = f"move {hand[0]}"
        seen.append({
            "turn": g.get(links["turn"]),
            "turn json": g.get(links["turn"], json=True),
            "seat": g.get(links["seat"]),
            "seat json": g.get(links["seat"], json=True),
            "preview fragment": g.post(links["turn"] + "/preview", data={"steps": draft},
                                       headers=FRAGMENT),
            "preview json": g.post(links["turn"] + "/preview", json={"steps": draft}),
            "mails": [mail_as_seen(m, g.id) for m in mails(smtp, BOB, g.id)],
            **g.record(),
        })
    for key in seen[0]:
        assert seen[0][key] == seen[1][key], key
    assert [m["subject"] for m in seen[0]["mails"]] == ["Babel with Anna: your turn"]
    # Anna's hands differ, but her invitation shows no hand: hers agree too.
    anna = [mails(smtp, ANNA, g.id)[0] for g in games]
    assert normalized(text_of(anna[0]), games[0].id) == normalized(text_of(anna[1]), games[1].id)


def test_no_view_of_a_running_game_shows_what_its_seat_may_not_know(app, actions, client):
    """Through a random game: each seat's JSON holds its own hand only, with the true cards;
    supplies are counts; the record holds no hand; no page or mail names the seed."""
    seed = 7_391_804_265_118_203_557   # long enough that its digits appear nowhere by chance
    game_id = create(app, seed)
    addrs = [addr for _, addr in PLAYERS]
    seat_links = [actions.links(addr)["seat"] for addr in addrs]
    rng = Rng(seed)
    for _ in range(12):
        loaded = actions.state(game_id)
        if GAME.outcome(loaded.state):
            break
        for seat in (ANNA, BOB):
            data = client.get(seat_links[seat], headers=JSON).get_json()
            assert_only_own_hand(data, seat, loaded.state.players[seat].hand_letters())
            view = data["view"]
            assert view["tribe_supply"] == len(loaded.state.tribe_supply)
            assert view["temple_supply"] == len(loaded.state.temple_supply)
            assert "seed" not in json.dumps(data)
            assert str(seed) not in client.get(seat_links[seat]).data.decode()
        record = client.get(f"/games/{game_id}/record", headers=JSON).get_json()
        assert_no_hand_at_all(record)
        assert str(seed) not in json.dumps(record)
        page = client.get(f"/games/{game_id}/record").data.decode()
        assert str(seed) not in page and "Your hand" not in page
        [decision] = GAME.to_act(loaded.state)
        turn = actions.links(addrs[decision.seat])["turn"]
        text = GAME.random_submission(loaded.state, decision.seat, rng)
        response = client.post(turn, json={"steps": text})
        assert response.status_code == 200, response.get_json()
        data = response.get_json()
        base = app.config["BASE_URL"]
        if data["next"].startswith(f"{base}/t/"):       # discards done: he plays on at once
            text = GAME.random_submission(actions.state(game_id).state, decision.seat, rng)
            response = client.post(data["next"][len(base):], json={"steps": text})
            assert response.status_code == 200, response.get_json()
    actions.deliver()
    assert actions.smtp.messages
    for _, msg in actions.smtp.messages:
        assert str(seed) not in msg.as_string()
