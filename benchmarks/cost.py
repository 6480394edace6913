"""What a request costs: CPU time per request for each route, against a bare Flask route.

    .venv/bin/python benchmarks/cost.py [--database sqlite|postgresql|both] [--stored 1000,100000]
        [--requests 50] [--rounds 5] [--json] [--profile ROUTE]

For each database and number of stored games: a fresh database (a temporary SQLite
file, or a schema of its own on PostgreSQL, dropped afterwards), migrated and filled
in bulk (`filling.py`); then, in this one process, through Flask's test client (no
network, no other process on the request's path but PostgreSQL's server):

- warm: the same game again and again, as when its players come back to it;
- cold: each request the first view of another game in this process (its replay
  is not cached: the database reads of its snapshot and later events are measured);
- submit: each request a decision in another game, viewed once before (warm);
- and the floor of any page: an app route doing nothing (the app's request hooks alone), and
  one making a page's one statement (`pbem.store.reading`), nothing else.

Each route is measured in --rounds rounds of --requests requests; a round's figure is
the median request's CPU time (`time.process_time`: this process only, so on PostgreSQL
the server's own work shows in the wall time, not the CPU time). Printed: the median of
the rounds, their spread ((max - min) / median), each route's CPU time over the bare route's,
the Python function calls per request (counted by cProfile in one more round: a measure of
the work that repeats exactly, where CPU time moves with whatever else the machine runs),
the wall time, and the SQL statements per request.

--profile ROUTE prints cProfile's top functions for that route (warm) instead.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import pstats
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

from filling import Running, fill  # noqa: E402

SECRET = "cost-benchmark-key-" + "0" * 32
JSON = {"Accept": "application/json"}
UNLIMITED = {key: 10**9 for key in (
    "SUBMISSIONS_PER_CLIENT_PER_MINUTE", "SUBMISSIONS_PER_ADDRESS_PER_MINUTE",
    "PREVIEWS_PER_CLIENT_PER_MINUTE")}


@dataclass
class Request:
    method: str
    path: str
    headers: dict | None = None
    json: dict | None = None


@dataclass
class Figure:
    route: str
    cpu_ms: float          # median of the rounds' medians
    spread: float          # (max - min) / median of the rounds' medians
    wall_ms: float
    statements: float      # SQL statements per request (median)
    calls: int             # Python function calls per request: the same in every run
    ratio: float = 1.0     # over the bare route timed in the same rounds (median of the rounds)
    ratio_spread: float = 0.0


# -- the database -------------------------------------------------------------------

def database(kind: str, pg_url: str):
    """(url, drop) for a fresh, empty database of that kind."""
    if kind == "sqlite":
        folder = tempfile.mkdtemp(prefix="pbem-cost-")
        path = Path(folder) / "pbem.sqlite3"

        def drop():
            for file in Path(folder).iterdir():
                file.unlink()
            os.rmdir(folder)
        return f"sqlite:///{path}", drop
    import psycopg
    plain = pg_url.replace("postgresql+psycopg://", "postgresql://")
    schema = "cost_" + secrets.token_hex(4)
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')

    def drop_schema():
        with psycopg.connect(plain, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    sep = "&" if "?" in pg_url else "?"
    return f"{pg_url}{sep}options={quote(f'-csearch_path={schema}')}", drop_schema


def make_app(url: str):
    from flask_migrate import upgrade
    from sqlalchemy import text

    from pbem import create_app
    from pbem.store import reading
    app = create_app({"SECRET_KEY": SECRET, "SQLALCHEMY_DATABASE_URI": url,
                      "BASE_URL": "http://pbem.bench", "MAIL_URL": "smtp://127.0.0.1:9",
                      "OUTBOX_PAGE": False, **UNLIMITED})
    # The floor of a page in this app, this benchmark's own routes: the app's request hooks
    # alone; and with them the one statement a page makes, outside a transaction as a page's.
    app.add_url_rule("/cost/empty", "cost_empty", lambda: "")
    one = text("SELECT 1")
    app.add_url_rule("/cost/one-statement", "cost_one_statement",
                     lambda: str(reading.rows(one, {})[0][0]))
    with app.app_context():
        upgrade()
    return app


def statement_counter(app) -> list[int]:
    from sqlalchemy import event

    from pbem.extensions import db
    count = [0]
    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", lambda *args: count.__setitem__(0, count[0] + 1))
    return count


# -- the requests -------------------------------------------------------------------

def links(app, game: Running) -> tuple[str, str]:
    """The turn and seat paths of the decision owed."""
    from sqlalchemy import select

    from pbem.extensions import db
    from pbem.policy import links as signed
    from pbem.store.models import SeatNonce
    with app.app_context():
        nonce = db.session.scalar(select(SeatNonce.nonce).where(
            SeatNonce.game_id == game.game, SeatNonce.seat == game.seat).order_by(SeatNonce.id.desc()))
        return (signed.path(signed.TURN, game.game, game.seat, game.seq, nonce),   # as mailed
                signed.path(signed.SEAT, game.game, game.seat, nonce))


def answers(app, game: Running) -> tuple[str, str]:
    """A first step to preview, and a whole decision to submit."""
    from pbem.games.rng import Rng
    from pbem.store import gamelog
    with app.app_context():
        loaded = gamelog.load(game.game)
        engine, state = loaded.engine, loaded.state
        first = next((o.notation for o in engine.legal_steps(state, game.seat) if not o.ends), "")
        return first, engine.random_submission(state, game.seat, Rng(game.seq))


def views(app, game: Running) -> dict[str, Request]:
    turn, seat = links(app, game)
    first, _ = answers(app, game)
    return {
        "turn page": Request("GET", turn),
        "turn JSON": Request("GET", turn, JSON),
        "preview": Request("POST", turn + "/preview", JSON, {"steps": first}),
        "seat page": Request("GET", seat),
        "record": Request("GET", f"/games/{game.game}/record"),
    }


def send(client, request: Request) -> None:
    response = client.open(request.path, method=request.method, headers=request.headers,
                           json=request.json)
    if response.status_code != 200:
        raise SystemExit(f"{request.method} {request.path}: {response.status_code} "
                         f"{response.get_data(as_text=True)[:300]}")


def timed(client, request: Request, count: list[int]) -> tuple[float, float, int]:
    before = count[0]
    wall, cpu = time.perf_counter(), time.process_time()
    send(client, request)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return cpu, wall, count[0] - before


def measure(route: str, rounds: int, one_round: Callable[[], list[tuple[float, float, int]]],
            bare_round: Callable[[], list[tuple[float, float, int]]] | None = None) -> Figure:
    """`rounds` rounds of the route; each followed by as many bare requests, so that the ratio
    is taken at the same moment: the machine's speed drifts by more than the figures differ."""
    medians, walls, statements, ratios = [], [], [], []
    for _ in range(rounds):
        gc.collect()
        samples = one_round()
        medians.append(statistics.median(s[0] for s in samples) * 1000)
        walls.append(statistics.median(s[1] for s in samples) * 1000)
        statements.append(statistics.median(s[2] for s in samples))
        if bare_round is not None:
            ratios.append(medians[-1] / (statistics.median(s[0] for s in bare_round()) * 1000))
    middle = statistics.median(medians)
    ratio = statistics.median(ratios) if ratios else 1.0
    # One more round under cProfile, for its count of calls: unlike time, it repeats exactly.
    profiler = cProfile.Profile()
    profiler.enable()
    samples = one_round()
    profiler.disable()
    calls = pstats.Stats(profiler).total_calls / len(samples)   # type: ignore[attr-defined]
    return Figure(route, round(middle, 3), round((max(medians) - min(medians)) / middle, 3),
                  round(statistics.median(walls), 3), statistics.median(statements), round(calls),
                  round(ratio, 2), round((max(ratios) - min(ratios)) / ratio, 3) if ratios else 0.0)


