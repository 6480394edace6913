"""Mail leaves at once: a commit that queues mail wakes the sender (`pbem.mail.wakeup`).

The workers here poll only every 120 seconds, so a mail that arrives within seconds was
woken for: on SQLite by the commit in the same process (`serve`'s worker thread), on
PostgreSQL by the `deliver` job the commit inserted, which procrastinate's NOTIFY hands to
`flask --app pbem worker` in a process of its own (whose look for jobs NOTIFY missed is also
every 120 s; the outbox's safety net ticks every 10 s). That the job is the commit's, and
goes with a rollback, is tested without a worker.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pbem.games.rng import Rng
from pbem.jobs.worker import start_in_background
from pbem.store import gamelog
from pbem_web import create, turn_path  # tests/helpers

#: Alone (`make test`'s serial pass): NOTIFY reaches every schema of the database, so another
#: test committing mail on PostgreSQL at the same moment would wake the sender that must sleep.
pytestmark = pytest.mark.serial

ANNA, BOB = "anna@example.org", "bob@example.org"
POLL = 120.0
ROOT = Path(__file__).resolve().parents[2]


def arrives(smtp, address: str, count: int, within: float = 20.0) -> float:
    """Seconds until `address` has `count` mails (fails after `within`)."""
    started = time.monotonic()
    while time.monotonic() - started < within:
        if len(smtp.to(address)) >= count:
            return time.monotonic() - started
        time.sleep(0.05)
    raise AssertionError(f"{address} got {len(smtp.to(address))} mails, not {count}, "
                         f"within {within} s (the poll is {POLL} s)")


def first_turn(app, client, game_id: str) -> None:
    with app.app_context():
        loaded = gamelog.load(game_id)
        text = loaded.engine.random_submission(loaded.state, 0, Rng(3))
    response = client.post(turn_path(app, game_id, 0), json={"steps": text})
    assert response.status_code == 200, response.get_json()


def sender_in_a_thread(app):
    stop = start_in_background(app, deliver_every=POLL, remind_every=3600, bots_every=0)
    return stop.set


def sender_in_a_process(app):
    env = {**os.environ, "SECRET_KEY": app.config["SECRET_KEY"],
           "DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
           "MAIL_URL": app.config["MAIL_URL"], "MAIL_FROM": app.config["MAIL_FROM"],
           "BASE_URL": app.config["BASE_URL"], "FLASK_DEBUG": "0", "JOBS_POLL_SECONDS": str(POLL)}
    worker = subprocess.Popen(
        [sys.executable, "-m", "flask", "--app", "pbem", "worker", "--deliver-every", str(POLL),
         "--remind-every", "3600", "--bots-every", "0"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert worker.stdout is not None
    worker.stdout.readline()   # "pbem worker: ..." : it is up
    time.sleep(1.0)            # (its first round done: it waits now)

    def stop():
        worker.terminate()
        worker.wait(10)
    return stop


def test_a_turns_mail_is_sent_when_its_commit_wakes_the_sender(app, client, smtp):
    postgres = app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql")
    stop = (sender_in_a_process if postgres else sender_in_a_thread)(app)
    try:
        time.sleep(0.5)   # the sender's first round is over: it waits for the next
        game_id = create(client)
        arrives(smtp, ANNA, 1)
        arrives(smtp, BOB, 1)
        first_turn(app, client, game_id)
        arrives(smtp, BOB, 2)   # Bob's turn mail
    finally:
        stop()


def test_without_a_commit_of_mail_the_sender_sleeps_its_poll(make_app):
    from pbem.mail.wakeup import Waker
    app = make_app()
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        pytest.skip("PostgreSQL's senders are procrastinate's workers: the next test")
    with app.app_context():
        waker = Waker()
        started = time.monotonic()
        assert waker.wait(0.5) is False
        assert time.monotonic() - started >= 0.45
        create(app.test_client())
        assert waker.wait(5) is True


def test_a_commit_that_queues_mail_carries_its_delivery_job_and_a_rollback_takes_it_away(make_app):
    from sqlalchemy import text

    from pbem.extensions import db
    from pbem.jobs import engine
    app = make_app()
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("SQLite keeps no jobs")

    def jobs() -> list[tuple[str, str, str]]:
        return [tuple(row) for row in db.session.execute(text(
            "SELECT task_name, queue_name, status FROM procrastinate_jobs ORDER BY id"))]

    with app.app_context():
        assert jobs() == []
        create(app.test_client())
        create(app.test_client())   # (a job waits already: it sends this mail too)
        assert jobs() == [("deliver", "mail", "todo")]
        db.session.execute(text("DELETE FROM procrastinate_jobs"))
        db.session.commit()
        assert jobs() == []   # (a transaction begun: the job's savepoint is inside it)
        engine.defer_delivery(db.session)   # on the transaction's connection: it sees it
        assert jobs() == [("deliver", "mail", "todo")]
        db.session.rollback()               # and a rollback takes it away
        assert jobs() == []
