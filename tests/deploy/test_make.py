"""The two commands, in a fresh copy of the checkout: `make run` installs what serving needs and
nothing of the development tools, serves on `PORT` and mails links naming that port; `make test`
then adds the tools to the same .venv and runs tests.

The copy is the working tree as it is (the files git knows, and new ones it does not ignore),
without .venv or instance/: what a fresh clone has. pip installs as it does for anybody (its
cache makes the second time quick).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request

import pytest
from deploy_support import OWN_SETTINGS, ROOT, listening

from pbem_web import free_port  # tests/helpers

pytestmark = pytest.mark.slow

DEV_TOOLS = ("pytest", "playwright", "mypy", "ruff")
INSTALL_SECONDS = 600


@pytest.fixture
def clone(tmp_path):
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                           capture_output=True, check=True).stdout.decode().split("\0")
    where = tmp_path / "pbem"
    for name in filter(None, files):
        source = ROOT / name
        if source.is_file():
            (where / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, where / name)
    return where


def environment(**settings: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(OWN_SETTINGS)}
    env.pop("VIRTUAL_ENV", None)
    env.update(PYTHON=sys.executable, **settings)
    return env


def importable(clone, module: str) -> bool:
    return subprocess.run([str(clone / ".venv/bin/python"), "-c", f"import {module}"],
                          capture_output=True).returncode == 0


def test_make_run_serves_on_its_port_without_dev_tools_then_make_test_adds_them(clone):
    port = free_port()
    log = open(clone / "run.log", "w")
    run = subprocess.Popen(["make", "run", f"PORT={port}"], cwd=clone, env=environment(), stdout=log,
                           stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + INSTALL_SECONDS
        while not listening(port):
            assert run.poll() is None and time.monotonic() < deadline, (clone / "run.log").read_text()
            time.sleep(0.5)
        said = (clone / "run.log").read_text()
        assert f"pbem: http://127.0.0.1:{port} " in said, said
        assert importable(clone, "flask") and importable(clone, "gunicorn")
        assert [tool for tool in DEV_TOOLS if importable(clone, tool)] == []
        # A game asked for on the start page (with its form's token, as a browser sends it): its
        # confirmation mail links to this port.
        start = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30).read().decode()
        csrf = re.search(r'name="csrf" value="([^"]+)"', start).group(1)
        form = urllib.parse.urlencode({"csrf": csrf, "game": "babel", "first": "0", "name0": "Anna",
                                       "email0": "anna@example.org", "name1": "Bob",
                                       "email1": "bob@example.org"}).encode()
        urllib.request.urlopen(f"http://127.0.0.1:{port}/games", data=form, timeout=30).read()
        outbox = urllib.request.urlopen(f"http://127.0.0.1:{port}/outbox", timeout=30).read().decode()
        [mail] = set(re.findall(r'href="(/outbox/\d+)"', outbox))
        text = urllib.request.urlopen(f"http://127.0.0.1:{port}{mail}", timeout=30).read().decode()
        confirm = re.findall(r"http://127\.0\.0\.1:(\d+)/c/", text)
        assert confirm and set(confirm) == {str(port)}, text[:3000]
    finally:
        os.killpg(run.pid, signal.SIGTERM)
        run.wait(30)
        log.close()
    tested = subprocess.run(["make", "test", "ARGS=tests/engine/test_rng.py -q -p no:cacheprovider"],
                            cwd=clone, env=environment(), capture_output=True, text=True,
                            timeout=INSTALL_SECONDS)
    assert tested.returncode == 0, tested.stdout[-3000:] + tested.stderr[-3000:]
    assert " passed" in tested.stdout
    assert [tool for tool in DEV_TOOLS if not importable(clone, tool)] == []
