"""The operator's commands (`games ...`, `mail suppressed`, `mail quarantine`, `mail status`) and
the queries behind them (`pbem.play.operations`): states, stalled games, deleting a game.

Commands run through `app.test_cli_runner()`; mail goes to the real SMTP server of the `smtp`
fixture. Where a game must have waited for days, its times are moved back in the database
instead of waiting. Undelivered mail comes from the use cases that make it so in production:
a bounce (`inbox.bounce`) and an address that asked never to be mailed (`addresses.suppress`).
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from pbem.errors import NotFound
from pbem.extensions import db
from pbem.games.rng import Rng
from pbem.mail.bounces import Failure
from pbem.play import addresses, inbox, operations, turns
from pbem.policy import links
from pbem.store import gamelog
from pbem.store.models import Event, Game, Inbound, Mail, Reminder, Seat, SeatNonce, Snapshot
from pbem.store.transaction import transaction
from pbem_web import ANNA, BOB, create, deliver, text_of  # tests/helpers

CAROL, DAVE = "carol@example.org", "dave@example.org"
LINK = re.compile(r"http://pbem\.test(/[ts]/[A-Za-z0-9_.\-]+)")
DAY = timedelta(days=1)

SUMMARY_FIELDS = {"id", "kind", "title", "created", "state", "events", "last_activity", "players",
                  "waiting", "stalled", "result", "deletable"}
DETAIL_FIELDS = SUMMARY_FIELDS | {"options", "time_limit_days", "record_link", "mails"}
ISO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00")


# -- helpers -----------------------------------------------------------------------------

def run(app, *args: str):
    return app.test_cli_runner().invoke(args=list(args))


def ok(app, *args: str) -> str:
    result = run(app, *args)
    assert result.exit_code == 0, result.output
    return result.output


def as_json(app, *args: str):
    return json.loads(ok(app, *args, "--json"))


def play_one(app, game_id: str, seed: int = 1) -> None:
    """One random legal decision by whoever owes one (as a bot would submit it)."""
    with app.app_context():
        loaded = gamelog.load(game_id)
        decision = loaded.engine.to_act(loaded.state)[0]
        text = loaded.engine.random_submission(loaded.state, decision.seat, Rng(seed))
        turns.submit(game_id, decision.seat, loaded.seq, text, turns.Origin(turns.BOT))


def waiting_seat(app, game_id: str) -> int:
    with app.app_context():
        loaded = gamelog.load(game_id)
        return loaded.engine.to_act(loaded.state)[0].seat


def four_games(app, client) -> dict[str, str]:
    """An unstarted game, a running one, one won by resignation and an aborted one."""
    games = {"unstarted": create(client),
             "running": create(client, names=("Carol", "Dave"), emails=(CAROL, DAVE)),
             "resigned": create(client), "aborted": create(client)}
    play_one(app, games["running"])
    with app.app_context():
        turns.resign(games["resigned"], 1)
        turns.abort(games["aborted"], "Testing the server")
    return games


def move_back(app, game_id: str, by: timedelta) -> None:
    """The game was created, and its events written, `by` earlier."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        game.created_at = game.created_at - by
        for event in db.session.scalars(select(Event).where(Event.game_id == game_id)):
            event.created_at = event.created_at - by
        db.session.commit()


def last_mail_to_seat(app, game_id: str, seat: int) -> int:
    with app.app_context():
        return db.session.scalar(select(func.max(Mail.id)).where(Mail.game_id == game_id,
                                                                 Mail.seat == seat))


def rows_about(app, game_id: str) -> dict[str, int]:
    with app.app_context():
        return {model.__tablename__: db.session.scalar(
            select(func.count()).select_from(model).where(column == game_id))
            for model, column in ((Event, Event.game_id), (Snapshot, Snapshot.game_id),
                                  (Reminder, Reminder.game_id), (Mail, Mail.game_id),
                                  (SeatNonce, SeatNonce.game_id), (Seat, Seat.game_id),
                                  (Inbound, Inbound.game_id), (Game, Game.id))}


def unstamped(link: str) -> str:
    """A link without its signature's timestamp and MAC: links signed in different seconds
    for the same thing differ only there."""
    return link.rsplit(".", 2)[0]


