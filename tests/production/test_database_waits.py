"""A database that stops answering costs a request a few seconds and a 503, never a hang.

PostgreSQL is reached through a TCP proxy on loopback (a thread of the test) that can turn into a
black hole: it keeps every connection open, new ones too, and forwards nothing, either way, as
a network that drops packets. Requests through the app (Flask's test client) must answer 503
with Retry-After within a bound, and work again, without a restart, once the proxy forwards.
A statement past DATABASE_STATEMENT_TIMEOUT (a lock held elsewhere) is a 503 too, on PostgreSQL
(QueryCanceled) and on SQLite (its busy timeout). The bounds are bounds, not benchmarks.
"""

from __future__ import annotations

import socket
import sqlite3
import threading
import time

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from pbem.extensions import db
from pbem.policy import links
from pbem.store.waits import engine_options
from pbem_web import confirm  # tests/helpers

JSON = {"Accept": "application/json"}
BOUND = 15.0          # seconds: "within a few seconds", generously
TIMEOUTS = {"DATABASE_CONNECT_TIMEOUT": 2, "DATABASE_STATEMENT_TIMEOUT": 2}
UNLIMITED = {"SUBMISSIONS_PER_CLIENT_PER_MINUTE": 10**6, "SUBMISSIONS_PER_ADDRESS_PER_MINUTE": 10**6,
             "PREVIEWS_PER_CLIENT_PER_MINUTE": 10**6}


def postgresql_only(database_url: str) -> None:
    if database_url.startswith("sqlite"):
        pytest.skip("needs PostgreSQL (set PBEM_TEST_DATABASE_URL); the SQLite run is skipped")


class BlackHoleProxy:
    """A TCP proxy on loopback to the database that can stop forwarding, as a black hole does.

    Forwarding, it copies bytes both ways. In black hole mode it keeps accepting and holding
    connections but drops every byte, both ways, and connects nothing upstream. Back to
    forwarding, the connections that lost bytes are closed (their streams are broken, as a real
    black hole ends them by TCP timeouts); new ones are forwarded again."""

    def __init__(self, target: tuple[str, int]):
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.holed = threading.Event()
        self.lock = threading.RLock()
        self.pairs: list[dict] = []
        self.accepted_in_hole = 0
        self.running = True
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        self.listener.settimeout(0.1)
        while self.running:
            try:
                client, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            pair = {"client": client, "upstream": None, "broken": False}
            if not self.holed.is_set():
                try:
                    pair["upstream"] = socket.create_connection(self.target, timeout=5)
                except OSError:
                    client.close()
                    continue
            else:
                pair["broken"] = True
                self.accepted_in_hole += 1
            with self.lock:
                self.pairs.append(pair)
            threading.Thread(target=self._pump, args=(pair, "client", "upstream"), daemon=True).start()
            if pair["upstream"] is not None:
                threading.Thread(target=self._pump, args=(pair, "upstream", "client"), daemon=True).start()

    def _pump(self, pair: dict, source: str, sink: str) -> None:
        src = pair[source]
        src.settimeout(0.1)
        while self.running:
            try:
                data = src.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                break
            if not data:
                break
            if self.holed.is_set() or pair["broken"]:
                pair["broken"] = True        # dropped: this stream can never be whole again
                continue
            try:
                pair[sink].sendall(data)
            except OSError:
                break
        self._close(pair)

    def _close(self, pair: dict) -> None:
        for end in ("client", "upstream"):
            s = pair[end]
            if s is None:
                continue
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()
        with self.lock:
            if pair in self.pairs:
                self.pairs.remove(pair)

    def black_hole(self) -> None:
        self.holed.set()

    def forward(self) -> None:
        with self.lock:
            lived_through_the_hole = list(self.pairs)
        for pair in lived_through_the_hole:
            self._close(pair)
        self.holed.clear()

    def held(self) -> int:
        with self.lock:
            return len(self.pairs)

    def stop(self) -> None:
        self.running = False
        self.listener.close()
        with self.lock:
            pairs = list(self.pairs)
        for pair in pairs:
            self._close(pair)


@pytest.fixture
def proxied(database_url, make_app):
    """An app whose database is reached through a BlackHoleProxy (PostgreSQL only)."""
    yield from proxied_app(database_url, make_app, TIMEOUTS)


@pytest.fixture
def proxied_by_default(database_url, make_app):
    """The same, with the timeouts' defaults (what a server gets that sets none)."""
    yield from proxied_app(database_url, make_app, {})


