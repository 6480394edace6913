"""A real server and a real browser: `flask --app pbem serve` in a subprocess, Chromium via Playwright.

Without Chromium these tests skip with a reason, unless PBEM_REQUIRE_BROWSER=1
(as `.ci/run` sets): then a missing browser fails them.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest

from pbem_web import free_port  # tests/helpers

CHROMIUM = os.environ.get("PBEM_CHROMIUM", "/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
FLASK = str(Path(sys.executable).with_name("flask"))


def _need_browser():
    if Path(CHROMIUM).exists() or shutil.which(CHROMIUM):
        return
    reason = f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
    if os.environ.get("PBEM_REQUIRE_BROWSER") == "1":
        pytest.fail(reason)
    pytest.skip(reason)


class LiveServer:
    """`flask --app pbem serve` on a free port, ready once its own log says it listens there.
    (A port found free may be taken by another test's server before this one binds it: a
    connection would then reach that server. This one fails to bind and exits, and is started
    again on another port.)"""

    def __init__(self, tmp: Path, **settings: str):
        for _ in range(3):
            self.port = free_port()
            self.url = f"http://127.0.0.1:{self.port}"
            self.env = {**os.environ, "SECRET_KEY": "browser-test-key-" + "0" * 32,
                        "BASE_URL": self.url, "DATABASE_URL": f"sqlite:///{tmp / 'pbem.sqlite3'}",
                        "MAIL_URL": "console:", "OUTBOX_PAGE": "1", "PBEM_INSTANCE_PATH": str(tmp),
                        "FLASK_DEBUG": "0", **settings}
            self.log = open(tmp / "server.log", "w")
            self.process = subprocess.Popen(
                [FLASK, "--app", "pbem", "serve", "--port", str(self.port)], cwd=ROOT,
                env=self.env, stdout=self.log, stderr=subprocess.STDOUT)
            if self._listening(tmp / "server.log"):
                return
            self.stop()
        raise RuntimeError(f"the server did not start: {(tmp / 'server.log').read_text()}")

    def _listening(self, log: Path) -> bool:
        """Whether the server came to listen on its port (False: it exited, or took 30 s)."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and self.process.poll() is None:
            if f"Running on {self.url}" in log.read_text():
                return True
            time.sleep(0.1)
        return False

    def flask(self, *args: str) -> str:
        done = subprocess.run([FLASK, "--app", "pbem", *args], cwd=ROOT, env=self.env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    def stop(self):
        self.process.terminate()
        self.process.wait(10)
        self.log.close()


def migrated(tmp: Path, templates) -> Path:
    """`tmp` with the session's migrated SQLite template in it as the server's database: `serve`
    still upgrades it (to where it is), without running the migrations anew for each server."""
    shutil.copyfile(templates.sqlite_file(), tmp / "pbem.sqlite3")
    return tmp


@pytest.fixture
def server(tmp_path, templates):
    _need_browser()
    live = LiveServer(migrated(tmp_path, templates))
    yield live
    live.stop()


@pytest.fixture
def operated_server(tmp_path, templates):
    """A live server with an operator (ADMIN_EMAIL), for the operator's page."""
    _need_browser()
    live = LiveServer(migrated(tmp_path, templates), ADMIN_EMAIL="operator@example.org")
    yield live
    live.stop()


PG_URL = os.environ.get("PBEM_TEST_DATABASE_URL")


@pytest.fixture
def pg_operated_server(tmp_path):
    """A live server with an operator on a PostgreSQL schema of its own (the job queues)."""
    if not PG_URL:
        pytest.skip("the job queues are PostgreSQL's (PBEM_TEST_DATABASE_URL)")
    import psycopg
    _need_browser()
    plain = PG_URL.replace("postgresql+psycopg://", "postgresql://")
    schema = "e2e_" + secrets.token_hex(5)
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    url = f"{PG_URL}{'&' if '?' in PG_URL else '?'}options={quote(f'-csearch_path={schema}')}"
    live = LiveServer(tmp_path, ADMIN_EMAIL="operator@example.org", DATABASE_URL=url,
                      JOBS_POLL_SECONDS="0.5")
    try:
        yield live
    finally:
        live.stop()
        with psycopg.connect(plain, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture(scope="session")
def chromium():
    """One Chromium per test process (launching one costs about a second); each test has its own
    browser contexts in it (the `browser` fixture), so no cookie or page outlives its test."""
    _need_browser()
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        launched = p.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"])
        yield launched
        launched.close()


class BrowserOfATest:
    """The process's Chromium as a test sees it: the contexts and pages it opens, closed after it."""

    def __init__(self, launched):
        self.launched = launched
        self.contexts: list = []

    def new_context(self, **options):
        context = self.launched.new_context(**options)
        self.contexts.append(context)
        return context

    def new_page(self, **options):
        return self.new_context(**options).new_page()

    def close_all(self):
        for context in self.contexts:
            context.close()


@pytest.fixture
def browser(chromium):
    opened = BrowserOfATest(chromium)
    yield opened
    opened.close_all()
