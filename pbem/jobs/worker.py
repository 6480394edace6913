"""The background work of a server: delivering mail, reminders and time limits, and the
computers' decisions.

The work comes in three queues, so a fleet can split it: `mail` (delivering the outbox, and
the notices of the other channels), `due` (reminders, time limits and digests, read from the
index of what is due) and `bots` (the computers' decisions). `flask --app pbem worker --queues
bots` on another machine thinks for the computers only; a worker runs all three unless told
otherwise.

Two runners, one set of tasks (`pbem.jobs.tasks`):
- On PostgreSQL, procrastinate (`pbem.jobs.engine`): jobs deferred by the commits that cause
  them, taken by any number of workers on any machines, each job by one worker.
- On SQLite (one process, `make run`), the loop below in threads: a commit that queues mail or
  makes a computer's decision owed wakes it at once (`pbem.mail.wakeup`), else it looks every
  few seconds. The computers play in a thread of their own (`pbem.jobs.computers.loop`), so a
  computer that thinks never holds up a mail.
`serve` and `serve-production` run their database's runner in a thread of the web process.
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import UTC, datetime

from pbem.extensions import db
from pbem.jobs import computers, engine, tasks
from pbem.mail.wakeup import Waker

log = logging.getLogger(__name__)

MAIL, DUE, BOTS = "mail", "due", "bots"
QUEUES = (MAIL, DUE, BOTS)   # in the order a worker names them


def queues(text: str) -> frozenset[str]:
    """The queues named in "mail,due" (ValueError names one that is not a queue)."""
    names = {name.strip() for name in text.split(",") if name.strip()}
    unknown = sorted(names - set(QUEUES))
    if unknown or not names:
        raise ValueError(f"queues are {', '.join(QUEUES)}; not {', '.join(unknown) or 'none'}")
    return frozenset(names)


def on_postgresql(app) -> bool:
    with app.app_context():
        return db.engine.dialect.name == "postgresql"


def ordered(serving: frozenset[str]) -> list[str]:
    return [name for name in QUEUES if name in serving]


def work(app, stop: threading.Event, deliver_every: float = 2.0, remind_every: float | None = None,
         bots_every: float = 1.0, serving: frozenset[str] = frozenset(QUEUES)) -> None:
    """The loop of one process (SQLite): deliver every few seconds and run the round of what
    is due every `remind_every` seconds (default: JOBS_ROUND_SECONDS, the job engine's round),
    until `stop` is set; the computers play in a thread beside it (every `bots_every` seconds;
    0: not here). `serving` says which queues this worker takes."""
    if remind_every is None:
        remind_every = float(app.config["JOBS_ROUND_SECONDS"])
    if BOTS not in serving:
        bots_every = 0
    players = None
    if bots_every:
        players = threading.Thread(target=computers.loop, args=(app, stop, bots_every),
                                   name="pbem-bots", daemon=True)
        players.start()
    try:
        if MAIL in serving or DUE in serving:
            _deliver_and_remind(app, stop, deliver_every, remind_every, serving)
        else:
            stop.wait()   # a worker for the computers only: their thread does the work
    finally:
        stop.set()
        if players is not None:
            players.join(timeout=30)


def _deliver_and_remind(app, stop: threading.Event, deliver_every: float,
                        remind_every: float, serving: frozenset[str]) -> None:
    next_remind = 0.0
    waker = None
    while not stop.is_set():
        try:
            with app.app_context():
                if MAIL in serving:
                    tasks.deliver()
                if DUE in serving and time.monotonic() >= next_remind:
                    tasks.round_of_dues(datetime.now(UTC))
                    next_remind = time.monotonic() + remind_every
                waker = waker or Waker()
            waker.wait(deliver_every)   # until a commit queues mail, or the next poll
        except Exception:   # keep working: the mail stays in the outbox, the next round retries
            log.exception("background work failed; trying again")
            stop.wait(deliver_every)


def start_in_background(app, **intervals) -> threading.Event:
    """The database's runner in a daemon thread (on PostgreSQL a procrastinate worker of every
    queue: the intervals are the loop's); set the returned event to stop it."""
    stop = threading.Event()
    if on_postgresql(app):
        thread = threading.Thread(target=engine.run_worker, args=(app, QUEUES),
                                  kwargs={"stop": stop}, name="pbem-worker", daemon=True)
    else:
        thread = threading.Thread(target=work, args=(app, stop), kwargs=intervals,
                                  name="pbem-worker", daemon=True)
    thread.start()
    return stop
