"""Reply benchmark: a mail reply applied through `flask lmtp` against `flask ingest` as a pipe.

    .venv/bin/python benchmarks/replies.py [--replies 50] [--pipe 20]
        [--backends sqlite,postgresql] [--database-url postgresql://...] [--json]

For each database (SQLite in a temporary folder; PostgreSQL in a schema of its own, dropped
afterwards):

1. migrates it and creates --replies + --pipe games of Babel, each for its own two addresses,
   and writes for each the first player's reply to his turn mail (read from the outbox: its
   Reply-To and Message-ID), with his legal first turn, as a mail client would;
2. starts the real `flask --app pbem lmtp --port 0` and hands it --replies of those replies,
   one after another on one connection, as an MTA does: the time measured is from the end of
   DATA (the lone dot sent) to the server's reply (250 ... applied); the server's CPU time over
   those replies is read from /proc;
3. runs `flask --app pbem ingest --recipient ADDRESS` once per reply for --pipe replies, the
   message on standard input, as an MTA's pipe does: wall time and CPU time (user + system,
   of the child) per message, which include starting Python and the app.

Every reply must be applied (one event each), or the benchmark fails. Prints p50/p95/max per
way and database, and the first LMTP reply after start-up on its own.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from email.message import EmailMessage
from email.utils import formataddr, formatdate, make_msgid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from load import drop_schema, make_schema, percentile  # noqa: E402  (benchmarks/load.py)

SECRET = "replies-benchmark-key"
TICKS = os.sysconf("SC_CLK_TCK")


def settings(database_url: str) -> dict:
    """The environment of every process: the app's settings (ingest mails nobody)."""
    return {"SECRET_KEY": SECRET, "DATABASE_URL": database_url, "BASE_URL": "http://pbem.bench",
            "MAIL_URL": "smtp://127.0.0.1:9", "MAIL_FROM": "pbem <turns@pbem.bench>",
            "FLASK_DEBUG": "0", "INVITES_PER_ADDRESS_PER_DAY": "1000000",
            "GAMES_PER_ADDRESS_PER_DAY": "1000000"}


# -- games and replies --------------------------------------------------------------------

def replies(env: dict, count: int) -> list[tuple[str, str, bytes]]:
    """`count` new games, each with its first player's reply: (game, envelope recipient, raw)."""
    from sqlalchemy import select

    from pbem import create_app
    from pbem.extensions import db
    from pbem.games.babel import GAME
    from pbem.play import turns
    from pbem.store.models import Mail

    saved = dict(os.environ)
    os.environ.update(env)
    try:
        app = create_app()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    out = []
    with app.app_context():
        for i in range(count):
            tag = secrets.token_hex(4)
            anna, bob = f"anna.{tag}@example.org", f"bob.{tag}@example.org"
            spec = turns.Spec("babel", [("Anna", anna), ("Bob", bob)], {"sumerians": "top-run"}, 0,
                              seed=1000 + i)
            loaded = turns.create_game(spec)
            mail = db.session.scalars(select(Mail).where(Mail.game_id == loaded.id, Mail.seat == 0,
                                                         Mail.reply_to.is_not(None))).one()
            hand = GAME.view(loaded.state, 0)["players"][0]["hand"]
            reply = EmailMessage()
            reply["From"] = formataddr(("Anna", anna))
            reply["To"] = mail.reply_to
            reply["Subject"] = "Re: " + mail.subject
            reply["Date"] = formatdate(localtime=True)
            reply["Message-ID"] = make_msgid(domain="mail.example.org")
            reply["In-Reply-To"] = mail.message_id
            quoted = "\n".join("> " + line for line in mail.text.splitlines())
            reply.set_content(f"move {hand[0]}\nsettle {hand[1]}\nbuild mine\n\n"
                              f"On {formatdate()}, pbem wrote:\n{quoted}\n")
            out.append((loaded.id, mail.reply_to, reply.as_bytes()))
        db.session.remove()
        db.engine.dispose()
    return out


def events(env: dict, games: list[str]) -> int:
    from sqlalchemy import func, select

    from pbem import create_app
    from pbem.extensions import db
    from pbem.store.models import Event
    saved = dict(os.environ)
    os.environ.update(env)
    try:
        app = create_app()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    with app.app_context():
        n = db.session.scalar(select(func.count()).select_from(Event).where(Event.game_id.in_(games)))
        db.engine.dispose()
    return n


# -- the two ways in ------------------------------------------------------------------------

def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS   # utime, stime


def by_lmtp(env: dict, batch: list, workdir: Path) -> dict:
    """One warm `flask lmtp` process; one connection; the end of DATA to the reply, each (and
    the time the server logs for ingesting each, in its thread)."""
    import smtplib
    log = workdir / "lmtp.log"
    with open(log, "w") as err:
        proc = subprocess.Popen([str(BIN / "flask"), "--app", "pbem", "lmtp", "--port", "0"], cwd=ROOT,
                                env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=err, text=True)
    try:
        line = proc.stdout.readline()
        found = re.search(r"listening on ([\d.]+):(\d+)", line)
        if not found:
            raise RuntimeError(f"flask lmtp did not start: {line!r}")
        client = smtplib.LMTP(found.group(1), int(found.group(2)))
        client.ehlo()
        cpu_before, times = cpu_seconds(proc.pid), []
        for game, recipient, raw in batch:
            client.mail("anna@example.org")
            client.rcpt(recipient)
            code, _ = client.docmd("DATA")
            assert code == 354, code
            body = re.sub(rb"(?m)^\.", b"..", re.sub(rb"\r?\n", b"\r\n", raw))
            client.send(body if body.endswith(b"\r\n") else body + b"\r\n")
            started = time.perf_counter()
            client.send(b".\r\n")
            code, text = client.getreply()
            times.append(time.perf_counter() - started)
            if code != 250 or not text.startswith(b"2.0.0 applied"):
                raise RuntimeError(f"game {game}: {code} {text!r}")
            if len(times) == 1:
                cpu_first = cpu_seconds(proc.pid)
        cpu_end = cpu_seconds(proc.pid)
        client.quit()
    finally:
        proc.terminate()
        proc.wait(30)
    ingest = [float(ms) / 1000 for ms in re.findall(r"^.* applied .*\((\d+) ms\)$", log.read_text(), re.M)]
    return {"times": times, "ingest": ingest, "cpu_per_reply": (cpu_end - cpu_before) / len(batch),
            "cpu_first": cpu_first - cpu_before,
            "cpu_per_warm_reply": (cpu_end - cpu_first) / max(1, len(batch) - 1)}


