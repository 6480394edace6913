"""Mail leaves at once: a commit that queued mail (or a channel's notice) wakes the
senders, so a turn's next mail does not wait for the worker's next poll.

On PostgreSQL the commit carries `NOTIFY pbem_mail` (sent by the database when, and only if,
the transaction commits) and every worker, on any machine, LISTENs on its own connection; on
SQLite (one process) an event in memory does the same. The poll stays as the safety net: a
mail whose wake-up was lost (a worker restarting) leaves at the next one.
"""

from __future__ import annotations

import threading

from sqlalchemy import event, text
from sqlalchemy.orm import Session

from pbem.store.models import Mail, Notice

CHANNEL = "pbem_mail"
_QUEUED = "pbem.mail.queued"   # the session's info key: this transaction queued mail
_here = threading.Event()       # a commit in this process queued mail


def _note(session: Session, _context, _instances) -> None:
    if any(isinstance(row, (Mail, Notice)) for row in session.new):
        session.info[_QUEUED] = True


def _tell(session: Session) -> None:
    """Before the commit: on PostgreSQL, the NOTIFY goes out with it."""
    session.flush()
    if session.info.get(_QUEUED) and session.get_bind().dialect.name == "postgresql":
        session.execute(text(f"NOTIFY {CHANNEL}"))


def _told(session: Session) -> None:
    if session.info.pop(_QUEUED, False):
        _here.set()


def _forget(session: Session, *_args) -> None:
    session.info.pop(_QUEUED, None)


def install(session_class) -> None:
    """Wake the senders at every commit of sessions of this class that queued mail."""
    if not event.contains(session_class, "before_flush", _note):
        event.listen(session_class, "before_flush", _note)
        event.listen(session_class, "before_commit", _tell)
        event.listen(session_class, "after_commit", _told)
        event.listen(session_class, "after_rollback", _forget)


class Waker:
    """What a sender waits on between rounds: mail queued by a commit, or `timeout` seconds."""

    def __init__(self, engine):
        _here.clear()   # (what was queued before is sent by the round before the first wait)
        self._listening = None
        if engine.dialect.name == "postgresql":
            raw = engine.raw_connection()
            connection = raw.driver_connection
            raw.detach()   # its own for as long as the worker runs, outside the pool
            connection.rollback()
            connection.autocommit = True
            connection.execute(f"LISTEN {CHANNEL}")
            self._listening = connection

    def wait(self, timeout: float) -> bool:
        """Whether mail was queued (False: the time ran out)."""
        if _here.is_set():
            _here.clear()
            return True
        if self._listening is None:
            woke = _here.wait(timeout)
            _here.clear()
            return woke
        woke = any(True for _ in self._listening.notifies(timeout=timeout, stop_after=1))
        _here.clear()
        return woke

    def close(self) -> None:
        if self._listening is not None:
            self._listening.close()
