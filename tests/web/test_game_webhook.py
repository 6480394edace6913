"""A game's webhook (`pbem.players.channels.set_game_hook`, `pbem.mail.notices.for_game`), end to
end through the server, against a receiver on loopback started by the test:
- any player sets it from his seat page; every player sees it there, with who set it and when,
  and its secret;
- over a whole game of Babylonia for three, played through the turn links, each change reaches
  it, signed, and says exactly the public fact (whose turn, how it ended) with the game's public
  record: no turn or seat link, no address, nothing of a hand (a property over every body);
- a player's removal stops them (the notices not yet sent too), and the others see who removed it;
- nobody but a person seated in the running game sets it: not a stranger, not a player of
  another game, not a player whose seat a computer took, not after the game's end; a URL the
  server must not call is refused, nothing written;
- a failing webhook takes nothing from the mail.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re

import pytest
from sqlalchemy import func, select

from pbem.extensions import db
from pbem.mail.channel_send import deliver_notices
from pbem.store import gamelog
from pbem.store.models import Channel, Notice
from pbem_web import create, deliver, play, play_by_links, seat_path  # tests/helpers

ANNA, BOB, CLEO = "anna@example.org", "bob@example.org", "cleo@example.org"
JSON = {"Accept": "application/json"}


def three(app, languages=()) -> str:
    """A game of Babylonia for Anna, Bob and Cleo; its id."""
    from pbem.play import turns
    with app.app_context():
        spec = turns.Spec("babylonia", [("Anna", ANNA), ("Bob", BOB), ("Cleo", CLEO)], {}, 0,
                          seed=7, languages=tuple(languages))
        return turns.create_game(spec).id


def set_hook(client, path: str, url: str, status: int = 303):
    answer = client.post(path + "/webhook", data={"url": url})
    assert answer.status_code == status, answer.get_data(as_text=True)[:500]
    return answer


def page(client, path: str) -> str:
    return client.get(path).get_data(as_text=True)


def verified(secret: str, received) -> dict:
    expected = "sha256=" + hmac.new(secret.encode(), received.body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(received.headers["X-Pbem-Signature"], expected)
    return json.loads(received.body)


def public_lines(app, game: str) -> list[str]:
    """What the group may be told after each decision, worked out from the game's record
    alone: the spectators' state after each event, whose turn it is, how it ended."""
    with app.app_context():
        loaded = gamelog.load(game)
        engine, row, names = loaded.engine, loaded.row, loaded.names
        state = engine.start(row.seed, row.options, row.seats, row.first)
        title = f"Babylonia with {', '.join(names[:-1])} and {names[-1]}"
        lines = []
        for event in loaded.events:
            state = engine.apply(state, event)
            if engine.outcome(state) is not None:
                lines.append(f"{title}: game over. {engine.ending(state, None, names)}")
            else:
                acting = [names[d.seat] for d in engine.to_act(state)]
                lines.append(f"{title}: {' and '.join(acting)} to play")
        return lines


def test_a_whole_game_reaches_the_game_s_webhook_with_public_facts_only(hook_app, receiver, smtp):
    client = hook_app.test_client()
    game = three(hook_app)
    bob = seat_path(hook_app, game, 1)
    set_hook(client, bob, receiver.url)
    # Every player sees it on his seat page: where it posts, who set it, its secret.
    anna = page(client, seat_path(hook_app, game, 0))
    assert receiver.url in anna and "set by Bob" in anna
    secret = re.search(r'<code class="secret">([^<]+)</code>', anna)[1]
    assert client.get(seat_path(hook_app, game, 2), headers=JSON).get_json()["game_webhook"][
        "secret"] == secret
    play_by_links(hook_app, client, game, seed=11)
    with hook_app.app_context():
        sent = deliver_notices().sent
    received = receiver.wait_for(sent)
    assert sent == len(received) > 10
    bodies = [verified(secret, got) for got in received]
    # Exactly the public facts, in order: one per decision, the last the game's end.
    assert [b["notice"]["subject"] for b in bodies] == public_lines(hook_app, game)
    assert [b["notice"]["kind"] for b in bodies][-1] == "over"
    record = f"http://pbem.test/games/{game}/record"
    with hook_app.app_context():
        loaded = gamelog.load(game)
        private = [line for seat in range(3)
                   for line in loaded.engine.summary(loaded.state, seat, loaded.names)]
    for body in bodies:
        assert set(body) == {"content", "text", "notice", "id"}
        assert set(body["notice"]) == {"kind", "game", "seat", "subject", "url", "at"}
        assert body["notice"]["seat"] is None and body["notice"]["url"] == record
        assert body["content"] == body["text"] == f"{body['notice']['subject']}\n{record}"
        raw = json.dumps(body)
        assert not re.search(r"/(t|s|d|h|r)/[A-Za-z0-9_.-]{8,}", raw), raw   # no link of a seat
        assert "@" not in raw   # no address
        assert not [line for line in private if line.strip() and line in raw], raw   # no hand
    # The players' mail went as ever: the hook is beside it, not instead of it.
    deliver(hook_app)
    assert any(m["Subject"].endswith("the game is over") for m in smtp.to(CLEO))


