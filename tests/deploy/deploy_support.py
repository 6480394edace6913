"""Helpers for the tests of the operator's recipe (tests/deploy): paths, a clean environment,
processes in groups of their own, and the rule for missing checkers."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
BIN = Path(sys.executable).parent
FLASK, GUNICORN = str(BIN / "flask"), str(BIN / "gunicorn")
KEY = "k" * 64                       # long enough for production
# Settings of the test runner's own environment that would reach the processes: left out.
OWN_SETTINGS = ("PBEM_", "FLASK_", "GUNICORN_", "WEB_CONCURRENCY", "SECRET_KEY", "DATABASE_",
                "BASE_URL", "MAIL_", "OUTBOX_PAGE", "LINK_", "REPLY_ADDRESS", "REMIND_", "DIGEST_",
                "PROXY_FIX", "SUBMISSIONS_", "PREVIEWS_", "REPLAY_CACHE_SIZE", "SERVER_SOFTWARE")


def require_tool(name: str, *more: str) -> str:
    """The path of a checker, or skip (fail under PBEM_REQUIRE_TOOLS=1) saying how to get it."""
    for candidate in (name, *more):
        found = shutil.which(candidate) or next(
            (str(p) for d in ("/usr/sbin", "/sbin", "/usr/bin") if (p := Path(d) / candidate).exists()), None)
        if found:
            return found
    reason = f"{name} not found (Debian: apt-get install {'systemd' if 'systemd' in name else 'postfix'})"
    if os.environ.get("PBEM_REQUIRE_TOOLS") == "1":
        pytest.fail(reason)
    pytest.skip(reason)


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def flask(env: dict, *args: str, timeout: float = 120, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([FLASK, "--app", "pbem", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout, **kw)


class Process:
    """A server started in a process group of its own; stopped (and its output kept) at the end."""

    def __init__(self, argv: list[str], env: dict, log: Path):
        self.log_path = log
        self.log = open(log, "w")
        self.process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=self.log,
                                        stderr=subprocess.STDOUT, start_new_session=True)

    def wait_listening(self, port: int, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if listening(port):
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        raise AssertionError(f"nothing listens on {port}:\n{self.output()}")

    def wait_output(self, text: str, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in (output := self.output()):
                return output
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never came:\n{self.output()}")

    def wait_exit(self, timeout: float = 60) -> int:
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still running after {timeout} s:\n{self.output()}") from None

    def output(self) -> str:
        if not self.log.closed:
            self.log.flush()
        return self.log_path.read_text(errors="replace")

    def stop(self, sig=15) -> int | None:
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, sig)
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, 9)
                self.process.wait(10)
            except ProcessLookupError:
                pass
        self.log.close()
        return self.process.returncode
