"""Bounded waits for the database: a request never waits on it for longer than a few seconds.

A database that is slow or locked is PostgreSQL's to limit: `statement_timeout` cancels a
statement that runs too long, and the request answers 503 (QueryCanceled is an OperationalError).
A database the network stopped answering (a black hole: packets vanish, nothing is refused) is
not: the server never sees the statement, so it never cancels it, and the request would hang
until gunicorn kills its worker. The client gives up by itself:

- `connect_timeout` (psycopg, client side): a connection attempt ends after it;
- TCP keepalives and `tcp_user_timeout`: the kernel drops a connection whose data or keepalive
  probes stay unacknowledged that long (a host or link that went dark);
- a watchdog, for what the kernel cannot see (a proxy, tunnel or pooler in between that still
  acknowledges but forwards nothing): each wait of psycopg for the database (a statement, a
  commit, a rollback) is given the statement timeout plus WATCHDOG_MARGIN (time for the
  server's own cancellation to arrive first); past that the watchdog shuts the connection's
  socket down, psycopg raises OperationalError, and SQLAlchemy drops the pool's connections
  (the next request connects afresh).

SQLite waits for a lock at most the statement timeout ("database is locked", also a 503).
A statement timeout of 0 lifts the statement limits, not the others; a migration lifts them
by itself (`unlimited`: migrations/env.py), as building an index may take longer.

The defaults (2 s to connect, 2 s a statement, + 0.5 s) answer a request whose database does
not answer with 503 within 3 s of its start: a silent database held each request 5 to 15 s
before (connect 5, statement 10 + 5), and two workers answered 14 requests in a 45 s outage.
"""

from __future__ import annotations

import itertools
import os
import socket
import threading
import time
from contextlib import contextmanager

from sqlalchemy import event
from sqlalchemy.engine import make_url

FOREVER = 24 * 3600.0   # SQLite's "no limit": its timeout 0 would mean "do not wait at all"
CONNECT_SECONDS = 2       # DATABASE_CONNECT_TIMEOUT's default (libpq's least)
STATEMENT_SECONDS = 2     # DATABASE_STATEMENT_TIMEOUT's default
WATCHDOG_MARGIN = 0.5     # seconds past the statement timeout before the watchdog cuts


def engine_options(config) -> dict:
    """SQLAlchemy engine options with the timeouts of DATABASE_*_TIMEOUT."""
    url = config["SQLALCHEMY_DATABASE_URI"]
    statement = float(config.get("DATABASE_STATEMENT_TIMEOUT", STATEMENT_SECONDS))
    connect = int(config.get("DATABASE_CONNECT_TIMEOUT", CONNECT_SECONDS))
    if url.startswith("sqlite"):
        return {"connect_args": {"timeout": statement or FOREVER}}
    # No pre-ping: it costs a round trip on every request. A connection the database dropped
    # fails its request (503), SQLAlchemy then discards the pool's stale connections, and the
    # next request connects afresh.
    return {"pool_pre_ping": False, "connect_args": postgresql_connect_args(url, connect, statement)}


