"""The computers as a pool: decisions per minute with 1 and 2 bot workers.

    .venv/bin/python benchmarks/fleet.py [--games 120] [--workers 1 2] [--level easy]
        [--repeat 2] [--database postgresql://postgres@127.0.0.1:5432/test]

For each count of workers: a PostgreSQL schema of its own (dropped afterwards), migrated;
--games games of Babel in which a computer of --level plays the first turn against a person;
each game's creation defers its computer's `think` job (procrastinate, `pbem.jobs.engine`);
then that many `flask --app pbem worker --queues bots` processes (each running --concurrency
jobs at once, 2 by default), as an operator runs them on machines of their own. The clock runs
from the first decision appended to the last (so the workers' start is not counted), and the
rate is the decisions made in between per minute. Mail is not sent (no worker of the `mail`
queue runs): only thinking is measured. --repeat times over the counts of workers in turn
(1, 2, 1, 2, ...), each line with the machine's load average (`/proc/loadavg`, 1 minute)
before and after, since on a shared machine the other work moves the rate.
"""

from __future__ import annotations

import argparse
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

SECRET = "fleet-benchmark-key-" + "0" * 32


def measure(database: str, games: int, workers: int, level: str, concurrency: int = 2) -> float:
    """Decisions per minute of `workers` bot workers over `games` decisions owed."""
    import psycopg
    from flask_migrate import upgrade

    from pbem import create_app
    from pbem.play import turns

    schema = "fleet_" + secrets.token_hex(4)
    with psycopg.connect(database, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    url = f"{database}?options={quote(f'-csearch_path={schema}')}"
    config = {"SECRET_KEY": SECRET, "DATABASE_URL": url, "MAIL_URL": "smtp://127.0.0.1:9",
              "BASE_URL": "http://pbem.bench", "MAIL_FROM": "pbem <turns@pbem.bench>"}
    running: list[subprocess.Popen] = []
    try:
        app = create_app({"SECRET_KEY": SECRET, "SQLALCHEMY_DATABASE_URI": url,
                          "MAIL_URL": config["MAIL_URL"], "BASE_URL": config["BASE_URL"],
                          **{k: 10**6 for k in ("GAMES_PER_ADDRESS_PER_DAY", "GAMES_PER_CLIENT_PER_DAY",
                                                "INVITES_PER_ADDRESS_PER_DAY")}})
        with app.app_context():
            upgrade()
            for i in range(games):
                turns.create_game(turns.Spec("babel", [("", ""), ("Anna", f"anna{i}@example.org")],
                                             {"sumerians": "top-run"}, 0, bots=(level, None)))
        running = [subprocess.Popen(
            [sys.executable, "-m", "flask", "--app", "pbem", "worker", "--queues", "bots",
             "--concurrency", str(concurrency)], cwd=ROOT, env={**os.environ, **config},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(workers)]
        with psycopg.connect(database, autocommit=True) as conn:
            conn.execute(f'SET search_path = "{schema}"')

            def decided() -> int:
                return conn.execute("SELECT count(*) FROM events").fetchone()[0]

            first = None
            deadline = time.monotonic() + 600
            while time.monotonic() < deadline:
                made = decided()
                if made and first is None:
                    first = (time.perf_counter(), made)
                if made >= games:
                    assert first is not None
                    return (made - first[1]) / (time.perf_counter() - first[0]) * 60
                time.sleep(0.05)
            raise SystemExit(f"{workers} worker(s) made {decided()} of {games} decisions in 10 min")
    finally:
        for process in running:
            process.terminate()
        for process in running:
            process.wait(20)
        with psycopg.connect(database, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--level", default="easy")
    parser.add_argument("--concurrency", type=int, default=2, help="jobs a worker runs at once")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each count, in turn")
    parser.add_argument("--database", default="postgresql://postgres@127.0.0.1:5432/test")
    args = parser.parse_args()
    for run in range(args.repeat):
        for workers in args.workers:
            before = load_average()
            rate = measure(args.database, args.games, workers, args.level, args.concurrency)
            print(f"run {run + 1}: {workers} bot worker(s) of {args.concurrency} jobs at once, "
                  f"{args.games} decisions of level {args.level}: {rate:.0f} decisions/min "
                  f"(load average {before} before, {load_average()} after)", flush=True)


def load_average() -> str:
    """The machine's load average over the last minute."""
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


if __name__ == "__main__":
    main()
