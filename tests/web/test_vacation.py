"""Vacation: every clock of an address stops while it is away; a clock that runs out while days
remain starts a vacation day by itself (everyone in the game is told) instead of a loss; with no
days left it is a loss as before. Under a moved clock: nothing sleeps."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from pbem.extensions import db
from pbem.games.rng import Rng
from pbem.jobs import reminders
from pbem.play import turns
from pbem.policy import deadlines, vacation
from pbem.store import gamelog
from pbem.store.models import Event, Game, Vacation
from pbem_web import ANNA, BOB, deliver, seat_path, text_of, turn_path  # tests/helpers

CAROL = "carol@example.org"
JSON = {"Accept": "application/json"}
DAY, HOUR = timedelta(days=1), timedelta(hours=1)


@pytest.fixture
def app(make_app):
    return make_app(VACATION_DAYS_PER_YEAR=2, SUBMISSIONS_PER_CLIENT_PER_MINUTE=100_000,
                    SUBMISSIONS_PER_ADDRESS_PER_MINUTE=100_000)


def create(app, days: int, players=(("Anna", ANNA), ("Bob", BOB))) -> str:
    with app.app_context():
        return turns.create_game(turns.Spec("babel", list(players), {"sumerians": "top-run"}, 0,
                                            days)).id


def started_at(app, game: str, moment: datetime) -> None:
    with app.app_context():
        db.session.get(Game, game).created_at = moment
        assert db.session.scalars(select(Event).where(Event.game_id == game)).first() is None
        db.session.commit()


def deadline(app, game: str, seat: int) -> datetime | None:
    with app.app_context():
        return deadlines.deadline(gamelog.load(game), seat)




def vacations(app, address: str) -> list[tuple[datetime, datetime, bool]]:
    with app.app_context():
        return [(deadlines.utc(v.starts_at), deadlines.utc(v.ends_at), v.automatic)
                for v in db.session.scalars(select(Vacation).where(Vacation.address == address)
                                            .order_by(Vacation.id))]


def over(app, game: str) -> bool:
    with app.app_context():
        return gamelog.load(game).over


def test_vacation_stops_every_clock_of_the_address(app, client):
    first, second = create(app, 7), create(app, 3)
    other = create(app, 7, (("Carol", CAROL), ("Bob", BOB)))
    before = {g: deadline(app, g, 0) for g in (first, second, other)}
    response = client.post(f"{seat_path(app, first, 0)}/vacation", json={"days": 2})
    assert response.status_code == 200
    [(starts, ends, automatic)] = vacations(app, ANNA)
    assert ends - starts == 2 * DAY and not automatic
    assert response.get_json()["vacation"] == {"until": f"{ends:%Y-%m-%d %H:%M} UTC", "days_left": 0}
    # Both of Anna's games wait two days longer; Carol's clock runs on.
    assert deadline(app, first, 0) == before[first] + 2 * DAY
    assert deadline(app, second, 0) == before[second] + 2 * DAY
    assert deadline(app, other, 0) == before[other]
    # Her opponent sees it, on the page and in JSON.
    page = client.get(seat_path(app, second, 1)).data.decode()
    assert f"Anna is on vacation until {ends:%Y-%m-%d %H:%M} UTC: Anna's clocks stand still." in page
    assert client.get(seat_path(app, second, 1), headers=JSON).get_json()["away"] == [
        {"seat": 0, "name": "Anna", "until": f"{ends:%Y-%m-%d %H:%M} UTC"}]
    # The worker at her old deadline: nothing runs out.
    with app.app_context():
        assert reminders.run(before[second] + HOUR).timeouts == []
    # No more days this year (2): another vacation is refused, naming what is left.
    again = client.post(f"{seat_path(app, first, 0)}/vacation", json={"days": 1})
    assert again.status_code == 400 and "on vacation already" in again.get_json()["error"]


def test_coming_back_early_gives_the_clock_back_and_counts_the_days_begun(app, client):
    game = create(app, 7)
    before = deadline(app, game, 0)
    assert client.post(f"{seat_path(app, game, 0)}/vacation", data={"days": "2"}).status_code == 303
    page = client.get(seat_path(app, game, 0)).data.decode()
    assert "You are on vacation until" in page and "I am back" in page
    assert client.post(f"{seat_path(app, game, 0)}/vacation", data={"action": "end"}).status_code == 303
    [(starts, ends, _)] = vacations(app, ANNA)
    assert ends - starts < HOUR
    after = deadline(app, game, 0)
    assert after is not None and before is not None and after - before == ends - starts
    with app.app_context():
        assert vacation.days_left(ANNA, ends) == 1   # the day begun is used
    refused = client.post(f"{seat_path(app, game, 0)}/vacation", json={"days": 2})
    assert refused.status_code == 400
    assert refused.get_json()["error"] == "You have 1 vacation days left this year; 2 were asked for."
    wrong = client.post(f"{seat_path(app, game, 0)}/vacation", json={"days": "soon"})
    assert wrong.status_code == 400 and "whole days" in wrong.get_json()["error"]


def test_a_clock_that_runs_out_starts_a_vacation_day_instead_of_a_loss(app, client, smtp):
    game = create(app, 1)
    start = datetime.now(UTC).replace(microsecond=0) - 2 * DAY
    started_at(app, game, start)
    ran_out = start + DAY
    assert deadline(app, game, 0) == ran_out
    deliver(app)
    smtp.clear()
    with app.app_context():
        report = reminders.run(ran_out + HOUR)
    assert report.vacations == [game] and report.timeouts == []
    assert vacations(app, ANNA) == [(ran_out, ran_out + DAY, True)]
    assert deadline(app, game, 0) == ran_out + DAY and not over(app, game)
    deliver(app)
    [mine] = [m for m in smtp.to(ANNA) if "vacation" in m["Subject"]]
    [theirs] = [m for m in smtp.to(BOB) if "vacation" in m["Subject"]]
    until = f"{ran_out + DAY:%Y-%m-%d %H:%M} UTC"
    assert mine["Subject"].endswith("your clock ran out: vacation started")
    assert f"you are on vacation until {until}" in " ".join(text_of(mine).split())
    assert "1 vacation day left this year" in " ".join(text_of(mine).split())
    assert theirs["Subject"].endswith("Anna's clock ran out: vacation started")
    assert f"Anna is on vacation until {until}" in " ".join(text_of(theirs).split())
    for mail in (mine, theirs):
        assert all(len(line) <= 78 for line in text_of(mail).splitlines() if "http" not in line)
    # The next day runs out too: the last vacation day; then the clock loses the game.
    with app.app_context():
        assert reminders.run(ran_out + DAY + HOUR).vacations == [game]
        assert vacation.days_left(ANNA, ran_out + DAY + HOUR) == 0
        report = reminders.run(ran_out + 2 * DAY + HOUR)
    assert report.timeouts == [game] and report.vacations == []
    assert over(app, game)


def test_with_no_days_left_the_clock_loses_at_once(make_app, smtp):
    app = make_app(VACATION_DAYS_PER_YEAR=0)
    game = create(app, 1)
    start = datetime.now(UTC).replace(microsecond=0) - 2 * DAY
    started_at(app, game, start)
    with app.app_context():
        report = reminders.run(start + DAY)
    assert report.timeouts == [game] and report.vacations == [] and over(app, game)
    assert vacations(app, ANNA) == []


def test_a_late_turn_with_days_left_is_played_and_ends_the_vacation(app, client, smtp):
    """Before the worker noticed, the player submits after his clock ran out: a vacation day
    saves the turn (rather than a loss), and his playing ends it."""
    game = create(app, 1)
    start = datetime.now(UTC).replace(microsecond=0) - DAY - 2 * HOUR
    started_at(app, game, start)
    with app.app_context():
        loaded = gamelog.load(game)
        text = loaded.engine.random_submission(loaded.state, 0, Rng(1))
    response = client.post(turn_path(app, game, 0), json={"steps": text})
    assert response.status_code == 200, response.get_json()
    [(starts, ends, automatic)] = vacations(app, ANNA)
    assert automatic and starts == start + DAY and ends - starts < 3 * HOUR
    assert not over(app, game)


def test_the_operator_starts_and_ends_a_vacation(app):
    runner = app.test_cli_runner()
    started = runner.invoke(args=["vacation", "start", ANNA, "--days", "2"])
    assert started.exit_code == 0 and started.output.startswith(f"{ANNA} is on vacation until ")
    shown = runner.invoke(args=["vacation", "show", ANNA]).output
    assert "on vacation until" in shown and "0 days left this year" in shown
    refused = runner.invoke(args=["vacation", "start", BOB, "--days", "3"])
    assert refused.exit_code == 2 and "You have 2 vacation days left" in refused.output
    assert runner.invoke(args=["vacation", "end", ANNA]).output == f"{ANNA} is back\n"
    assert runner.invoke(args=["vacation", "end", ANNA]).output == f"{ANNA} was not away\n"


def test_a_time_bank_does_not_pay_for_time_on_vacation(app, client):
    """Anna's first turn took 2 days, one of them on vacation: her bank of 3 days paid for one
    (3 - 1 + 1 = 3 days left), and her next turn's deadline is 3 days after it began."""
    from pbem.policy import clocks
    with app.app_context():
        choice = clocks.bank(3, 1, 5)
        game = turns.create_game(turns.Spec("babel", [("Anna", ANNA), ("Bob", BOB)],
                                            {"sumerians": "top-run"}, 0, None, None, (),
                                            turns.DEFAULT_TAKEOVER, choice.bank)).id
    t0 = (datetime.now(UTC) - 4 * DAY).replace(microsecond=0)
    for seed in (1, 2):
        with app.app_context():
            loaded = gamelog.load(game)
            [decision] = loaded.engine.to_act(loaded.state)
            text = loaded.engine.random_submission(loaded.state, decision.seat, Rng(seed))
        assert client.post(turn_path(app, game, decision.seat), json={"steps": text}).status_code == 200
    with app.app_context():
        db.session.get(Game, game).created_at = t0
        first, second = db.session.scalars(select(Event).where(Event.game_id == game)
                                           .order_by(Event.seq)).all()
        first.created_at, second.created_at = t0 + 2 * DAY, t0 + 2 * DAY + HOUR
        db.session.add(Vacation(address=ANNA, starts_at=t0 + 12 * HOUR,
                                ends_at=t0 + 36 * HOUR, automatic=False))
        db.session.commit()
        held = clocks.bank_of(game, 0, choice, ANNA)
    assert held.left == 3 * DAY and held.since == t0 + 2 * DAY + HOUR
    assert deadline(app, game, 0) == t0 + 5 * DAY + HOUR