def paths(msg) -> dict[str, list[str]]:
    found = LINK.findall(text_of(msg))
    return {"turn": [p for p in found if p.startswith("/t/")],
            "seat": [p for p in found if p.startswith("/s/")]}


# -- games list ---------------------------------------------------------------------------

def test_list_shows_each_game_with_its_players_and_its_state(app, client):
    games = four_games(app, client)
    listed = {g["id"]: g for g in as_json(app, "games", "list")}
    assert set(listed) == set(games.values())
    for game in listed.values():
        assert set(game) == SUMMARY_FIELDS
        assert ISO.fullmatch(game["created"]) and ISO.fullmatch(game["last_activity"])
        assert game["kind"] == "babel" and game["title"] == "Babel"

    unstarted = listed[games["unstarted"]]
    assert unstarted["state"] == "unstarted" and unstarted["events"] == 0
    assert unstarted["players"] == [{"seat": 0, "name": "Anna", "address": ANNA, "bot": None},
                                    {"seat": 1, "name": "Bob", "address": BOB, "bot": None}]
    [wait] = unstarted["waiting"]
    assert (wait["seat"], wait["name"], wait["address"], wait["deadline"]) == (0, "Anna", ANNA, None)
    assert wait["since"] == unstarted["created"]
    assert unstarted["result"] is None and unstarted["stalled"] == [] and unstarted["deletable"]

    running = listed[games["running"]]
    assert running["state"] == "running" and running["events"] == 1 and not running["deletable"]
    assert [w["name"] for w in running["waiting"]] == ["Dave"]

    resigned = listed[games["resigned"]]
    assert resigned["state"] == "finished" and resigned["waiting"] == []
    assert resigned["result"] == {"winners": ["Anna"], "reason": "resigned", "why": None,
                                  "description": resigned["result"]["description"],
                                  "at": resigned["last_activity"],
                                  "ending": "Anna wins: Bob resigned"}
    assert not resigned["deletable"]

    aborted = listed[games["aborted"]]
    assert aborted["result"]["winners"] == [] and aborted["result"]["reason"] == "aborted"
    assert aborted["result"]["why"] == "Testing the server" and aborted["deletable"]

    text = ok(app, "games", "list")
    assert f"{games['unstarted']}  Babel  created " in text
    assert "Anna <anna@example.org>, Bob <bob@example.org>" in text
    assert "unstarted, waiting for Anna <anna@example.org> since " in text
    assert "waiting for Dave <dave@example.org> since " in text
    assert "finished " in text and ": Anna wins: Bob resigned." in text
    assert "nobody wins (the game was aborted). Why: Testing the server" in text


def test_list_filters_waiting_stalled_and_finished(app, client):
    games = four_games(app, client)
    ids = lambda *args: {g["id"] for g in as_json(app, "games", "list", *args)}   # noqa: E731
    assert ids("--waiting") == {games["unstarted"], games["running"]}
    assert ids("--finished") == {games["resigned"], games["aborted"]}
    assert ids("--stalled") == set()
    move_back(app, games["running"], 30 * DAY)
    assert ids("--stalled") == {games["running"]}
    assert ok(app, "games", "list", "--finished").count("finished ") == 2
    both = run(app, "games", "list", "--waiting", "--finished")
    assert both.exit_code == 2 and "one of --waiting, --stalled, --finished" in both.output


def test_the_most_recently_active_game_comes_first(app, client):
    older, newer = create(client), create(client)
    move_back(app, newer, 2 * DAY)
    assert [g["id"] for g in as_json(app, "games", "list")] == [older, newer]
    play_one(app, newer)
    assert [g["id"] for g in as_json(app, "games", "list")] == [newer, older]


@pytest.mark.parametrize("command", [("show",), ("abort", "--why", "x"), ("resend", "1"),
                                     ("set-address", "1", "x@example.org"), ("delete", "--yes")])
