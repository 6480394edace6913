"""Reminders, digests and time limits under a controllable clock.

Nothing sleeps. `pbem.jobs.reminders.run(now)` (or `flask remind --now ISO`) is told what time it
is; where a test needs a game to have started at a given moment, it moves the game's own times
(its creation and its events) instead of waiting. Games are read back for their exact start,
so the boundaries are tested to the second. Mail goes through the real SMTP server of the
`smtp` fixture.

Settings by default: REMIND_AFTER_HOURS 48, REMIND_BEFORE_HOURS 24, DIGEST_INTERVAL_HOURS 24.
"""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta, timezone
from functools import cache

import pytest
from sqlalchemy import func, select

from pbem.extensions import db
from pbem.games.babel.game import GAME
from pbem.games.rng import Rng
from pbem.jobs import reminders
from pbem.mail import notify
from pbem.play import turns
from pbem.policy import deadlines
from pbem.store import gamelog
from pbem.store.models import Event, Game, Mail, Reminder
from pbem.store.transaction import transaction
from pbem_web import (  # tests/helpers
    create,
    create_by_form,
    deliver,
    html_of,
    seat_path,
    started,
    text_of,
    turn_path,
)

ANNA, BOB, CAROL, DAVE, EVE = (f"{n}@example.org" for n in ("anna", "bob", "carol", "dave", "eve"))
LINK = re.compile(r"http://pbem\.test(/[ts]/[A-Za-z0-9_.\-]+)")
JSON = {"Accept": "application/json"}
HOUR, DAY, SECOND = timedelta(hours=1), timedelta(days=1), timedelta(seconds=1)


# -- helpers -----------------------------------------------------------------------

def turn_links(msg) -> list[str]:
    return [p for p in LINK.findall(text_of(msg)) if p.startswith("/t/")]


def utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


def stamp(moment: datetime) -> str:
    """A moment as mails and pages write it for a player without a time zone (then " UTC")."""
    return utc(moment).strftime("%a %d %b %Y, %H:%M")


def json_stamp(moment: datetime) -> str:
    """A moment as the JSON API writes it (always UTC)."""
    return utc(moment).strftime("%Y-%m-%d %H:%M UTC")


def on_page(moment: datetime) -> str:
    """A deadline as a page writes it: in UTC, marked for the browser to add its local time."""
    iso = utc(moment).strftime("%Y-%m-%dT%H:%MZ")
    return f'<time class="local" datetime="{iso}">{stamp(moment)} UTC</time>'


def start_of(app, game: str) -> datetime:
    with app.app_context():
        return utc(db.session.get(Game, game).created_at)


def last_event_at(app, game: str) -> datetime:
    with app.app_context():
        return utc(db.session.scalars(select(Event.created_at).where(Event.game_id == game)
                                      .order_by(Event.seq.desc())).first())


def move_game(app, game: str, by: timedelta) -> None:
    """Move the game's clock: its creation and every event happened `by` later (or earlier)."""
    with app.app_context():
        row = db.session.get(Game, game)
        row.created_at = utc(row.created_at) + by
        for event in db.session.scalars(select(Event).where(Event.game_id == game)):
            event.created_at = utc(event.created_at) + by
        db.session.commit()


def start_at(app, game: str, moment: datetime) -> None:
    move_game(app, game, moment - start_of(app, game))


def remind(app, now: datetime):
    with app.app_context():
        return reminders.run(now)


def reminder_mails(app, smtp, addr: str) -> list:
    deliver(app)
    return [m for m in smtp.to(addr) if m["Subject"].startswith("Reminder:")]


def over_mails(app, smtp, addr: str) -> list:
    deliver(app)
    return [m for m in smtp.to(addr) if m["Subject"].endswith("the game is over")]


def loaded(app, game: str):
    with app.app_context():
        loaded = gamelog.load(game)
        _ = loaded.events   # read the log now: it is read lazily, inside the app
        return loaded




def play(app, client, game: str, rng: Rng) -> int:
    """The seat to act submits a random legal decision through its turn link; returns the seat."""
    game_now = loaded(app, game)
    [decision] = game_now.engine.to_act(game_now.state)
    text = game_now.engine.random_submission(game_now.state, decision.seat, rng)
    response = client.post(turn_path(app, game, decision.seat), json={"steps": text})
    assert response.status_code == 200, response.get_json()
    return decision.seat