def proxied_app(database_url, make_app, timeouts: dict):
    postgresql_only(database_url)
    real = make_url(database_url)
    proxy = BlackHoleProxy((real.host or "127.0.0.1", real.port or 5432))
    url = real.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    app = make_app(url, **UNLIMITED, **timeouts)
    try:
        yield app, proxy
    finally:
        proxy.forward()
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
        proxy.stop()


def new_game(client) -> str:
    body = {"game": "babel", "first": "0", "name0": "Anna", "email0": "anna@example.org",
            "name1": "Bob", "email1": "bob@example.org"}
    response = client.post("/games", json=body)
    assert response.status_code == 202, response.get_json()
    return confirm(client, response.get_json()["game"])


def timed(call):
    started = time.monotonic()
    response = call()
    return response, time.monotonic() - started


def assert_503(response) -> None:
    assert response.status_code == 503, response.data[:300]
    assert response.headers["Retry-After"] == "30"


def test_a_black_holed_database_answers_503_within_seconds_and_recovers(proxied):
    app, proxy = proxied
    client = app.test_client()
    game_id = new_game(client)
    with app.app_context():
        path = links.path(links.TURN, game_id, 0, 0)
    assert client.get(path).status_code == 200           # the pool holds connections now
    assert proxy.held() >= 1

    proxy.black_hole()
    # A pooled connection: the statement goes into the hole; the watchdog gives up on it.
    response, took = timed(lambda: client.get(path))
    assert_503(response)
    assert took < BOUND, took
    # A fresh connection: the hole accepts it and never answers; connect_timeout gives up.
    response, took = timed(lambda: client.get(path, headers=JSON))
    assert_503(response)
    assert "cannot be reached" in response.get_json()["error"]
    assert took < BOUND, took
    response, took = timed(lambda: client.post("/links", json={"email": "anna@example.org"}))
    assert_503(response)
    assert took < BOUND, took

    proxy.forward()
    assert client.get(path).status_code == 200
    view = client.get(path, headers=JSON).get_json()
    assert view["can_act"] is True and view["seq"] == 0


#: A request whose database does not answer is answered within this of its start.
PROMISED = 3.0


def test_by_default_a_silent_database_answers_503_within_3_seconds(proxied_by_default):
    """Before, each request waited 5 to 15 s (connect 5; statement 10 + 5) for its 503: two
    workers answered 14 requests in a 45 s outage."""
    app, proxy = proxied_by_default
    assert (app.config["DATABASE_CONNECT_TIMEOUT"], app.config["DATABASE_STATEMENT_TIMEOUT"]) == (2, 2)
    client = app.test_client()
    game_id = new_game(client)
    with app.app_context():
        path = links.path(links.TURN, game_id, 0, 0)
    assert client.get(path).status_code == 200
    proxy.black_hole()
    for ask in (lambda: client.get(path),                        # a pooled connection, cut
                lambda: client.get(path, headers=JSON),          # a fresh one, never answered
                lambda: client.post("/links", json={"email": "anna@example.org"})):
        response, took = timed(ask)
        assert_503(response)
        assert took < PROMISED, took
    proxy.forward()
    assert client.get(path).status_code == 200


def test_by_default_a_lock_held_elsewhere_answers_503_within_3_seconds(database_url, make_app):
    """On both databases: PostgreSQL cancels the statement, SQLite stops waiting for its lock."""
    app = make_app(**UNLIMITED)
    client = app.test_client()
    game_id = new_game(client)
    with app.app_context():
        path = links.path(links.TURN, game_id, 0, 0)
    assert client.get(path).status_code == 200
    with holding_locks(database_url):
        response, took = timed(lambda: client.get(path, headers=JSON))
    assert_503(response)
    assert 1.0 < took < PROMISED, took
    assert client.get(path, headers=JSON).get_json()["can_act"] is True


def test_a_migration_is_not_held_to_the_statement_timeout(database_url, make_app):
    """`db upgrade` may build an index for longer than a page's statement may take."""
    postgresql_only(database_url)
    from pbem.store.waits import unlimited
    app = make_app(DATABASE_STATEMENT_TIMEOUT=1)
    with app.app_context():
        with db.engine.connect() as conn:
            with unlimited(conn):
                conn.execute(text("SELECT pg_sleep(1.5)"))        # past 1 s: not cancelled
            assert conn.execute(text("SHOW statement_timeout")).scalar() == "1s"
            with pytest.raises(OperationalError):
                conn.execute(text("SELECT pg_sleep(1.5)"))
        db.engine.dispose()