def postgresql_connect_args(url: str, connect: int, statement: float) -> dict:
    settings = []
    if statement:
        settings.append(f"-c statement_timeout={round(statement * 1000)}")
    # connect_args replace the URL's own parameters of the same name: keep its options
    # (e.g. a search_path), after ours, so that the URL can still override a timeout.
    own = make_url(url).query.get("options")
    if own:
        settings.extend(own if isinstance(own, tuple) else [own])
    args: dict[str, int | str] = {
        "connect_timeout": connect,
        "keepalives": 1,
        "keepalives_idle": connect,
        "keepalives_interval": max(1, connect // 3),
        "keepalives_count": 3,
        "tcp_user_timeout": connect * 1000,
    }
    if settings:
        args["options"] = " ".join(settings)
    return args


def guard(engine, config) -> None:
    """Give every wait of the engine's psycopg connections a deadline (PostgreSQL only)."""
    if engine.dialect.name != "postgresql" or engine.dialect.driver != "psycopg":
        return
    statement = float(config.get("DATABASE_STATEMENT_TIMEOUT", STATEMENT_SECONDS))
    if not statement:
        return
    limit = statement + WATCHDOG_MARGIN
    connection_class = _guarded_connection_class()

    @event.listens_for(engine, "do_connect")
    def connect(dialect, record, cargs, cparams):
        conn = connection_class.connect(*cargs, **cparams)
        conn.pbem_wait_limit = limit
        return conn


@contextmanager
def unlimited(connection):
    """No statement limit on this connection while the block runs (a migration: building an
    index may take longer than a page's statement); as configured again afterwards."""
    if connection.dialect.name != "postgresql":
        yield
        return
    raw = connection.connection.driver_connection
    limit = getattr(raw, "pbem_wait_limit", None)
    raw.pbem_wait_limit = None
    connection.exec_driver_sql("SET statement_timeout = 0")
    connection.commit()   # (a session setting; and the migration begins its own transaction)
    try:
        yield
    finally:
        connection.rollback()   # (nothing of the migration's: it committed, or failed)
        connection.exec_driver_sql("RESET statement_timeout")   # to the connection's own setting
        connection.commit()
        raw.pbem_wait_limit = limit


_CLASS = None


def _guarded_connection_class():
    global _CLASS
    if _CLASS is None:
        import psycopg

        class GuardedConnection(psycopg.Connection):
            """A psycopg connection whose waits for the server end at a deadline."""

            pbem_wait_limit: float | None = None

            def wait(self, gen, *args, **kwargs):
                limit = self.pbem_wait_limit
                if not limit:
                    return super().wait(gen, *args, **kwargs)
                token = WATCHDOG.arm(self, limit)
                try:
                    result = super().wait(gen, *args, **kwargs)
                except psycopg.OperationalError as error:
                    if WATCHDOG.disarm(token):
                        self.close()
                        raise psycopg.OperationalError(
                            f"the database did not answer within {limit:g} s") from error
                    raise
                except BaseException:
                    if WATCHDOG.disarm(token):
                        self.close()
                    raise
                if WATCHDOG.disarm(token):   # cut just as the answer came: unusable now
                    self.close()
                return result

        _CLASS = GuardedConnection
    return _CLASS


class Watchdog:
    """One thread per process that cuts the connections whose wait outlasted its deadline."""

    TICK = 0.2

    def __init__(self):
        self._reset()

    def _reset(self) -> None:
        """Also in a forked child (gunicorn's workers): the parent's thread did not come along."""
        self._lock = threading.Lock()
        self._waits: dict[int, list] = {}   # token -> [deadline, connection, cut]
        self._tokens = itertools.count()
        self._thread: threading.Thread | None = None

    def arm(self, conn, limit: float) -> int:
        token = next(self._tokens)
        with self._lock:
            self._waits[token] = [time.monotonic() + limit, conn, False]
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="pbem-db-watchdog", daemon=True)
                self._thread.start()
        return token

    def disarm(self, token: int) -> bool:
        """End a wait; True when the watchdog cut it."""
        with self._lock:
            entry = self._waits.pop(token, None)
        return bool(entry and entry[2])

    def _run(self) -> None:
        while True:
            time.sleep(self.TICK)
            now = time.monotonic()
            with self._lock:   # held while cutting: a wait cannot end and free its socket meanwhile
                for entry in self._waits.values():
                    if not entry[2] and entry[0] <= now:
                        entry[2] = True
                        _cut(entry[1])


def _cut(conn) -> None:
    """Shut the connection's socket down: psycopg's wait wakes up to a closed connection."""
    try:
        fd = os.dup(conn.pgconn.socket)
    except Exception:   # already closed
        return
    sock = socket.socket(fileno=fd)
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    finally:
        sock.close()


WATCHDOG = Watchdog()
os.register_at_fork(after_in_child=WATCHDOG._reset)