def mail_count(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Mail))


# -- the first reminder, and not again -------------------------------------------------

def test_no_reminder_before_remind_after_hours_then_exactly_one(app, client, smtp):
    assert app.config["REMIND_AFTER_HOURS"] == 48
    game = create(client, first=0)
    start = start_of(app, game)
    deliver(app)
    smtp.clear()
    for moment in (start, start + 24 * HOUR, start + 48 * HOUR - SECOND):
        report = remind(app, moment)
        assert report.reminded == [] and report.timeouts == []
    assert reminder_mails(app, smtp, ANNA) == []
    report = remind(app, start + 48 * HOUR)
    assert report.reminded == [ANNA]
    [mail] = reminder_mails(app, smtp, ANNA)
    assert mail["Subject"] == "Reminder: your turn in Babel with Bob"
    text = text_of(mail)
    assert "Hello Anna," in text and "a game waits for your turn:" in text
    assert "Babel with Bob: waiting 2 days\n" in text and "time runs out" not in text
    [link] = turn_links(mail)
    data = client.get(link, headers=JSON).get_json()
    assert (data["game"], data["seat"], data["can_act"]) == (game, 0, True)
    # Bob owes nothing: nothing for him. And Anna is not reminded again for this decision,
    # however long she waits (the game has no time limit: no second reminder either).
    for moment in (start + 49 * HOUR, start + 5 * DAY, start + 60 * DAY):
        assert remind(app, moment).reminded == []
    assert len(reminder_mails(app, smtp, ANNA)) == 1
    assert [m for m in smtp.messages if BOB in m[0]] == []
    with app.app_context():
        assert db.session.scalars(select(Reminder.kind)).all() == ["waiting"]


def test_the_next_decision_is_reminded_afresh(app, client, smtp):
    game = create(client, first=0)
    start = start_of(app, game)
    assert remind(app, start + 48 * HOUR).reminded == [ANNA]
    play(app, client, game, Rng(5))                       # Anna plays: now Bob waits
    bob_since = last_event_at(app, game)
    assert remind(app, bob_since + 48 * HOUR - SECOND).reminded == []
    assert remind(app, bob_since + 48 * HOUR).reminded == [BOB]
    [mail] = reminder_mails(app, smtp, BOB)
    assert mail["Subject"] == "Reminder: your turn in Babel with Anna"
    data = client.get(turn_links(mail)[0], headers=JSON).get_json()
    assert (data["seat"], data["seq"], data["can_act"]) == (1, 1, True)
    play(app, client, game, Rng(6))                       # Bob plays: Anna waits again
    anna_since = last_event_at(app, game)
    assert remind(app, anna_since + 47 * HOUR).reminded == []
    # Due at 48 hours, but Anna had a digest at 48 hours after the start: a day after that.
    assert anna_since + 48 * HOUR < start + 72 * HOUR
    assert remind(app, anna_since + 48 * HOUR).reminded == []
    assert remind(app, start + 72 * HOUR - SECOND).reminded == []
    assert remind(app, start + 72 * HOUR).reminded == [ANNA]
    assert len(reminder_mails(app, smtp, ANNA)) == 2
    assert len(reminder_mails(app, smtp, BOB)) == 1


def test_the_waiting_period_is_a_setting(app, client, smtp):
    app.config["REMIND_AFTER_HOURS"] = 6
    game = create(client, first=0)
    start = start_of(app, game)
    assert remind(app, start + 6 * HOUR - SECOND).reminded == []
    assert remind(app, start + 6 * HOUR).reminded == [ANNA]
    assert "waiting 6 hours" in text_of(reminder_mails(app, smtp, ANNA)[0])


