"""Fixtures for the server's tests: a fresh app and database per test, a real SMTP server.

The suite runs on SQLite; when PBEM_TEST_DATABASE_URL is set, every test that
uses the `app` fixture runs again on that PostgreSQL server, each in a schema
of its own while it runs (made for it, or a passed test's emptied; see below).
A PostgreSQL server that does not answer fails those tests: it is never skipped.

The migrations run once per test session and backend, into a template: each test's
database is a copy of it (SQLite: the file; PostgreSQL: the template schema's dump, its
name replaced), which takes milliseconds where running the migrations took a second.
`tests/web/test_migrations.py` still runs them, down and up, on its own database.

On PostgreSQL making a schema from the dump still costs ~70 ms (37 tables, their indexes,
procrastinate's functions), so a test process keeps the schemas of its passed tests and gives
the next test one of them emptied back to the template's rows (every table's rows deleted,
the template's rows and sequences restored: ~2 ms). A schema whose test failed is dropped,
never handed on: whatever the failure left in it goes with it.

Set-ups that several tests only read are made `once` per test process (see that fixture).
docs/testing.md says what the suite costs and where the time goes.
"""

from __future__ import annotations

import email
import email.policy
import os
import re
import secrets
import threading
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from urllib.parse import quote

import pytest
from aiosmtpd.controller import Controller

from backends import BACKENDS, PG_URL  # tests/helpers
from pbem_web import free_port, text_of
from receivers import WebhookReceiver

#: Folders whose tests time real processes against each other (worker fleets, kill -9, a
#: database held silent): marked `serial`, so that `make test` runs them alone, after the
#: parallel pass, where another test's load cannot stretch their clocks.
SERIAL_FOLDERS = ("production",)


def pytest_collection_modifyitems(config, items):
    tests = os.path.dirname(__file__)
    for item in items:
        if os.path.relpath(str(item.path), tests).split(os.sep)[0] in SERIAL_FOLDERS:
            item.add_marker(pytest.mark.serial)
BASE_URL = "http://pbem.test"


# -- databases --------------------------------------------------------------

