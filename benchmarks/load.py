"""Load benchmark: many games on PostgreSQL, gunicorn, and concurrent virtual players.

    .venv/bin/python benchmarks/load.py [--games 10000] [--long 200] [--players 50]
        [--duration 60] [--runs 3] [--capacity-seconds 15] [--think 0.25] [--workers 4]
        [--job-workers 0,2] [--job-workers-nice 10] [--database-url postgresql://...] [--json]

1. makes a schema of its own in the database (dropped afterwards unless --keep),
   upgrades it, and fills it with --games games in bulk (`filling.py`: 100,000 in a
   few minutes; --long of them 150 decisions long, the rest random games at random
   points, some finished);
2. --runs times, each on fresh gunicorn servers (--workers sync workers) for the app
   and for a bare Flask "hello" route, on loopback:
   - from a second process, --capacity-seconds of saturated load (no thinking) with the
     same mix, to state the capacity (requests per second) the run's load is offered against;
   - --duration seconds of --players concurrent virtual players (the first --warmup
     seconds, while workers compile templates, are not measured): each opens a turn page,
     composes a turn step by step through the preview (as clicks do), and submits it;
     a game's first turn page since the servers started is "cold" (no worker has it),
     later ones "again"; then the same players hit the hello route for as long;
   with --job-workers (a comma-separated list of counts, e.g. 0,2), each run is done once per
   count, one after the other on the same games: that many `flask --app pbem worker`
   processes (procrastinate, every queue) run beside the servers for the whole run, sending
   each submission's mail (its commit defers the `deliver` job) to an SMTP server on loopback
   that keeps nothing, and running their periodic jobs (the round, the sweep, the recovery);
   the mail a run without workers left in the outbox is sent between runs (`flask --app pbem
   deliver`), so each run's workers send only their run's mail;
3. prints, per route, the median of the runs and their range: requests per second and
   p50/p95/p99 latency; the offered load (players / think time), the load served and the
   capacity, so a reader sees whether a run was saturated (also as JSON with --json); with
   --job-workers, one such report per count, and the mails the workers sent.

Everything stays on 127.0.0.1. Players wait --think seconds between requests
(a person reads the page); --think 0 measures the server saturated.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import resource
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from http.client import HTTPConnection
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

SECRET = "load-benchmark-key-" + "0" * 32   # 32 bytes at least, as production requires
LONG = 150            # decisions in a long game (filling.py)


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
    """The games, written in bulk (`filling.py`); (game, seat, seq) owed in running games."""
    from filling import fill as bulk_fill
    running = bulk_fill(schema_url, games, long_games, seed, log=lambda line: print(line, file=sys.stderr))
    return [(r.game, r.seat, r.seq) for r in running]


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


def job_worker(env: dict, log: Path, nice: int = 0) -> subprocess.Popen:
    """`flask --app pbem worker` (procrastinate on PostgreSQL, every queue), its output in `log`;
    `nice`: its scheduling priority lowered by that much (as `Nice=` in its systemd unit)."""
    with open(log, "a") as out:
        process = subprocess.Popen(["nice", "-n", str(nice), str(BIN / "flask"), "--app", "pbem",
                                    "worker"], cwd=ROOT,
                                   env=env, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    if nice:
        # Its own session is its own autogroup, which the kernel weighs against the servers'
        # as one: a nice value inside it changes nothing between them (`sched_autogroup`). The
        # group's nice does, as a systemd unit's `CPUWeight=` does for its cgroup.
        with contextlib.suppress(OSError):   # (a kernel without autogroups: nice alone counts)
            Path(f"/proc/{process.pid}/autogroup").write_text(str(nice))
    deadline = time.monotonic() + 30
    while "pbem worker:" not in log.read_text():
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the worker did not start: {log.read_text()[-2000:]}")
        time.sleep(0.2)
    return process


class MailSink:
    """An SMTP server on loopback that counts the mails and keeps nothing."""

    def __init__(self):
        from aiosmtpd.controller import Controller
        self.count = 0
        self.port = free_port()
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        return "250 OK"


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
                 budget: list, think: float, rng: random.Random, seen: set):
        super().__init__(daemon=True)
        self.seen = seen
        self.host, self.port = base.split("//")[1].split(":")
        self.queue, self.lock, self.stats = queue, lock, stats
        self.until, self.budget, self.think, self.rng = until, budget, think, rng

    def request(self, route: str, method: str, path: str, body: dict | None = None) -> tuple[int, dict | None]:
        with self.lock:
            if self.budget[0] <= 0:
                raise TimeoutError
            self.budget[0] -= 1
        conn = HTTPConnection(self.host, int(self.port), timeout=30)
        page = route.startswith("turn page")
        headers = {"Accept": "application/json" if body is not None or not page else "text/html"}
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
        with self.lock:   # the first view of a game since the servers started: no worker has it
            first = game not in self.seen
            self.seen.add(game)
        self.request("turn page, cold" if first else "turn page, again", "GET", path)
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
    budget, seen = [config["max_requests"]], set(config["seen"])
    players = [Player(config["app"], queue, lock, stats, started + config["duration"], budget,
                      config["think"], random.Random(rng.random()), seen)
               for _ in range(config["players"])]
    for p in players:
        p.start()
    for p in players:
        p.join()
    app_seconds = time.monotonic() - started - config["warmup"]
    if not config["hello"]:
        return {"times": {k: v for k, v in stats.times.items()}, "errors": dict(stats.errors),
                "statuses": {k: dict(v) for k, v in stats.statuses.items()}, "samples": stats.samples,
                "app_seconds": app_seconds, "owed": queue, "seen": sorted(seen)}
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
            "app_seconds": app_seconds, "hello_seconds": hello_seconds, "owed": queue,
            "seen": sorted(seen)}


# -- the report -------------------------------------------------------------------------

def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def routes_of(result: dict) -> dict:
    """Requests, errors, requests per second and latencies of one run, per route."""
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
        }
    return routes


def served(result: dict) -> float:
    """Requests per second the app answered in a run (all its routes)."""
    return sum(len(t) for r, t in result["times"].items() if r != "hello") / result["app_seconds"]


def report(runs: list[dict], capacities: list[float], args) -> dict:
    """Each route's figures as the median of the runs, with their lowest and highest."""
    per_run = [routes_of(run) for run in runs]
    routes = {}
    for route in dict.fromkeys(r for run in per_run for r in run):
        figures = [run[route] for run in per_run if route in run]
        routes[route] = {"errors": sum(f["errors"] for f in figures)}
        for key in ("requests", "rps", "p50_ms", "p95_ms", "p99_ms"):
            values = [f[key] for f in figures]
            routes[route][key] = statistics.median(values)
            routes[route][key + "_range"] = [min(values), max(values)]
    offered = round(args.players / args.think, 1) if args.think else None
    return {"games": args.games, "long_games": args.long, "players": args.players,
            "think_seconds": args.think, "workers": args.workers, "runs": len(runs),
            "offered_rps": offered, "served_rps": round(statistics.median(served(r) for r in runs), 1),
            "capacity_rps": round(statistics.median(capacities), 1) if capacities else None,
            "routes": routes, "cpu": cpu_report(runs),
            "failing_statuses": [run["statuses"] for run in runs if run["statuses"]],
            "failing_samples": [s for run in runs for s in run["samples"]][:20]}


