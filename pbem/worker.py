"""The background work of a server: delivering mail, reminders and time limits.

`flask --app pbem worker` runs it in the foreground (one per deployment, or
several: senders claim mails with SKIP LOCKED on PostgreSQL); `serve` runs it
in a thread of the web process on one machine.
"""

from __future__ import annotations

import logging
import threading
import time

from . import reminders
from .mail.deliver import deliver_due

log = logging.getLogger(__name__)


def work(app, stop: threading.Event, deliver_every: float = 2.0, remind_every: float = 300.0) -> None:
    """Deliver every few seconds and run reminders every few minutes, until `stop` is set."""
    next_remind = 0.0
    while not stop.is_set():
        try:
            with app.app_context():
                deliver_due()
                if time.monotonic() >= next_remind:
                    reminders.run()
                    next_remind = time.monotonic() + remind_every
        except Exception:   # keep working: the mail stays in the outbox, the next round retries
            log.exception("background work failed; trying again")
        stop.wait(deliver_every)


def start_in_background(app, **intervals) -> threading.Event:
    """The same loop in a daemon thread; set the returned event to stop it."""
    stop = threading.Event()
    threading.Thread(target=work, args=(app, stop), kwargs=intervals, name="pbem-worker",
                     daemon=True).start()
    return stop