def test_a_game_id_that_begins_with_a_dash_is_taken_as_it_is(app, client, command):
    with app.app_context():
        spec = turns.Spec("babel", [("Anna", ANNA), ("Bob", BOB)], {"sumerians": "top-run"}, 0)
        with transaction():
            game = turns._create(turns.checked(spec), game_id="-6Qx_dash")
    result = run(app, "games", command[0], game.id, *command[1:])
    assert result.exit_code == 0, result.output
    assert game.id in result.output


def test_no_games(app):
    assert ok(app, "games", "list") == "no games\n"
    assert ok(app, "games", "list", "--stalled") == "no stalled games\n"
    assert as_json(app, "games", "list") == []


# -- stalled ------------------------------------------------------------------------------

def test_a_game_waiting_for_a_seat_whose_mail_bounced_is_stalled(app, client, smtp):
    game = create(client)
    deliver(app)
    play_one(app, game)      # now Bob owes a decision, and his turn mail is the newest
    deliver(app)
    seat = waiting_seat(app, game)
    assert operations_of(app, game).stalled == ()
    with app.app_context():
        inbox.bounce("k1", "mailer-daemon@example.net", last_mail_to_seat(app, game, seat),
                     Failure(BOB, "5.1.1", "no such user"))
    [stall] = operations_of(app, game).stalled
    assert (stall.seat, stall.name, stall.reason) == (seat, "Bob", "undelivered")
    assert "bounced (5.1.1): no such user" in stall.detail
    assert [g["id"] for g in as_json(app, "games", "list", "--stalled")] == [game]
    assert as_json(app, "games", "list", "--stalled")[0]["stalled"] == [
        {"seat": seat, "name": "Bob", "reason": "undelivered", "detail": stall.detail}]
    assert f"STALLED: {stall.detail}" in ok(app, "games", "list")

    # Mailing him his links again (and their arriving) puts the game back on its feet.
    ok(app, "games", "resend", game, str(seat))
    assert operations_of(app, game).stalled == ()


def test_a_bounce_to_a_seat_not_waited_for_stalls_nothing(app, client, smtp):
    game = create(client)
    deliver(app)
    with app.app_context():      # Bob's invitation bounces; the game waits for Anna
        inbox.bounce("k2", "mailer-daemon@example.net", last_mail_to_seat(app, game, 1),
                     Failure(BOB, "5.1.1", "no such user"))
    assert operations_of(app, game).stalled == ()


def test_a_game_waiting_for_a_suppressed_address_is_stalled(app, client, smtp):
    with app.app_context():
        addresses.suppress(ANNA)
    game = create(client)
    deliver(app)         # Anna's invitation is dropped, not sent
    [stall] = operations_of(app, game).stalled
    assert stall.reason == "undelivered" and "suppressed" in stall.detail


def test_mail_still_being_retried_stalls_nothing(app, client):
    game = create(client)            # undelivered yet: pending
    assert operations_of(app, game).stalled == ()


def test_a_game_without_a_time_limit_is_stalled_after_stalled_after_days(app, client):
    game = create(client)
    now = datetime.now(UTC)
    with app.app_context():
        start = operations.summary(game).created
        assert operations.summary(game, now=start + 14 * DAY - timedelta(seconds=1)).stalled == ()
        [stall] = operations.summary(game, now=start + 14 * DAY).stalled
        assert (stall.reason, stall.detail) == ("idle", "Anna has not played for 14 days")
        app.config["STALLED_AFTER_DAYS"] = 3
        assert operations.summary(game, now=start + 3 * DAY).stalled != ()
        assert operations.summary(game, now=now).stalled == ()


def test_a_game_with_a_time_limit_is_never_idle_its_clock_ends_it(app, client):
    game = create(client, time_limit=7)
    with app.app_context():
        start = operations.summary(game).created
        assert operations.summary(game, now=start + 100 * DAY).stalled == ()
        [wait] = operations.summary(game).waiting
        assert wait.deadline == start + 7 * DAY


def test_a_finished_game_is_never_stalled(app, client):
    game = create(client)
    with app.app_context():
        turns.resign(game, 0)
        assert operations.summary(game, now=datetime.now(UTC) + 100 * DAY).stalled == ()


def operations_of(app, game_id: str):
    with app.app_context():
        return operations.summary(game_id)


# -- games show ---------------------------------------------------------------------------