def test_the_remind_command_takes_the_time_from_now(app, client, smtp):
    game = create(client, first=0, time_limit=4)
    start = start_of(app, game)
    runner = app.test_cli_runner()
    result = runner.invoke(args=["remind", "--now", (start + 47 * HOUR).isoformat()])
    assert result.exit_code == 0, result.output
    assert result.output == "timeouts 0, reminders 0\n"
    # Any UTC offset is the same moment; a time without one is UTC.
    berlin = timezone(timedelta(hours=2))
    result = runner.invoke(args=["remind", "--now", (start + 48 * HOUR).astimezone(berlin).isoformat()])
    assert result.output == "timeouts 0, reminders 1\n"
    # The deadline reminder is due at 72 hours, exactly a digest interval after the first.
    naive = (start + 72 * HOUR - SECOND).replace(tzinfo=None).isoformat()
    assert runner.invoke(args=["remind", "--now", naive]).output == "timeouts 0, reminders 0\n"
    naive = (start + 72 * HOUR).replace(tzinfo=None).isoformat()
    assert runner.invoke(args=["remind", "--now", naive]).output == "timeouts 0, reminders 1\n"
    result = runner.invoke(args=["remind", "--now", (start + 4 * DAY).isoformat()])
    assert result.output == "timeouts 1, reminders 0\n"
    mails = reminder_mails(app, smtp, ANNA)
    assert len(mails) == 2
    assert f"Your time runs out {stamp(start + 4 * DAY)} UTC\n" in text_of(mails[1])
    assert len(over_mails(app, smtp, ANNA)) == len(over_mails(app, smtp, BOB)) == 1
    assert runner.invoke(args=["remind", "--now", "yesterday"]).exit_code != 0


# -- the reminder before the deadline ---------------------------------------------------

def test_a_second_reminder_before_the_deadline(app, client, smtp):
    assert app.config["REMIND_BEFORE_HOURS"] == 24
    game = create(client, first=0, time_limit=7)
    start = start_of(app, game)
    deadline = start + 7 * DAY
    assert remind(app, start + 48 * HOUR).reminded == [ANNA]
    [first] = reminder_mails(app, smtp, ANNA)
    assert (f"Babel with Bob: waiting 2 days\n  Your time runs out {stamp(deadline)} UTC\n"
            in text_of(first))
    assert f"your time runs out {stamp(deadline)} UTC" in html.unescape(html_of(first))
    for moment in (start + 3 * DAY, start + 5 * DAY, deadline - 24 * HOUR - SECOND):
        assert remind(app, moment).reminded == []
    report = remind(app, deadline - 24 * HOUR)
    assert report.reminded == [ANNA] and report.timeouts == []
    second = reminder_mails(app, smtp, ANNA)[1]
    assert second["Subject"] == "Reminder: your turn in Babel with Bob"
    assert f"waiting 6 days\n  Your time runs out {stamp(deadline)} UTC\n" in text_of(second)
    assert client.get(turn_links(second)[0], headers=JSON).get_json()["can_act"] is True
    # Not a third time, up to the deadline.
    for moment in (deadline - 12 * HOUR, deadline - SECOND):
        assert remind(app, moment).reminded == []
    assert len(reminder_mails(app, smtp, ANNA)) == 2
    with app.app_context():
        assert sorted(db.session.scalars(select(Reminder.kind))) == ["deadline", "waiting"]


def test_a_limit_shorter_than_the_reminder_periods_still_warns_once_before_time_is_up(app, client, smtp):
    game = create(client, first=0, time_limit=1)
    start = start_of(app, game)
    assert remind(app, start).reminded == [ANNA]          # within 24 hours of the deadline at once
    [mail] = reminder_mails(app, smtp, ANNA)
    assert f"waiting 0 hours\n  Your time runs out {stamp(start + DAY)} UTC\n" in text_of(mail)
    report = remind(app, start + DAY - SECOND)            # nothing more before time is up
    assert report.reminded == [] and report.timeouts == []
    report = remind(app, start + DAY)
    assert report.timeouts == [game] and report.reminded == []
    assert len(reminder_mails(app, smtp, ANNA)) == 1


# -- digests ----------------------------------------------------------------------------

