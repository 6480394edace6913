"""Real production processes: gunicorn servers and `flask` commands on one PostgreSQL database.

Each test gets a schema of its own on the server named by PBEM_TEST_DATABASE_URL (created
for it, upgraded with `flask --app pbem db upgrade`, dropped after it) and starts its
servers as `gunicorn -w 2 -b 127.0.0.1:PORT wsgi:app` from the project's root, configured
by the environment only, as in production. Each server runs in a process group of its own,
so a test can kill the master and its workers at once (`kill -9`). Without
PBEM_TEST_DATABASE_URL these tests skip: several servers on one SQLite file is not a
deployment pbem supports.
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote

import pytest
from itsdangerous import URLSafeTimedSerializer

from pbem_web import free_port  # tests/helpers

PG_URL = os.environ.get("PBEM_TEST_DATABASE_URL")
ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
GUNICORN, FLASK = str(BIN / "gunicorn"), str(BIN / "flask")
BASE_URL = "http://pbem.test"      # the public address behind a load balancer: links in mails
# Settings of the test runner's own environment that would reach the servers: left out.
OWN_SETTINGS = ("PBEM_", "FLASK_", "GUNICORN_", "WEB_CONCURRENCY", "SECRET_KEY", "DATABASE_URL",
                "BASE_URL", "MAIL_", "OUTBOX_PAGE", "LINK_", "REPLY_ADDRESS", "REMIND_", "DIGEST_",
                "PROXY_FIX", "SUBMISSIONS_", "PREVIEWS_", "REPLAY_CACHE_SIZE")


def _plain(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


class Server:
    """One gunicorn master with its workers, in a process group of its own."""

    def __init__(self, deployment: Deployment, port: int, name: str):
        self.deployment, self.port, self.name = deployment, port, name
        self.log_path = deployment.tmp / f"{name}.log"
        self.log = open(self.log_path, "a")
        self.process = subprocess.Popen(
            [GUNICORN, "-w", "2", "-b", f"127.0.0.1:{port}", "--graceful-timeout", "5", "wsgi:app"],
            cwd=ROOT, env=deployment.env, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True)               # its own process group: killpg reaches every worker
        self.pgid = self.process.pid
        self._wait_ready()

    def _wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                status, _, _ = self.request("GET", "/", timeout=2)
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"gunicorn {self.name} did not start:\n{self.log_path.read_text()}")

    def request(self, method: str, path: str, body=None, timeout: float = 30):
        """(status, headers, body) of one request on a fresh connection."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            headers = {"Accept": "application/json", "Host": "pbem.test"}
            data = None
            if body is not None:
                data = json.dumps(body).encode()
                headers["Content-Type"] = "application/json"
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            conn.close()

    def pids(self) -> list[int]:
        """The processes still in this server's group (master and workers)."""
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    if os.getpgid(int(entry.name)) == self.pgid:
                        stat = (entry / "stat").read_text()
                        if stat.rsplit(")", 1)[1].split()[0] != "Z":   # not a zombie
                            found.append(int(entry.name))
                except (ProcessLookupError, FileNotFoundError, PermissionError):
                    pass
        return found

    def kill9(self) -> None:
        """kill -9 of the master and every worker at once."""
        os.killpg(self.pgid, signal.SIGKILL)
        self.process.wait(10)
        deadline = time.monotonic() + 10
        while self.pids() and time.monotonic() < deadline:   # workers are reaped by init
            time.sleep(0.05)
        assert not self.pids(), "gunicorn processes survived kill -9"
        self.log.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            try:
                os.killpg(self.pgid, signal.SIGTERM)
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.pgid, signal.SIGKILL)
                self.process.wait(10)
            except ProcessLookupError:
                pass
        if not self.log.closed:
            self.log.close()

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace")


