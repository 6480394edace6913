"""Load benchmark: many games on PostgreSQL, gunicorn, and concurrent virtual players.

    .venv/bin/python benchmarks/load.py [--games 10000] [--long 200] [--players 50]
        [--duration 60] [--think 0.25] [--workers 4] [--database-url postgresql://...]

1. makes a schema of its own in the database (dropped afterwards unless --keep),
   upgrades it, and fills it with --games games (--long of them 150 decisions
   long, the rest random games at random points, some finished), written
   straight into the tables;
2. serves the app with gunicorn (--workers sync workers) on loopback, and a bare
   Flask "hello" app the same way;
3. from a second process, drives the app with --players concurrent virtual
   players for --duration seconds (at most --max-requests requests; the first
   --warmup seconds, while workers compile templates, are not measured): each opens
   a turn page, composes a turn step by step through the preview (as clicks
   do), and submits it; then the same players hit the hello route for as long;
4. prints requests per second and p50/p95/p99 latency per route, and the turn
   page's against the hello route's as ratios (also as JSON with --json).

Everything stays on 127.0.0.1. Players wait --think seconds between requests
(a person reads the page); --think 0 measures the server saturated.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from http.client import HTTPConnection
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

SECRET = "load-benchmark-key-" + "0" * 32   # 32 bytes at least, as production requires
NAMES = ("Anna", "Bob")
LONG = 150
SNAPSHOT_EVERY = 16   # the server's default


# -- the database -------------------------------------------------------------

def pg_url(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


def make_schema(url: str) -> tuple[str, str]:
    import psycopg
    schema = "bench_" + secrets.token_hex(4)
    with psycopg.connect(pg_url(url), autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    sep = "&" if "?" in url else "?"
    return schema, f"{url}{sep}options={quote(f'-csearch_path={schema}')}"


def drop_schema(url: str, schema: str) -> None:
    import psycopg
    with psycopg.connect(pg_url(url), autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def server_env(database_url: str, base_url: str) -> dict:
    return {**os.environ, "SECRET_KEY": SECRET, "DATABASE_URL": database_url, "BASE_URL": base_url,
            "MAIL_URL": "smtp://127.0.0.1:9", "OUTBOX_PAGE": "0", "FLASK_DEBUG": "0",
            "SUBMISSIONS_PER_CLIENT_PER_MINUTE": "1000000", "SUBMISSIONS_PER_ADDRESS_PER_MINUTE": "1000000",
            "PREVIEWS_PER_CLIENT_PER_MINUTE": "1000000"}


def fill(schema_url: str, games: int, long_games: int, seed: int) -> list[tuple[str, int, int]]:
    """Write the games straight into the tables; returns (game, seat, seq) owed in running games."""
    import psycopg
    from players import feud_game, random_game

    from pbem.games.babel import GAME
    from pbem.store import new_id, new_nonce

    rng = random.Random(seed)
    owed, now = [], datetime.now(UTC)
    rows = defaultdict(list)
    started = time.monotonic()
    for i in range(games):
        game_seed = rng.getrandbits(62)
        if i < long_games:
            first, events, state = feud_game(game_seed, LONG)
        else:
            first, events, state = random_game(game_seed, rng.randint(0, 40))
        game_id = new_id()
        created = now - timedelta(days=1, seconds=len(events) * 60)
        to_act = [d.seat for d in GAME.to_act(GAME.start(game_seed, {}, 2, None))]
        rows["games"].append((game_id, "babel", json.dumps({"sumerians": "top-run"}), game_seed,
                              None, 2, created, None, json.dumps(to_act)))
        for seat in (0, 1):
            rows["seats"].append((game_id, seat, NAMES[seat], f"{NAMES[seat].lower()}{i}@example.org"))
            rows["seat_nonces"].append((game_id, seat, new_nonce(), created))
        replayed = GAME.start(game_seed, {}, 2, None)
        for seq, event in enumerate(events, 1):
            replayed = GAME.apply(replayed, event)
            rows["events"].append((game_id, seq, event["seat"], event["type"], 1, json.dumps(event),
                                   created + timedelta(seconds=seq * 60),
                                   json.dumps([d.seat for d in GAME.to_act(replayed)])))
            if seq % SNAPSHOT_EVERY == 0:   # as the server's own appends write them
                rows["snapshots"].append((game_id, seq, GAME.rules_version,
                                          json.dumps(GAME.snapshot(replayed)), created))
        owed += [(game_id, d.seat, len(events)) for d in GAME.to_act(replayed)]
        if (i + 1) % 1000 == 0:
            print(f"  generated {i + 1}/{games} games ({time.monotonic() - started:.0f} s)", file=sys.stderr)
    columns = {
        "games": "id, kind, options, seed, first, seats, created_at, time_limit_days, owed",
        "seats": "game_id, seat, name, email",
        "seat_nonces": "game_id, seat, nonce, created_at",
        "events": "game_id, seq, seat, type, v, data, created_at, owed",
        "snapshots": "game_id, seq, rules, state, created_at",
    }
    with psycopg.connect(pg_url(schema_url)) as conn:
        for table, cols in columns.items():
            with conn.cursor().copy(f"COPY {table} ({cols}) FROM STDIN") as copy:
                for row in rows[table]:
                    copy.write_row(row)
            print(f"  wrote {len(rows[table])} rows into {table}", file=sys.stderr)
        conn.execute("ANALYZE")
    return owed


# -- the servers ----------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def gunicorn(app: str, port: int, workers: int, env: dict, cwd: Path) -> subprocess.Popen:
    process = subprocess.Popen(
        [str(BIN / "gunicorn"), "-w", str(workers), "-b", f"127.0.0.1:{port}", "--log-level", "warning", app],
        cwd=cwd, env=env, start_new_session=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"gunicorn {app} did not start on port {port}")


def stop(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(15)


# -- the virtual players (the second process) -------------------------------------------

class Stats:
    """Latencies per route; what happens before `warm_until` (workers still cold) is not counted,
    except errors, which always count."""

    def __init__(self, warm_until: float = 0.0):
        self.times = defaultdict(list)
        self.errors = defaultdict(int)
        self.statuses = defaultdict(lambda: defaultdict(int))   # route -> failing status -> count
        self.samples: list[str] = []                             # a few failing answers, for the report
        self.lock = threading.Lock()
        self.warm_until = warm_until

    def add(self, route: str, seconds: float, status: int):
        ok = 200 <= status < 300
        with self.lock:
            if not ok:
                self.errors[route] += 1
                self.statuses[route][status] += 1
            if time.monotonic() >= self.warm_until:
                self.times[route].append(seconds)


class Player(threading.Thread):
    def __init__(self, base: str, queue: list, lock: threading.Lock, stats: Stats, until: float,
                 budget: list, think: float, rng: random.Random):
        super().__init__(daemon=True)
        self.host, self.port = base.split("//")[1].split(":")
        self.queue, self.lock, self.stats = queue, lock, stats
        self.until, self.budget, self.think, self.rng = until, budget, think, rng

    def request(self, route: str, method: str, path: str, body: dict | None = None) -> tuple[int, dict | None]:
        with self.lock:
            if self.budget[0] <= 0:
                raise TimeoutError
            self.budget[0] -= 1
        conn = HTTPConnection(self.host, int(self.port), timeout=30)
        headers = {"Accept": "application/json" if body is not None or route != "turn page" else "text/html"}
        data = None
        if body is not None:
            data, headers["Content-Type"] = json.dumps(body), "application/json"
        started = time.perf_counter()
        try:
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            payload = response.read()
            status = response.status
        except OSError:
            status, payload = 599, b""
        finally:
            conn.close()
        self.stats.add(route, time.perf_counter() - started, status)
        if not 200 <= status < 300 and len(self.stats.samples) < 20:
            self.stats.samples.append(f"{route} {status} {path[:40]} {payload[:300]!r}")
        if self.think:
            time.sleep(self.rng.uniform(0.5, 1.5) * self.think)
        try:
            return status, json.loads(payload) if payload and headers["Accept"] == "application/json" else None
        except ValueError:
            return status, None

    def take(self):
        with self.lock:
            return self.queue.pop(self.rng.randrange(len(self.queue))) if self.queue else None

    def run(self):
        try:
            while time.monotonic() < self.until:
                item = self.take()
                if item is None:
                    return
                item = self.play(*item)
                if item is not None:
                    with self.lock:
                        self.queue.append(item)
        except TimeoutError:
            return

    def play(self, game: str, seat: int, seq: int):
        """One decision: the turn page, previews step by step, the submission."""
        path = "/t/" + turn_token(game, seat, seq)
        self.request("turn page", "GET", path)
        text, done = "", False
        for _ in range(40):
            status, draft = self.request("preview", "POST", path + "/preview", {"steps": text})
            if status != 200 or draft is None:
                return None
            if draft["done"] and (draft["decision"]["kind"] == "discard" or text.count("\n") >= 5):
                done = True
                break
            options = draft["legal_steps"]
            if not options:
                text = ""                      # a dead end: start the draft again
                continue
            choice = self.rng.choice(options)
            if choice["ends"]:
                done = True
                break
            text += choice["notation"] + "\n"
        if not done:
            return None                        # this player gives up on the game
        status, after = self.request("submit", "POST", path, {"steps": text or "pass"})
        if status != 200 or after is None or after.get("outcome"):
            return None
        to_act = after["to_act"]
        return (game, to_act[0]["seat"], after["seq"]) if to_act else None


def turn_token(game: str, seat: int, seq: int) -> str:
    from itsdangerous import URLSafeTimedSerializer
    return URLSafeTimedSerializer([SECRET], salt="pbem-turn-link").dumps([game, seat, seq])


def hello_player(base: str, stats: Stats, until: float, think: float, rng: random.Random):
    host, port = base.split("//")[1].split(":")
    while time.monotonic() < until:
        conn = HTTPConnection(host, int(port), timeout=30)
        started = time.perf_counter()
        try:
            conn.request("GET", "/")
            response = conn.getresponse()
            response.read()
            status = response.status
        except OSError:
            status = 599
        finally:
            conn.close()
        stats.add("hello", time.perf_counter() - started, status)
        if think:
            time.sleep(rng.uniform(0.5, 1.5) * think)


def drive(config: dict) -> dict:
    """The virtual players: runs in its own process, returns the measurements."""
    rng = random.Random(config["seed"])
    started = time.monotonic()
    stats, lock = Stats(started + config["warmup"]), threading.Lock()
    queue = [tuple(item) for item in config["owed"]]
    budget = [config["max_requests"]]
    players = [Player(config["app"], queue, lock, stats, started + config["duration"], budget,
                      config["think"], random.Random(rng.random())) for _ in range(config["players"])]
    for p in players:
        p.start()
    for p in players:
        p.join()
    app_seconds = time.monotonic() - started - config["warmup"]
    started = time.monotonic()
    stats.warm_until = started + config["warmup"]
    hellos = [threading.Thread(target=hello_player, daemon=True,
                               args=(config["hello"], stats, started + config["warmup"] + app_seconds,
                                     config["think"], random.Random(rng.random())))
              for _ in range(config["players"])]
    for h in hellos:
        h.start()
    for h in hellos:
        h.join()
    hello_seconds = time.monotonic() - started - config["warmup"]
    return {"times": {k: v for k, v in stats.times.items()}, "errors": dict(stats.errors),
            "statuses": {k: dict(v) for k, v in stats.statuses.items()}, "samples": stats.samples,
            "app_seconds": app_seconds, "hello_seconds": hello_seconds}


# -- the report -------------------------------------------------------------------------

def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def report(result: dict, args) -> dict:
    routes = {}
    for route in result["errors"]:
        result["times"].setdefault(route, [])
    for route, times in result["times"].items():
        if not times:
            continue
        seconds = result["hello_seconds"] if route == "hello" else result["app_seconds"]
        routes[route] = {
            "requests": len(times), "errors": result["errors"].get(route, 0),
            "rps": round(len(times) / seconds, 1),
            "p50_ms": round(percentile(times, 50) * 1000, 1),
            "p95_ms": round(percentile(times, 95) * 1000, 1),
            "p99_ms": round(percentile(times, 99) * 1000, 1),
            "mean_ms": round(statistics.mean(times) * 1000, 1),
        }
    turn, hello = routes.get("turn page"), routes.get("hello")
    ratios = {}
    if turn and hello:
        ratios = {"turn_page_p50_over_hello_p50": round(turn["p50_ms"] / hello["p50_ms"], 2),
                  "turn_page_p99_over_hello_p99": round(turn["p99_ms"] / hello["p99_ms"], 2)}
    return {"games": args.games, "long_games": args.long, "players": args.players,
            "think_seconds": args.think, "workers": args.workers, "routes": routes, "ratios": ratios,
            "failing_statuses": result["statuses"], "failing_samples": result["samples"]}


def print_report(data: dict, out=sys.stdout) -> None:
    print(f"\n{data['games']} games ({data['long_games']} of {LONG} decisions), {data['players']} players, "
          f"think {data['think_seconds']} s, gunicorn {data['workers']} sync workers", file=out)
    print(f"{'route':<12}{'requests':>9}{'errors':>7}{'req/s':>8}{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>8}", file=out)
    for route, r in data["routes"].items():
        print(f"{route:<12}{r['requests']:>9}{r['errors']:>7}{r['rps']:>8}{r['p50_ms']:>8}"
              f"{r['p95_ms']:>8}{r['p99_ms']:>8}", file=out)
    for name, value in data["ratios"].items():
        print(f"{name}: {value}", file=out)
    for route, statuses in data["failing_statuses"].items():
        print(f"errors on {route}: " + ", ".join(f"{n} x {s}" for s, n in statuses.items()), file=out)
    for sample in data["failing_samples"]:
        print(f"  {sample}", file=out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--long", type=int, default=200, help=f"games {LONG} decisions long")
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of load")
    parser.add_argument("--max-requests", type=int, default=200_000)
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds not measured at the start")
    parser.add_argument("--think", type=float, default=0.25, help="seconds a player waits between requests")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=os.environ.get(
        "PBEM_BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test"))
    parser.add_argument("--keep", action="store_true", help="keep the schema afterwards")
    parser.add_argument("--json", action="store_true", help="print the report as JSON too")
    parser.add_argument("--drive", help=argparse.SUPPRESS)   # the second process
    args = parser.parse_args(argv)
    if args.drive:
        print(json.dumps(drive(json.loads(Path(args.drive).read_text()))))
        return 0

    from pbem.config import database_url
    url = database_url(args.database_url)
    schema, schema_url = make_schema(url)
    app_port, hello_port = free_port(), free_port()
    env = server_env(schema_url, f"http://127.0.0.1:{app_port}")
    servers = []
    try:
        print(f"schema {schema}: migrating", file=sys.stderr)
        subprocess.run([str(BIN / "flask"), "--app", "pbem", "db", "upgrade"], cwd=ROOT, env=env,
                       check=True, capture_output=True)
        print(f"filling {args.games} games", file=sys.stderr)
        owed = fill(schema_url, args.games, args.long, args.seed)
        servers.append(gunicorn("wsgi:app", app_port, args.workers, env, ROOT))
        servers.append(gunicorn("hello:app", hello_port, args.workers, env, ROOT / "benchmarks"))
        config = {"app": f"http://127.0.0.1:{app_port}", "hello": f"http://127.0.0.1:{hello_port}",
                  "owed": owed, "players": args.players, "duration": args.duration, "think": args.think,
                  "max_requests": args.max_requests, "seed": args.seed, "warmup": args.warmup}
        path = Path(f"/tmp/pbem-load-{schema}.json")
        path.write_text(json.dumps(config))
        print(f"driving: {args.players} players for {args.duration:.0f} s, then the hello route",
              file=sys.stderr)
        done = subprocess.run([sys.executable, __file__, "--drive", str(path)], capture_output=True,
                              text=True, check=True)
        path.unlink()
        data = report(json.loads(done.stdout), args)
        print_report(data)
        if args.json:
            print(json.dumps(data, indent=1))
        return 1 if any(r["errors"] for r in data["routes"].values()) else 0
    finally:
        for server in servers:
            stop(server)
        if not args.keep:
            drop_schema(url, schema)


if __name__ == "__main__":
    sys.exit(main())