def test_show_gives_players_their_live_links_and_the_owed_turn_link(app, client, smtp):
    game = create(client, time_limit=5)
    deliver(app)
    detail = as_json(app, "games", "show", game)
    assert set(detail) == DETAIL_FIELDS
    assert detail["options"] == {"sumerians": "top-run"} and detail["time_limit_days"] == 5
    assert detail["record_link"] == f"http://pbem.test/games/{game}/record"
    assert [set(p) for p in detail["players"]] == [{"seat", "name", "address", "bot", "seat_link"}] * 2
    [wait] = detail["waiting"]
    assert set(wait) == {"seat", "name", "address", "since", "deadline", "turn_link"}
    assert ISO.fullmatch(wait["deadline"])
    # The links are the live ones: they open the seat's pages, the turn link can act.
    for player in detail["players"]:
        assert client.get(player["seat_link"].removeprefix("http://pbem.test")).status_code == 200
    turn = client.get(wait["turn_link"].removeprefix("http://pbem.test"),
                      headers={"Accept": "application/json"}).get_json()
    assert turn["can_act"] and turn["seat"] == 0
    assert [(m["kind"], m["to"], m["status"], m["attempts"]) for m in detail["mails"]] == [
        ("invite", ANNA, "sent", 1), ("invite", BOB, "sent", 1)]
    assert set(detail["mails"][0]) == {"id", "kind", "seat", "to", "subject", "status", "attempts",
                                       "created", "sent", "last_error"}

    text = ok(app, "games", "show", game)
    assert text.startswith(f"Game {game}: Babel, Anna vs Bob\n")
    assert "time limit  5 days a turn" in text and "options     sumerians=top-run" in text
    # (Signed again for this run: the same links but for their timestamp.)
    assert f"seat link: {unstamped(detail['players'][1]['seat_link'])}." in text
    assert f"turn link: {unstamped(wait['turn_link'])}." in text
    assert f"#{detail['mails'][0]['id']} invite to {ANNA}, sent, 1 attempt(s)" in text


def test_show_a_finished_game_gives_its_result_and_no_turn_link(app, client):
    game = create(client)
    with app.app_context():
        turns.abort(game, "Anna moved away")
    detail = as_json(app, "games", "show", game)
    assert detail["waiting"] == [] and detail["result"]["why"] == "Anna moved away"
    assert "result      nobody wins (the game was aborted). Why: Anna moved away" in ok(
        app, "games", "show", game)
    assert "turn link" not in ok(app, "games", "show", game)


@pytest.mark.parametrize("command", [("show",), ("abort", "--why", "x"), ("resend", "0"),
                                     ("set-address", "0", "x@example.org"), ("delete",),
                                     ("delete", "--yes")])
def test_an_unknown_game_is_one_line_and_exit_1(app, command):
    result = run(app, "games", command[0], "nosuchgame", *command[1:])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [result.output.strip()]
    assert "no such game" in result.output.lower() or "no game nosuchgame" in result.output


# -- abort ----------------------------------------------------------------------------------

def test_abort_ends_the_game_with_no_winner_and_mails_every_player_why(app, client, smtp):
    game = create(client)
    play_one(app, game)
    assert ok(app, "games", "abort", game, "--why", "  The club closed.  ") == (
        f"Game {game} is aborted; its players are mailed why.\n")
    with app.app_context():
        loaded = gamelog.load(game)
        outcome = loaded.engine.outcome(loaded.state)
        assert (outcome.winner, outcome.winners, outcome.reason) == (None, (), "aborted")
        last = loaded.recent[-1]
        assert (last["type"], last["seat"], last["why"]) == ("abort", None, "The club closed.")
    deliver(app)
    for address, _name in ((ANNA, "Anna"), (BOB, "Bob")):
        mail = smtp.to(address)[-1]
        assert "the game is over" in mail["Subject"]
        assert "Nobody wins (the game was aborted)." in text_of(mail)
        assert "Why: The club closed." in text_of(mail)
        assert "draw" not in text_of(mail)
    again = run(app, "games", "abort", game, "--why", "twice")
    assert again.exit_code == 1 and "already over" in again.output


