"""The background work of a server: delivering mail, reminders and time limits, and the
computers' decisions.

The work comes in three queues, so a fleet can split it: `mail` (delivering the outbox, and
the notices of the other channels),
`due` (reminders, time limits and digests, read from the index of what is due) and `bots` (the
computers' decisions). `flask --app pbem worker --queues bots` on another machine thinks for
the computers only; a worker runs all three unless told otherwise.

A commit that queues mail wakes the sender at once (`pbem.mail.wakeup`); otherwise it looks
every few seconds. `flask --app pbem worker` runs it in the foreground (one per deployment, or
several: senders claim mails with SKIP LOCKED on PostgreSQL, a computer's decision is
thought about by the worker that claimed it, and appended once, by the database key);
`serve` runs it in a thread of the web process on one machine. The computers play in a thread
of their own (`pbem.jobs.computers.loop`), so a computer that thinks never holds up a mail.
"""

from __future__ import annotations

import logging
import threading
import time

from pbem.extensions import db
from pbem.jobs import computers, digest, reminders
from pbem.mail.channel_send import deliver_notices
from pbem.mail.deliver import deliver_due
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


def work(app, stop: threading.Event, deliver_every: float = 2.0, remind_every: float = 300.0,
         bots_every: float = 1.0, serving: frozenset[str] = frozenset(QUEUES)) -> None:
    """Deliver every few seconds and run reminders every few minutes, until `stop` is set; the
    computers play in a thread beside it (every `bots_every` seconds; 0: not here). `serving`
    says which queues this worker takes: the others are left to other workers."""
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
                    deliver_due()
                    deliver_notices()   # the other channels' notices, after their mails
                if DUE in serving and time.monotonic() >= next_remind:
                    reminders.run()
                    digest.run()   # daily digests for addresses that asked for them
                    next_remind = time.monotonic() + remind_every
                waker = waker or Waker(db.engine)
            waker.wait(deliver_every)   # until a commit queues mail, or the next poll
        except Exception:   # keep working: the mail stays in the outbox, the next round retries
            log.exception("background work failed; trying again")
            if waker is not None:   # (its connection may be what failed: a new one next round)
                waker.close()
                waker = None
            stop.wait(deliver_every)


def start_in_background(app, **intervals) -> threading.Event:
    """The same loop in a daemon thread; set the returned event to stop it."""
    stop = threading.Event()
    threading.Thread(target=work, args=(app, stop), kwargs=intervals, name="pbem-worker",
                     daemon=True).start()
    return stop
