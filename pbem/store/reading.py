"""Requests that only read: a page, its JSON, a preview.

Such a request says so (`reads_only`, before it reads anything), and then reads outside any
transaction, as nothing it reads must be consistent with a write of its own:

- its statements, the game and the seat's facts (`gamelog.load`, `facts.page_facts`), run on
  a pooled connection of its own (`rows`): the ORM session's setup and teardown would cost a
  page more CPU than the statements themselves;
- anything else it reads through the session runs in autocommit too (`Session.get_bind`):
  on PostgreSQL no BEGIN and ROLLBACK round trips; SQLite's driver begins no transaction for a
  read anyway.

Every other request reads through the session, in the transaction of its use case.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from typing import Any

from flask import g, has_request_context
from flask_sqlalchemy.session import Session as FlaskSession
from sqlalchemy import Engine, Row
from sqlalchemy.sql import Executable

_FLAG = "pbem_reads_only"


def reads_only() -> None:
    """This request only reads (set before its first query)."""
    setattr(g, _FLAG, True)


def _reading() -> bool:
    return has_request_context() and g.get(_FLAG, False)


def rows(statement: Executable, params: Mapping[str, Any]) -> Sequence[Row]:
    """The statement's rows: on a connection of its own in a request that only reads, unless
    its session is already in a transaction (a test that shares its session with the request
    sees its own writes); else through the session, in its transaction."""
    from pbem.extensions import db  # (made with this module's `Session`)
    if _reading() and not (db.session.registry.has() and db.session().in_transaction()):
        with _autocommit(db.engine).connect() as connection:
            return connection.execute(statement, params).all()
    return db.session.execute(statement, params).all()


_AUTOCOMMIT: weakref.WeakKeyDictionary[Engine, Engine] = weakref.WeakKeyDictionary()


def _autocommit(engine: Engine) -> Engine:
    """The engine whose connections (the same pool's) run in autocommit, made once."""
    if engine.dialect.name == "sqlite":
        return engine   # (switching its driver to autocommit and back would cost more)
    made = _AUTOCOMMIT.get(engine)
    if made is None:
        made = _AUTOCOMMIT[engine] = engine.execution_options(isolation_level="AUTOCOMMIT")
    return made


class Session(FlaskSession):
    """The app's session: in a request that only reads, on an autocommit connection."""

    def get_bind(self, *args, **kwargs):
        bind = super().get_bind(*args, **kwargs)
        if isinstance(bind, Engine) and _reading():
            return _autocommit(bind)
        return bind