def test_one_digest_for_several_games_most_urgent_first_at_most_one_a_day(app, client, smtp):
    assert app.config["DIGEST_INTERVAL_HOURS"] == 24
    bob = create(client, names=("Anna", "Bob"), emails=(ANNA, BOB))
    carol = create(client, names=("Anna", "Carol"), emails=(ANNA, CAROL), time_limit=7)
    dave = create(client, names=("Anna", "Dave"), emails=(ANNA, DAVE), time_limit=4)
    eve = create(client, names=("Anna", "Eve"), emails=(ANNA, EVE))
    carols_turn = create(client, names=("Carol", "Anna"), emails=(CAROL, ANNA), first=0)
    start = start_of(app, bob)
    for game in (carol, dave):
        start_at(app, game, start)
    # Carol's turn a second before: the first game against Carol, so Anna's is "game 2".
    start_at(app, carols_turn, start - SECOND)
    start_at(app, eve, start + 12 * HOUR)                 # Anna waits in Eve's game 12 hours less
    deliver(app)
    smtp.clear()

    assert remind(app, start + 48 * HOUR - 2 * SECOND).reminded == []
    report = remind(app, start + 48 * HOUR)
    assert sorted(report.reminded) == [ANNA, CAROL]       # one digest per address
    [digest] = reminder_mails(app, smtp, ANNA)
    assert digest["Subject"] == "Reminder: 3 games wait for your turn"
    text = text_of(digest)
    assert "3 games wait for your turn, most urgent first:" in text
    order = [text.index(f"Babel with {name}:") for name in ("Dave", "Carol (game 2)", "Bob")]
    assert order == sorted(order)                         # soonest deadline first, no limit last
    assert "Babel with Eve" not in text                   # not due yet
    assert f"Babel with Dave: waiting 2 days\n  Your time runs out {stamp(start + 4 * DAY)}" in text
    assert f"Babel with Carol (game 2): waiting 2 days\n  Your time runs out {stamp(start + 7 * DAY)}" in text
    assert "Babel with Bob: waiting 2 days\n" in text
    games_linked = [client.get(p, headers=JSON).get_json() for p in turn_links(digest)]
    assert [(d["game"], d["seat"], d["can_act"]) for d in games_linked] == \
        [(dave, 0, True), (carol, 0, True), (bob, 0, True)]
    html_text = html.unescape(html_of(digest))
    assert html_text.index("with Dave") < html_text.index("with Carol") < html_text.index("with Bob")
    [carols] = reminder_mails(app, smtp, CAROL)           # Carol's own, for her own game only
    # (her second game with Anna: the first, `carol`, waits for Anna)
    assert carols["Subject"] == "Reminder: your turn in Babel with Anna"   # her first with Anna
    assert [client.get(p, headers=JSON).get_json()["game"] for p in turn_links(carols)] == [carols_turn]
    for addr in (BOB, DAVE, EVE):
        assert reminder_mails(app, smtp, addr) == []

    # Eve's game is due 12 hours later, Dave's deadline reminder 24 hours later: they wait for
    # the next digest, a day after the first.
    for moment in (start + 60 * HOUR, start + 71 * HOUR, start + 72 * HOUR - SECOND):
        assert remind(app, moment).reminded == []
    assert len(reminder_mails(app, smtp, ANNA)) == 1
    assert remind(app, start + 72 * HOUR).reminded == [ANNA]
    second = reminder_mails(app, smtp, ANNA)[1]
    assert second["Subject"] == "Reminder: 2 games wait for your turn"
    text = text_of(second)
    assert text.index("Babel with Dave:") < text.index("Babel with Eve:")
    assert "Babel with Eve: waiting 2 days 12 hours\n" in text
    assert "with Carol" not in text and "with Bob" not in text
    assert remind(app, start + 73 * HOUR).reminded == []

    # Dave's game times out at 4 days; Carol's deadline reminder is due at 6 days, alone.
    report = remind(app, start + 6 * DAY)
    assert report.timeouts == [dave] and report.reminded == [ANNA]
    third = reminder_mails(app, smtp, ANNA)[2]
    assert third["Subject"] == "Reminder: your turn in Babel with Carol (game 2)"
    assert "with Dave" not in text_of(third)
    assert len(reminder_mails(app, smtp, CAROL)) == 1


# -- owed discards and the turn after them are one turn ---------------------------------------

@cache
def first_discard() -> tuple[int, tuple, int, str]:
    """A seed whose game (Anna first, random play) reaches owed halving discards: the events
    before them, the discarding seat and a legal discard."""
    for seed in range(1, 500):
        state = GAME.start(seed, {"sumerians": "top-run"}, 2, 0)
        rng, events = Rng(seed), []
        while GAME.outcome(state) is None and len(events) < 100:
            [decision] = GAME.to_act(state)
            text = GAME.random_submission(state, decision.seat, rng)
            if decision.kind == "discard" and events and events[-1]["seat"] != decision.seat:
                return seed, tuple(events), decision.seat, text
            event = GAME.decide(state, decision.seat, text)
            state = GAME.apply(state, event)
            events.append(event)
    raise AssertionError("no game with owed discards among the searched seeds")