@pytest.mark.parametrize("why", [None, "", "   "])
def test_abort_needs_a_reason(app, client, why):
    game = create(client)
    result = run(app, "games", "abort", game, *(() if why is None else ("--why", why)))
    assert result.exit_code == 2
    assert operations_of(app, game).state == "unstarted"


# -- set-address and resend -----------------------------------------------------------------

TYPO = "anna@exampel.org"
DECLINE = re.compile(r"http://pbem\.test(/d/[A-Za-z0-9_.\-]+)")


def a_turn(app, game_id: str, seat: int) -> str:
    """A legal whole turn for the seat that owes one."""
    with app.app_context():
        loaded = gamelog.load(game_id)
        return loaded.engine.random_submission(loaded.state, seat, Rng(3))


def log_length(app, game_id: str) -> int:
    with app.app_context():
        return gamelog.load(game_id).seq


def test_set_address_mails_the_invitation_and_kills_every_old_link_turn_links_too(app, client, smtp):
    game = create(client, emails=(TYPO, BOB))      # a typo at creation; Anna starts
    deliver(app)
    [misdirected] = smtp.to(TYPO)
    old, old_decline = paths(misdirected), DECLINE.findall(text_of(misdirected))
    assert old["turn"] and old["seat"] and old_decline
    assert ok(app, "games", "set-address", game, "0", " Anna@Example.org ") == (
        f"Seat 0 of game {game} now plays from {ANNA}; the old links no longer work, "
        "and the game is mailed there.\n")
    deliver(app)
    [mail] = smtp.to(ANNA)
    text = text_of(mail)
    # A real invitation: the game, his hand, the decline link, the seat and turn links.
    assert "your turn" in mail["Subject"] and "new links" not in mail["Subject"]
    assert "you are invited to a game of Babel with Bob" in text and "You start" in text
    assert "The game as you see it:" in text
    new, decline = paths(mail), DECLINE.findall(text)
    assert new["turn"] and new["seat"] and decline
    # Whoever reads the old address can no longer play the seat, nor see it, nor decline it.
    before = log_length(app, game)
    stolen = client.post(old["turn"][0], json={"steps": a_turn(app, game, 0)})
    assert stolen.status_code == 410, stolen.data
    assert log_length(app, game) == before
    for path in (old["turn"][0], old["seat"][0], old_decline[0]):
        assert client.get(path).status_code == 410, path
    assert client.post(old_decline[0], data={"confirm": "yes"}).status_code == 410
    assert operations_of(app, game).state == "unstarted"
    # The new address plays.
    assert client.get(decline[0]).status_code == 200 and client.get(new["seat"][0]).status_code == 200
    played = client.post(new["turn"][0], json={"steps": a_turn(app, game, 0)})
    assert played.status_code == 200, played.data
    assert log_length(app, game) > before
    assert as_json(app, "games", "show", game)["players"][0]["address"] == ANNA
    assert len(smtp.to(TYPO)) == 1       # the old address hears nothing more


def test_replaced_links_kill_the_turn_link_too(app, client, smtp):
    """A player whose links leaked replaces them: his old turn link dies with his seat link."""
    game = create(client)
    deliver(app)
    old = paths(smtp.to(ANNA)[-1])
    with app.app_context():
        addresses.replace_links(links.sign(links.REPLACE, [game, 0, gamelog.current_nonce(game, 0)]))
    assert client.post(old["turn"][0], json={"steps": a_turn(app, game, 0)}).status_code == 410
    assert log_length(app, game) == 0
    deliver(app)
    assert client.get(paths(smtp.to(ANNA)[-1])["turn"][0]).status_code == 200


def test_a_turn_link_from_before_it_carried_the_nonce_lives_until_the_seat_link_is_replaced(app, client):
    game = create(client)
    with app.app_context():
        legacy = links.path(links.TURN, game, 0, 0)     # [game, seat, seq]: no nonce
        assert links.read(links.TURN, legacy[3:]).nonce is None
    assert client.get(legacy).status_code == 200
    ok(app, "games", "set-address", game, "0", CAROL)
    assert client.get(legacy).status_code == 410
    assert client.post(legacy, json={"steps": a_turn(app, game, 0)}).status_code == 410