# -- the benchmark ------------------------------------------------------------------

def bare_round(requests: int) -> Callable[[], list[tuple[float, float, int]]]:
    """A round of requests to a bare Flask route, timed as the routes are."""
    from hello import app
    client, count = app.test_client(), [0]
    send(client, Request("GET", "/"))
    return lambda: [timed(client, Request("GET", "/"), count) for _ in range(requests)]


def bare_figure(requests: int, rounds: int) -> Figure:
    return measure("bare route", rounds, bare_round(requests))


def run(kind: str, stored: int, args) -> list[Figure]:
    url, drop = database(kind, args.database_url)
    try:
        app = make_app(url)
        running = fill(url, stored, long_games=min(50, stored // 20), seed=args.seed,
                       log=lambda line: print(line, file=sys.stderr))
        return measure_app(app, running, args)
    finally:
        drop()


def measure_app(app, running: list[Running], args) -> list[Figure]:
    client, count = app.test_client(), statement_counter(app)
    bare = bare_round(args.requests)
    cache = app.extensions["pbem.replay_cache"]
    short = [g for g in running if not g.long]
    long = [g for g in running if g.long]
    # A cold request may open the same games again: the replay cache is cleared before each.
    # A submission needs a game of its own.
    cold_need, submit_need = args.requests, args.requests * (args.rounds + 1)   # a last round counts calls
    if len(short) < 1 + cold_need + submit_need:
        raise SystemExit(f"{len(short)} running games stored: too few for {cold_need} cold requests "
                         f"and {submit_need} submissions (store more, or fewer --requests/--rounds)")
    # The warm game: one with a few turns played (its page shows the opponent's last turn).
    short.sort(key=lambda g: not 4 <= g.seq <= 40)
    warm, long_warm = views(app, short[0]), views(app, long[0]) if long else None
    figures = []
    for route, path in (("app route, empty", "/cost/empty"),
                        ("app route, one statement", "/cost/one-statement")):
        request = Request("GET", path)
        send(client, request)
        figures.append(measure(route, args.rounds,
                               lambda r=request: [timed(client, r, count) for _ in range(args.requests)],
                               bare))
    for route, request in warm.items():
        send(client, request)
        figures.append(measure(f"{route}, warm", args.rounds,
                               lambda r=request: [timed(client, r, count) for _ in range(args.requests)],
                               bare))
    if long_warm:
        request = long_warm["turn page"]
        send(client, request)
        figures.append(measure(f"turn page, warm, {long[0].seq}-event game", args.rounds,
                               lambda: [timed(client, request, count) for _ in range(args.requests)],
                               bare))
    cold = {route: [] for route in ("turn page", "turn JSON", "seat page")}
    for game in short[1:1 + cold_need]:
        for route, request in views(app, game).items():
            if route in cold:
                cold[route].append(request)

    def cold_round(requests: list[Request]) -> list[tuple[float, float, int]]:
        samples = []
        for request in requests:
            cache.clear()
            samples.append(timed(client, request, count))
        return samples
    for route, requests in cold.items():
        figures.append(measure(f"{route}, cold", args.rounds, lambda r=requests: cold_round(r), bare))
    submissions = []
    for game in short[1 + cold_need:1 + cold_need + submit_need]:
        turn, _ = links(app, game)
        submissions.append(Request("POST", turn, JSON, {"steps": answers(app, game)[1]}))

    def submit_round() -> list[tuple[float, float, int]]:
        samples = []
        for _ in range(args.requests):
            request = submissions.pop()
            send(client, Request("GET", request.path, JSON))       # viewed before: warm
            samples.append(timed(client, request, count))
        return samples
    figures.append(measure("submit", args.rounds, submit_round, bare))
    return figures


def prepared(app, client, running: list[Running], route: str, count: int) -> list[Request]:
    """`count` warm requests of `route`: the same view again, or submissions of `count`
    games' owed decisions (each game viewed once before, as its player would)."""
    short = [g for g in running if not g.long]
    if route != "submit":
        request = views(app, short[0])[route]
        send(client, request)
        return [request] * count
    if len(short) < count:
        raise SystemExit(f"{len(short)} running games stored: too few for {count} submissions")
    requests = []
    for game in short[:count]:
        turn, _ = links(app, game)
        send(client, Request("GET", turn, JSON))
        requests.append(Request("POST", turn, JSON, {"steps": answers(app, game)[1]}))
    return requests


def profile(app, running: list[Running], route: str, requests: int, sort: str = "cumulative") -> str:
    client = app.test_client()
    prepared_requests = prepared(app, client, running, route, requests)
    profiler = cProfile.Profile()
    profiler.enable()
    for request in prepared_requests:
        send(client, request)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats(sort).print_stats(45)
    return out.getvalue()


def statements(app, running: list[Running], route: str) -> str:
    """The SQL statements of one warm request of `route` ('submit': a whole decision), in order."""
    from sqlalchemy import event

    from pbem.extensions import db
    client = app.test_client()
    request, = prepared(app, client, running, route, 1)
    said: list[str] = []
    with app.app_context():
        engine = db.engine

    def listen(conn, cursor, statement, *args):
        said.append(" ".join(statement.split()))
    event.listen(engine, "before_cursor_execute", listen)
    try:
        send(client, request)
    finally:
        event.remove(engine, "before_cursor_execute", listen)
    return "\n".join(f"{n:3} {s[:300]}" for n, s in enumerate(said, 1))


def table(figures: list[Figure], bare: Figure) -> str:
    lines = ["| route | CPU ms | spread | x bare | its spread | calls | x bare | wall ms | SQL |",
             "|---|---|---|---|---|---|---|---|---|"]
    for f in [bare, *figures]:
        lines.append(f"| {f.route} | {f.cpu_ms:.3f} | {f.spread:.0%} | {f.ratio:.1f} | "
                     f"{f.ratio_spread:.0%} | {f.calls:,} | {f.calls / bare.calls:.1f} | "
                     f"{f.wall_ms:.3f} | {f.statements:g} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--database-url", default=os.environ.get(
        "PBEM_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test"))
    parser.add_argument("--stored", default="1000,100000",
                        help="numbers of games stored, comma-separated (default: 1000,100000)")
    parser.add_argument("--requests", type=int, default=50, help="requests per round (default 50)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per route (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--sort", default="cumulative", help="--profile's order (cProfile's keys)")
    parser.add_argument("--profile", metavar="ROUTE", help="profile one warm route: "
                        "'turn page', 'turn JSON', 'preview', 'seat page', 'record' or 'submit'")
    parser.add_argument("--sql", metavar="ROUTE", help="list the SQL statements of one warm "
                        "request of a route (the --profile routes, or 'submit')")
    args = parser.parse_args(argv)
    try:
        stored = [int(n) for n in args.stored.split(",")]
    except ValueError:
        parser.error(f"--stored: numbers separated by commas, not {args.stored!r}")
    if args.requests < 1 or args.rounds < 1 or min(stored) < 1:
        parser.error("--requests, --rounds and --stored must be at least 1")
    kinds = ["sqlite", "postgresql"] if args.database == "both" else [args.database]
    if args.profile or args.sql:
        url, drop = database(kinds[0], args.database_url)
        try:
            app = make_app(url)
            running = fill(url, stored[0], seed=args.seed, log=lambda _: None)
            print(profile(app, running, args.profile, args.requests, args.sort) if args.profile
                  else statements(app, running, args.sql))
        finally:
            drop()
        return 0
    bare = bare_figure(args.requests, args.rounds)
    results = []
    for kind in kinds:
        for count in stored:
            print(f"{kind}, {count} games stored:", file=sys.stderr)
            figures = run(kind, count, args)
            results.append({"database": kind, "stored": count,
                            "figures": [f.__dict__ for f in figures]})
            if not args.json:
                print(f"\n{kind}, {count:,} games stored (median of {args.rounds} rounds of "
                      f"{args.requests} requests)\n\n{table(figures, bare)}\n", flush=True)
    if args.json:
        print(json.dumps({"bare": bare.__dict__, "python": sys.version.split()[0],
                          "results": results}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