def game_at_discards(app, time_limit: int | None) -> tuple[str, int, str]:
    """A game (seeded) played up to a seat's owed discards; returns it, that seat and a discard."""
    seed, events, seat, discard = first_discard()
    with app.app_context():
        game = turns.create_game(turns.Spec("babel", [("Anna", ANNA), ("Bob", BOB)],
                                            {"sumerians": "top-run"}, 0, time_limit, seed))
        for event in events:   # the game's events as they were played (the deal's seed decides)
            with transaction():
                game = gamelog.append(game, event)
                notify.event_appended(game, None)
        [decision] = game.engine.to_act(game.state)
        assert (decision.seat, decision.kind) == (seat, "discard")
        return game.id, seat, discard


def discard(app, client, game: str, seat: int, text: str) -> None:
    response = client.post(turn_path(app, game, seat), json={"steps": text})
    assert response.status_code == 200, response.get_json()
    after = loaded(app, game)
    assert after.events[-1]["type"] == "discard"
    assert after.decision_of(seat).kind == "turn"                # the same seat goes on with its turn


def test_discarding_does_not_restart_the_clock(app, client, smtp):
    game, seat, text = game_at_discards(app, time_limit=None)
    addr = (ANNA, BOB)[seat]
    move_game(app, game, -47 * HOUR)                      # the opponent's turn ended 47 hours ago
    began = last_event_at(app, game)
    discard(app, client, game, seat, text)                # ... and the discards are made now
    assert last_event_at(app, game) - began > 46 * HOUR
    assert remind(app, began + 48 * HOUR - SECOND).reminded == []
    assert remind(app, began + 48 * HOUR).reminded == [addr]   # 48 hours since the turn began
    [mail] = reminder_mails(app, smtp, addr)
    assert "waiting 2 days" in text_of(mail)
    data = client.get(turn_links(mail)[0], headers=JSON).get_json()
    assert data["can_act"] is True and data["decision"]["kind"] == "turn"


def test_discards_and_the_turn_after_them_are_reminded_and_timed_as_one_turn(app, client, smtp):
    game, seat, text = game_at_discards(app, time_limit=7)
    addr = (ANNA, BOB)[seat]
    move_game(app, game, -49 * HOUR)
    began = last_event_at(app, game)
    assert remind(app, began + 49 * HOUR).reminded == [addr]   # reminded while he owes discards
    [mail] = reminder_mails(app, smtp, addr)
    assert client.get(turn_links(mail)[0], headers=JSON).get_json()["decision"]["kind"] == "discard"
    discard(app, client, game, seat, text)
    # His deadline is still a week after his turn began, on the pages too.
    with app.app_context():
        assert deadlines.deadline(gamelog.load(game), seat) == began + 7 * DAY
    page = client.get(turn_path(app, game, seat)).data.decode()
    assert f"runs out on <strong>{on_page(began + 7 * DAY)}</strong>" in page
    # Not reminded again for the same turn, though the discards made a new point of the log.
    for moment in (began + 74 * HOUR, began + 5 * DAY):
        assert remind(app, moment).reminded == []
    # The reminder before the deadline, once; then the time runs out a week after the turn began.
    assert remind(app, began + 6 * DAY - SECOND).reminded == []
    assert remind(app, began + 6 * DAY).reminded == [addr]
    assert "waiting 6 days" in text_of(reminder_mails(app, smtp, addr)[1])
    assert remind(app, began + 7 * DAY - SECOND).timeouts == []
    assert remind(app, began + 7 * DAY).timeouts == [game]
    after = loaded(app, game)
    assert after.events[-1] == {"v": 1, "type": "timeout", "seat": seat}
    outcome = after.engine.outcome(after.state)
    assert (outcome.winner, outcome.reason) == (1 - seat, "timeout")
    assert len(reminder_mails(app, smtp, addr)) == 2


# -- time-outs ---------------------------------------------------------------------------