def test_set_address_after_the_seat_played_mails_its_turn_or_its_links(app, client, smtp):
    game = create(client, emails=("ana@example.org", "bbo@example.org"))
    play_one(app, game)                   # Anna played: Bob owes his first decision
    ok(app, "games", "set-address", game, "1", BOB)
    deliver(app)
    [invited] = smtp.to(BOB)              # he may still decline: the invitation
    assert "you are invited to a game of Babel" in text_of(invited)
    assert paths(invited)["turn"] and DECLINE.findall(text_of(invited))
    play_one(app, game, seed=2)           # Bob played: Anna owes again
    assert waiting_seat(app, game) == 0
    ok(app, "games", "set-address", game, "0", ANNA)
    deliver(app)
    [turn] = smtp.to(ANNA)
    assert "your turn, Anna" in turn["Subject"] and paths(turn)["turn"]
    assert not DECLINE.findall(text_of(turn))
    ok(app, "games", "set-address", game, "1", CAROL)   # Bob has played and owes nothing
    deliver(app)
    [links_mail] = smtp.to(CAROL)
    assert "your links" in links_mail["Subject"] and "new links" not in links_mail["Subject"]
    assert paths(links_mail)["seat"] and not paths(links_mail)["turn"]


@pytest.mark.parametrize("args, code, words", [
    (("1", "not-an-address"), 2, "is not a mail address"),
    (("-1", BOB), 2, "Invalid value for 'SEAT'"),
    (("x", BOB), 2, "Invalid value"),
    (("2", BOB), 1, "has no seat 2"),
])
def test_set_address_refusals(app, client, args, code, words):
    game = create(client)
    result = run(app, "games", "set-address", game, *args)
    assert result.exit_code == code and words in result.output
    assert [p["address"] for p in as_json(app, "games", "show", game)["players"]] == [ANNA, BOB]


def test_resend_mails_the_seat_its_turn_again_and_invalidates_nothing(app, client, smtp):
    game = create(client)
    deliver(app)
    invitation = paths(smtp.to(ANNA)[-1])
    assert ok(app, "games", "resend", game, "0") == f"Seat 0 of game {game} is mailed again.\n"
    deliver(app)
    mail = smtp.to(ANNA)[-1]
    assert "your turn, Anna" in mail["Subject"]
    again = paths(mail)
    # The same links (signed again: only their timestamps differ), and the old ones still work.
    assert [unstamped(p) for p in again["seat"]] == [unstamped(p) for p in invitation["seat"]]
    assert [unstamped(p) for p in again["turn"]] == [unstamped(p) for p in invitation["turn"]]
    assert client.get(invitation["seat"][0]).status_code == 200
    assert client.get(invitation["turn"][0]).status_code == 200
    ok(app, "games", "resend", game, "1")     # Bob owes nothing: his links
    deliver(app)
    assert "your links" in smtp.to(BOB)[-1]["Subject"]
    missing = run(app, "games", "resend", game, "2")
    assert missing.exit_code == 1 and "has no seat 2" in missing.output


def test_resend_sends_a_turn_mail_held_for_the_digest_now(app, client, smtp):
    from pbem.players import settings
    with app.app_context():
        settings.change(BOB, "UTC", "en", settings.DIGEST, False)
    game = create(client)
    play_one(app, game)       # Bob's turn mail is held for his daily digest
    deliver(app)
    assert [m["Subject"] for m in smtp.to(BOB)] == ["Babel with Anna: you are invited"]
    ok(app, "games", "resend", game, "1")
    deliver(app)
    mail = smtp.to(BOB)[-1]
    assert "your turn, Bob" in mail["Subject"] and paths(mail)["turn"]


def test_resend_to_a_suppressed_address_is_refused_until_it_is_cleared(app, client, smtp):
    game = create(client)
    with app.app_context():
        addresses.suppress(ANNA)
    deliver(app)
    assert smtp.to(ANNA) == []                 # the invitation was dropped
    refused = run(app, "games", "resend", game, "0")
    assert refused.exit_code == 1 and "asked never to be mailed" in refused.output
    ok(app, "mail", "suppressed", "--clear", ANNA)
    ok(app, "games", "resend", game, "0")
    deliver(app)
    [mail] = smtp.to(ANNA)
    assert "your turn, Anna" in mail["Subject"] and paths(mail)["turn"]


