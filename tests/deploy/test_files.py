"""The files under deploy/, checked by the programs that will read them.

- pbem.env.example: sourced by sh (`set -a; . file`) and read by systemd's own env-file parser
  (systemd's environment.d generator, the parser of EnvironmentFile=), which must agree;
  the operators' guide (docs/operators.md) shows the same lines.
- the systemd units: `systemd-analyze verify`, with /srv/pbem moved to a scratch clone, must
  say nothing; and their structure (user, paths, restarts, hardening).
- Postfix: `postconf -n` / `postconf -M` and `postfix check` on a scratch configuration
  directory (Debian's master.cf plus ours) without a warning; `postmap` builds the transport
  table and finds the reply address in it.
- deploy/pbem and deploy/pbem-ingest: `sh -n`, and run against a fake flask to show what they
  pass through (exit status, arguments, standard input, the settings) and what they turn into
  75 (EX_TEMPFAIL: Postfix keeps the mail and tries again).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from deploy_support import BIN, DEPLOY, KEY, ROOT, require_tool

ENV_EXAMPLE = DEPLOY / "pbem.env.example"
ASSIGNMENT = re.compile(r"^([A-Z][A-Z0-9_]*)='([^']*)'$")
SAFE_PATH = "/usr/bin:/bin"
ENV_D_GENERATOR = "/usr/lib/systemd/user-environment-generators/30-systemd-environment-d-generator"


def settings_in(path: Path) -> dict[str, str]:
    """The file's settings as written: every line a comment, blank, or KEY='value'."""
    out = {}
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        match = ASSIGNMENT.match(line)
        assert match, f"{path.name}:{n}: not KEY='value' in single quotes: {line!r}"
        out[match[1]] = match[2]
    return out


