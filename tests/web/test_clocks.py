"""Clocks chosen at creation: none, a fixed time per turn, a time bank; under a moved clock.

Nothing sleeps: a test plays turns, then sets the moments of the game's creation and of its
events (the log's times are what the clocks read), and tells `reminders.run(now)` what time it
is. The bank is read from the log, so moving the log's times moves the bank.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from pbem.errors import BadInput
from pbem.extensions import db
from pbem.games.rng import Rng
from pbem.jobs import reminders
from pbem.play import turns
from pbem.policy import clocks, deadlines, links
from pbem.store import gamelog
from pbem.store.models import Clock, Event, Game
from pbem_web import ANNA, BOB, deliver, started, text_of  # tests/helpers

JSON = {"Accept": "application/json"}
DAY, HOUR = timedelta(days=1), timedelta(hours=1)
#: Three days ago: the times a test gives the log are past, and the deadlines it tests mostly ahead
#: (a turn submitted after its deadline would be refused).
T0 = (datetime.now(UTC) - 3 * DAY).replace(second=0, microsecond=0)


def create(app, clock: str) -> str:
    with app.app_context():
        choice = clocks.parse(clock)
        spec = turns.Spec("babel", [("Anna", ANNA), ("Bob", BOB)], {"sumerians": "top-run"}, 0,
                          choice.time_limit_days, None, (), turns.DEFAULT_TAKEOVER, choice.bank)
        return turns.create_game(spec).id


def play(app, client, game: str, seed: int) -> int:
    """The seat to act submits a legal decision through its turn link; the seat."""
    with app.app_context():
        loaded = gamelog.load(game)
        [decision] = loaded.engine.to_act(loaded.state)
        text = loaded.engine.random_submission(loaded.state, decision.seat, Rng(seed))
        path = links.path(links.TURN, game, decision.seat, loaded.seq)
    response = client.post(path, json={"steps": text})
    assert response.status_code == 200, response.get_json()
    return decision.seat


def set_times(app, game: str, created: datetime, *events: datetime) -> None:
    """The game was created at `created`, its events were written at `events` (in order)."""
    with app.app_context():
        db.session.get(Game, game).created_at = created
        rows = db.session.scalars(select(Event).where(Event.game_id == game).order_by(Event.seq)).all()
        assert len(rows) == len(events)
        for row, moment in zip(rows, events):
            row.created_at = moment
        db.session.commit()


def deadline(app, game: str, seat: int) -> datetime | None:
    with app.app_context():
        return deadlines.deadline(gamelog.load(game), seat)


def seat_page(app, client, game: str, seat: int) -> str:
    with app.app_context():
        path = links.path(links.SEAT, game, seat, gamelog.current_nonce(game, seat))
    return client.get(path).data.decode()


def test_a_bank_grows_after_each_turn_and_is_capped(app, client):
    game = create(app, "bank:2+1/3")
    assert deadline(app, game, 1) is None   # Bob owes nothing yet
    # Anna (seat 0) and Bob take turns; who moved is checked, so the times below mean what they say.
    assert [play(app, client, game, seed) for seed in (1, 2)] == [0, 1]
    # Anna's first turn took 6 hours: 2 days - 6 h + 1 day = 2 days 18 h (under the cap of 3).
    set_times(app, game, T0, T0 + 6 * HOUR, T0 + DAY)
    assert deadline(app, game, 0) == T0 + DAY + 2 * DAY + 18 * HOUR
    assert play(app, client, game, 3) == 0
    assert play(app, client, game, 4) == 1
    # Her second took an hour: 2 d 18 h - 1 h + 1 d = 3 d 17 h, capped at 3 days.
    set_times(app, game, T0, T0 + 6 * HOUR, T0 + DAY, T0 + DAY + HOUR, T0 + 2 * DAY)
    assert deadline(app, game, 0) == T0 + 2 * DAY + 3 * DAY
    # Bob's bank: 2 d - 18 h + 1 d = 2 d 6 h; then 2 d 6 h - 23 h + 1 d = 2 d 7 h: his next deadline.
    with app.app_context():
        row = db.session.get(Game, game)
        choice = clocks.of_game(game, row.time_limit_days)
        assert choice == clocks.Choice(clocks.BANK, start=2, increment=1, cap=3)
        held = clocks.bank_of(game, 1, choice, BOB)
        assert held.left == 2 * DAY + 7 * HOUR and held.since is None
    page = seat_page(app, client, game, 0)
    stamp = (T0 + 5 * DAY).strftime("%a %d %b %Y, %H:%M")
    iso = (T0 + 5 * DAY).strftime("%Y-%m-%dT%H:%MZ")
    assert ("Your time for this turn runs out on <strong>"
            f'<time class="local" datetime="{iso}">{stamp} UTC</time></strong> (a time bank of '
            "2 days, 1 day added a turn, at most 3 days).") in page
    assert "Clock: a time bank of 2 days" in seat_page(app, client, game, 1)


def test_a_bank_that_runs_out_loses_the_game(app, client, smtp):
    game = create(app, "bank:2+1/3")
    assert play(app, client, game, 1) == 0
    set_times(app, game, T0, T0 + DAY + 23 * HOUR)   # Anna: 2 d - 47 h + 1 d = 1 d 1 h left
    assert play(app, client, game, 2) == 1
    set_times(app, game, T0, T0 + DAY + 23 * HOUR, T0 + 2 * DAY)
    ran_out = T0 + 2 * DAY + DAY + HOUR
    assert deadline(app, game, 0) == ran_out
    with app.app_context():
        early = reminders.run(ran_out - timedelta(seconds=1))
        assert early.timeouts == []
        report = reminders.run(ran_out)
        assert report.timeouts == [game] and report.vacations == []
        outcome = gamelog.load(game).engine.outcome(gamelog.load(game).state)
        assert outcome is not None and outcome.winner == 1


def test_a_fixed_time_per_turn_starts_afresh_each_turn(app, client):
    game = create(app, "move:3")
    with app.app_context():
        assert db.session.get(Game, game).time_limit_days == 3
        assert db.session.get(Clock, game) is None
    assert [play(app, client, game, seed) for seed in (1, 2)] == [0, 1]
    set_times(app, game, T0, T0 + 2 * DAY + 23 * HOUR, T0 + 5 * DAY)
    assert deadline(app, game, 0) == T0 + 8 * DAY   # three days from Bob's move, nothing carried
    with app.app_context():
        assert reminders.run(T0 + 8 * DAY - HOUR).timeouts == []
        assert reminders.run(T0 + 8 * DAY).timeouts == [game]


def test_the_deadline_is_in_every_turn_mail(app, client, smtp):
    game = create(app, "bank:7+1/14")
    deliver(app)
    [invitation] = [m for m in smtp.to(ANNA) if m["Reply-To"]]
    start = deadline(app, game, 0)
    assert start is not None
    line = (f"Your time for this turn runs out on {start:%a %d %b %Y, %H:%M} UTC\n"
            "(a time bank of 7 days, 1 day added a turn, at most 14 days).")
    assert line in text_of(invitation)
    play(app, client, game, 1)
    deliver(app)
    [turn] = [m for m in smtp.to(BOB) if "your turn" in m["Subject"]]
    bob = deadline(app, game, 1)
    assert bob is not None and f"runs out on {bob:%a %d %b %Y, %H:%M} UTC" in text_of(turn)
    lines = text_of(turn).split("Your time for this turn")[1].splitlines()[:2]
    assert all(len(line) <= 78 for line in lines), lines


@pytest.mark.parametrize("text, choice", [
    ("none", clocks.Choice()), ("", clocks.Choice()), ("3", clocks.move(3)),
    ("move:14", clocks.move(14)), ("bank:7+1/14", clocks.bank(7, 1, 14)),
    ("Bank: 7 + 1 / 14", clocks.bank(7, 1, 14)), ("bank:5+0", clocks.bank(5, 0, 10)),
])
def test_clocks_are_spelled(text, choice):
    assert clocks.parse(text) == choice
    assert clocks.parse(choice.spelled()) == choice


@pytest.mark.parametrize("text, words", [
    ("bank:7+1/3", "its cap (3) is below its start (7)"), ("bank:0+1/3", "must be 1 to 365"),
    ("move:0", "must be 1 to 365"), ("hourglass", "'hourglass' is not one"),
])
def test_a_clock_that_is_none_is_refused_by_name(text, words):
    with pytest.raises(BadInput) as refused:
        clocks.parse(text)
    assert words in refused.value.message


def test_the_clock_is_chosen_on_the_start_page_and_by_json(app, client):
    page = client.get("/").data.decode()
    assert '<select name="clock">' in page and 'value="bank:7+1/14"' in page
    data = {"game": "babel", "first": "0", "option.sumerians": "top-run", "name0": "Anna",
            "email0": ANNA, "name1": "Bob", "email1": BOB, "clock": "bank:7+1/14"}
    asked = client.post("/games", data=data)
    assert asked.status_code == 303
    with app.app_context():
        confirm_path = links.path_of(links.CONFIRM, asked.headers["Location"].split("/")[2])
    confirm_page = client.get(confirm_path).data.decode()
    assert "Clock: a time bank of 7 days, 1 day added a turn, at most 14 days." in confirm_page
    game = started(client, asked)
    with app.app_context():
        row = db.session.get(Clock, game)
        assert (row.start_days, row.increment_days, row.cap_days) == (7, 1, 14)
    by_json = client.post("/games", json={**data, "clock": "move:5"}, headers=JSON)
    game = started(client, by_json)
    with app.app_context():
        assert db.session.get(Game, game).time_limit_days == 5
        assert db.session.get(Clock, game) is None
    both = client.post("/games", json={**data, "time_limit": "3"}, headers=JSON)
    assert both.status_code == 400 and "one clock" in both.get_json()["error"]
    wrong = client.post("/games", json={**data, "clock": "bank:1+1/0"}, headers=JSON)
    assert wrong.status_code == 400 and "1+1/0 days" in wrong.get_json()["error"]


def test_new_game_takes_a_clock(app):
    runner = app.test_cli_runner()
    players = ["--player", f"Anna <{ANNA}>", "--player", f"Bob <{BOB}>"]
    made = runner.invoke(args=["new-game", "--game", "babel", *players, "--clock", "bank:7+1/14"])
    assert made.exit_code == 0, made.output
    game = made.output.strip()
    fixed = runner.invoke(args=["new-game", "--game", "babel", *players, "--time-limit", "4"])
    assert fixed.exit_code == 0, fixed.output
    with app.app_context():
        assert db.session.get(Clock, game).cap_days == 14
        assert db.session.get(Game, fixed.output.strip()).time_limit_days == 4
    wrong = runner.invoke(args=["new-game", "--game", "babel", *players, "--clock", "bank:x"])
    assert wrong.exit_code == 2 and "'bank:x' is not one" in wrong.output
    both = runner.invoke(args=["new-game", "--game", "babel", *players, "--clock", "move:3",
                               "--time-limit", "3"])
    assert both.exit_code == 2 and "choose one clock" in both.output
