"""The index of what is due (`pbem.policy.due`): kept by every commit, read by every round.

The property: whatever happens to a game (turns, reminders, time-outs, vacations, takeovers,
computers playing), the stored rows are exactly what the logs say is due; and a round with
nothing due reads the index alone, whatever the number of running games.
"""

from __future__ import annotations

from contextlib import suppress
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, event, select, update

from pbem.errors import BadInput
from pbem.extensions import db
from pbem.games.rng import Rng
from pbem.jobs import computers, reminders
from pbem.play import turns
from pbem.players import settings
from pbem.policy import due, vacation
from pbem.policy.deadlines import utc
from pbem.store import gamelog
from pbem.store.models import Due
from pbem.store.transaction import transaction
from pbem_web import deliver, new_game, turn_path  # tests/helpers

ANNA, BOB, CAROL = (f"{n}@example.org" for n in ("anna", "bob", "carol"))
HOUR, DAY = timedelta(hours=1), timedelta(days=1)


def stored(app) -> set[tuple]:
    with app.app_context():
        return {(d.game_id, d.seat, d.bot) for d in db.session.scalars(select(Due))}


def agree(app) -> None:
    with app.app_context():
        assert due.disagreements() == []


def play_one(app, client, game_id: str, rng: Rng) -> bool:
    """The seat to act submits a random legal decision through its turn link (False: over)."""
    with app.app_context():
        loaded = gamelog.load(game_id)
        if loaded.over:
            return False
        [decision] = loaded.engine.to_act(loaded.state)
        if gamelog.bot_of(game_id, decision.seat):
            computers.run()
            return True
        text = loaded.engine.random_submission(loaded.state, decision.seat, rng)
    response = client.post(turn_path(app, game_id, decision.seat), json={"steps": text})
    assert response.status_code == 200, response.get_json()
    return True


def test_a_new_game_owes_its_first_seat_a_row_and_a_game_without_clock_none_after_reminding(app, smtp):
    timed = new_game(app, time_limit=3)
    untimed = new_game(app)
    assert stored(app) == {(timed, 0, None), (untimed, 0, None)}
    agree(app)
    with app.app_context():
        start = {d.game_id: utc(d.due_at) for d in db.session.scalars(select(Due))}
        # The first moment: the waiting reminder (48 h), before the deadline's warning (3 d - 24 h).
        assert start[untimed] - start[timed] < timedelta(minutes=1)
        reminders.run(datetime.now(UTC) + 49 * HOUR)
        # The untimed game has nothing more to come this turn; the timed one waits for its
        # deadline's warning.
        rows = {d.game_id: utc(d.due_at) for d in db.session.scalars(select(Due))}
    assert set(rows) == {timed}
    assert rows[timed] - datetime.now(UTC) > 47 * HOUR
    agree(app)


def rest_now(address: str, rng: Rng) -> None:
    """New rest days (up to three, or none), quiet hours (or none) and time zone, at random."""
    days = [d for d in range(7) if rng.below(4) == 0][:3]
    quiet = (f"{rng.below(24):02d}:00", f"{rng.below(24):02d}:30") if rng.below(2) else ("", "")
    zone = ["UTC", "Europe/Prague", "Pacific/Auckland", "America/Los_Angeles"][rng.below(4)]
    settings.change(address, zone, "en", settings.EACH, False)
    settings.change_rest(address, days, *quiet)


def test_every_commit_keeps_the_rows_as_the_logs_say(app, client, smtp):
    """Turns, reminders, time-outs, vacations, rest days and quiet hours in changing time zones,
    and a computer's seat, in a random walk."""
    app.config["VACATION_DAYS_PER_YEAR"] = 30
    games = [new_game(app, time_limit=2), new_game(app, kind="babel-tower"),
             new_game(app, kind="babylonia", time_limit=1,
                      players=(("Anna", ANNA), ("", ""), ("Carol", CAROL)), bots=(None, "easy", None)),
             new_game(app, bank=(2, 1, 5))]
    agree(app)
    rng = Rng(7)
    now = datetime.now(UTC)
    went = rested = 0
    for step in range(60):
        game_id = games[rng.below(len(games))]
        choice = (8 if step in (15, 40) else 9 if step in (28, 39) else 10 if step in (5, 22, 47)
                  else rng.below(11))
        if choice < 6:
            play_one(app, client, game_id, rng)
        elif choice < 8:
            now += timedelta(hours=1 + rng.below(39))
            with app.app_context():
                reminders.run(now)
        elif choice == 8:
            with app.app_context(), suppress(BadInput, vacation.NoVacationLeft):
                vacation.start(ANNA, 1 + rng.below(3), now)   # (refused: away, or no days left)
                went += 1
        elif choice == 9:
            with app.app_context():
                vacation.end(ANNA, now)
        else:
            with app.app_context():
                rest_now([ANNA, BOB, CAROL][rng.below(3)], rng)
                rested += 1
        agree(app)
    assert went >= 2 and rested >= 3
    deliver(app)