# -- delete -----------------------------------------------------------------------------------

def test_delete_without_yes_shows_what_it_would_delete_and_deletes_nothing(app, client):
    game = create(client)
    before = rows_about(app, game)
    result = run(app, "games", "delete", game)
    assert result.exit_code == 1
    assert result.output == (f"Would delete game {game}: events: 0, snapshots: 0, reminders: 0, "
                             "game_results: 0, rematches: 0, "
                             "takeovers: 0, notices: 0, channels: 0, mails: 2, seat_nonces: 2, seats: 2, "
                             "inbound: 0, "
                             "messages: 0, message_marks: 0, notes: 0, clocks: 0, dues: 1, league_games: 0, "
                             "games: 1.\n"
                             "Nothing was deleted: run again with --yes to delete it.\n")
    assert rows_about(app, game) == before


def test_delete_removes_an_aborted_game_from_every_table(app, client, smtp):
    game, other = create(client), create(client)
    deliver(app)
    play_one(app, game)
    with app.app_context():
        inbox.record("a-reply", ANNA, "refused", game)           # an inbound row about it
        db.session.add(Reminder(game_id=game, seat=1, seq=1, kind="waiting"))
        db.session.add(Snapshot(game_id=game, seq=1, rules=1, state={}))
        db.session.commit()
        turns.abort(game, "a test")
    kept = rows_about(app, other)
    assert all(rows_about(app, game).values())
    assert ok(app, "games", "delete", game, "--yes").startswith(f"Deleted game {game}: events: 2, ")
    assert set(rows_about(app, game).values()) == {0}
    assert rows_about(app, other) == kept
    assert all(g["id"] != game for g in as_json(app, "games", "list"))
    gone = run(app, "games", "show", game)
    assert gone.exit_code == 1


def test_delete_refuses_a_game_that_was_played_and_not_aborted(app, client):
    running, resigned = create(client), create(client)
    play_one(app, running)
    with app.app_context():
        turns.resign(resigned, 0)
    for game in (running, resigned):
        before = rows_about(app, game)
        for args in ((), ("--yes",)):
            result = run(app, "games", "delete", game, *args)
            assert result.exit_code == 1
            assert "only unstarted or aborted games may be deleted" in result.output
        assert rows_about(app, game) == before


def test_delete_drops_the_games_unsent_mail(app, client, smtp):
    game = create(client)                              # its invitations are still queued
    ok(app, "games", "delete", game, "--yes")
    assert deliver(app).sent == 0 and smtp.messages == []


# -- a deleted game in other processes' replay caches -----------------------------------------------

@pytest.mark.parametrize("aborted", [False, True], ids=["unstarted", "aborted"])
def test_a_game_deleted_by_one_process_is_gone_in_another_that_had_it_cached(make_app, aborted):
    web, operator = make_app(), make_app()        # two processes on one database
    client = web.test_client()
    game = create(client)
    if aborted:
        with web.app_context():
            turns.abort(game, "a test")
    with web.app_context():
        seat = links.path(links.SEAT, game, 0, gamelog.current_nonce(game, 0))
        turn = links.path(links.TURN, game, 0, gamelog.load(game).seq)
        assert gamelog.load(game).id == game          # cached in `web`
    assert client.get(seat).status_code == 200
    assert ok(operator, "games", "delete", game, "--yes").startswith(f"Deleted game {game}")
    with web.app_context():
        assert web.extensions["pbem.replay_cache"].get(game) is not None   # still cached there
        with pytest.raises(NotFound):
            gamelog.load(game)
    assert client.get(seat).status_code == 404
    assert client.get(turn).status_code == 404
    assert client.post(turn, data={"steps": "x", "action": "submit"}).status_code == 404
    with web.app_context():
        assert db.session.scalar(select(func.count()).select_from(Event)) == 0


