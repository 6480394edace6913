"""The fleet's job engine on PostgreSQL: procrastinate (https://procrastinate.readthedocs.io).

Why procrastinate: its jobs are rows in the games' own database (no new service to run), a
job can be inserted on the connection of the transaction that causes it (so a turn and the
jobs it causes commit or vanish together), workers on any machine take jobs with row locks
(`FOR UPDATE SKIP LOCKED`) and wake by LISTEN/NOTIFY, a job's `lock` keeps two jobs of one game
from running at once, periodic tasks are deferred once per tick across the fleet (a unique
key), and a dead worker is seen by its missing heartbeats. What each task does is in
`pbem.jobs.tasks`, shared with the loop that runs it on SQLite.

The queues:
- `mail`: `deliver`, deferred by every commit that queues mail or a notice (`pbem.mail.wakeup`),
  and `deliver_poll` every JOBS_OUTBOX_SECONDS for the mail a failed attempt put off to later.
- `due`: `round`, every JOBS_ROUND_SECONDS, reads the index of what is due (`pbem.policy.due`):
  time-outs, reminders, digests. A person's reminders and deadline move with every turn,
  vacation and rest day: the index keeps them where the commit that moves them writes them,
  so they are not copied into scheduled jobs that each such commit would have to find and move.
- `bots`: `think`, one job per decision a computer owes (game, seat, point of the log), deferred
  by the commit that makes it owed, with the game as its lock; `sweep` every JOBS_SWEEP_SECONDS
  defers the decisions owed for longer without one (a computer put in a seat by hand, a job
  that failed for good).
- `fleet`: `recover`, every JOBS_RECOVER_SECONDS on any worker: a job whose worker sent no heartbeat
  for JOBS_STALLED_SECONDS (killed, its machine lost) goes back to `todo`, for another worker.

The periodic jobs' intervals are settings (`pbem.config`), turned into ticks of the clock
(`pbem.config.tick_cron`) when a worker starts (`schedule`): every worker of a fleet, given the
same settings, defers the same ticks, and the database keeps one job per tick.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import threading
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime, timedelta

import procrastinate
from flask import Flask
from procrastinate import exceptions as engine_errors
from procrastinate import periodic
from procrastinate.worker import Worker
from sqlalchemy import select
from sqlalchemy.engine import URL

from pbem.config import tick_cron
from pbem.extensions import db
from pbem.store import jobqueue
from pbem.store.transaction import transaction

log = logging.getLogger(__name__)

MAIL, DUE, BOTS, FLEET = "mail", "due", "bots", "fleet"
SWEEP_AFTER = timedelta(seconds=10)   # a decision owed this long without a job gets one

#: The tasks, as a worker runs them: the worker gives it a connector of its own and passes the
#: Flask app in each job's context.
jobs = procrastinate.App(connector=procrastinate.PsycopgConnector())
#: What defers jobs on a transaction's own connection (never opened: it has no pool, so it
#: cannot defer outside a transaction by mistake).
_deferring = procrastinate.App(connector=procrastinate.SyncPsycopgConnector())


@contextlib.contextmanager
def _flask(context) -> Iterator[Flask]:
    app: Flask = context.additional_context["flask"]
    with app.app_context():
        yield app


@jobs.task(name="deliver", queue=MAIL, pass_context=True)
def deliver(context) -> None:
    from pbem.jobs import tasks
    with _flask(context):
        tasks.deliver()


@jobs.task(name="deliver_poll", queue=MAIL, queueing_lock="deliver_poll", pass_context=True)
def deliver_poll(context, timestamp: int) -> None:
    from pbem.jobs import tasks
    with _flask(context):
        tasks.deliver()


@jobs.task(name="round", queue=DUE, lock="round", queueing_lock="round", pass_context=True)
def round_of_dues(context, timestamp: int) -> None:
    from pbem.jobs import tasks
    with _flask(context):
        report = tasks.round_of_dues(datetime.now(UTC))
    if report.timeouts or report.reminded or report.vacations:
        log.info("round: %d time-outs, %d vacations started, %d addresses reminded",
                 len(report.timeouts), len(report.vacations), len(report.reminded))


@jobs.task(name="think", queue=BOTS, pass_context=True)
def think(context, game_id: str, seat: int, seq: int) -> None:
    from pbem.jobs import tasks
    with _flask(context):
        tasks.think(game_id, seat, seq, exclusive=True)


@jobs.task(name="sweep", queue=BOTS, queueing_lock="sweep", pass_context=True)
def sweep(context, timestamp: int) -> None:
    from pbem.jobs import computers
    with _flask(context):
        now = datetime.now(UTC)
        late = [(w.game.id, w.seat, w.seq) for w in computers.owed(now) if w.since <= now - SWEEP_AFTER]
        busy = _games_with_jobs([game for game, _, _ in late])
        owed = [point for point in late if point[0] not in busy]
        if owed:
            with transaction():
                defer_thinking(db.session, owed)
            log.info("sweep: %d decisions owed without a job given one", len(owed))


@jobs.task(name="recover", queue=FLEET, queueing_lock="recover", pass_context=True)
async def recover(context, timestamp: int) -> None:
    manager = context.app.job_manager
    stalled = await manager.get_stalled_jobs(
        seconds_since_heartbeat=context.additional_context["stalled_seconds"])
    for job in stalled:
        log.warning("job %s (%s) of a worker that stopped answering: to be done again",
                    job.id, job.call_string)
        await manager.retry_job(job)


#: The periodic tasks (each its own periodic id) and the settings of their intervals.
PERIODIC = {"deliver_poll": "JOBS_OUTBOX_SECONDS", "round": "JOBS_ROUND_SECONDS",
            "sweep": "JOBS_SWEEP_SECONDS", "recover": "JOBS_RECOVER_SECONDS"}


def schedule(config) -> periodic.PeriodicRegistry:
    """The periodic tasks at the intervals these settings give (a worker's own registry: the
    tasks' module-level app keeps none, so two workers of one process may differ)."""
    registry = periodic.PeriodicRegistry()
    for name, setting in PERIODIC.items():
        registry.register_task(task=jobs.tasks[name], cron=tick_cron(config[setting]),
                               periodic_id=name, configure_kwargs={})
    return registry


# -- deferring, inside the transaction that causes the work ---------------------------------

def on_postgresql(session) -> bool:
    return bool(session.get_bind().dialect.name == "postgresql")


def _driver(session):
    """The psycopg connection under the session's transaction: a job inserted on it commits
    with the transaction, or not at all."""
    return session.connection().connection.driver_connection


def carry(session, queued: bool, owed: set) -> bool:
    """A commit's work as jobs in the commit (`pbem.mail.wakeup.CARRIERS`), on PostgreSQL."""
    if not on_postgresql(session):
        return False
    if queued:
        defer_delivery(session)
    if owed:
        defer_thinking(session, owed)
    return True


def install() -> None:
    """Commits carry their jobs (once per process)."""
    from pbem.mail import wakeup
    if carry not in wakeup.CARRIERS:
        wakeup.CARRIERS.append(carry)


def defer_delivery(session) -> None:
    """A `deliver` job, in the session's transaction, unless one waits already: a job sends
    every mail due when it starts, so one waiting job serves every commit before it starts
    (under load, one job for many mails: a job costs the workers more than the mail it sends).
    Its queueing lock holds only while it waits; once a worker runs it, the next commit queues
    the next. (A commit that finds one waiting, which a worker starts before that commit ends,
    leaves its mail to the next commit's job or to `deliver_poll`: late, never lost.)"""
    _defer_unless_queued(_driver(session), "deliver", queue=MAIL, queueing_lock="deliver")


def defer_thinking(session, points: Iterable[tuple[str, int, int]]) -> None:
    """A `think` job per decision owed, in the session's transaction. Its queueing lock names
    the point of the log, so a decision waiting for its worker is never queued twice; the game
    is its lock, so one game's decisions are thought about one after another."""
    connection = _driver(session)
    for game_id, seat, seq in sorted(points):
        _defer_unless_queued(connection, "think", queue=BOTS, lock=f"game:{game_id}",
                             queueing_lock=f"think:{game_id}:{seat}:{seq}",
                             game_id=game_id, seat=seat, seq=seq)


def _defer_unless_queued(connection, task: str, queue: str, queueing_lock: str,
                         lock: str | None = None, **arguments) -> None:
    """The task's job on the transaction's connection, unless a job with its queueing lock
    waits already: in a savepoint, so a refused duplicate keeps the rest of the transaction."""
    try:
        with connection.transaction():
            _deferring.configure_task(task, queue=queue, connection=connection, lock=lock,
                                      queueing_lock=queueing_lock).defer(**arguments)
    except engine_errors.AlreadyEnqueued:
        pass


def _games_with_jobs(game_ids: list[str]) -> set[str]:
    if not game_ids:
        return set()
    locks = [f"game:{game_id}" for game_id in game_ids]
    found = db.session.scalars(select(jobqueue.jobs.c.lock).where(
        jobqueue.jobs.c.lock.in_(locks), jobqueue.jobs.c.status.in_(("todo", "doing"))))
    return {lock.removeprefix("game:") for lock in found}


# -- the worker ----------------------------------------------------------------------------

def conninfo(url: URL) -> str:
    """libpq's form of the app's database address (its options, e.g. a search_path, kept)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


class FleetWorker(Worker):
    """procrastinate's worker, deferring the periodic tasks of its own `schedule` (the
    intervals of its app's settings) instead of the tasks' app's registry. procrastinate 3
    reads the registry in one place, `_periodic_deferrer`, overridden here (a private method:
    tests/web/test_job_intervals.py reads the ticks a running worker deferred, and fails if
    another version stops calling it)."""

    def __init__(self, schedule: periodic.PeriodicRegistry, **options) -> None:
        super().__init__(**options)
        self.schedule = schedule

    async def _periodic_deferrer(self) -> None:
        deferrer = periodic.PeriodicDeferrer(registry=self.schedule, **self.app.periodic_defaults)
        return await deferrer.worker()


def new_worker(app: Flask, queues: Iterable[str], concurrency: int = 2,
               install_signal_handlers: bool = True) -> FleetWorker:
    """A worker of these queues (and the fleet's housekeeping), as the app's settings say."""
    config = app.config
    queues = list(queues)
    return FleetWorker(
        schedule=schedule(config), app=jobs,
        queues=[*queues, FLEET], concurrency=concurrency,
        name=f"{socket.gethostname()}:{'+'.join(queues)}",
        update_heartbeat_interval=config["JOBS_HEARTBEAT_SECONDS"],
        stalled_worker_timeout=config["JOBS_STALLED_SECONDS"],
        fetch_job_polling_interval=config["JOBS_POLL_SECONDS"],
        delete_jobs="successful",   # a done job is in the log and the game, not kept here
        additional_context={"flask": app, "stalled_seconds": config["JOBS_STALLED_SECONDS"]},
        install_signal_handlers=install_signal_handlers)


def run_worker(app: Flask, queues: Iterable[str], concurrency: int = 2,
               stop: threading.Event | None = None) -> None:
    """Take jobs of these queues (and the fleet's housekeeping) until stopped: by SIGINT or
    SIGTERM when `stop` is None (the main thread), else when `stop` is set; the jobs running
    are finished first."""
    with app.app_context():
        url = db.engine.url

    async def working() -> None:
        async with jobs.open_async():
            worker = new_worker(app, queues, concurrency, install_signal_handlers=stop is None)
            if stop is not None:
                threading.Thread(target=lambda: (stop.wait(), worker.stop()), daemon=True,
                                 name="pbem-jobs-stop").start()
            await worker.run()

    connector = procrastinate.PsycopgConnector(conninfo=conninfo(url), min_size=1,
                                               max_size=concurrency + 2)
    with jobs.replace_connector(connector):
        asyncio.run(working())