def test_when_the_time_runs_out_the_game_is_lost_by_time_and_both_players_are_told(app, client, smtp):
    game = create(client, first=0, time_limit=3)
    start = start_of(app, game)
    deliver(app)
    [invite] = smtp.to(ANNA)
    anna_turn = turn_links(invite)[0]
    report = remind(app, start + 3 * DAY - SECOND)
    assert report.timeouts == []
    assert loaded(app, game).events == []
    report = remind(app, start + 3 * DAY)
    assert report.timeouts == [game] and report.reminded == []
    after = loaded(app, game)
    assert after.events == [{"v": 1, "type": "timeout", "seat": 0}]   # an event in the log
    outcome = after.engine.outcome(after.state)
    assert (outcome.winner, outcome.reason) == (1, "timeout")
    for addr, other, ending in ((ANNA, "Bob", "Bob wins: your time ran out."),
                                (BOB, "Anna", "You win: Anna's time ran out.")):
        [mail] = over_mails(app, smtp, addr)
        assert mail["Subject"] == f"Babel with {other}: the game is over"
        assert ending in text_of(mail)
    # The pages show the result; the turn link no longer acts.
    record = html.unescape(client.get(f"/games/{game}/record").data.decode())
    assert "Result:</strong> Bob wins: Anna's time ran out." in record
    record_json = client.get(f"/games/{game}/record", headers=JSON).get_json()
    assert record_json["outcome"]["reason"] == "timeout" and record_json["outcome"]["winner"] == 1
    assert record_json["turns"][-1]["type"] == "timeout"
    for path, ending in ((seat_path(app, game, 0), "Bob wins: your time ran out."),
                         (seat_path(app, game, 1), "You win: Anna's time ran out."),
                         (anna_turn, "Bob wins: your time ran out.")):
        page = html.unescape(client.get(path).data.decode())
        assert f"The game is over:</strong>\n  {ending}" in page, path
        assert "runs out on" not in page
    data = client.get(anna_turn, headers=JSON).get_json()
    assert data["can_act"] is False and data["deadline"] is None
    assert client.post(anna_turn, json={"steps": "pass"}).status_code == 409
    # Once over, nothing more happens to it.
    mails = mail_count(app)
    for moment in (start + 3 * DAY + HOUR, start + 30 * DAY):
        report = remind(app, moment)
        assert report.timeouts == [] and report.reminded == []
    assert mail_count(app) == mails and len(loaded(app, game).events) == 1


def test_a_game_without_a_limit_never_times_out(app, client, smtp):
    game = create(client, first=0)
    start = start_of(app, game)
    for moment in (start + 3 * DAY, start + 365 * DAY, start + 3650 * DAY):
        assert remind(app, moment).timeouts == []
    after = loaded(app, game)
    assert after.events == [] and after.engine.outcome(after.state) is None
    assert over_mails(app, smtp, ANNA) == over_mails(app, smtp, BOB) == []
    [mail] = reminder_mails(app, smtp, ANNA)              # only reminded, once
    assert "time runs out" not in text_of(mail)


def test_a_turn_submitted_just_before_the_deadline_is_not_timed_out(app, client, smtp):
    game = create(client, first=0, time_limit=3)
    # Anna's time runs out ten minutes from now...
    move_game(app, game, datetime.now(UTC) + 10 * 60 * SECOND - 3 * DAY - start_of(app, game))
    deadline = start_of(app, game) + 3 * DAY
    play(app, client, game, Rng(1))                       # ... and she plays her turn now.
    played = last_event_at(app, game)
    assert timedelta(0) < deadline - played <= 10 * 60 * SECOND
    for moment in (deadline, deadline + HOUR, played + 3 * DAY - SECOND):
        assert remind(app, moment).timeouts == []
    now_game = loaded(app, game)
    assert now_game.engine.outcome(now_game.state) is None and now_game.decision_of(1) is not None
    # Bob's own time runs out three days after Anna's turn.
    assert remind(app, played + 3 * DAY).timeouts == [game]
    after = loaded(app, game)
    assert after.events[-1] == {"v": 1, "type": "timeout", "seat": 1}
    outcome = after.engine.outcome(after.state)
    assert (outcome.winner, outcome.reason) == (0, "timeout")
    for addr, ending in ((ANNA, "You win: Bob's time ran out."),
                         (BOB, "Anna wins: your time ran out.")):
        [mail] = over_mails(app, smtp, addr)
        assert ending in text_of(mail)