def cpu_report(runs: list[dict]) -> dict:
    """The median run's CPU seconds per group of processes during the load and hello phases,
    and each as a share of the machine's cores over that time."""
    cores = os.cpu_count() or 1
    groups = dict.fromkeys(g for run in runs for g in run.get("cpu", {}) if g != "wall")
    wall = statistics.median(run["cpu"]["wall"] for run in runs if "cpu" in run) if groups else 0
    return {"wall": wall, "cores": cores,
            **{g: statistics.median(run["cpu"].get(g, 0.0) for run in runs) for g in groups}}


def print_report(data: dict, out=sys.stdout) -> None:
    print(f"\n{data['games']} games ({data['long_games']} of {LONG} decisions), {data['players']} players, "
          f"think {data['think_seconds']} s, gunicorn {data['workers']} sync workers; "
          f"median of {data['runs']} runs [lowest-highest]", file=out)
    offered = (f"{data['offered_rps']} req/s if answered at once ({data['players']} players / "
               f"{data['think_seconds']} s)" if data["offered_rps"] else "saturated (no thinking)")
    print(f"offered: {offered}; served: {data['served_rps']} req/s; capacity (saturated, "
          f"same mix): {data['capacity_rps']} req/s", file=out)
    print("| route | requests | errors | req/s | p50 ms | p95 ms | p99 ms |", file=out)
    print("|---|---|---|---|---|---|---|", file=out)
    for route, r in data["routes"].items():
        cells = [f"{r[k]:g} [{r[k + '_range'][0]:g}-{r[k + '_range'][1]:g}]"
                 for k in ("rps", "p50_ms", "p95_ms", "p99_ms")]
        print(f"| {route} | {r['requests']:g} | {r['errors']} | " + " | ".join(cells) + " |", file=out)
    cpu = data["cpu"]
    if cpu.get("wall"):
        spent = {g: v for g, v in cpu.items() if g not in ("wall", "cores")}
        print(f"CPU seconds during the load and hello phases ({cpu['wall']:g} s on {cpu['cores']} "
              "cores): " + ", ".join(f"{g} {v:g} ({v / cpu['wall'] / cpu['cores']:.0%} of the "
                                     "machine)" for g, v in spent.items()), file=out)
    turn, hello = data["routes"].get("turn page, again"), data["routes"].get("hello")
    if turn and hello:
        print(f"turn page (again) p50 over hello p50: {turn['p50_ms'] / hello['p50_ms']:.1f}", file=out)
    for statuses in data["failing_statuses"]:
        for route, counts in statuses.items():
            print(f"errors on {route}: " + ", ".join(f"{n} x {s}" for s, n in counts.items()), file=out)
    for sample in data["failing_samples"]:
        print(f"  {sample}", file=out)


