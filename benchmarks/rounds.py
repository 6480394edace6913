"""What a worker's round costs as stored games grow: the index of what is due at work.

    .venv/bin/python benchmarks/rounds.py [--running 1000,10000,100000,1000000] [--due 0.01]
        [--rounds 5] [--database postgresql://postgres@127.0.0.1:5432/test]

For each number of running games: a fresh PostgreSQL schema, migrated, filled in bulk by SQL
(`generate_series`: each game two seats, a 7-day clock, its first seat to act, and its `dues`
row somewhere in the next two days, as the commit hooks would have written it: the rows a
round reads, not the games' logs, which no round reads); then

- the `due` queue's round (`pbem.jobs.tasks.round_of_dues`: time-outs, reminders, digests, as
  the job engine's periodic `round` runs it) and the computers' look (`computers.owed`)
  with nothing due: the median of --rounds rounds, wall and CPU;
- the same round with --due of the games due (their rows moved to a minute ago): one round,
  which looks at each of them and rewrites its row;
- for comparison, the scan every round made before the index (`deadlines.waiting()` over every
  running game), once, up to 100,000 games.
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

SECRET = "rounds-benchmark-key-" + "0" * 32

FILL = """
INSERT INTO games (id, kind, options, seed, first, seats, created_at, time_limit_days, owed)
  SELECT 'r' || lpad(to_hex(n), 11, '0'), 'babel', '{"sumerians": "top-run"}', n, 0, 2,
         :now - interval '1 day', 7, '[0]'
  FROM generate_series(1, :count) AS n;
INSERT INTO seats (game_id, seat, name, email)
  SELECT 'r' || lpad(to_hex(n), 11, '0'), s, 'P' || s, 'p' || n || '-' || s || '@example.org'
  FROM generate_series(1, :count) AS n, generate_series(0, 1) AS s;
INSERT INTO dues (game_id, seat, bot, due_at)
  SELECT 'r' || lpad(to_hex(n), 11, '0'), 0, NULL, :now + (n %% 2880) * interval '1 minute' + interval '1 hour'
  FROM generate_series(1, :count) AS n;
ANALYZE;
"""


def schema_url(base: str) -> tuple[str, str]:
    schema = "rounds_" + secrets.token_hex(4)
    sep = "&" if "?" in base else "?"
    return schema, f"{base}{sep}options={quote(f'-csearch_path={schema}')}"


def timed(work) -> tuple[float, float, object]:
    wall, cpu = time.perf_counter(), time.process_time()
    out = work()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000, out


def measure(base: str, running: int, due_share: float, rounds: int) -> dict:
    import psycopg
    from flask_migrate import upgrade
    from sqlalchemy import text

    from pbem import create_app
    from pbem.extensions import db
    from pbem.jobs import computers, tasks
    from pbem.policy import deadlines

    plain = base.replace("postgresql+psycopg://", "postgresql://")
    schema, url = schema_url(base)
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        app = create_app({"SECRET_KEY": SECRET, "SQLALCHEMY_DATABASE_URI": url,
                          "BASE_URL": "http://pbem.bench", "MAIL_URL": "smtp://127.0.0.1:9"})
        now = datetime.now(UTC)
        with app.app_context():
            upgrade()
            started = time.perf_counter()   # (outside the app: no statement timeout)
            with psycopg.connect(plain, options=f"-csearch_path={schema}") as conn:
                for statement in FILL.split(";"):
                    if statement.strip():
                        conn.execute(statement.replace(":now", "%(now)s")
                                     .replace(":count", "%(count)s"),
                                     {"now": now, "count": running})
            filled = time.perf_counter() - started
            idle = [timed(lambda: tasks.round_of_dues(now)) for _ in range(rounds)]
            bots = [timed(computers.owed) for _ in range(rounds)]
            db.session.execute(text(
                "UPDATE dues SET due_at = :past WHERE game_id IN (SELECT game_id FROM dues "
                "ORDER BY game_id LIMIT :n)"), {"past": now - timedelta(minutes=1),
                                                  "n": int(running * due_share)})
            db.session.commit()
            busy = timed(lambda: tasks.round_of_dues(now))
            scan = timed(lambda: len(deadlines.waiting())) if running <= 100_000 else None
        return {"running": running, "fill_s": filled,
                "idle_wall_ms": statistics.median(w for w, _, _ in idle),
                "idle_cpu_ms": statistics.median(c for _, c, _ in idle),
                "bots_wall_ms": statistics.median(w for w, _, _ in bots),
                "due": int(running * due_share), "busy_wall_ms": busy[0], "busy_cpu_ms": busy[1],
                "scan_wall_ms": scan[0] if scan else None}
    finally:
        with psycopg.connect(plain, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--running", default="1000,10000,100000,1000000")
    parser.add_argument("--due", type=float, default=0.01)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--database", default="postgresql://postgres@127.0.0.1:5432/test")
    args = parser.parse_args()
    print("| running games | filled in | round, nothing due (wall / CPU) | computers' look | "
          "round with 1 % due (wall / CPU) | the old scan (`waiting()`) |")
    print("|---|---|---|---|---|---|")
    for running in (int(n) for n in args.running.split(",")):
        f = measure(args.database, running, args.due, args.rounds)
        scan = f"{f['scan_wall_ms'] / 1000:.1f} s" if f["scan_wall_ms"] is not None else "–"
        print(f"| {running:,} | {f['fill_s']:.0f} s | {f['idle_wall_ms']:.1f} / {f['idle_cpu_ms']:.1f} ms | "
              f"{f['bots_wall_ms']:.1f} ms | {f['due']:,} due: {f['busy_wall_ms'] / 1000:.2f} s / "
              f"{f['busy_cpu_ms'] / 1000:.2f} s | {scan} |", flush=True)


if __name__ == "__main__":
    main()