# -- deadlines on pages, and choosing a limit ------------------------------------------------

def test_deadlines_show_on_the_turn_page(app, client, smtp):
    game = create(client, first=0, time_limit=7)
    untimed = create(client, names=("Anna", "Carol"), emails=(ANNA, CAROL), first=0)
    deadline = stamp(start_of(app, game) + 7 * DAY)
    line = (f"Your time for this turn runs out on <strong>{on_page(start_of(app, game) + 7 * DAY)}"
            "</strong> (7 days a turn).")
    anna_turn = turn_path(app, game, 0)
    for path in (anna_turn, seat_path(app, game, 0)):
        assert line in client.get(path).data.decode(), path
    data = client.get(anna_turn, headers=JSON).get_json()
    assert data["deadline"] == json_stamp(start_of(app, game) + 7 * DAY)
    assert data["deadline_local"] == f"{deadline} UTC" and data["time_limit_days"] == 7
    bob = client.get(seat_path(app, game, 1))               # Bob owes nothing: no deadline
    assert 'class="deadline"' not in bob.data.decode()
    assert client.get(seat_path(app, game, 1), headers=JSON).get_json()["deadline"] is None
    for path in (turn_path(app, untimed, 0), seat_path(app, untimed, 0)):
        assert 'class="deadline"' not in client.get(path).data.decode()
    assert client.get(turn_path(app, untimed, 0), headers=JSON).get_json()["deadline"] is None
    assert "(7 days a turn)" in client.get(f"/games/{game}/record").data.decode()
    assert "days a turn" not in client.get(f"/games/{untimed}/record").data.decode()
    # After Anna's turn the deadline is Bob's, a week from it.
    play(app, client, game, Rng(2))
    bobs = on_page(last_event_at(app, game) + 7 * DAY)
    page = client.get(turn_path(app, game, 1)).data.decode()
    assert f"runs out on <strong>{bobs}</strong> (7 days a turn)." in page
    assert 'class="deadline"' not in client.get(seat_path(app, game, 0)).data.decode()


def stored_limit(app, game: str):
    with app.app_context():
        return db.session.get(Game, game).time_limit_days


def test_the_time_limit_is_chosen_on_the_start_page(app, client):
    page = client.get("/").data.decode()
    assert '<select name="time_limit">' in page
    assert re.findall(r'<option value="(\w+)" ?(?:selected)?>', page.split('name="time_limit"')[1]
                      .split("</select>")[0]) == ["none", "3", "7", "14", "30"]
    for value, days in (("7", 7), ("3", 3), ("30", 30), ("1", 1), ("365", 365), ("none", None),
                        ("", None), (" 14 ", 14)):
        assert stored_limit(app, create_by_form(client, time_limit=value)) == days, value
    assert stored_limit(app, create_by_form(client)) is None      # no limit by default
    response = client.post("/games", json={"game": "babel", "name0": "Anna", "email0": ANNA,
                                           "name1": "Bob", "email1": BOB, "time_limit": "14"})
    assert response.status_code == 202
    assert stored_limit(app, started(client, response)) == 14


@pytest.mark.parametrize("value", ["0", "366", "-3", "abc", "7.5", "²", "1e3", "7 days", "１４"])
def test_bad_time_limits_are_refused(value, app, client):
    with app.app_context():
        games = db.session.scalar(select(func.count()).select_from(Game))
    response = client.post("/games", data={"game": "babel", "name0": "Anna", "email0": ANNA,
                                           "name1": "Bob", "email1": BOB, "time_limit": value})
    assert response.status_code == 400
    assert "A time limit is a number of days from 1 to 365, or none." in response.data.decode()
    response = client.post("/games", json={"game": "babel", "name0": "Anna", "email0": ANNA,
                                           "name1": "Bob", "email1": BOB, "time_limit": value})
    assert response.status_code == 400
    assert response.get_json()["error"] == "A time limit is a number of days from 1 to 365, or none."
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == games
    assert mail_count(app) == 0


