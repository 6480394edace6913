"""The server used against people: each attack found by attacking it, replayed, and shown to fail.

- The start page as a spam relay: one client created 1,490 games in 60 s and queued 5,960
  invitations to arbitrary addresses, with its own text in names. Now only the creator is
  mailed until he confirms; creations are limited per client and per creator address, in the
  database and under concurrent requests; unconfirmed games expire; names are cleaned.
- Killing a player's links: asking for links (or renewing an old one) replaced his links.
  Now asking mails the current links; replacing needs the player's own mailbox.
- Mail to people who never want it: every mail offers "never mail me again", and every
  invitation offers to decline.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from pbem.extensions import db
from pbem.games.rng import Rng
from pbem.jobs import reminders
from pbem.policy import links
from pbem.store import gamelog
from pbem.store.models import SUPPRESSED, Game, Mail, Proposal, Suppression
from pbem_web import at_once, confirm, create, deliver, outbox_rows, started, text_of  # tests/helpers

ANNA, BOB, CAROL, DORA = "anna@example.org", "bob@example.org", "carol@example.org", "dora@example.org"
CONFIRM = re.compile(r"http://pbem\.test(/c/\S+)")


def form(creator=ANNA, game="babel", **more) -> dict:
    data = {"game": game, "name0": "Anna", "email0": creator, "name1": "Bob", "email1": BOB,
            "first": "0", **more}
    return data


def count(app, model) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))



def link_in(mail, pattern: re.Pattern) -> str:
    found = pattern.search(text_of(mail))
    assert found, text_of(mail)
    return found.group(1)


# -- the start page is no relay ---------------------------------------------------------

def test_asking_for_a_game_mails_only_its_creator_until_he_confirms(app, client, smtp):
    data = form(game="babylonia", name2="Carol", email2=CAROL, name3="Dora", email3=DORA)
    response = client.post("/games", data=data)
    assert response.status_code == 303 and response.headers["Location"].endswith("/proposed")
    deliver(app)
    [(rcpts, mail)] = smtp.messages
    assert rcpts == [ANNA] and mail["Subject"] == "Confirm your game of Babylonia"
    text = text_of(mail)
    assert "Nobody has been mailed yet" in text and "bob@example.org" in text
    assert count(app, Game) == 0
    # A mail scanner opening the link starts nothing: only the button does.
    link = link_in(mail, CONFIRM)
    page = client.get(link)
    assert page.status_code == 200 and "Start the game" in page.data.decode()
    assert count(app, Game) == 0
    started = client.post(link)
    assert started.status_code == 303
    deliver(app)
    assert sorted(r[0] for r, _ in smtp.messages[1:]) == [ANNA, BOB, CAROL, DORA]
    # The link starts one game once.
    again = client.post(link)
    assert again.status_code == 410 and "confirmed already" in again.data.decode()
    assert count(app, Game) == 1


def test_the_json_api_follows_the_same_rules(app, client, smtp):
    response = client.post("/games", json=form())
    assert response.status_code == 202
    body = response.get_json()
    assert body["status"] == "unconfirmed" and ANNA in body["message"]
    deliver(app)
    assert [r for r, _ in smtp.messages] == [[ANNA]] and count(app, Game) == 0


def test_one_client_cannot_start_game_after_game(make_app, smtp):
    """The attack: one client, a new creator and new victims every time. The client's daily
    allowance ends it, and only creators were ever mailed."""
    app = make_app(PROPOSALS_PER_CLIENT_PER_DAY=20)
    client = app.test_client()
    statuses = [client.post("/games", json=form(creator=f"c{i}@example.org")
                            | {"email1": f"victim{i}@example.org"}).status_code
                for i in range(60)]
    assert statuses == [202] * 20 + [429] * 40
    refused = client.post("/games", json=form(creator="c99@example.org"))
    assert "try tomorrow" in refused.get_json()["error"]
    assert count(app, Proposal) == 20 and count(app, Mail) == 20
    assert {m.to_addr for m in outbox_rows(app)} == {f"c{i}@example.org" for i in range(20)}
    # Another client is not held back by this one.
    other = client.post("/games", json=form(creator="d@example.org"),
                        environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other.status_code == 202


def test_a_creator_address_cannot_be_mail_bombed_with_confirmations(make_app, smtp):
    app = make_app(PROPOSALS_PER_ADDRESS_PER_DAY=3)
    client = app.test_client()
    statuses = [client.post("/games", json=form(creator=ANNA),
                            environ_base={"REMOTE_ADDR": f"192.0.2.{i}"}).status_code
                for i in range(1, 7)]
    assert statuses == [202] * 3 + [429] * 3
    assert count(app, Mail) == 3


def hammer(app, n: int, request) -> list[int]:
    """n requests at once, each from a test client of its own: their status codes."""
    return at_once(n, lambda i: request(app.test_client(), i))


@pytest.mark.serial   # forty writers at once, each given 2.5 s: another test's load would time them out
def test_forty_simultaneous_creations_for_one_address_do_not_pass_a_limit_of_twenty(make_app, smtp):
    app = make_app(PROPOSALS_PER_ADDRESS_PER_DAY=20)
    statuses = hammer(app, 40, lambda client, i: client.post(
        "/games", json=form(creator=ANNA), environ_base={"REMOTE_ADDR": f"10.0.0.{i}"}).status_code)
    assert sorted(statuses) == [202] * 20 + [429] * 20
    assert count(app, Proposal) == 20 and count(app, Mail) == 20


@pytest.mark.serial   # forty writers at once, each given 2.5 s: another test's load would time them out
def test_forty_simultaneous_confirmations_for_one_address_start_twenty_games(make_app, smtp):
    app = make_app(GAMES_PER_ADDRESS_PER_DAY=20)
    client = app.test_client()
    ids = [client.post("/games", json=form(creator=ANNA)).get_json()["game"] for _ in range(40)]
    with app.app_context():
        paths = [links.path_of(links.CONFIRM, game_id) for game_id in ids]
    statuses = hammer(app, 40, lambda client, i: client.post(paths[i]).status_code)
    assert sorted(statuses) == [303] * 20 + [429] * 20
    assert count(app, Game) == 20
    assert count(app, Proposal) == 20   # the refused ones wait (until tomorrow, or expiry)


def test_one_link_pressed_twice_at_once_starts_one_game(app, smtp):
    client = app.test_client()
    game_id = client.post("/games", json=form()).get_json()["game"]
    with app.app_context():
        path = links.path_of(links.CONFIRM, game_id)
    statuses = hammer(app, 8, lambda client, i: client.post(path).status_code)
    assert sorted(statuses) == [303] + [410] * 7
    assert count(app, Game) == 1 and count(app, Mail) == 1 + 2


def test_unconfirmed_games_are_forgotten(app, client, smtp):
    game_id = client.post("/games", json=form()).get_json()["game"]
    hours = app.config["PROPOSAL_HOURS"]
    assert hours == 24
    with app.app_context():
        path = links.path_of(links.CONFIRM, game_id)
        proposal = db.session.get(Proposal, game_id)
        proposal.created_at -= timedelta(hours=hours, minutes=1)
        db.session.commit()
    late = client.post(path)
    assert late.status_code == 410 and "not confirmed within 24 hours" in late.data.decode()
    assert count(app, Game) == 0 and count(app, Proposal) == 1
    with app.app_context():
        reminders.run()
    assert count(app, Proposal) == 0


def test_a_forged_confirmation_link_is_403(app, client):
    game_id = client.post("/games", json=form()).get_json()["game"]
    with app.app_context():
        path = links.path_of(links.CONFIRM, game_id)
    assert client.post(path[:-2] + ("AA" if not path.endswith("AA") else "BB")).status_code == 403
    assert client.get("/c/" + "A" * 500).status_code == 403
    assert count(app, Game) == 0


@pytest.mark.parametrize("name, shown", [
    ("Anna\u202egnp.exe", "Annagnp.exe"),              # reads backwards from here on
    ("\u2066Bob\u2069 \u200bthe\u200d great\ufeff", "Bob the great"),
    ("Eve\u061c\u200e\u200f", "Eve"),
    ("A" * 100, "A" * 100),
])
def test_names_lose_bidirectional_and_invisible_characters_before_any_header(app, client, smtp,
                                                                              name, shown):
    game_id = started(client, client.post("/games", json=form() | {"name1": name}))
    with app.app_context():
        assert gamelog.load(game_id).names[1] == shown
    deliver(app)
    for _, mail in smtp.messages:
        for header in ("Subject", "From", "To"):
            assert not re.search("[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]",
                                 str(mail[header])), (header, str(mail[header]))
    assert any(shown in str(mail["From"]) for _, mail in smtp.messages)


def test_a_name_too_long_is_refused_on_every_path(app, client):
    response = client.post("/games", json=form() | {"name1": "B" * 101})
    assert response.status_code == 400 and "at most 100 characters" in response.get_json()["error"]
    result = app.test_cli_runner().invoke(args=[
        "new-game", "--game", "babel", "--player", f"{'C' * 101} <c@example.org>",
        "--player", "Bob <bob@example.org>"])
    assert result.exit_code == 2 and "at most 100 characters" in result.output


# -- nobody can kill a player's links ----------------------------------------------------

def live_seat_link(app, game_id: str, seat: int) -> str:
    with app.app_context():
        return links.path(links.SEAT, game_id, seat, gamelog.current_nonce(game_id, seat))


def test_asking_for_a_victims_links_or_renewing_an_old_link_kills_nothing(app, client, smtp):
    game_id = create(client, first=0)
    seat_link = live_seat_link(app, game_id, 1)
    with app.app_context():
        turn_link = links.path(links.TURN, game_id, 0, 0)
    attacks = [client.post("/links", json={"email": BOB}, environ_base={"REMOTE_ADDR": "203.0.113.5"}),
               client.post(seat_link + "/renew"),
               client.post(turn_link + "/renew")]
    assert [a.status_code for a in attacks] == [202, 202, 202]
    assert client.get(seat_link).status_code == 200
    assert client.get(turn_link, headers={"Accept": "application/json"}).get_json()["can_act"]
    deliver(app)
    # What was mailed went to the players' own addresses only, with their live links.
    assert {r[0] for r, _ in smtp.messages} <= {ANNA, BOB}


def test_replacing_leaked_links_takes_the_players_own_mailbox(app, client, smtp):
    game_id = create(client, first=0)
    leaked = live_seat_link(app, game_id, 1)
    deliver(app)
    smtp.clear()
    asked = client.post(leaked + "/replace")   # whoever holds the leaked link asks
    assert asked.status_code == 202
    assert client.get(leaked).status_code == 200   # nothing changes before Bob confirms
    deliver(app)
    [(rcpts, mail)] = smtp.messages
    assert rcpts == [BOB] and "replace your links?" in mail["Subject"]
    link = link_in(mail, re.compile(r"http://pbem\.test(/r/\S+)"))
    assert client.get(link).status_code == 200 and client.get(leaked).status_code == 200
    assert client.post(link).status_code == 200
    assert client.get(leaked).status_code == 410
    fresh = live_seat_link(app, game_id, 1)
    assert client.get(fresh).status_code == 200
    # The replacement link works once.
    assert client.post(link).status_code == 410
    assert live_seat_link(app, game_id, 1) == fresh or client.get(fresh).status_code == 200
    deliver(app)
    new_mail = smtp.messages[-1][1]
    assert "your new links" in new_mail["Subject"] and "no longer works" in text_of(new_mail)


def test_asking_to_replace_is_limited_like_any_mail_to_a_seat(app, client, smtp):
    game_id = create(client, first=0)
    seat_link = live_seat_link(app, game_id, 0)
    assert client.post(seat_link + "/replace").status_code == 202
    assert client.post(seat_link + "/replace").status_code == 429
    assert client.post(seat_link + "/renew").status_code == 429


# -- never mail me again ------------------------------------------------------------------------

def unsubscribe_link(mail) -> str:
    header = str(mail["List-Unsubscribe"]).strip()
    found = re.fullmatch(r"<http://pbem\.test(/u/\S+)>", header)
    assert found, header
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert found.group(1) in text_of(mail)
    return found.group(1)


def test_one_click_unsubscribe_stops_every_later_mail_to_the_address(app, client, smtp):
    game_id = create(client, first=0)
    deliver(app)
    bob_invite = smtp.to(BOB)[-1]
    link = unsubscribe_link(bob_invite)
    assert client.get(link).status_code == 200   # a scanner's GET stops nothing
    with app.app_context():
        assert db.session.get(Suppression, BOB) is None
    # The mail program's one-click POST (RFC 8058).
    response = client.post(link, data={"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200 and "No more mail to bob@example.org" in response.data.decode()
    # Anna plays: Bob's turn mail is not sent, and the game's pages say so.
    anna_turn = smtp.to(ANNA)[-1]
    turn_path = re.search(r"http://pbem\.test(/t/\S+)", text_of(anna_turn)).group(1)
    with app.app_context():
        loaded = gamelog.load(game_id)
        text = loaded.engine.random_submission(loaded.state, 0, Rng(3))
    assert client.post(turn_path, json={"steps": text}).status_code == 200
    bob_before = len(smtp.to(BOB))
    deliver(app)
    assert len(smtp.to(BOB)) == bob_before
    [turn] = [m for m in outbox_rows(app) if m.to_addr == BOB and m.kind == "turn"]
    assert turn.status == SUPPRESSED
    record = client.get(f"/games/{game_id}/record").data.decode()
    assert "could not be delivered" in record
    # Bob changes his mind: mail to him goes again (what was dropped stays dropped).
    again = client.post(link, data={"action": "again"})
    assert again.status_code == 200 and "Mail to bob@example.org is on again" in again.data.decode()
    with app.app_context():
        assert db.session.get(Suppression, BOB) is None


def test_a_forged_unsubscribe_link_suppresses_nobody(app, client, smtp):
    create(client, first=0)
    deliver(app)
    link = unsubscribe_link(smtp.to(BOB)[-1])
    forged = link[:-2] + ("AA" if not link.endswith("AA") else "BB")
    assert client.post(forged, data={"List-Unsubscribe": "One-Click"}).status_code == 403
    assert count(app, Suppression) == 0


def test_a_suppressed_creator_gets_no_confirmation(app, client, smtp):
    with app.app_context():
        from pbem.play import addresses
        addresses.suppress(ANNA)
    response = client.post("/games", json=form())
    assert response.status_code == 202   # the same answer: nobody learns who is suppressed
    deliver(app)
    assert smtp.messages == []
    assert [m.status for m in outbox_rows(app)] == [SUPPRESSED]


def test_confirm_and_started_helpers_agree_with_the_mail(app, client, smtp):
    """The tests' shortcut (confirm by the signed path) is the very link the mail carries."""
    game_id = client.post("/games", json=form()).get_json()["game"]
    deliver(app)
    link = link_in(smtp.to(ANNA)[-1], CONFIRM)
    with app.app_context():
        assert links.unsign(links.CONFIRM, link.split("/")[-1]) == game_id
    assert confirm(client, game_id) == game_id