def test_a_cached_game_without_events_is_still_served_while_it_exists(make_app):
    app = make_app()
    game = create(app.test_client())
    with app.app_context():
        gamelog.load(game)
        assert gamelog.load(game).seq == 0


# -- mail: status, suppressed, quarantine --------------------------------------------------------

def test_mail_status_counts_suppressed_mail(app, client, smtp):
    with app.app_context():
        addresses.suppress(BOB)
    create(client)
    deliver(app)
    assert ok(app, "mail", "status") == "0 pending, 1 sent, 0 failed, 1 suppressed\n"


def test_mail_suppressed_lists_and_clears_the_suppression_list(app):
    assert ok(app, "mail", "suppressed") == "no suppressed addresses\n"
    with app.app_context():
        addresses.suppress(ANNA)
        addresses.suppress(BOB, addresses.BY_OPERATOR)
    listed = as_json(app, "mail", "suppressed")
    assert [(s["address"], s["reason"]) for s in listed] == [(ANNA, "unsubscribed"), (BOB, "operator")]
    assert all(set(s) == {"address", "reason", "since"} and ISO.fullmatch(s["since"]) for s in listed)
    assert re.fullmatch(r"anna@example\.org  unsubscribed  since \d{4}-\d\d-\d\d \d\d:\d\d UTC",
                        ok(app, "mail", "suppressed").splitlines()[0])
    assert ok(app, "mail", "suppressed", "--clear", "Anna@Example.org") == f"{ANNA} is mailed again.\n"
    assert [s["address"] for s in as_json(app, "mail", "suppressed")] == [BOB]
    again = run(app, "mail", "suppressed", "--clear", ANNA)
    assert again.exit_code == 1 and again.output == f"Error: {ANNA} is not on the suppression list.\n"


def test_mail_quarantine_lists_and_shows_what_could_not_be_read(app):
    assert ok(app, "mail", "quarantine") == "no quarantined mail\n"
    raw = b"From: someone@example.net\r\nSubject: huge\r\n\r\n" + b"\xff" * 100
    with app.app_context():
        first = inbox.quarantine(raw, "too large", "someone@example.net", "huge").id
        second = inbox.quarantine(b"garbage", "unreadable").id
    listed = as_json(app, "mail", "quarantine")
    assert [q["id"] for q in listed] == [second, first]
    assert listed[1] == {"id": first, "received": listed[1]["received"], "sender": "someone@example.net",
                         "subject": "huge", "size": len(raw), "kept": len(raw), "reason": "too large"}
    assert ISO.fullmatch(listed[1]["received"])
    lines = ok(app, "mail", "quarantine").splitlines()
    assert lines[1].startswith(f"#{first}  ") and lines[1].endswith(
        f"{len(raw)} bytes  from someone@example.net  'huge': too large")
    shown = app.test_cli_runner().invoke(args=["mail", "quarantine", "--show", str(first)])
    assert shown.exit_code == 0 and shown.stdout_bytes == raw
    missing = run(app, "mail", "quarantine", "--show", "999")
    assert missing.exit_code == 1 and "no quarantined message 999" in missing.output


def test_mail_that_cannot_be_parsed_is_quarantined_with_its_sender_and_subject(make_app):
    """A message too large, or nested too deeply, to parse: its header block still names who
    sent it and what about, which is what the operator reads first."""
    app = make_app(INGEST_MAX_BYTES=2000)
    large = (b"From: Carol <carol@example.org>\r\nSubject: =?utf-8?q?M=C3=BCnze?= and\r\n more\r\n"
             b"\r\n" + b"x" * 3000)
    deep = (b"From: dave@example.org\r\nSubject: deep\r\n"
            + b"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n" * 300)
    for raw in (large, deep):
        result = app.test_cli_runner().invoke(args=["ingest"], input=raw)
        assert result.exit_code == 0 and "quarantined" in result.output, result.output
    listed = as_json(app, "mail", "quarantine")
    assert [(q["sender"], q["subject"]) for q in listed] == [
        ("dave@example.org", "deep"), ("carol@example.org", "Münze and more")]
    lines = ok(app, "mail", "quarantine").splitlines()
    assert "from carol@example.org  'Münze and more'" in lines[1]