def test_a_computers_decision_is_due_at_once_and_gone_when_made(app, smtp):
    game_id = new_game(app, players=(("Anna", ANNA), ("", "")), bots=(None, "easy"))
    with app.app_context():
        computers.run()   # Anna's turn first: nothing for the computer yet
    assert stored(app) == {(game_id, 0, None)}
    with app.app_context():
        loaded = gamelog.load(game_id)
        text = loaded.engine.random_submission(loaded.state, 0, Rng(1))
        turns.submit(game_id, 0, loaded.seq, text, turns.Origin(turns.WEB))
    assert stored(app) == {(game_id, 1, "easy")}
    with app.app_context():
        assert [w.game.id for w in computers.owed()] == [game_id]
        assert len(computers.run()) >= 1
    assert {seat for _, seat, bot in stored(app) if bot} == set()
    agree(app)


def test_a_row_the_migration_left_is_looked_at_once_then_true(app, smtp):
    game_id = new_game(app)
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    with app.app_context(), transaction():
        db.session.query(Due).delete()
        db.session.add(Due(game_id=game_id, seat=0, bot=None, due_at=epoch))
    with app.app_context():
        assert due.persons_due(datetime.now(UTC)) == [game_id]
        reminders.run()
        assert due.persons_due(datetime.now(UTC)) == []
        [row] = db.session.scalars(select(Due))
        assert utc(row.due_at) > datetime.now(UTC) + 47 * HOUR
    agree(app)


def statements(app, now: datetime) -> list[str]:
    """The SQL a reminders round issues at `now`."""
    seen: list[str] = []
    with app.app_context():
        def count(_conn, _cursor, statement, *_args):
            seen.append(statement)
        event.listen(db.engine, "before_cursor_execute", count)
        try:
            reminders.run(now)
        finally:
            event.remove(db.engine, "before_cursor_execute", count)
    return seen


def test_a_round_with_nothing_due_reads_the_same_whatever_is_stored(app, smtp):
    now = datetime.now(UTC) + HOUR
    new_game(app, time_limit=7)
    few = statements(app, now)
    for _ in range(12):
        new_game(app, time_limit=7)
    many = statements(app, now)
    assert len(many) == len(few)
    assert not any("FROM games" in s for s in many), "a round scanned the games"


def test_verify_finds_rows_that_disagree_and_dues_rebuild_rewrites_them(app, smtp):
    game_id = new_game(app, time_limit=3)
    other = new_game(app)
    with app.app_context():
        db.session.execute(update(Due).where(Due.game_id == game_id)
                           .values(due_at=datetime(2099, 1, 1, tzinfo=UTC)))
        db.session.execute(delete(Due).where(Due.game_id == other))
        db.session.commit()   # (behind the hooks' back, as a bug or a hand in the database would)
    result = app.test_cli_runner().invoke(args=["verify"])
    assert result.exit_code == 1, result.output
    said = [line for line in result.output.splitlines() if line.startswith("due: ")]
    assert len(said) == 3   # the wrong moment (missing and not owed), the missing row
    assert any(f"{other} seat 0: row missing" in line for line in said)
    assert "`flask --app pbem dues --rebuild` rewrites it" in result.output
    rebuilt = app.test_cli_runner().invoke(args=["dues", "--rebuild"])
    assert rebuilt.exit_code == 0 and "rewrote the dues of 2 running games" in rebuilt.output
    assert "2 seats owe a decision with something to come" in rebuilt.output
    again = app.test_cli_runner().invoke(args=["verify"])
    assert again.exit_code == 0, again.output
    agree(app)


def test_one_address_due_in_several_games_gets_one_digest_of_them_all(app, smtp):
    games = [new_game(app, players=(("Anna", ANNA), (f"P{i}", f"p{i}@example.org")))
             for i in range(3)]
    with app.app_context():
        assert sorted(due.persons_due(datetime.now(UTC) + 49 * HOUR)) == sorted(games)
        report = reminders.run(datetime.now(UTC) + 49 * HOUR)
        assert due.persons_due(datetime.now(UTC) + 49 * HOUR) == []
    assert report.reminded == [ANNA]
    deliver(app)
    [digest] = [m for m in smtp.to(ANNA) if m["Subject"].startswith("Reminder:")]
    assert all(f"P{i}" in digest.get_body(("plain",)).get_content() for i in range(3))


def test_one_worker_thinks_about_a_computers_decision_and_another_takes_it_if_he_dies(
        app, smtp, monkeypatch):
    game_id = new_game(app, players=(("", ""), ("Anna", ANNA)), bots=("easy", None))
    thought: list[str] = []
    choose = computers.bots.choose
    monkeypatch.setattr(computers.bots, "choose",
                        lambda *args: thought.append(args[3]) or choose(*args))
    now = datetime.now(UTC)
    with app.app_context():
        [w] = computers.owed(now)
        with transaction():   # a worker claims it, then dies before deciding
            assert due.claim(game_id, 0, now)
        assert computers.owed(now) == []                        # the others pass it by
        assert computers.play(game_id, 0, w.seq, now) is None   # and never think about it
        assert thought == []
        later = now + due.thinking() + timedelta(seconds=1)
        [again] = computers.owed(later)                          # the dead worker's lease is over
        assert computers.play(game_id, 0, again.seq, later) is not None
    assert thought == ["easy"]
    agree(app)