def test_a_player_s_removal_stops_the_notices_and_the_others_see_who(hook_app, receiver):
    client = hook_app.test_client()
    game = three(hook_app)
    set_hook(client, seat_path(hook_app, game, 0), receiver.url)
    play(hook_app, game, seed=3, decisions=2)   # two notices waiting
    answer = client.post(seat_path(hook_app, game, 2) + "/webhook", data={"action": "remove"})
    assert answer.status_code == 303 and "saved=hook-gone" in answer.headers["Location"]
    play(hook_app, game, seed=3, decisions=3)
    with hook_app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Notice)) == 0
        assert deliver_notices().sent == 0
    assert receiver.received == []
    bob = page(client, seat_path(hook_app, game, 1))
    assert "Removed by Cleo" in bob and receiver.url not in bob
    data = client.get(seat_path(hook_app, game, 1), headers=JSON).get_json()["game_webhook"]
    assert data["removed"] and data["set_by"] == 2 and data["target"] is None
    assert data["secret"] is None
    # Set again (by Bob): on again, and the next change reaches it.
    set_hook(client, seat_path(hook_app, game, 1), receiver.url)
    play(hook_app, game, seed=3, decisions=1)
    with hook_app.app_context():
        assert deliver_notices().sent == 1
    assert receiver.wait_for(1)[0].body


def test_json_sets_renews_and_removes_it(hook_app, receiver):
    client = hook_app.test_client()
    game = three(hook_app)
    path = seat_path(hook_app, game, 1)
    made = client.post(path + "/webhook", json={"url": receiver.url}, headers=JSON).get_json()
    hook = made["game_webhook"]
    assert hook["target"] == receiver.url and hook["set_by"] == 1 and hook["on"]
    renewed = client.post(path + "/webhook", json={"action": "secret"}, headers=JSON).get_json()
    assert renewed["game_webhook"]["secret"] not in (None, hook["secret"])
    gone = client.post(path + "/webhook", json={"action": "remove"}, headers=JSON).get_json()
    assert gone["game_webhook"]["removed"] is True


def test_nobody_but_a_person_seated_in_the_running_game_sets_it(hook_app, receiver):
    from pbem.play import turns
    client = hook_app.test_client()
    game, other = three(hook_app), three(hook_app)
    # A stranger: no link, or a forged one.
    assert client.post(f"/s/{'x' * 40}/webhook", data={"url": receiver.url}).status_code in (400, 403, 404)
    # A player of another game: his link sets that game's, never this one's.
    set_hook(client, seat_path(hook_app, other, 0), receiver.url)
    with hook_app.app_context():
        assert [c.game_id for c in db.session.scalars(select(Channel))] == [other]
    # A player whose seat a computer took (he resigned from a game of three).
    with hook_app.app_context():
        turns.resign(game, 2)
    set_hook(client, seat_path(hook_app, game, 2), receiver.url, status=409)
    with hook_app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Channel).where(
            Channel.game_id == game)) == 0
    # After the game's end: nobody sets it (the end was its last news).
    babel = create(client)
    with hook_app.app_context():
        turns.resign(babel, 1)   # Anna wins
    answer = set_hook(client, seat_path(hook_app, babel, 0), receiver.url, status=400)
    assert "The game is over: its webhook can no longer be set." in answer.get_data(as_text=True)
    with hook_app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Channel).where(
            Channel.game_id == babel)) == 0


