"""A mail reply's round trip: its end of DATA at `flask lmtp` → the next player's turn mail
handed to SMTP by a worker of another process.

    .venv/bin/python benchmarks/reply_to_mail.py [--replies 30]
        [--database postgresql://postgres@127.0.0.1:5432/test]

A PostgreSQL schema of its own (migrated, dropped afterwards), an SMTP server on loopback
(aiosmtpd) noting when each mail arrives, `flask --app pbem worker` (procrastinate's, every
queue) and the real `flask --app pbem lmtp`, each a process of its own as deployed. --replies
games of Babel, each with its first player's reply (made as `benchmarks/replies.py` makes
them); once the invitations are out, each reply is handed to the LMTP server on one connection
and timed from its end of DATA until the SMTP server has the second player's turn mail: the
reply applied, its commit deferring the `deliver` job, procrastinate's NOTIFY waking the
worker, the mail composed and sent. Prints p50, p95 and max, and the LMTP answer's own p50.
"""

from __future__ import annotations

import argparse
import os
import re
import smtplib
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from load import drop_schema, make_schema  # noqa: E402  (benchmarks/load.py)
from replies import replies, settings  # noqa: E402  (benchmarks/replies.py)
from wakeup import Arrivals  # noqa: E402  (benchmarks/wakeup.py)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replies", type=int, default=30)
    parser.add_argument("--database", default="postgresql://postgres@127.0.0.1:5432/test")
    args = parser.parse_args()

    from aiosmtpd.controller import Controller
    from flask_migrate import upgrade

    from pbem import create_app

    schema, url = make_schema(args.database)
    arrivals = Arrivals()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    smtp = Controller(arrivals, hostname="127.0.0.1", port=port)
    smtp.start()
    env = {**settings(url), "MAIL_URL": f"smtp://127.0.0.1:{port}",
           "SECRET_KEY": "reply-to-mail-benchmark-key-" + "0" * 32}
    processes: list[subprocess.Popen] = []
    try:
        app = create_app({"SECRET_KEY": env["SECRET_KEY"], "SQLALCHEMY_DATABASE_URI": url})
        with app.app_context():
            upgrade()
        made = replies(env, args.replies)
        processes.append(subprocess.Popen(
            [str(BIN / "flask"), "--app", "pbem", "worker"], cwd=ROOT, env={**os.environ, **env},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        bob = {game: None for game, _, _ in made}
        for game, _, raw in made:   # Anna replies from anna.TAG, Bob plays from bob.TAG
            tag = re.search(rb"anna\.([0-9a-f]+)@example\.org", raw).group(1).decode()
            bob[game] = f"bob.{tag}@example.org"
            arrivals.wait(bob[game], 1, within=120)   # his invitation: out before we start
        lmtp = subprocess.Popen([str(BIN / "flask"), "--app", "pbem", "lmtp", "--port", "0"],
                                cwd=ROOT, env={**os.environ, **env}, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        processes.append(lmtp)
        found = re.search(r"listening on ([\d.]+):(\d+)", lmtp.stdout.readline())
        client = smtplib.LMTP(found.group(1), int(found.group(2)))
        client.ehlo()
        delays, answers = [], []
        for game, recipient, raw in made:
            client.mail("anna@example.org")
            client.rcpt(recipient)
            code, _ = client.docmd("DATA")
            assert code == 354, code
            body = re.sub(rb"(?m)^\.", b"..", re.sub(rb"\r?\n", b"\r\n", raw))
            client.send(body if body.endswith(b"\r\n") else body + b"\r\n")
            started = time.perf_counter()
            client.send(b".\r\n")
            code, text = client.getreply()
            answers.append(time.perf_counter() - started)
            if code != 250:
                raise SystemExit(f"game {game}: {code} {text!r}")
            delays.append(arrivals.wait(bob[game], 2) - started)
            time.sleep(0.2)   # one reply at a time, as players send them
        client.quit()
        delays.sort()
        print(f"reply's end of DATA → next mail at SMTP, {len(delays)} replies: "
              f"p50 {statistics.median(delays) * 1000:.0f} ms, "
              f"p95 {delays[int(len(delays) * 0.95) - 1] * 1000:.0f} ms, max {delays[-1] * 1000:.0f} ms "
              f"(the LMTP answer alone: p50 {statistics.median(answers) * 1000:.0f} ms)")
    finally:
        for process in processes:
            process.terminate()
            process.wait(15)
        smtp.stop()
        drop_schema(args.database, schema)


if __name__ == "__main__":
    main()