# -- declining ------------------------------------------------------------------------------------

def test_an_invited_player_declines_from_his_invitation_and_nobody_wins(app, client, smtp):
    game_id = create(client, first=0)
    deliver(app)
    invite = smtp.to(BOB)[-1]
    link = link_in(invite, re.compile(r"http://pbem\.test(/d/\S+)"))
    page = client.get(link)
    assert page.status_code == 200 and "Decline this game of Babel?" in page.data.decode()
    with app.app_context():
        assert not gamelog.load(game_id).over   # a scanner's GET declines nothing
    declined = client.post(link, data={"confirm": "yes"})
    assert declined.status_code == 303
    with app.app_context():
        loaded = gamelog.load(game_id)
        outcome = loaded.engine.outcome(loaded.state)
        assert (outcome.winner, outcome.winners, outcome.reason) == (None, (), "aborted")
        assert loaded.recent[-1]["why"] == "Bob declined the invitation."
    deliver(app)
    for addr in (ANNA, BOB):
        over = smtp.to(addr)[-1]
        assert "the game is over" in str(over["Subject"])
        assert "Nobody wins (the game was aborted).\nWhy: Bob declined the invitation." in text_of(over)
    record = client.get(f"/games/{game_id}/record").data.decode()
    assert "nobody wins" in record and "Bob declined the invitation." in record
    assert client.post(link, data={"confirm": "yes"}).status_code == 400   # over already


def test_a_player_who_has_played_resigns_instead_of_declining(app, client, smtp):
    game_id = create(client, first=0)
    with app.app_context():
        from pbem.play import turns
        loaded = gamelog.load(game_id)
        text = loaded.engine.random_submission(loaded.state, 0, Rng(1))
        turns.submit(game_id, 0, 0, text, turns.Origin(turns.BOT))
    seat_link = live_seat_link(app, game_id, 0)
    page = client.get(seat_link).data.decode()
    assert "Decline the game" not in page and "Resign" in page
    refused = client.post(seat_link + "/decline", json={"confirm": True})
    assert refused.status_code == 400 and "resign" in refused.get_json()["error"]
    bob = live_seat_link(app, game_id, 1)
    assert "Decline the game" in client.get(bob).data.decode()
