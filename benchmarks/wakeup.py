"""The next mail's delay: a turn committed → the next player's mail handed to SMTP.

    .venv/bin/python benchmarks/wakeup.py [--turns 50] [--poll 2]
        [--database postgresql://postgres@127.0.0.1:5432/test]

A PostgreSQL schema of its own (dropped afterwards), migrated; an SMTP server on loopback
(aiosmtpd) noting when each mail arrives; `flask --app pbem worker` in a process of its own,
polling every --poll seconds as deployed. Then --turns games of Babel, one after another: the
first player's turn is submitted (`turns.submit`, as a page or a reply does) and the clock
runs from its commit to the moment the SMTP server has the second player's turn mail. Prints
p50, p95 and max; with the wake-up (`pbem.mail.wakeup`) they should be far below the poll.
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

SECRET = "wakeup-benchmark-key-" + "0" * 32


class Arrivals:
    """The SMTP server's handler: when each recipient's mails arrived."""

    def __init__(self):
        self.at: dict[str, list[float]] = {}
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        now = time.perf_counter()
        with self.lock:
            for rcpt in envelope.rcpt_tos:
                self.at.setdefault(rcpt, []).append(now)
        return "250 OK"

    def wait(self, address: str, count: int, within: float = 30.0) -> float:
        started = time.perf_counter()
        while time.perf_counter() - started < within:
            with self.lock:
                got = self.at.get(address, [])
                if len(got) >= count:
                    return got[count - 1]
            time.sleep(0.002)
        raise SystemExit(f"{address} did not get mail {count} within {within} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=50)
    parser.add_argument("--poll", type=float, default=2.0)
    parser.add_argument("--database", default="postgresql://postgres@127.0.0.1:5432/test")
    args = parser.parse_args()

    import psycopg
    from aiosmtpd.controller import Controller
    from flask_migrate import upgrade

    from pbem import create_app
    from pbem.games.rng import Rng
    from pbem.play import turns
    from pbem.store import gamelog

    schema = "wakeup_" + secrets.token_hex(4)
    with psycopg.connect(args.database, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    url = f"{args.database}?options={quote(f'-csearch_path={schema}')}"
    arrivals = Arrivals()
    with socket.socket() as probe:   # a free port (aiosmtpd's controller wants one named)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    smtp = Controller(arrivals, hostname="127.0.0.1", port=port)
    smtp.start()
    config = {"SECRET_KEY": SECRET, "DATABASE_URL": url, "MAIL_URL": f"smtp://127.0.0.1:{port}",
              "BASE_URL": "http://pbem.bench", "MAIL_FROM": "pbem <turns@pbem.bench>"}
    worker = None
    try:
        app = create_app({"SECRET_KEY": SECRET, "SQLALCHEMY_DATABASE_URI": url,
                          "MAIL_URL": config["MAIL_URL"], "BASE_URL": config["BASE_URL"],
                          **{k: 10**6 for k in ("GAMES_PER_ADDRESS_PER_DAY", "GAMES_PER_CLIENT_PER_DAY",
                                                "INVITES_PER_ADDRESS_PER_DAY")}})
        with app.app_context():
            upgrade()
        worker = subprocess.Popen(
            [sys.executable, "-m", "flask", "--app", "pbem", "worker", "--deliver-every",
             str(args.poll), "--bots-every", "0"],
            cwd=ROOT, env={**os.environ, **config}, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        delays = []
        for i in range(args.turns):
            anna, bob = f"anna{i}@example.org", f"bob{i}@example.org"
            with app.app_context():
                game = turns.create_game(turns.Spec("babel", [("Anna", anna), ("Bob", bob)],
                                                    {"sumerians": "top-run"}, 0))
            arrivals.wait(bob, 1)   # the invitations are out: the worker waits again
            time.sleep(0.05)
            with app.app_context():
                loaded = gamelog.load(game.id)
                text = loaded.engine.random_submission(loaded.state, 0, Rng(i))
                turns.submit(game.id, 0, loaded.seq, text, turns.Origin(turns.WEB))
                committed = time.perf_counter()
            delays.append(arrivals.wait(bob, 2) - committed)
        delays.sort()
        print(f"commit → next mail handed to SMTP, {len(delays)} turns, worker polling every "
              f"{args.poll} s: p50 {statistics.median(delays) * 1000:.0f} ms, "
              f"p95 {delays[int(len(delays) * 0.95) - 1] * 1000:.0f} ms, max {delays[-1] * 1000:.0f} ms")
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(10)
        smtp.stop()
        with psycopg.connect(args.database, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


if __name__ == "__main__":
    main()
