"""A notice's latency: a turn committed → the next player's notice at his channels' endpoints.

    .venv/bin/python benchmarks/notices.py [--turns 100] [--poll 2]
        [--database postgresql://postgres@127.0.0.1:5432/test | --database sqlite]

On PostgreSQL a schema of its own (dropped afterwards), migrated, and `flask --app pbem worker`
in a process of its own, as deployed; on SQLite (`--database sqlite`) a database file of its
own, and the worker's loop as a thread of this process, polling every --poll seconds, as
`serve` runs it (one process: the commit wakes it in memory). An SMTP server, a webhook
receiver, a push endpoint and the game's webhook receiver on loopback
(tests/helpers/receivers.py), each noting when what it gets arrives. Each second player has a
webhook and a browser's push subscription, and each game a webhook of its own (set by its first
player: the group's channel, told "Bob to play"). Then
--turns games of Babel, one after another: the first player's turn is submitted
(`turns.submit`, as a page or a reply does) and the clock runs from its commit to the moment
each endpoint has the second player's turn notice (the push decrypted, as his browser would,
to check it is the turn), and the game's webhook its public notice. Prints p50, p99 and max
per channel; the commit wakes the worker
(`pbem.mail.wakeup`), so they should be far below the poll. (The worker sends the mail first,
then the notices.)
"""

from __future__ import annotations

import argparse
import json
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
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "helpers")]

SECRET = "notices-benchmark-key-" + "0" * 32


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


def percentile(ordered: list[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def arrived(receiver, count: int, within: float = 30.0) -> float:
    """When the receiver's `count`th POST arrived (perf_counter's clock)."""
    got = receiver.wait_for(count, within)
    if len(got) < count:
        raise SystemExit(f"{receiver.url} did not get notice {count} within {within} s")
    return got[count - 1].at - time.time() + time.perf_counter()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--poll", type=float, default=2.0)
    parser.add_argument("--database", default="postgresql://postgres@127.0.0.1:5432/test",
                        help="a PostgreSQL URL, or 'sqlite' for a database file of its own")
    args = parser.parse_args()
    sqlite = args.database == "sqlite"

    import psycopg
    from aiosmtpd.controller import Controller
    from flask_migrate import upgrade

    from pbem import create_app
    from pbem.games.rng import Rng
    from pbem.play import turns
    from pbem.players import channels
    from pbem.store import gamelog
    from receivers import Browser, WebhookReceiver

    schema = "notices_" + secrets.token_hex(4)
    instance = Path(os.environ.get("TMPDIR", "/tmp")) / schema
    instance.mkdir()
    if sqlite:
        url = f"sqlite:///{instance / 'bench.db'}"
    else:
        with psycopg.connect(args.database, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
        url = f"{args.database}?options={quote(f'-csearch_path={schema}')}"
    arrivals = Arrivals()
    with socket.socket() as probe:   # a free port (aiosmtpd's controller wants one named)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    smtp = Controller(arrivals, hostname="127.0.0.1", port=port)
    smtp.start()
    hook, push, group = WebhookReceiver(204), WebhookReceiver(201), WebhookReceiver(204)
    config = {"SECRET_KEY": SECRET, "DATABASE_URL": url, "MAIL_URL": f"smtp://127.0.0.1:{port}",
              "BASE_URL": "http://pbem.bench", "MAIL_FROM": "pbem <turns@pbem.bench>",
              "WEBHOOK_ALLOW_PRIVATE": "1", "PBEM_INSTANCE_PATH": str(instance)}
    os.environ["PBEM_INSTANCE_PATH"] = str(instance)   # (this process's VAPID key: the worker's)
    worker, stop = None, None
    try:
        app = create_app({"SECRET_KEY": SECRET, "SQLALCHEMY_DATABASE_URI": url,
                          "MAIL_URL": config["MAIL_URL"], "BASE_URL": config["BASE_URL"],
                          "WEBHOOK_ALLOW_PRIVATE": True,
                          **{k: 10**6 for k in ("GAMES_PER_ADDRESS_PER_DAY", "GAMES_PER_CLIENT_PER_DAY",
                                                "SUBMISSIONS_PER_CLIENT_PER_MINUTE",
                                                "INVITES_PER_ADDRESS_PER_DAY")}})
        with app.app_context():
            upgrade()
        if sqlite:
            from pbem.jobs.worker import start_in_background
            stop = start_in_background(app, deliver_every=args.poll, remind_every=3600.0,
                                       bots_every=0)
        else:
            worker = subprocess.Popen(
                [sys.executable, "-m", "flask", "--app", "pbem", "worker", "--deliver-every",
                 str(args.poll), "--bots-every", "0"],
                cwd=ROOT, env={**os.environ, **config}, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL)
        delays: dict[str, list[float]] = {"mail": [], "webhook": [], "push": [], "game webhook": []}
        for i in range(args.turns):
            anna, bob = f"anna{i}@example.org", f"bob{i}@example.org"
            browser = Browser()
            with app.app_context():
                channels.set_webhook(bob, hook.url)
                channels.add_push(bob, browser.subscription(push.url))
                game = turns.create_game(turns.Spec("babel", [("Anna", anna), ("Bob", bob)],
                                                    {"sumerians": "top-run"}, 0))
                channels.set_game_hook(game.id, 0, group.url)
            arrivals.wait(bob, 1)   # the invitations are out, and their notices
            arrived(hook, 2 * i + 1)
            arrived(push, 2 * i + 1)
            time.sleep(0.05)
            with app.app_context():
                loaded = gamelog.load(game.id)
                text = loaded.engine.random_submission(loaded.state, 0, Rng(i))
                turns.submit(game.id, 0, loaded.seq, text, turns.Origin(turns.WEB))
                committed = time.perf_counter()
            delays["mail"].append(arrivals.wait(bob, 2) - committed)
            delays["webhook"].append(arrived(hook, 2 * i + 2) - committed)
            delays["push"].append(arrived(push, 2 * i + 2) - committed)
            delays["game webhook"].append(arrived(group, i + 1) - committed)
            told = json.loads(group.received[i].body)["notice"]["subject"]
            assert told == "Babel with Anna and Bob: Bob to play", told
            shown = json.loads(browser.decrypt(push.received[2 * i + 1].body))
            assert shown["title"].endswith("your turn, Bob"), shown
        for channel, measured in delays.items():
            measured.sort()
            print(f"{'SQLite' if sqlite else 'PostgreSQL'}: commit → {channel} at its endpoint, "
                  f"{len(measured)} turns, worker polling "
                  f"every {args.poll} s: p50 {statistics.median(measured) * 1000:.0f} ms, "
                  f"p99 {percentile(measured, 0.99) * 1000:.0f} ms, max {measured[-1] * 1000:.0f} ms")
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(10)
        if stop is not None:
            stop.set()
        smtp.stop()
        hook.close()
        push.close()
        group.close()
        if not sqlite:
            with psycopg.connect(args.database, autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


if __name__ == "__main__":
    main()