def by_pipe(env: dict, batch: list) -> dict:
    """`flask ingest` started once per reply, the message on standard input."""
    times, cpus = [], []
    for game, recipient, raw in batch:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run([str(BIN / "flask"), "--app", "pbem", "ingest", "--recipient", recipient],
                              cwd=ROOT, env={**os.environ, **env}, input=raw, capture_output=True)
        times.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if done.returncode != 0 or not done.stdout.startswith(b"applied"):
            raise RuntimeError(f"game {game}: exit {done.returncode}: {done.stdout!r} {done.stderr!r}")
    return {"times": times, "cpus": cpus}


def summary(times: list[float]) -> dict:
    return {"n": len(times), "p50_ms": round(percentile(times, 50) * 1000, 1),
            "p95_ms": round(percentile(times, 95) * 1000, 1),
            "max_ms": round(max(times) * 1000, 1), "mean_ms": round(statistics.mean(times) * 1000, 1)}


def run(backend: str, args) -> dict:
    workdir = Path(tempfile.mkdtemp(prefix="pbem-replies-"))
    schema = None
    if backend == "sqlite":
        url = f"sqlite:///{workdir / 'pbem.sqlite3'}"
    else:
        from pbem.config import database_url
        schema, url = make_schema(database_url(args.database_url))
    env = settings(url)
    try:
        subprocess.run([str(BIN / "flask"), "--app", "pbem", "db", "upgrade"], cwd=ROOT,
                       env={**os.environ, **env}, check=True, capture_output=True)
        made = replies(env, args.replies + args.pipe)
        print(f"{backend}: {len(made)} games and replies made", file=sys.stderr)
        lmtp = by_lmtp(env, made[:args.replies], workdir)
        pipe = by_pipe(env, made[args.replies:])
        applied = events(env, [game for game, _, _ in made])
        if applied != len(made):
            raise RuntimeError(f"{applied} events for {len(made)} replies")
    finally:
        if schema:
            drop_schema(args.database_url, schema)
        shutil.rmtree(workdir, ignore_errors=True)
    return {
        "lmtp": {**summary(lmtp["times"]), "first_ms": round(lmtp["times"][0] * 1000, 1),
                 "ingest": summary(lmtp["ingest"]),
                 "cpu_ms_per_reply": round(lmtp["cpu_per_reply"] * 1000, 1),
                 "cpu_ms_first": round(lmtp["cpu_first"] * 1000, 1),
                 "cpu_ms_per_warm_reply": round(lmtp["cpu_per_warm_reply"] * 1000, 1)},
        "pipe": {**summary(pipe["times"]),
                 "cpu_p50_ms": round(percentile(pipe["cpus"], 50) * 1000, 1),
                 "cpu_mean_ms": round(statistics.mean(pipe["cpus"]) * 1000, 1)},
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replies", type=int, default=50, help="replies through LMTP")
    parser.add_argument("--pipe", type=int, default=20, help="replies through the ingest pipe")
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--database-url", default=os.environ.get(
        "PBEM_BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test"))
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args(argv)
    results = {backend: run(backend, args) for backend in args.backends.split(",")}
    print(f"\n{'database':<11}{'way':<34}{'n':>4}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}{'CPU ms':>9}")
    for backend, r in results.items():
        lmtp, pipe = r["lmtp"], r["pipe"]
        print(f"{backend:<11}{'lmtp: end of DATA to 250':<34}{lmtp['n']:>4}{lmtp['p50_ms']:>9}"
              f"{lmtp['p95_ms']:>9}{lmtp['max_ms']:>9}{lmtp['cpu_ms_per_reply']:>9}")
        ingest = lmtp["ingest"]
        print(f"{'':<11}{'  of which ingest (server log)':<34}{ingest['n']:>4}{ingest['p50_ms']:>9}"
              f"{ingest['p95_ms']:>9}{ingest['max_ms']:>9}")
        print(f"{'':<11}{'ingest pipe: process, wall':<34}{pipe['n']:>4}{pipe['p50_ms']:>9}"
              f"{pipe['p95_ms']:>9}{pipe['max_ms']:>9}{pipe['cpu_p50_ms']:>9}")
    print("\nlmtp CPU: the server's per reply (mean over all); pipe CPU: the process's (p50).")
    for backend, r in results.items():
        lmtp = r["lmtp"]
        print(f"{backend}: the first LMTP reply after start {lmtp['first_ms']} ms "
              f"({lmtp['cpu_ms_first']} ms CPU), the others {lmtp['cpu_ms_per_warm_reply']} ms CPU each; "
              f"pipe CPU mean {r['pipe']['cpu_mean_ms']} ms")
    print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    if args.json:
        print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
