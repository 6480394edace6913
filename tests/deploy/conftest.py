"""The operator's recipe, run for real: `flask` commands, gunicorn, `serve-production` and the
files under deploy/ in subprocesses, configured by the environment only, as in production.

Checkers that come from Debian (systemd-analyze, postconf/postfix, sh) are used when present.
Without one, its test skips and says why, unless PBEM_REQUIRE_TOOLS=1 (CI): then it fails.
The helpers are in deploy_support.py (this folder is put on sys.path for it).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from deploy_support import OWN_SETTINGS, Process  # noqa: E402


@pytest.fixture
def environment(tmp_path):
    """A clean environment for a production process on a SQLite file of its own."""
    def make(**settings) -> dict:
        env = {k: v for k, v in os.environ.items() if not k.startswith(OWN_SETTINGS)}
        env.update(PBEM_INSTANCE_PATH=str(tmp_path / "instance"),
                   DATABASE_URL=f"sqlite:///{tmp_path / 'pbem.sqlite3'}")
        env.update({k: v for k, v in settings.items() if v is not None})
        return env
    return make


@pytest.fixture
def processes():
    started: list[Process] = []

    def start(argv: list[str], env: dict, log: Path) -> Process:
        started.append(Process(argv, env, log))
        return started[-1]

    yield start
    for p in started:
        p.stop()