def test_in_a_game_of_three_a_vacation_day_comes_before_a_computer_takes_over(app, smtp):
    with app.app_context():
        game = turns.create_game(turns.Spec(
            "babylonia", [("Anna", ANNA), ("Bob", BOB), ("Carol", CAROL)], {}, 0, 1)).id
    start = datetime.now(UTC).replace(microsecond=0) - 2 * DAY
    started_at(app, game, start)
    with app.app_context():
        assert reminders.run(start + DAY + HOUR).vacations == [game]
        assert gamelog.bot_of(game, 0) is None
        assert reminders.run(start + 2 * DAY + HOUR).vacations == [game]
        report = reminders.run(start + 3 * DAY + HOUR)   # no days left: a computer takes her seat
        assert report.timeouts == [game] and gamelog.bot_of(game, 0) == "normal"
    deliver(app)
    told = [m for m in smtp.to(CAROL) if "Anna's clock ran out" in m["Subject"]]
    assert len(told) == 2


def test_a_vacation_taken_after_the_clock_ran_out_saves_the_game_and_costs_no_day_more(app):
    """The worker comes after the player went away himself (his clock had run out a minute
    before): no automatic day on top of his vacation, and no loss."""
    game = create(app, 1)
    start = datetime.now(UTC).replace(microsecond=0) - 2 * DAY
    started_at(app, game, start)
    ran_out = start + DAY
    with app.app_context():
        vacation.start(ANNA, 1, now=ran_out + 60 * timedelta(seconds=1))
        report = reminders.run(ran_out + 2 * 60 * timedelta(seconds=1))
        left = vacation.days_left(ANNA, ran_out + HOUR)
    assert report.timeouts == [] and not over(app, game)
    assert [automatic for *_, automatic in vacations(app, ANNA)] == [False]
    assert left == 1


