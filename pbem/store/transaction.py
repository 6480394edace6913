"""One use case, one transaction: everything a use case writes commits together, or nothing does.

The use cases (`turns`, `addresses`, `inbox`, `operations`) write inside `transaction()`; no
other code commits. So an event and the mails it causes, a mail reply and its effect, a
counted request and its refusal are committed together by construction, not by convention.

What a transaction read more than once it may keep until it ends (`remembered`), never longer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar, cast

from sqlalchemy import event
from sqlalchemy.engine import CursorResult, Result
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import ORMExecuteState, Session, SessionTransaction
from sqlalchemy.sql.elements import TextClause

from pbem.errors import AlreadySubmitted
from pbem.extensions import db
from pbem.games.phrases import phrase

T = TypeVar("T")


@contextmanager
def transaction() -> Iterator[None]:
    """Commit what the block wrote; roll it all back if the block (or the commit) fails.

    A unique key refused at the commit means another writer was first (the same point of a
    game's log, the same mail ingested twice): that is AlreadySubmitted.
    """
    try:
        yield
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise AlreadySubmitted(phrase("This turn was already submitted.")) from None
    except BaseException:
        db.session.rollback()
        raise


def changed(result: Result) -> int:
    """How many rows an UPDATE or DELETE changed (its cursor's row count)."""
    return result.rowcount if isinstance(result, CursorResult) else 0


# -- what a transaction read once --------------------------------------------------------
#
# A use case reads some rows again and again: a submission asked for the seat's row eight
# times (its computer, its address, its language, for the checks and for each mail). Such
# reads are kept in the session for the rest of the transaction that made them, never longer:
# the next transaction reads them anew, so an address the operator corrected or a seat a
# computer took over is seen by the next request. A write to a table a kept read came from
# (through this session) forgets it at once, so the transaction reads its own writes.

_READ = "pbem.read"   # in `Session.info`: {key: (tables, value)}


def remembered(key: tuple, tables: tuple[str, ...], read: Callable[[], T]) -> T:
    """`read()`, made once per transaction for this key; `tables`: what it reads from."""
    kept = db.session.info.setdefault(_READ, {})
    if key not in kept:
        value = read()
        kept[key] = (tables, value)
        return value
    return cast(T, kept[key][1])


def keep(key: tuple, tables: tuple[str, ...], value: object) -> None:
    """What a read that must be fresh (a locking one) saw: later reads of the key see it too."""
    db.session.info.setdefault(_READ, {})[key] = (tables, value)


def forget(written: Iterable[str] | None = None, session: Session | None = None) -> None:
    """Forget what was read from these tables (None: everything) in this transaction."""
    kept = (session or db.session).info.get(_READ)
    if not kept:
        return
    if written is None:
        kept.clear()
        return
    written = set(written)
    for key in [key for key, (tables, _) in kept.items() if written.intersection(tables)]:
        del kept[key]


_WRITES = "pbem_writes"   # a textual statement's execution option: the tables it writes


def writing(statement: TextClause, *tables: str) -> TextClause:
    """Plain SQL that writes `tables`: when it runs, what was read from them is forgotten, and
    nothing else (a textual write that names no tables forgets every read, as its tables are
    not known)."""
    return statement.execution_options(**{_WRITES: tables})


def _ended(session: Session, *args) -> None:
    forget(session=session)


def _root_ended(session: Session, ended: SessionTransaction) -> None:
    if ended.parent is None:   # (closed without a commit or a rollback too)
        forget(session=session)


def _added(session: Session, row: object) -> None:
    """A row added to the session forgets its table's reads at once, not at its flush: a kept
    read answers without a query, so nothing would flush it before the stale answer."""
    forget({type(row).__table__.name}, session)   # type: ignore[attr-defined]


def _flushed(session: Session, context) -> None:
    forget({type(row).__table__.name for row in (*session.new, *session.dirty, *session.deleted)},
           session)


def _executed(state: ORMExecuteState) -> None:
    """An INSERT, UPDATE or DELETE statement through the session forgets its table's reads;
    a textual one that is no SELECT forgets the tables it says it writes (`writing`), or all
    of them when it says none."""
    statement = state.statement
    if state.is_insert or state.is_update or state.is_delete:
        forget({statement.table.name}, state.session)   # type: ignore[attr-defined]
    elif isinstance(statement, TextClause) and not statement.text.lstrip()[:6].upper() == "SELECT":
        forget(state.execution_options.get(_WRITES) or None, state.session)   # (none named: all)


for _name in ("after_commit", "after_rollback", "after_soft_rollback"):
    event.listen(db.session, _name, _ended)
event.listen(db.session, "after_transaction_end", _root_ended)
event.listen(db.session, "transient_to_pending", _added)
event.listen(db.session, "after_flush", _flushed)
event.listen(db.session, "do_orm_execute", _executed)