@pytest.mark.parametrize("url", ["ftp://example.org/hook", "http://127.0.0.1:9/hook",
                                 "http://10.1.2.3/hook", "http://169.254.169.254/latest"])
def test_a_url_the_server_must_not_call_is_refused(app, url):
    client = app.test_client()   # (production's rule: no private targets)
    game = three(app)
    answer = set_hook(client, seat_path(app, game, 0), url, status=400)
    assert "webhook" in answer.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Channel)) == 0


def test_it_speaks_the_language_of_the_player_who_set_it(hook_app, receiver):
    client = hook_app.test_client()
    game = three(hook_app, languages=(None, "de", "cs"))
    set_hook(client, seat_path(hook_app, game, 1), receiver.url)   # Bob reads German
    play(hook_app, game, seed=3, decisions=1)
    set_hook(client, seat_path(hook_app, game, 2), receiver.url)   # Cleo, Czech
    play(hook_app, game, seed=3, decisions=1)
    with hook_app.app_context():
        assert deliver_notices().sent == 2
    german, czech = (json.loads(r.body)["notice"]["subject"] for r in receiver.wait_for(2))
    assert german.startswith("Babylonia mit Anna, Bob und Cleo: am Zug: "), german
    assert czech.startswith("Babylonia – Anna, Bob a Cleo: na tahu: "), czech


def test_a_failing_game_webhook_takes_nothing_from_the_mail(hook_app, receiver, smtp):
    client = hook_app.test_client()
    receiver.status = 500
    game = three(hook_app)
    set_hook(client, seat_path(hook_app, game, 0), receiver.url)
    play(hook_app, game, seed=3, decisions=1)   # Bob's turn, say
    with hook_app.app_context():
        to_act = gamelog.load(game)
        name = to_act.names[to_act.engine.to_act(to_act.state)[0].seat]
        assert deliver_notices().retrying == 1
    deliver(hook_app)
    assert any(m["Subject"].endswith(f"your turn, {name}")
               for address in (ANNA, BOB, CLEO) for m in smtp.to(address))
    page_text = page(client, seat_path(hook_app, game, 2))
    assert "The last notice failed" in page_text and "HTTP 500" in page_text


def test_a_seat_taken_over_is_told_and_the_computer_s_turns_are_no_news(hook_app, receiver):
    from pbem.play import turns
    client = hook_app.test_client()
    game = three(hook_app)
    set_hook(client, seat_path(hook_app, game, 0), receiver.url)
    with hook_app.app_context():
        turns.resign(game, 2)   # Cleo leaves; a computer plays her seat
    play_by_links(hook_app, client, game, seed=5)
    with hook_app.app_context():
        sent = deliver_notices().sent
    said = [json.loads(r.body)["notice"] for r in receiver.wait_for(sent)]
    assert said[0]["kind"] == "taken_over"
    assert said[0]["subject"] == ("Babylonia with Anna, Bob and Cleo: Cleo left; a computer "
                                  "plays that seat now")
    assert said[-1]["kind"] == "over"
    turns_told = [n["subject"] for n in said if n["kind"] == "turn"]
    assert turns_told and not [t for t in turns_told if t.endswith("Cleo to play")]


def test_players_setting_it_at_once_leave_the_game_one_webhook(hook_app, receiver):
    """The game's row is unique (0021): a player whose insert loses to another's changes the
    row the other made, and neither gets an error."""
    from pbem.players import channels
    from pbem_web import at_once
    game = three(hook_app)

    def set_by(seat: int) -> int:
        with hook_app.app_context():
            channels.set_game_hook(game, seat, f"{receiver.url}?by={seat}")
        return seat   # (no error)
    assert sorted(at_once(3, set_by)) == [0, 1, 2]
    with hook_app.app_context():
        [hook] = db.session.scalars(select(Channel).where(Channel.game_id == game)).all()
        assert hook.target == f"{receiver.url}?by={hook.set_by}"