class Deployment:
    """The environment of one deployment: a schema, a secret key, an SMTP server; its servers."""

    def __init__(self, url: str, schema: str, tmp: Path, smtp_port: int):
        self.url, self.schema, self.tmp = url, schema, tmp
        self.secret_key = "production-test-" + secrets.token_hex(16)
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(OWN_SETTINGS)},
            "SECRET_KEY": self.secret_key,
            "DATABASE_URL": url,
            "BASE_URL": BASE_URL,
            "MAIL_URL": f"smtp://127.0.0.1:{smtp_port}",
            "MAIL_FROM": "pbem <turns@pbem.test>",
            "OUTBOX_PAGE": "0",
            "FLASK_DEBUG": "0",
            "PBEM_INSTANCE_PATH": str(tmp / "instance"),
            # Every request here comes from 127.0.0.1: the per-client limit is not what is tested.
            "SUBMISSIONS_PER_CLIENT_PER_MINUTE": "1000000",
            "SUBMISSIONS_PER_ADDRESS_PER_MINUTE": "1000000",
        }
        self.servers: list[Server] = []

    # -- processes -----------------------------------------------------------------
    def flask(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        done = subprocess.run([FLASK, "--app", "pbem", *args], cwd=ROOT, env=self.env,
                              capture_output=True, text=True, timeout=120)
        if check:
            assert done.returncode == 0, f"flask {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
        return done

    def start_server(self, port: int | None = None, name: str | None = None) -> Server:
        server = Server(self, port or free_port(), name or f"gunicorn-{len(self.servers)}")
        self.servers.append(server)
        return server

    def new_games(self, seeds: list[int], first: int = 0) -> list[str]:
        """`flask new-game` for each seed, all at once; the games' ids, in the seeds' order."""
        def one(seed: int) -> str:
            out = self.flask("new-game", "--game", "babel", "--seed", str(seed), "--first", str(first),
                             "--option", "sumerians=top-run",
                             "--player", f"Anna {seed} <anna.{seed}@example.org>",
                             "--player", f"Bob {seed} <bob.{seed}@example.org>").stdout
            return out.strip().splitlines()[-1]
        with ThreadPoolExecutor(8) as pool:
            return list(pool.map(one, seeds))

    def stop(self) -> None:
        for server in self.servers:
            server.stop()

    # -- links, as the server signs them ---------------------------------------------
    def _serializer(self, kind: str) -> URLSafeTimedSerializer:
        return URLSafeTimedSerializer(self.secret_key, salt=f"pbem-{kind}-link")

    def turn_path(self, game_id: str, seat: int, seq: int) -> str:
        return "/t/" + self._serializer("turn").dumps([game_id, seat, seq])

    def read_turn_token(self, token: str) -> list:
        return self._serializer("turn").loads(token)

    # -- the database, read directly -----------------------------------------------------
    def query(self, sql: str, *params) -> list[tuple]:
        import psycopg
        with psycopg.connect(_plain(PG_URL), options=f"-csearch_path={self.schema}",
                             connect_timeout=10) as conn:
            return conn.execute(sql, params).fetchall()


@pytest.fixture
def postgres_schema():
    """A schema of its own on PBEM_TEST_DATABASE_URL, and the URL that selects it."""
    if not PG_URL:
        pytest.skip("set PBEM_TEST_DATABASE_URL: several gunicorn servers share one PostgreSQL database")
    import psycopg
    schema = "p_" + secrets.token_hex(6)
    with psycopg.connect(_plain(PG_URL), autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    sep = "&" if "?" in PG_URL else "?"
    try:
        yield schema, f"{PG_URL}{sep}options={quote(f'-csearch_path={schema}')}"
    finally:
        with psycopg.connect(_plain(PG_URL), autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture
def deployment(postgres_schema, smtp, tmp_path):
    schema, url = postgres_schema
    live = Deployment(url, schema, tmp_path, smtp.port)
    live.flask("db", "upgrade")
    try:
        yield live
    finally:
        live.stop()