def test_a_time_limit_that_is_not_text_is_refused(app, client):
    response = client.post("/games", json={"game": "babel", "name0": "Anna", "email0": ANNA,
                                           "name1": "Bob", "email1": BOB, "time_limit": 7})
    assert response.status_code == 400 and "time_limit" in response.get_json()["error"]
    assert mail_count(app) == 0


def test_new_game_command_takes_a_time_limit(app, smtp):
    runner = app.test_cli_runner()
    players = ["--player", "Anna <anna@example.org>", "--player", "Bob <bob@example.org>"]
    result = runner.invoke(args=["new-game", "--game", "babel", *players, "--first", "0",
                                 "--time-limit", "5"])
    assert result.exit_code == 0, result.output
    game = result.output.strip()
    assert stored_limit(app, game) == 5
    assert mail_count(app) == 2
    result = runner.invoke(args=["new-game", "--game", "babel", *players])
    assert result.exit_code == 0, result.output
    assert stored_limit(app, result.output.strip()) is None
    for bad in ("0", "366", "x"):
        result = runner.invoke(args=["new-game", "--game", "babel", *players, "--time-limit", bad])
        assert result.exit_code == 2, (bad, result.output)
    assert mail_count(app) == 4
    # The limit holds: five days after the game began, Anna's time is up.
    start = start_of(app, game)
    assert runner.invoke(args=["remind", "--now", (start + 5 * DAY - SECOND).isoformat()]).output \
        .startswith("timeouts 0,")
    assert runner.invoke(args=["remind", "--now", (start + 5 * DAY).isoformat()]).output \
        .startswith("timeouts 1,")
    assert loaded(app, game).events == [{"v": 1, "type": "timeout", "seat": 0}]


# -- the deadline also holds between two runs of `remind` ------------------------------------

def test_a_turn_submitted_after_the_deadline_loses_on_time_even_before_remind_runs(app, client, smtp):
    game = create(client, first=0, time_limit=3)
    deliver(app)
    [invite] = smtp.to(ANNA)
    link = turn_links(invite)[0]
    move_game(app, game, -(3 * DAY + SECOND))           # three days and a second ago
    response = client.post(link, json={"steps": "pass"})
    assert response.status_code == 409 and "ran out" in response.get_json()["error"]
    after = loaded(app, game)
    assert after.events == [{"v": 1, "type": "timeout", "seat": 0}]
    assert after.engine.outcome(after.state).reason == "timeout"
    assert [m["Subject"] for m in over_mails(app, smtp, BOB)] == ["Babel with Anna: the game is over"]


def test_a_mail_reply_after_the_deadline_loses_on_time_too(app, client, smtp):
    from email.message import EmailMessage

    from pbem.inbound.ingest import ingest_bytes
    game = create(client, first=0, time_limit=3)
    deliver(app)
    [invite] = smtp.to(ANNA)
    move_game(app, game, -(3 * DAY + SECOND))
    reply = EmailMessage()
    reply["From"], reply["To"], reply["Message-ID"] = ANNA, invite["Reply-To"], "<late@example.org>"
    reply.set_content("pass")
    with app.app_context():
        result = ingest_bytes(reply.as_bytes())
    assert result.status == "refused" and "ran out" in result.detail
    assert loaded(app, game).events == [{"v": 1, "type": "timeout", "seat": 0}]


def test_remind_refuses_a_time_it_cannot_read(app):
    result = app.test_cli_runner().invoke(args=["remind", "--now", "yesterday"])
    assert result.exit_code == 2 and "write a time like" in result.output


def test_a_digest_interval_longer_than_two_days_still_holds(app, client, smtp):
    app.config["DIGEST_INTERVAL_HOURS"] = 24 * 5
    game = create(client, first=0)
    start = datetime.now(UTC)
    assert remind(app, start + 3 * DAY).reminded == [ANNA]
    rng = Rng(4)
    play(app, client, game, rng)                            # Anna's turn...
    while loaded(app, game).engine.to_act(loaded(app, game).state)[0].seat != 0:
        play(app, client, game, rng)                        # ... and Bob's: Anna waits again
    for moment in (6 * DAY, 7 * DAY, 8 * DAY - HOUR):       # pruning must not forget the digest
        assert remind(app, start + moment).reminded == [], moment
    assert remind(app, start + 8 * DAY).reminded == [ANNA]  # five days after the first
