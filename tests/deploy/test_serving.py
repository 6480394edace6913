"""Start-up refusals and the production servers, as real processes.

Bad settings stop every entry point before it serves or touches anything, with `pbem: <reason>`
on standard error and no traceback: `flask --app pbem <command>` (exit 78), gunicorn through
wsgi.py (the master stops, exit 4), `serve-production` (exit 78). The local trial (`make run`:
debug with the outbox page) is not refused. `serve-production` serves the app through waitress
with the worker in a thread.
"""

from __future__ import annotations

import http.client
import json
import re
import shlex
import sqlite3
import time

import pytest
from deploy_support import DEPLOY, FLASK, GUNICORN, KEY, flask, listening

from pbem_web import free_port  # tests/helpers

SHORT = "s" * 31


def one_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert lines[0].startswith("pbem: ") and "Traceback" not in stderr, stderr
    return lines[0]


def get(port: int, path: str, headers=None, method="GET", body=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


# -- flask commands ------------------------------------------------------------------------

@pytest.mark.parametrize("command", [["db", "upgrade"], ["worker"], ["mail", "status"], ["ingest"],
                                     ["serve"], ["serve-production"], ["verify"], ["no-such-command"]])
def test_every_flask_command_refuses_a_short_secret_key_in_one_line(environment, command):
    done = flask(environment(SECRET_KEY=SHORT), *command, input="")
    assert done.returncode == 78, done
    assert one_line(done.stderr).startswith("pbem: SECRET_KEY is 31 bytes long; it must be at least 32")
    assert done.stdout == ""


def test_a_missing_key_and_a_malformed_number_are_refused_in_one_line(environment):
    done = flask(environment(), "db", "upgrade")
    assert done.returncode == 78
    assert one_line(done.stderr).startswith("pbem: SECRET_KEY is not set")
    done = flask(environment(SECRET_KEY=KEY, DATABASE_STATEMENT_TIMEOUT="soon"), "db", "upgrade")
    assert done.returncode == 78
    assert one_line(done.stderr) == "pbem: DATABASE_STATEMENT_TIMEOUT must be a number, not 'soon'"
    done = flask(environment(SECRET_KEY=KEY, DATABASE_CONNECT_TIMEOUT="1"), "db", "upgrade")
    assert one_line(done.stderr) == "pbem: DATABASE_CONNECT_TIMEOUT must be at least 2, not '1'"


def test_a_worker_refuses_an_interval_that_is_no_tick_of_the_clock_in_one_line(environment):
    done = flask(environment(SECRET_KEY=KEY, JOBS_ROUND_SECONDS="45"), "worker")
    assert done.returncode == 78, done
    assert one_line(done.stderr) == (
        "pbem: JOBS_ROUND_SECONDS must be a whole number of seconds that divides a minute, an "
        "hour or a day (e.g. 5, 15, 30, 60, 300, 3600), not '45'")


#: A folder that cannot be made (nobody may make one in /proc): what a read-only or missing
#: parent does to the instance folder (systemd's ReadWritePaths, a typo in PBEM_INSTANCE_PATH).
UNMAKEABLE = "/proc/pbem-nowhere/instance"
NO_FOLDER = {
    "instance folder": ({"PBEM_INSTANCE_PATH": UNMAKEABLE},
                        f"pbem: the instance folder {UNMAKEABLE} is missing and cannot be made"),
    "debug key's folder": ({"PBEM_INSTANCE_PATH": UNMAKEABLE, "SECRET_KEY": None, "FLASK_DEBUG": "1"},
                           f"pbem: the instance folder {UNMAKEABLE} is missing and cannot be made"),
    "SQLite's folder": ({"DATABASE_URL": f"sqlite:///{UNMAKEABLE}/pbem.sqlite3"},
                        f"pbem: DATABASE_URL names a SQLite file in {UNMAKEABLE}, a folder that "
                        "does not exist"),
}


@pytest.mark.parametrize("command", [["db", "upgrade"], ["mail", "status"], ["serve-production"]])
@pytest.mark.parametrize("case", NO_FOLDER)
def test_a_missing_folder_is_refused_in_one_line(environment, command, case):
    """Like every configuration error: one line and exit 78, not a traceback (the instance
    folder's was an OSError from mkdir, SQLite's an OperationalError at the first statement)."""
    settings, says = NO_FOLDER[case]
    done = flask(environment(**{"SECRET_KEY": KEY, **settings}), *command, input="")
    assert done.returncode == 78, done
    assert one_line(done.stderr).startswith(says), done.stderr


def test_a_key_of_32_bytes_and_short_fallbacks_are_accepted(environment, tmp_path):
    """Old keys are not measured: moving a short key to the fallbacks is how to leave it."""
    done = flask(environment(SECRET_KEY="x" * 32, SECRET_KEY_FALLBACKS="old,older"), "db", "upgrade")
    assert done.returncode == 0, done.stderr
    assert "pbem:" not in done.stderr
    assert (tmp_path / "pbem.sqlite3").exists()


def test_the_outbox_page_outside_debug_is_a_warning_for_commands(environment):
    env = environment(SECRET_KEY=KEY, OUTBOX_PAGE="1")
    done = flask(env, "db", "upgrade")
    assert done.returncode == 0
    warning = [line for line in done.stderr.splitlines() if line.startswith("pbem:")]
    assert warning == ["pbem: warning: OUTBOX_PAGE is on without FLASK_DEBUG: /outbox shows every "
                       "mail and link to anyone who can reach this server (production servers "
                       "refuse it)."]


def test_the_local_trial_is_not_refused(environment, processes, tmp_path):
    """What `make run` runs: debug, no SECRET_KEY, the outbox page on. It serves, quietly."""
    makefile = (DEPLOY.parent / "Makefile").read_text()
    assert "FLASK_DEBUG=$${FLASK_DEBUG:-1} BASE_URL=" in makefile and "flask --app pbem serve" in makefile
    port = free_port()
    trial = processes([FLASK, "--app", "pbem", "serve", "--port", str(port)],
                      environment(FLASK_DEBUG="1"), tmp_path / "trial.log")
    trial.wait_listening(port)
    assert get(port, "/")[0] == 200
    assert get(port, "/outbox")[0] == 200
    assert "pbem: warning" not in trial.output() and "Traceback" not in trial.output()


# -- gunicorn --------------------------------------------------------------------------------

REFUSALS = {
    "short key": ({"SECRET_KEY": SHORT}, ["pbem: SECRET_KEY is 31 bytes long"]),
    "no key": ({"SECRET_KEY": None}, ["pbem: SECRET_KEY is not set"]),
    "debug": ({"FLASK_DEBUG": "1"}, ["pbem: FLASK_DEBUG is on under gunicorn"]),
    "no instance folder": ({"PBEM_INSTANCE_PATH": UNMAKEABLE},
                           [f"pbem: the instance folder {UNMAKEABLE} is missing"]),
    "outbox": ({"OUTBOX_PAGE": "on"}, ["pbem: OUTBOX_PAGE is on under gunicorn"]),
    "debug and outbox": ({"FLASK_DEBUG": "yes", "OUTBOX_PAGE": "1"},
                         ["pbem: FLASK_DEBUG is on under gunicorn",
                          "pbem: OUTBOX_PAGE is on under gunicorn"]),
}


def refused_output(text: str, expected: list[str]) -> list[str]:
    """The refusal lines in a server's output: each expected one, nothing else of pbem's."""
    lines = [line for line in text.splitlines() if line.startswith("pbem:")]
    assert "Traceback" not in text and "Exception" not in text, text
    assert all(any(line.startswith(e) for e in expected) for line in lines), text
    assert all(any(line.startswith(e) for line in lines) for e in expected), text
    return lines


@pytest.mark.parametrize("preload", [False, True], ids=["workers", "preload"])
@pytest.mark.parametrize("case", REFUSALS)
def test_gunicorn_refuses_bad_settings_in_one_line_from_its_master(environment, processes, tmp_path,
                                                                   case, preload):
    """The operators' guide's command, from the clone: gunicorn.conf.py checks the settings in the master,
    which stops before it listens or boots a worker."""
    settings, expected = REFUSALS[case]
    port = free_port()
    env = environment(**{"SECRET_KEY": KEY, **settings})
    argv = [GUNICORN, *(["--preload"] if preload else []), "-w", "4", "-b", f"127.0.0.1:{port}", "wsgi:app"]
    server = processes(argv, env, tmp_path / "gunicorn.log")
    status = server.wait_exit(60)
    output = server.output()
    assert status == 4, output
    assert output.splitlines() == refused_output(output, expected)    # nothing else at all
    assert not listening(port)


def test_without_its_config_file_each_worker_refuses_and_the_master_stops(environment, processes, tmp_path):
    """Started with another config file, gunicorn loads wsgi.py in its worker, which refuses the
    same way: the worker exits with gunicorn's APP_LOAD_ERROR and the master stops too."""
    port = free_port()
    env = environment(SECRET_KEY=KEY, FLASK_DEBUG="1")
    server = processes([GUNICORN, "-c", "/dev/null", "-w", "1", "-b", f"127.0.0.1:{port}", "wsgi:app"],
                       env, tmp_path / "gunicorn.log")
    assert server.wait_exit(60) == 4
    output = server.output()
    refused_output(output, ["pbem: FLASK_DEBUG is on under gunicorn"])
    assert "Reason: App failed to load." in output
    assert not listening(port)


def test_gunicorn_refuses_the_outbox_whatever_it_loads(environment, processes, tmp_path):
    """Not only through wsgi.py: gunicorn says it is gunicorn (SERVER_SOFTWARE) before loading."""
    port = free_port()
    env = environment(SECRET_KEY=KEY, OUTBOX_PAGE="1")
    server = processes([GUNICORN, "-c", "/dev/null", "-w", "1", "-b", f"127.0.0.1:{port}",
                        "pbem:create_app()"], env, tmp_path / "gunicorn.log")
    assert server.wait_exit(60) == 4
    refused_output(server.output(), ["pbem: OUTBOX_PAGE is on under gunicorn"])


def test_gunicorn_serves_with_good_settings(environment, processes, tmp_path):
    env = environment(SECRET_KEY=KEY, BASE_URL="http://pbem.test", MAIL_URL="smtp://127.0.0.1:9")
    assert flask(env, "db", "upgrade").returncode == 0
    port = free_port()
    server = processes([GUNICORN, "-w", "2", "-b", f"127.0.0.1:{port}", "wsgi:app"],
                       env, tmp_path / "gunicorn.log")
    server.wait_listening(port)
    assert get(port, "/")[0] == 200
    assert get(port, "/outbox")[0] == 404
    assert "pbem:" not in server.output()


# -- serve-production ----------------------------------------------------------------------

def unit_command(port: int) -> list[str]:
    """pbem.service's ExecStart, on this test's port, with this test's flask."""
    unit = (DEPLOY / "pbem.service").read_text()
    [line] = [line for line in unit.splitlines() if line.startswith("ExecStart=")]
    argv = shlex.split(line.removeprefix("ExecStart="))
    assert argv[0] == "/srv/pbem/.venv/bin/flask" and argv[1:4] == ["--app", "pbem", "serve-production"]
    assert argv[argv.index("--port") + 1] == "8000"
    argv[0], argv[argv.index("--port") + 1] = FLASK, str(port)
    return argv


def production_env(environment, smtp, **more):
    return environment(**{"SECRET_KEY": KEY, "BASE_URL": "http://pbem.test",
                          "MAIL_URL": f"smtp://127.0.0.1:{smtp.port}",
                          "MAIL_FROM": "pbem <turns@pbem.test>", **more})


def test_serve_production_upgrades_serves_and_delivers_mail(environment, processes, smtp, tmp_path):
    port = free_port()
    env = production_env(environment, smtp, PROXY_FIX="1")
    server = processes(unit_command(port), env, tmp_path / "serve.log")
    server.wait_listening(port)
    output = server.wait_output(f"pbem: serving http://pbem.test on http://127.0.0.1:{port} with 8 threads")
    assert "Running upgrade" in output                       # the database was upgraded first
    status, _, page = get(port, "/")
    assert status == 200 and b"<html" in page
    assert get(port, "/outbox")[0] == 404
    body = json.dumps({"game": "babel", "first": "0", "name0": "Anna", "email0": "anna@example.org",
                       "name1": "Bob", "email1": "bob@example.org"})
    json_headers = {"Content-Type": "application/json", "Accept": "application/json"}
    status, _, raw = get(port, "/games", method="POST", body=body, headers=json_headers)
    assert status == 202, raw
    # The worker thread delivers Anna's confirmation through SMTP; its button starts the game.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not smtp.to("anna@example.org"):
        time.sleep(0.2)
    [confirmation] = smtp.to("anna@example.org")
    link = re.search(r"http://pbem\.test(/c/\S+)", confirmation.get_body(("plain",)).get_content())
    status, _, raw = get(port, link.group(1), method="POST", body="{}", headers=json_headers)
    assert status == 201, raw
    # ... and then the invitations (and Anna's turn).
    while time.monotonic() < deadline + 30 and not (len(smtp.to("anna@example.org")) == 2
                                                   and smtp.to("bob@example.org")):
        time.sleep(0.2)
    assert len(smtp.to("anna@example.org")) == 2 and smtp.to("bob@example.org"), server.output()
    # PROXY_FIX is honoured: waitress leaves X-Forwarded-For to it (rate limits count per client).
    status, _, raw = get(port, "/links", method="POST", body=json.dumps({"email": "anna@example.org"}),
                         headers={**json_headers, "X-Forwarded-For": "203.0.113.7"})
    assert status == 202, raw
    with sqlite3.connect(tmp_path / "pbem.sqlite3") as db:
        keys = {key for (key,) in db.execute("SELECT key FROM rate_events")}
    assert any(key.endswith("203.0.113.7") for key in keys), keys
    assert server.stop() == 0                                # SIGTERM, as systemd stops it
    assert "pbem: stopped" in server.output() and "Traceback" not in server.output()


@pytest.mark.parametrize("missing", ["SECRET_KEY", "BASE_URL", "MAIL_URL"])
def test_serve_production_refuses_without_each_setting(environment, smtp, missing, tmp_path):
    port = free_port()
    env = production_env(environment, smtp, **{missing: None})
    done = flask(env, *unit_command(port)[3:], timeout=60)
    assert done.returncode == 78, done
    line = one_line(done.stderr)
    assert missing in line
    assert not listening(port)
    assert not (tmp_path / "pbem.sqlite3").exists()          # refused before the upgrade


def test_serve_production_names_every_missing_setting_at_once(environment, tmp_path):
    done = flask(environment(FLASK_DEBUG="1"), "serve-production", "--port", str(free_port()))
    assert done.returncode == 78
    lines = done.stderr.splitlines()
    assert [line.split()[3] if "needs" in line else line.split()[1] for line in lines] == \
        ["SECRET_KEY", "BASE_URL", "MAIL_URL", "FLASK_DEBUG"], done.stderr
    assert all(line.startswith("pbem: ") for line in lines) and "Traceback" not in done.stderr


@pytest.mark.parametrize("setting, says", [
    ({"FLASK_DEBUG": "1"}, "pbem: FLASK_DEBUG is on under serve-production"),
    ({"OUTBOX_PAGE": "1"}, "pbem: OUTBOX_PAGE is on under serve-production"),
])
def test_serve_production_refuses_debug_and_the_outbox(environment, smtp, setting, says):
    port = free_port()
    done = flask(production_env(environment, smtp, **setting), *unit_command(port)[3:], timeout=60)
    assert done.returncode == 78
    said = [line for line in done.stderr.splitlines() if not line.startswith("pbem: warning")]
    assert said[0].startswith(says)
    assert not listening(port)
