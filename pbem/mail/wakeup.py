"""Work leaves at once: a commit that queued mail (or a channel's notice), or made a
computer's decision owed, wakes the workers, so a turn's next mail and a computer's answer do
not wait for a poll.

On PostgreSQL the commit carries the jobs themselves: a `deliver` job and a `think` job per
decision owed, inserted on the transaction's connection by the job engine, which registers in
`CARRIERS` (`pbem.jobs.engine.carry`: the jobs floor is above this one), so they exist if and
only if the transaction commits; procrastinate's NOTIFY wakes a worker on any machine. On
SQLite (one process) events in memory wake the loop's sender and its computers. The polls stay
as the safety net: mail whose attempt was put off to later leaves at the next one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from sqlalchemy import event
from sqlalchemy.orm import Session

from pbem.policy import due
from pbem.store.models import Mail, Notice

_QUEUED = "pbem.mail.queued"   # the session's info key: this transaction queued mail
_here = threading.Event()       # a commit in this process queued mail
computers_owed = threading.Event()   # ... or made a computer's decision owed


def _note(session: Session, _context, _instances) -> None:
    if any(isinstance(row, (Mail, Notice)) for row in session.new):
        session.info[_QUEUED] = True


#: What carries a commit's work in the commit itself (the job engine on PostgreSQL): called
#: with the session, whether it queued mail, and the computers' decisions it made owed; True
#: when it took the work (then nothing is woken in this process).
CARRIERS: list[Callable[[Session, bool, set], bool]] = []


def _tell(session: Session) -> None:
    """Before the commit (after the dues' hook, which notes the computers owed): a carrier
    puts the work in with it."""
    session.flush()
    queued, owed = session.info.get(_QUEUED, False), session.info.get(due.COMPUTERS) or set()
    if (queued or owed) and any(carry(session, queued, owed) for carry in CARRIERS):
        session.info.pop(_QUEUED, None)
        session.info.pop(due.COMPUTERS, None)


def _told(session: Session) -> None:
    if session.info.pop(_QUEUED, False):
        _here.set()
    if session.info.pop(due.COMPUTERS, None):
        computers_owed.set()


def _forget(session: Session, *_args) -> None:
    session.info.pop(_QUEUED, None)
    session.info.pop(due.COMPUTERS, None)


def install(session_class) -> None:
    """Wake the senders at every commit of sessions of this class that queued mail."""
    if not event.contains(session_class, "before_flush", _note):
        event.listen(session_class, "before_flush", _note)
        event.listen(session_class, "before_commit", _tell)
        event.listen(session_class, "after_commit", _told)
        event.listen(session_class, "after_rollback", _forget)


class Waker:
    """What the loop's sender waits on between rounds (SQLite, one process): mail queued by a
    commit, or `timeout` seconds."""

    def __init__(self):
        _here.clear()   # (what was queued before is sent by the round before the first wait)

    def wait(self, timeout: float) -> bool:
        """Whether mail was queued (False: the time ran out)."""
        woke = _here.wait(timeout)
        _here.clear()
        return woke