class holding_locks:
    """Another connection holds the tables a page reads (a migration, a stuck transaction)."""

    def __init__(self, database_url: str):
        self.url = database_url

    def __enter__(self):
        if self.url.startswith("sqlite"):
            self.holder = sqlite3.connect(make_url(self.url).database, isolation_level=None)
            self.holder.execute("BEGIN EXCLUSIVE")
        else:
            import psycopg
            real = make_url(self.url).set(drivername="postgresql")
            self.holder = psycopg.connect(real.render_as_string(hide_password=False))
            self.holder.execute("LOCK TABLE games, seats, seat_nonces, events IN ACCESS EXCLUSIVE MODE")
        return self

    def __exit__(self, *exc):
        self.holder.rollback()
        self.holder.close()


def test_a_fresh_connection_to_a_black_hole_fails_within_the_connect_timeout(proxied):
    app, proxy = proxied
    with app.app_context():
        db.engine.dispose()                       # no pooled connection: a fresh one, into the hole
    proxy.black_hole()
    with app.app_context():
        started = time.monotonic()
        with pytest.raises(OperationalError):
            with db.engine.connect() as conn:
                conn.execute(text("SELECT 1"))
        took = time.monotonic() - started
    # One attempt of DATABASE_CONNECT_TIMEOUT (2 s) to 127.0.0.1, with some slack (and before
    # the watchdog's statement + connect timeouts).
    assert 1.5 < took < 3.5, took
    assert proxy.accepted_in_hole == 1            # the hole took the connection, and said nothing


def test_the_connection_settings_reach_postgresql(database_url, make_app):
    postgresql_only(database_url)
    app = make_app(DATABASE_STATEMENT_TIMEOUT=2.5, DATABASE_CONNECT_TIMEOUT=3)
    args = app.config["SQLALCHEMY_ENGINE_OPTIONS"]["connect_args"]
    assert args["connect_timeout"] == 3 and args["tcp_user_timeout"] == 3000
    assert args["keepalives"] == 1 and args["keepalives_idle"] == 3
    with app.app_context():
        assert db.session.execute(text("SHOW statement_timeout")).scalar() == "2500ms"
        # The URL's own options (this test's schema) still hold.
        schema = make_url(database_url).query["options"].split("=", 1)[1]
        assert db.session.execute(text("SHOW search_path")).scalar() == schema
        db.session.remove()


def test_engine_options_without_a_statement_timeout():
    options = engine_options({"SQLALCHEMY_DATABASE_URI": "postgresql+psycopg://u@h/d?options=-cfoo%3Dbar",
                              "DATABASE_STATEMENT_TIMEOUT": 0, "DATABASE_CONNECT_TIMEOUT": 5})
    assert options["connect_args"]["options"] == "-cfoo=bar"
    options = engine_options({"SQLALCHEMY_DATABASE_URI": "postgresql+psycopg://u@h/d",
                              "DATABASE_STATEMENT_TIMEOUT": 0, "DATABASE_CONNECT_TIMEOUT": 5})
    assert "options" not in options["connect_args"]
    assert engine_options({"SQLALCHEMY_DATABASE_URI": "sqlite:///x", "DATABASE_STATEMENT_TIMEOUT": 0,
                           "DATABASE_CONNECT_TIMEOUT": 5}) == {"connect_args": {"timeout": 24 * 3600.0}}


def test_a_statement_past_the_statement_timeout_answers_503(database_url, make_app):
    """A lock held elsewhere (a migration, a vacuum full, a stuck transaction): the statement
    waits for it until statement_timeout cancels it; QueryCanceled is a 503. SQLite: its busy
    timeout, 'database is locked'."""
    app = make_app(**UNLIMITED, DATABASE_STATEMENT_TIMEOUT=1)
    client = app.test_client()
    game_id = new_game(client)
    with app.app_context():
        path = links.path(links.TURN, game_id, 0, 0)
    assert client.get(path).status_code == 200
    if database_url.startswith("sqlite"):
        holder = sqlite3.connect(make_url(database_url).database, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
    else:
        import psycopg
        real = make_url(database_url)
        holder = psycopg.connect(real.set(drivername="postgresql").render_as_string(hide_password=False))
        holder.execute("LOCK TABLE games, seats, seat_nonces, events IN ACCESS EXCLUSIVE MODE")
    try:
        response, took = timed(lambda: client.get(path, headers=JSON))
        assert_503(response)
        assert 0.5 < took < BOUND, took
    finally:
        holder.rollback() if hasattr(holder, "rollback") else None
        holder.close()
    assert client.get(path, headers=JSON).get_json()["can_act"] is True