def _pg_schema_url(schema: str) -> str:
    import psycopg
    with psycopg.connect(PG_URL.replace("postgresql+psycopg://", "postgresql://"),
                         autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    sep = "&" if "?" in PG_URL else "?"
    return f"{PG_URL}{sep}options={quote(f'-csearch_path={schema}')}"


def _pg_drop(schema: str) -> None:
    import psycopg
    with psycopg.connect(PG_URL.replace("postgresql+psycopg://", "postgresql://"),
                         autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def _migrate(url: str) -> None:
    from flask_migrate import upgrade

    from pbem import create_app
    from pbem.extensions import db
    app = create_app({"TESTING": True, "SECRET_KEY": "template-" + secrets.token_hex(16),
                      "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        upgrade()
        db.session.remove()
        db.engine.dispose()


class Templates:
    """The migrated databases of this test session, made when a backend is first asked for."""

    def __init__(self, folder):
        self.folder = folder
        self._sqlite = None
        self._pg_script = None

    def sqlite_file(self):
        if self._sqlite is None:
            path = self.folder / "template.sqlite3"
            _migrate(f"sqlite:///{path}")
            self._sqlite = path
        return self._sqlite

    def pg_script(self, schema: str) -> str:
        """The SQL that makes `schema` a copy of the migrated template schema, data included."""
        if self._pg_script is None:
            self._pg_script = self._dump_pg_template()
        return self._pg_script.replace(self.PG_TEMPLATE, schema)

    #: Unique enough that replacing it in the dump touches nothing else.
    PG_TEMPLATE = "pbem_template_" + secrets.token_hex(8)

    def pg_reset(self, schema: str) -> str:
        """The SQL that empties `schema`, a copy of the template, back to the template's rows:
        every table's rows deleted (foreign keys and triggers off meanwhile: replica mode, which
        needs a superuser, as .ci/run's `postgres` is), then the dump's own rows and sequence
        values."""
        if self._pg_script is None:
            self._pg_script = self._dump_pg_template()
        tables = re.findall(rf"^CREATE TABLE {self.PG_TEMPLATE}\.(\w+) \(", self._pg_script, re.M)
        rows = [line for line in self._pg_script.splitlines()
                if line.startswith(("INSERT INTO ", "SELECT pg_catalog.setval("))]
        script = "\n".join(["SET session_replication_role = replica;",
                            *(f"DELETE FROM {self.PG_TEMPLATE}.{table};" for table in tables),
                            *rows, "SET session_replication_role = DEFAULT;"])
        return script.replace(self.PG_TEMPLATE, schema)

    def _dump_pg_template(self) -> str:
        import subprocess
        url = _pg_schema_url(self.PG_TEMPLATE)
        try:
            _migrate(url)
            plain = PG_URL.replace("postgresql+psycopg://", "postgresql://")
            dump = subprocess.run(
                ["pg_dump", "--dbname", plain, "--schema", self.PG_TEMPLATE, "--no-owner",
                 "--no-privileges", "--inserts"],
                check=True, capture_output=True, text=True, timeout=60).stdout
        finally:
            _pg_drop(self.PG_TEMPLATE)
        # The dump's session settings (an empty search_path among them) stay out: the script runs
        # on a connection of its own, and every name in it is qualified with the schema.
        # check_function_bodies off, as pg_dump's own header has it: a function (procrastinate's,
        # migration 0018) may name a table the dump creates after it.
        return "SET check_function_bodies = false;\n" + "\n".join(
            line for line in dump.splitlines()
            if not line.startswith(("SET ", "SELECT pg_catalog.set_config", "\\")))


#: A test's report failed (setup or call): its PostgreSQL schema is dropped, not reused.
FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed:
        item.stash[FAILED] = True
    return report


@pytest.fixture(scope="session")
def templates(tmp_path_factory):
    return Templates(tmp_path_factory.mktemp("templates"))


@pytest.fixture(scope="session")
def spare_schemas():
    """This process's PostgreSQL schemas whose tests passed, each ready to be emptied for the
    next test; dropped when the session ends."""
    spare: list[str] = []
    yield spare
    for schema in spare:
        _pg_drop(schema)


@contextmanager
def _database(backend: str, folder, templates: Templates, spare_schemas: list[str], reusable):
    """A migrated database: a copy of the session's template (PostgreSQL: made from its dump, or
    a spare schema emptied back to it). A PostgreSQL schema is kept as a spare afterwards if
    `reusable()` says so, else dropped."""
    if backend == "sqlite":
        import shutil
        path = folder / "pbem.sqlite3"
        shutil.copyfile(templates.sqlite_file(), path)
        yield f"sqlite:///{path}"
        return
    import psycopg
    if spare_schemas:
        schema = spare_schemas.pop()
        script = templates.pg_reset(schema)
    else:
        schema = "t_" + secrets.token_hex(6)
        script = templates.pg_script(schema)
    with psycopg.connect(PG_URL.replace("postgresql+psycopg://", "postgresql://"),
                         autocommit=True, connect_timeout=5) as conn:
        conn.execute(script)
    sep = "&" if "?" in PG_URL else "?"
    try:
        yield f"{PG_URL}{sep}options={quote(f'-csearch_path={schema}')}"
    finally:
        if reusable():
            spare_schemas.append(schema)
        else:
            _pg_drop(schema)


@pytest.fixture(params=BACKENDS)
def database_url(request, tmp_path, templates, spare_schemas):
    """A migrated database of the test's own (its schema handed on only if the test passed)."""
    with _database(request.param, tmp_path, templates, spare_schemas,
                   lambda: not request.node.stash.get(FAILED, False)) as url:
        yield url


# -- a real SMTP server on loopback -----------------------------------------

@dataclass
class Inbox:
    """What the SMTP server received: parsed messages, with their envelopes."""
    messages: list = field(default_factory=list)
    raw: list = field(default_factory=list)   # each message's bytes as received (signatures)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server, session, envelope):
        msg = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            self.messages.append((envelope.rcpt_tos, msg))
            self.raw.append(envelope.original_content or envelope.content)
        return "250 OK"

    def to(self, addr: str) -> list:
        with self.lock:
            return [m for rcpts, m in self.messages if addr in rcpts]

    def clear(self):
        with self.lock:
            self.messages.clear()
            self.raw.clear()


@contextmanager
def _smtp_server():
    inbox = Inbox()
    inbox.port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=inbox.port)
    controller.start()
    try:
        yield inbox
    finally:
        controller.stop()


@pytest.fixture
def smtp():
    with _smtp_server() as inbox:
        yield inbox


# -- the app ------------------------------------------------------------------

CREATION_LIMITS = ("PROPOSALS_PER_CLIENT_PER_DAY", "PROPOSALS_PER_ADDRESS_PER_DAY",
                   "GAMES_PER_CLIENT_PER_DAY", "GAMES_PER_ADDRESS_PER_DAY",
                   "INVITES_PER_ADDRESS_PER_DAY")


@contextmanager
def _app_maker(database_url: str, smtp: Inbox):
    """Apps on a database and SMTP server, migrated, with settings of the caller's choosing."""
    from flask_migrate import upgrade

    from pbem import create_app
    from pbem.extensions import db
    made = []

    def make(url: str | None = None, **config):
        app = create_app({
            "TESTING": True,
            "SECRET_KEY": "test-key-" + secrets.token_hex(16),
            "SQLALCHEMY_DATABASE_URI": url or database_url,
            "BASE_URL": BASE_URL,
            "MAIL_URL": f"smtp://127.0.0.1:{smtp.port}",
            # A bare address: each mail names its game in From (tests/web/test_mail.py checks
            # what players' names can do there; a configured name is tested there too).
            "MAIL_FROM": "turns@pbem.test",
            # Tests start far more games than people do; the tests of these limits set them.
            **{key: 100_000 for key in CREATION_LIMITS},
            # A clock that runs out loses, as the time-limit tests expect; the vacation tests
            # (tests/web/test_vacation*.py) give addresses days.
            "VACATION_DAYS_PER_YEAR": 0,
            **config,
        })
        from pbem_web import StartPageClient  # tests/helpers
        app.test_client_class = StartPageClient   # the start page's forms with their CSRF token
        made.append(app)
        if url not in (None, database_url):   # the test's own database is migrated already
            with app.app_context():
                upgrade()
        return app

    try:
        yield make
    finally:
        for app in made:
            with app.app_context():
                db.session.remove()
                db.engine.dispose()


@pytest.fixture
def make_app(database_url, smtp):
    """Apps on the test's database and SMTP server, migrated, with settings of the test's choosing."""
    with _app_maker(database_url, smtp) as make:
        yield make


#: The `app` fixture's settings. Tests submit far faster than people; the rate-limit tests
#: lower these themselves. A statement may take 10 s, not production's 2: a parallel run
#: shares two cores among four test processes, their browsers and servers, and every
#: commit's NOTIFY is serialized across the database's schemas, so a plain submission has
#: been cut at 2 s there (a 503, seen once in three whole runs); speed is the benchmarks'
#: business. The tests of the waits themselves set theirs (tests/production, test_production).
APP_SETTINGS = dict(OUTBOX_PAGE=True, SUBMISSIONS_PER_CLIENT_PER_MINUTE=100_000,
                    SUBMISSIONS_PER_ADDRESS_PER_MINUTE=100_000, PREVIEWS_PER_CLIENT_PER_MINUTE=100_000,
                    DATABASE_STATEMENT_TIMEOUT=10)


@pytest.fixture
def app(make_app):
    return make_app(**APP_SETTINGS)


@pytest.fixture(scope="session")
def once():
    """Set-ups that several tests only read, made once per test process: `once(key, context)`
    enters `context()` the first time it is asked for `key` and gives what it gave every time;
    all are left when the process's session ends. (Not a module-scoped fixture: pytest-xdist may
    interleave the tests of two parameters, which would make a module-scoped one anew.)"""
    made: dict = {}
    with ExitStack() as stack:
        def get(key, context):
            if key not in made:
                made[key] = stack.enter_context(context())
            return made[key]
        yield get


@pytest.fixture(scope="session")
def own_app(tmp_path_factory, templates, spare_schemas):
    """For a set-up that several tests only read (see `once`): `with own_app(backend) as app:` an
    app as the `app` fixture makes it, on a database and SMTP server of its own."""
    @contextmanager
    def made(backend: str, **config):
        folder = tmp_path_factory.mktemp("own-app")
        with (_database(backend, folder, templates, spare_schemas, lambda: False) as url,
              _smtp_server() as inbox, _app_maker(url, inbox) as make):
            yield make(**{**APP_SETTINGS, **config})
    return made


@pytest.fixture
def receiver():
    """A webhook receiver on loopback (tests/helpers/receivers.py), closed after the test."""
    made = WebhookReceiver()
    yield made
    made.close()


@pytest.fixture
def client(app):
    return app.test_client()


LINK = re.compile(re.escape(BASE_URL) + r"(/[ts]/[A-Za-z0-9_.\-]+)")


def links_in(msg) -> dict:
    """The turn and seat links of a mail, as paths."""
    paths = LINK.findall(text_of(msg))
    return {"turn": next((p for p in paths if p.startswith("/t/")), None),
            "seat": next((p for p in paths if p.startswith("/s/")), None)}


class Actions:
    """Small steps tests take again and again: create a game, deliver, find links, play."""

    def __init__(self, app, client, smtp):
        self.app, self.client, self.smtp = app, client, smtp

    def create(self, first=0, sumerians="top-run", names=("Anna", "Bob"),
               emails=("anna@example.org", "bob@example.org")) -> str:
        """A game of Babel as the operator's `new-game` makes it: invitations queued, no
        confirmation (the start page's way is tested on its own)."""
        from pbem.play import turns
        with self.app.app_context():
            spec = turns.Spec("babel", list(zip(names, emails)), {"sumerians": sumerians}, first)
            return turns.create_game(spec).id

    def deliver(self):
        from pbem.mail.deliver import deliver_due
        with self.app.app_context():
            return deliver_due()

    def last_mail(self, addr: str):
        self.deliver()
        mails = self.smtp.to(addr)
        assert mails, f"no mail to {addr}"
        return mails[-1]

    def links(self, addr: str) -> dict:
        return links_in(self.last_mail(addr))

    def state(self, game_id: str):
        from pbem.store import gamelog
        with self.app.app_context():
            loaded = gamelog.load(game_id)
            _ = loaded.events   # read the log now: it is read lazily, inside the app
            return loaded

    def event_count(self, game_id: str) -> int:
        from sqlalchemy import func, select

        from pbem.extensions import db
        from pbem.store.models import Event
        with self.app.app_context():
            return db.session.scalar(select(func.count()).select_from(Event)
                                     .where(Event.game_id == game_id))

    def mail_count(self) -> int:
        from sqlalchemy import func, select

        from pbem.extensions import db
        from pbem.store.models import Mail
        with self.app.app_context():
            return db.session.scalar(select(func.count()).select_from(Mail))


@pytest.fixture
def actions(app, client, smtp):
    return Actions(app, client, smtp)