def test_two_vacations_asked_for_at_once_start_one(app):
    """Each start holds the address's vacations (a double click on the home, or the home and a
    seat page): the second finds the first and is refused."""
    import threading
    errors, now = [], datetime.now(UTC)

    def go():
        with app.app_context():
            try:
                vacation.start(ANNA, 1, now=now)
            except Exception as error:      # the refusal: "on vacation already"
                errors.append(type(error).__name__)
    threads = [threading.Thread(target=go) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(vacations(app, ANNA)) == 1 and errors == ["BadInput"]


def test_a_player_back_from_an_automatic_vacation_is_not_away_in_the_mails_of_his_turn(app, client,
                                                                                      smtp):
    """A submission reads its game's vacations once (whether its player is back, who is away in
    its mails): the one it ends is read anew, and Bob's turn mail no longer says Anna is away,
    while Carol's vacation, which it does not end, is still told."""
    with app.app_context():
        game = turns.create_game(turns.Spec(
            "babylonia", [("Anna", ANNA), ("Bob", BOB), ("Carol", CAROL)], {}, 0, 3)).id
        now = datetime.now(UTC).replace(microsecond=0)
        db.session.add_all([Vacation(address=ANNA, starts_at=now - HOUR, ends_at=now + DAY,
                                     automatic=True),
                            Vacation(address=CAROL, starts_at=now - HOUR, ends_at=now + DAY,
                                     automatic=False)])
        db.session.commit()
        assert [seat for seat, _ in vacation.in_game(game)] == [0, 2]
        loaded = gamelog.load(game)
        [decision] = loaded.engine.to_act(loaded.state)
        text = loaded.engine.random_submission(loaded.state, 0, Rng(1))
    assert decision.seat == 0
    deliver(app)
    smtp.clear()
    assert client.post(turn_path(app, game, 0), json={"steps": text}).status_code == 200
    [(starts, ends, automatic)] = vacations(app, ANNA)
    assert automatic and ends - starts < 2 * HOUR           # ended when she played
    deliver(app)
    [mail] = [m for m in smtp.to(BOB) if "your turn" in m["Subject"]]
    said = " ".join(text_of(mail).split())
    assert "Carol is on vacation until" in said and "Anna is on vacation" not in said


def test_a_game_s_vacations_asked_about_an_earlier_moment_are_read_again(app):
    """What one transaction read of a game's vacations (those that end after a moment) does
    not answer for an earlier moment: a vacation that ended between is read anew."""
    game = create(app, 1)
    now = datetime.now(UTC).replace(microsecond=0)
    with app.app_context():
        db.session.add(Vacation(address=ANNA, starts_at=now - 3 * DAY, ends_at=now - DAY,
                                automatic=False))
        db.session.commit()
        assert vacation.in_game(game, now) == []
        [(seat, away)] = vacation.in_game(game, now - 2 * DAY)
        assert seat == 0 and away.ends_at == now - DAY
        assert vacation.in_game(game, now) == []