def sourced_by_sh(path: Path) -> dict[str, str]:
    done = subprocess.run(["sh", "-c", 'set -a; . "$1"; set +a; env -0', "sh", str(path)],
                          env={"PATH": SAFE_PATH}, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and not done.stderr, done.stderr
    pairs = (item.split("=", 1) for item in done.stdout.split("\0") if "=" in item)
    return {k: v for k, v in pairs if k not in ("PATH", "PWD", "SHLVL", "OLDPWD", "_")}


def read_by_systemd(path: Path, tmp_path: Path) -> dict[str, str]:
    """systemd's env-file parser (the one of EnvironmentFile=), through the environment.d
    generator: it reads $XDG_CONFIG_HOME/environment.d/*.conf and prints what it parsed."""
    generator = require_tool(ENV_D_GENERATOR)
    config = tmp_path / "xdg"
    (config / "environment.d").mkdir(parents=True)
    shutil.copy(path, config / "environment.d" / "50-pbem.conf")
    done = subprocess.run([generator], env={"XDG_CONFIG_HOME": str(config), "PATH": SAFE_PATH},
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and not done.stderr, done.stderr
    out = {}
    for line in done.stdout.splitlines():
        [item] = shlex.split(line)        # it prints values that need it in shell double quotes
        key, value = item.split("=", 1)
        out[key] = value
    return out


# -- the env file ------------------------------------------------------------------------

def test_the_env_file_reads_the_same_under_sh_and_systemd(tmp_path):
    written = settings_in(ENV_EXAMPLE)
    assert written["MAIL_FROM"] == "Babel by mail <turns@games.example.org>"
    assert {"SECRET_KEY", "BASE_URL", "MAIL_URL", "MAIL_FROM", "REPLY_ADDRESS"} <= set(written)
    # environment.d expands $VARIABLES where EnvironmentFile= does not: with no $ in the file,
    # the two read it alike.
    assert "$" not in ENV_EXAMPLE.read_text()
    assert sourced_by_sh(ENV_EXAMPLE) == written
    systemd = read_by_systemd(ENV_EXAMPLE, tmp_path)
    assert {k: systemd.get(k) for k in written} == written


def test_why_values_are_quoted(tmp_path):
    """The operators' guide's old unquoted MAIL_FROM read fine by systemd and broke sh (`<` is a
    redirection); an inline comment is part of the value for systemd, not for sh."""
    unquoted = tmp_path / "unquoted.env"
    unquoted.write_text("MAIL_FROM=Babel by mail <turns@games.example.org>\n")
    done = subprocess.run(["sh", "-c", 'set -a; . "$1"', "sh", str(unquoted)], env={"PATH": SAFE_PATH},
                          capture_output=True, text=True, cwd=tmp_path, timeout=30)
    assert done.returncode != 0
    assert read_by_systemd(unquoted, tmp_path / "a")["MAIL_FROM"] == "Babel by mail <turns@games.example.org>"
    commented = tmp_path / "commented.env"
    commented.write_text("PROXY_FIX='1'  # one proxy\n")
    assert sourced_by_sh(commented)["PROXY_FIX"] == "1"
    assert read_by_systemd(commented, tmp_path / "b")["PROXY_FIX"] == "1# one proxy"


def test_the_operators_guide_shows_the_env_file_as_it_is():
    readme = (ROOT / "docs" / "operators.md").read_text()
    lines = ENV_EXAMPLE.read_text().splitlines()
    settings = [line for line in lines if ASSIGNMENT.match(line)]
    for line in settings:
        assert line in readme.splitlines(), line
    for key in settings_in(ENV_EXAMPLE):
        for line in readme.splitlines():
            if line.startswith(f"{key}="):
                assert ASSIGNMENT.match(line), f"docs/operators.md: {line!r} is not quoted as the env file is"


def fake_clone(tmp_path: Path) -> Path:
    """A clone for the wrappers: its .venv/bin/flask is this test run's flask."""
    root = tmp_path / "srv-pbem"
    (root / ".venv" / "bin").mkdir(parents=True)
    (root / ".venv" / "bin" / "flask").symlink_to(BIN / "flask")
    return root


def test_the_example_as_shipped_is_refused_and_a_filled_in_copy_runs(tmp_path):
    root = fake_clone(tmp_path)
    base = {"PATH": SAFE_PATH, "PBEM_ROOT": str(root), "PBEM_ENV_FILE": str(ENV_EXAMPLE)}
    done = subprocess.run([str(DEPLOY / "pbem"), "mail", "status"], env=base, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 78
    assert done.stderr.startswith("pbem: SECRET_KEY is 9 bytes long"), done.stderr
    filled = tmp_path / "pbem.env"
    text = ENV_EXAMPLE.read_text().replace("SECRET_KEY='change-me'", f"SECRET_KEY='{KEY}'")
    filled.write_text(text + f"DATABASE_URL='sqlite:///{tmp_path}/pbem.sqlite3'\n"
                             f"PBEM_INSTANCE_PATH='{tmp_path}/instance'\n")
    for command in (["db", "upgrade"], ["mail", "status"]):
        done = subprocess.run([str(DEPLOY / "pbem"), *command], env={**base, "PBEM_ENV_FILE": str(filled)},
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
    assert "0 pending" in done.stdout          # no mail yet
    missing = subprocess.run([str(DEPLOY / "pbem"), "mail", "status"],
                             env={**base, "PBEM_ENV_FILE": str(tmp_path / "nowhere")},
                             capture_output=True, text=True, timeout=30)
    assert missing.returncode == 78 and "cannot read" in missing.stderr


# -- systemd units ---------------------------------------------------------------------------

UNITS = ["pbem.service", "pbem-web.service", "pbem-worker.service", "pbem-lmtp.service"]


def unit_settings(name: str) -> dict[str, dict[str, list[str]]]:
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    for line in (DEPLOY / name).read_text().splitlines():
        if not line.strip() or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key, []).append(value)
    return sections


@pytest.mark.parametrize("name", UNITS)
def test_the_units_run_pbem_as_its_own_user_hardened(name):
    unit = unit_settings(name)
    service = unit["Service"]
    expected = {"User": ["pbem"], "Group": ["pbem"], "WorkingDirectory": ["/srv/pbem"],
                "EnvironmentFile": ["/etc/pbem.env"], "Restart": ["always"],
                "NoNewPrivileges": ["yes"], "ProtectSystem": ["strict"],
                "ReadWritePaths": ["/srv/pbem/instance"], "ProtectHome": ["yes"], "PrivateTmp": ["yes"],
                "CapabilityBoundingSet": [""]}
    assert {k: service.get(k) for k in expected} == expected
    [command] = service["ExecStart"]
    argv = shlex.split(command)
    refused = {"pbem.service": (["/srv/pbem/.venv/bin/flask", "--app", "pbem", "serve-production"], "78"),
               "pbem-web.service": (["/srv/pbem/.venv/bin/gunicorn"], "4"),
               "pbem-worker.service": (["/srv/pbem/.venv/bin/flask", "--app", "pbem", "worker"], "78"),
               "pbem-lmtp.service": (["/srv/pbem/.venv/bin/flask", "--app", "pbem", "lmtp"], "78")}[name]
    assert argv[:len(refused[0])] == refused[0]
    # A refused start is not restarted in a loop: its exit status stops Restart=always.
    assert service["RestartPreventExitStatus"] == [refused[1]]
    assert unit["Install"]["WantedBy"] == ["multi-user.target"]
    if name == "pbem-web.service":
        assert argv[-1] == "wsgi:app" and "127.0.0.1:8000" in argv
        assert service["KillMode"] == ["mixed"]


def test_the_units_verify_with_systemd(tmp_path):
    analyze = require_tool("systemd-analyze")
    clone = tmp_path / "srv" / "pbem"
    (clone / ".venv" / "bin").mkdir(parents=True)
    (clone / "instance").mkdir()
    for program in ("flask", "gunicorn"):   # verify checks that ExecStart's program exists
        fake = clone / ".venv" / "bin" / program
        fake.write_text("#!/bin/sh\n")
        fake.chmod(0o755)
    units = tmp_path / "units"
    units.mkdir()
    for name in UNITS:
        (units / name).write_text((DEPLOY / name).read_text().replace("/srv/pbem", str(clone)))
    done = subprocess.run([analyze, "verify", "--man=no", *(str(units / n) for n in UNITS)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout + done.stderr == "", done.stdout + done.stderr
    # verify speaks up for a mistake (it exits 0 for unknown keys: its silence is the check).
    (units / "pbem.service").write_text((units / "pbem.service").read_text()
                                        .replace("ProtectSystem=strict", "ProtectSystem=strictly"))
    done = subprocess.run([analyze, "verify", "--man=no", str(units / "pbem.service")],
                          capture_output=True, text=True, timeout=120)
    assert "protect system value" in done.stdout + done.stderr


# -- Postfix ---------------------------------------------------------------------------------

POSTFIX = DEPLOY / "postfix"


def postfix_config(tmp_path: Path) -> Path:
    """A configuration directory: Debian's master.cf (or Postfix's prototype) with ours appended,
    our main.cf lines, our transport table; the table's path moved into it."""
    stock = next((p for p in (Path("/etc/postfix/master.cf"), Path("/etc/postfix/master.cf.proto"),
                              Path("/usr/share/postfix/master.cf.dist")) if p.exists()), None)
    if stock is None:
        reason = "Postfix's master.cf not found (apt-get install postfix)"
        if os.environ.get("PBEM_REQUIRE_TOOLS") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    config = tmp_path / "postfix"
    config.mkdir()
    (config / "master.cf").write_text(stock.read_text() + "\n" + (POSTFIX / "master.cf").read_text())
    (config / "main.cf").write_text((POSTFIX / "main.cf").read_text()
                                    .replace("/etc/postfix/pbem-transport", str(config / "pbem-transport")))
    shutil.copy(POSTFIX / "pbem-transport", config / "pbem-transport")
    return config


def run_clean(argv: list[str]) -> subprocess.CompletedProcess:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert (done.returncode == 0 and "warning" not in done.stderr.lower()
            and "fatal" not in done.stderr.lower()), \
        f"{' '.join(argv)}:\n{done.stdout}{done.stderr}"
    return done


def test_the_postfix_files_pass_postconf_postmap_and_postfix_check(tmp_path):
    postconf = require_tool("postconf")
    postmap = require_tool("postmap")
    config = postfix_config(tmp_path)
    settings = run_clean([postconf, "-c", str(config), "-n"]).stdout
    assert "recipient_delimiter = +" in settings
    assert "pbem_destination_recipient_limit = 1" in settings   # a known service's parameter
    assert "games.example.org" in run_clean([postconf, "-c", str(config), "-h", "mydestination"]).stdout
    [service] = run_clean([postconf, "-c", str(config), "-M", "pbem/unix"]).stdout.splitlines()
    fields = service.split()
    assert fields[:8] == ["pbem", "unix", "-", "n", "n", "-", "-", "pipe"]
    assert "user=pbem" in fields
    assert service.endswith("argv=/srv/pbem/deploy/pbem-ingest --recipient ${recipient}")
    run_clean([postmap, "-c", str(config), f"hash:{config / 'pbem-transport'}"])
    found = run_clean([postmap, "-c", str(config), "-q", "turns@games.example.org",
                       f"hash:{config / 'pbem-transport'}"]).stdout
    assert found.strip() == "pbem:"
    if os.geteuid() == 0:
        run_clean([require_tool("postfix"), "-c", str(config), "check"])


def test_the_postfix_files_agree_with_the_env_file_and_the_wrapper():
    reply = settings_in(ENV_EXAMPLE)["REPLY_ADDRESS"]
    local, domain = reply.split("@")
    transport = [line.split() for line in (POSTFIX / "pbem-transport").read_text().splitlines()
                 if line.strip() and not line.startswith("#")]
    assert transport == [[reply, "pbem:"]]
    main = (POSTFIX / "main.cf").read_text()
    assert re.search(rf"^mydestination = .*\b{re.escape(domain)}$", main, re.M)
    assert "hash:/etc/postfix/pbem-transport" in main
    master = (POSTFIX / "master.cf").read_text()
    assert "argv=/srv/pbem/deploy/pbem-ingest --recipient ${recipient}" in master
    ingest = DEPLOY / "pbem-ingest"
    assert os.access(ingest, os.X_OK)
    staged = subprocess.run(["git", "ls-files", "-s", "deploy/pbem-ingest", "deploy/pbem"], cwd=ROOT,
                            capture_output=True, text=True).stdout.split()
    if staged:   # committed executable, so that a clone's pipe can run it
        assert staged[0] == "100755" and staged[4] == "100755", staged


# -- the wrappers ----------------------------------------------------------------------------

@pytest.mark.parametrize("script", ["pbem", "pbem-ingest"])
def test_the_wrappers_are_posix_sh(script):
    for shell in ("sh", "dash", "bash"):
        if shutil.which(shell):
            done = subprocess.run([shell, "-n", str(DEPLOY / script)], capture_output=True, text=True)
            assert done.returncode == 0, done.stderr
    assert (DEPLOY / script).read_text().startswith("#!/bin/sh\n")


FAKE_FLASK = """#!/bin/sh
# records how it was called, then exits as FAKE_STATUS says (or dies of a signal)
out="$FAKE_OUT"
printf '%s\\n' "$@" > "$out/args"
pwd > "$out/cwd"
printf '%s' "$MAIL_FROM" > "$out/mail_from"
cat > "$out/stdin"
case "$FAKE_STATUS" in
    KILL) kill -KILL $$ ;;
    *) exit "$FAKE_STATUS" ;;
esac
"""


@pytest.fixture
def ingest(tmp_path):
    root = tmp_path / "clone"
    (root / ".venv" / "bin").mkdir(parents=True)
    fake = root / ".venv" / "bin" / "flask"
    fake.write_text(FAKE_FLASK)
    fake.chmod(0o755)
    out = tmp_path / "out"
    out.mkdir()

    def run(status="0", env_file=ENV_EXAMPLE, message=b"From: anna@example.org\n\nmove H\n"):
        env = {"PATH": SAFE_PATH, "PBEM_ROOT": str(root), "PBEM_ENV_FILE": str(env_file),
               "FAKE_OUT": str(out), "FAKE_STATUS": status}
        done = subprocess.run([str(DEPLOY / "pbem-ingest"), "--recipient", "turns+abc-def@games.example.org"],
                              input=message, env=env, capture_output=True, timeout=30)
        return done, out
    run.root, run.fake = root, fake
    return run


@pytest.mark.parametrize("status", ["0", "75", "1", "2", "65", "67"])
def test_pbem_ingest_passes_the_exit_status_arguments_and_message_through(ingest, status):
    message = b"From: Anna <anna@example.org>\nTo: turns+abc-def@games.example.org\n\nmove H\r\n\xe4\n"
    done, out = ingest(status, message=message)
    assert done.returncode == int(status), done.stderr
    assert (out / "args").read_text().splitlines() == ["--app", "pbem", "ingest", "--recipient",
                                                       "turns+abc-def@games.example.org"]
    assert (out / "stdin").read_bytes() == message
    assert (out / "mail_from").read_text() == "Babel by mail <turns@games.example.org>"
    assert Path((out / "cwd").read_text().strip()) == ingest.root


def test_pbem_ingest_turns_a_refused_configuration_and_a_crash_into_a_retry(ingest):
    done, _ = ingest("78")
    assert done.returncode == 75
    done, _ = ingest("KILL")
    assert done.returncode == 75


def test_pbem_ingest_asks_for_a_retry_when_it_cannot_run(ingest, tmp_path):
    done, out = ingest(env_file=tmp_path / "missing.env")
    assert done.returncode == 75 and b"cannot read" in done.stderr
    assert not (out / "args").exists()
    broken = tmp_path / "broken.env"
    broken.write_text("SECRET_KEY='unterminated\n")
    done, out = ingest(env_file=broken)
    assert done.returncode == 75 and b"does not read as sh" in done.stderr
    assert not (out / "args").exists()
    ingest.fake.unlink()
    done, out = ingest()
    assert done.returncode == 75 and b"is missing" in done.stderr


def test_pbem_ingest_runs_the_real_ingest(tmp_path):
    """With the real flask: a refused configuration (the example's placeholder key) is a retry,
    and a filled-in one applies the message (here: one that is not a reply to any turn)."""
    root = fake_clone(tmp_path)
    env = {"PATH": SAFE_PATH, "PBEM_ROOT": str(root), "PBEM_ENV_FILE": str(ENV_EXAMPLE)}
    message = b"From: Anna <anna@example.org>\nTo: turns@games.example.org\nSubject: hi\n\nhello\n"
    done = subprocess.run([str(DEPLOY / "pbem-ingest"), "--recipient", "turns@games.example.org"],
                          input=message, env=env, capture_output=True, timeout=120)
    assert done.returncode == 75 and b"pbem: SECRET_KEY is 9 bytes long" in done.stderr
    filled = tmp_path / "pbem.env"
    filled.write_text(ENV_EXAMPLE.read_text().replace("SECRET_KEY='change-me'", f"SECRET_KEY='{KEY}'")
                      + f"DATABASE_URL='sqlite:///{tmp_path}/pbem.sqlite3'\n"
                        f"PBEM_INSTANCE_PATH='{tmp_path}/instance'\nMAIL_URL='console:'\n")
    env["PBEM_ENV_FILE"] = str(filled)
    upgrade = subprocess.run([str(DEPLOY / "pbem"), "db", "upgrade"], env=env, capture_output=True,
                             timeout=120)
    assert upgrade.returncode == 0, upgrade.stderr
    done = subprocess.run([str(DEPLOY / "pbem-ingest"), "--recipient", "turns@games.example.org"],
                          input=message, env=env, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()                     # ingest's report of what it did