def drive_in_process(config: dict, label: str) -> dict:
    """One phase of load from the second process (so the players do not share this one's CPU)."""
    path = Path(tempfile.gettempdir()) / f"pbem-load-{label}-{os.getpid()}.json"
    path.write_text(json.dumps(config))
    try:
        done = subprocess.run([sys.executable, __file__, "--drive", str(path)], capture_output=True,
                              text=True, check=True)
    finally:
        path.unlink()
    return json.loads(done.stdout)


# -- where the CPU went --------------------------------------------------------------------

TICKS = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> tuple[str, int, float] | None:
    """A process's name, parent and CPU seconds so far (user and system; its waited-for
    children's too), from /proc; None: it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    name, rest = text[text.index("(") + 1:text.rindex(")")], text[text.rindex(")") + 2:].split()
    utime, stime, cutime, cstime = (int(v) for v in rest[11:15])
    return name, int(rest[1]), (utime + stime + cutime + cstime) / TICKS


def _processes() -> dict[int, tuple[str, int, float]]:
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _stat(int(entry))) is not None:
            found[int(entry)] = stat
    return found


def cpu_now(roots: dict[str, list[int]]) -> dict[str, float]:
    """CPU seconds so far of each group of process trees (by their roots' pids), and of the
    database server's processes ("postgres", whoever started them)."""
    table = _processes()
    children: dict[int, list[int]] = defaultdict(list)
    for pid, (_, parent, _) in table.items():
        children[parent].append(pid)

    def tree(pid: int) -> float:
        return table[pid][2] + sum(tree(child) for child in children[pid]) if pid in table else 0.0
    used = {group: sum(tree(pid) for pid in pids) for group, pids in roots.items()}
    used["postgres"] = sum(cpu for name, _, cpu in table.values() if name == "postgres")
    return used


def cpu_during(roots: dict[str, list[int]], work):
    """What `work()` returned, and the CPU seconds each group spent meanwhile, with the
    wall time (the players' process is this one's child: its CPU once it has ended)."""
    before, wall, players = cpu_now(roots), time.monotonic(), _children_cpu()
    result = work()
    after = cpu_now(roots)
    used = {group: round(after[group] - before[group], 2) for group in after}
    used["players"] = round(_children_cpu() - players, 2)
    used["wall"] = round(time.monotonic() - wall, 2)
    return result, used


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def one_run(run: int, owed: list, env: dict, args,
            job_workers: int = 0) -> tuple[dict, float | None, list]:
    """Fresh servers (every game cold in them) and `job_workers` workers beside them, a short
    saturated phase for the capacity, then the measured load and the hello route; the
    decisions still owed after it."""
    app_port, hello_port = free_port(), free_port()
    env = {**env, "BASE_URL": f"http://127.0.0.1:{app_port}"}
    logs = Path(tempfile.gettempdir())
    servers = [job_worker(env, logs / f"pbem-load-worker-{os.getpid()}-{i}.log",
                          args.job_workers_nice) for i in range(job_workers)]
    servers += [gunicorn("wsgi:app", app_port, args.workers, env, ROOT),
                gunicorn("hello:app", hello_port, args.workers, env, ROOT / "benchmarks")]
    try:
        config = {"app": f"http://127.0.0.1:{app_port}", "hello": None, "owed": owed, "seen": [],
                  "players": args.players, "duration": args.capacity_seconds, "think": 0.0,
                  "max_requests": args.max_requests, "seed": args.seed + run, "warmup": 2.0}
        capacity = None
        if args.capacity_seconds > 0:
            print(f"run {run + 1}: capacity, saturated for {args.capacity_seconds:.0f} s", file=sys.stderr)
            saturated = drive_in_process(config, "capacity")
            capacity, config["owed"], config["seen"] = served(saturated), saturated["owed"], saturated["seen"]
        print(f"run {run + 1}: {args.players} players for {args.duration:.0f} s, then the hello route"
              f" ({job_workers} job workers beside)", file=sys.stderr)
        config.update(hello=f"http://127.0.0.1:{hello_port}", duration=args.duration, think=args.think,
                      warmup=args.warmup)
        roots = {"servers": [servers[-2].pid], "job workers": [w.pid for w in servers[:-2]]}
        result, cpu = cpu_during(roots, lambda: drive_in_process(config, "load"))
        result["cpu"] = cpu
        return result, capacity, result["owed"]
    finally:
        for server in servers:
            stop(server)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--long", type=int, default=200, help=f"games {LONG} decisions long")
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of load")
    parser.add_argument("--runs", type=int, default=3, help="runs, each on fresh servers (median)")
    parser.add_argument("--capacity-seconds", type=float, default=15.0,
                        help="seconds of saturated load before each run, to state the capacity (0: none)")
    parser.add_argument("--max-requests", type=int, default=200_000)
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds not measured at the start")
    parser.add_argument("--think", type=float, default=0.25, help="seconds a player waits between requests")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--job-workers", default="0",
                        help="job workers beside the servers, e.g. 0,2: each run once per count")
    parser.add_argument("--job-workers-nice", type=int, default=0,
                        help="the job workers' nice value, of their processes and of their autogroup "
                        "(as systemd's Nice= and CPUWeight=), 0: as the servers")
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
    if args.runs < 1 or args.games < 1 or args.players < 1:
        parser.error("--runs, --games and --players must be at least 1")

    from pbem.config import database_url
    counts = [int(n) for n in args.job_workers.split(",")]
    url = database_url(args.database_url)
    schema, schema_url = make_schema(url)
    sink = MailSink()
    env = {**server_env(schema_url, "http://127.0.0.1"), "MAIL_URL": f"smtp://127.0.0.1:{sink.port}"}
    try:
        print(f"schema {schema}: migrating", file=sys.stderr)
        subprocess.run([str(BIN / "flask"), "--app", "pbem", "db", "upgrade"], cwd=ROOT, env=env,
                       check=True, capture_output=True)
        print(f"filling {args.games} games", file=sys.stderr)
        owed = fill(schema_url, args.games, args.long, args.seed)
        runs: dict[int, list] = {count: [] for count in counts}
        capacities: dict[int, list] = {count: [] for count in counts}
        sent: dict[int, int] = dict.fromkeys(counts, 0)
        for run in range(args.runs):
            for count in counts:
                before = sink.count
                result, capacity, owed = one_run(run, owed, env, args, count)
                sent[count] += sink.count - before
                if not count and max(counts):   # what no worker sent is not the next run's work
                    subprocess.run([str(BIN / "flask"), "--app", "pbem", "deliver"], cwd=ROOT,
                                   env=env, check=True, capture_output=True)
                runs[count].append(result)
                if capacity is not None:
                    capacities[count].append(capacity)
        failed = False
        for count in counts:
            data = report(runs[count], capacities[count], args)
            data["job_workers"], data["mails_sent"] = count, sent[count]
            print_report(data)
            print(f"job workers beside the servers: {count}; mails they sent: {sent[count]}")
            if args.json:
                print(json.dumps(data, indent=1))
            failed = failed or any(r["errors"] for r in data["routes"].values())
        return 1 if failed else 0
    finally:
        sink.controller.stop()
        if not args.keep:
            drop_schema(url, schema)


if __name__ == "__main__":
    sys.exit(main())
