"""Production processes: two gunicorn servers on one database, and kill -9 in mid-flight.

Games are created with `flask new-game` and a known seed, so the engine alone
knows every decision of each game in advance (random legal play from that
seed): a test can say which event each acknowledged submission must have
written, and which mails each event must have queued. Players submit through
the JSON API over real HTTP (http.client), many games at once, one thread per
game; turn links are signed with the deployment's SECRET_KEY as the server
signs them.
"""

from __future__ import annotations

import http.client
import json
import random
import re
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from pbem.games.babel.game import GAME
from pbem.games.rng import Rng

OPTIONS = {"sumerians": "top-run"}
TURN_LINK = re.compile(r"http://pbem\.test/t/([A-Za-z0-9_.\-]+)")
SERVER_TROUBLE = re.compile(r"Traceback|unexpected error|WORKER TIMEOUT|Exception in worker")


@dataclass
class Plan:
    """A game's decisions as random legal play from its seed decides them."""
    seed: int
    decisions: list[tuple[int, str]] = field(default_factory=list)   # (seat, steps) per seq
    events: list[dict] = field(default_factory=list)
    states: list = field(default_factory=list)                       # the state after k events

    def __len__(self) -> int:
        return len(self.decisions)


def plan(seed: int) -> Plan:
    state = GAME.start(seed, OPTIONS, 2, 0)
    rng, out = Rng(seed), Plan(seed, states=[state])
    while GAME.outcome(state) is None:
        [decision] = GAME.to_act(state)
        text = GAME.random_submission(state, decision.seat, rng)
        event = GAME.decide(state, decision.seat, text)
        state = GAME.apply(state, event)
        out.decisions.append((decision.seat, text))
        out.events.append(event)
        out.states.append(state)
    return out


def expected_mails(game: Plan, written: int) -> Counter:
    """(kind, seat, seq of the turn link) of every mail a game with `written` events queued:
    the invitations; after each event a turn mail to the seat that now owes a decision (the seat
    that just acted too, when it owes the next one), or the game-over mails."""
    mails = Counter({("invite", 0, None): 1, ("invite", 1, None): 1})
    for seq in range(1, written + 1):
        state = game.states[seq]
        if GAME.outcome(state) is not None:
            mails.update([("over", 0, None), ("over", 1, None)])
            continue
        [decision] = GAME.to_act(state)
        mails[("turn", decision.seat, seq)] += 1
    return mails


def outbox(deployment, game_id: str) -> Counter:
    """The same, read from the outbox rows; each turn mail's link says which point it answers."""
    mails = Counter()
    for seat, kind, text in deployment.query(
            "SELECT seat, kind, text FROM mails WHERE game_id = %s ORDER BY id", game_id):
        seq = None
        if kind == "turn":
            [token] = set(TURN_LINK.findall(text))
            link_game, link_seat, seq = deployment.read_turn_token(token)[:3]   # (and the seat nonce)
            assert (link_game, link_seat) == (game_id, seat)
        mails[(kind, seat, seq)] += 1
    return mails


def stored_events(deployment, game_id: str) -> list[dict]:
    rows = deployment.query("SELECT seq, data FROM events WHERE game_id = %s ORDER BY seq", game_id)
    assert [seq for seq, _ in rows] == list(range(1, len(rows) + 1)), "a gap in the log"
    return [data for _, data in rows]


def assert_no_trouble_in_logs(*servers) -> None:
    for server in servers:
        text = server.log_text()
        assert not SERVER_TROUBLE.search(text), f"{server.name}:\n{text[-3000:]}"


class Calls:
    """Every response seen, to say afterwards that none was a server error."""

    def __init__(self):
        self.seen: list[tuple[str, str, int]] = []
        self.lock = threading.Lock()

    def __call__(self, server, method: str, path: str, body=None):
        status, headers, raw = server.request(method, path, body)
        with self.lock:
            self.seen.append((server.name, method, status))
        return status, headers, raw

    def statuses(self) -> Counter:
        return Counter(status for _, _, status in self.seen)


def race(calls: Calls, servers, path: str, body: dict) -> list[tuple[int, dict]]:
    """The same request to each server at the same moment: connected first, sent together."""
    barrier = threading.Barrier(len(servers), timeout=30)

    def one(server):
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        try:
            conn.connect()
            barrier.wait()
            conn.request("POST", path, body=json.dumps(body).encode(),
                         headers={"Content-Type": "application/json", "Accept": "application/json",
                                  "Host": "pbem.test"})
            response = conn.getresponse()
            status, data = response.status, json.loads(response.read())
        finally:
            conn.close()
        with calls.lock:
            calls.seen.append((server.name, "POST", status))
        return status, data

    with ThreadPoolExecutor(len(servers)) as pool:
        return list(pool.map(one, servers))


# -- two servers, one database --------------------------------------------------------------

RACE_EVERY = 3    # every third decision goes to both servers at once


def test_two_gunicorn_servers_on_one_database_serve_the_same_games_at_once(deployment):
    a, b = deployment.start_server(name="a"), deployment.start_server(name="b")
    seeds = [1002, 1007, 1019, 1000, 1001, 1003]          # the first three have halving discards
    games = deployment.new_games(seeds)
    plans = {game: plan(seed) for game, seed in zip(games, seeds)}
    calls, acknowledged, races = Calls(), Counter(), Counter()

    def play(index: int, game: str) -> None:
        servers = (a, b) if index % 2 == 0 else (b, a)
        game_plan = plans[game]
        for seq, (seat, text) in enumerate(game_plan.decisions):
            path = deployment.turn_path(game, seat, seq)
            if seq % RACE_EVERY == 1:
                answers = race(calls, servers, path, {"steps": text})
                assert sorted(status for status, _ in answers) == [200, 409], (game, seq, answers)
                lost = next(data for status, data in answers if status == 409)
                assert "already submitted" in lost["error"]
                races[game] += 1
            else:
                status, _, raw = calls(servers[seq % 2], "POST", path, {"steps": text})
                assert status == 200, (game, seq, raw[:300])
            acknowledged[game] += 1
            # The other server sees the new event at once: its replay cache must not hide it.
            other = servers[(seq + 1) % 2]
            status, _, raw = calls(other, "GET", path)
            view = json.loads(raw)
            assert status == 200 and view["seq"] == seq + 1 and view["can_act"] is False, (game, seq)
            if seq + 1 < len(game_plan):
                next_seat = game_plan.decisions[seq + 1][0]
                status, _, raw = calls(other, "GET", deployment.turn_path(game, next_seat, seq + 1))
                assert status == 200 and json.loads(raw)["can_act"] is True, (game, seq + 1)

    with ThreadPoolExecutor(len(games)) as pool:
        for future in [pool.submit(play, i, game) for i, game in enumerate(games)]:
            future.result()

    statuses = calls.statuses()
    assert not [s for s in statuses if s >= 500], statuses
    assert {name for name, method, status in calls.seen if method == "POST" and status == 200} == {"a", "b"}
    assert sum(races.values()) >= 30 and statuses[409] == sum(races.values())

    verify = deployment.flask("verify")
    assert f"verified {len(games)} games: 0 no longer replay" in verify.stdout
    for game, game_plan in plans.items():
        assert acknowledged[game] == len(game_plan)
        assert stored_events(deployment, game) == game_plan.events      # each turn exactly once
        assert outbox(deployment, game) == expected_mails(game_plan, len(game_plan))
        status, _, raw = a.request("GET", f"/games/{game}/record")
        assert status == 200 and len(json.loads(raw)["turns"]) == len(game_plan)
        assert b.request("GET", f"/games/{game}/record")[2] == raw
    assert_no_trouble_in_logs(a, b)


# -- kill -9 ------------------------------------------------------------------------------

def test_kill_9_in_the_middle_of_submissions_loses_no_turn_and_no_mail(deployment, smtp):
    choice = random.randrange(1 << 30)
    rng = random.Random(choice)
    print(f"kill moment chosen by random.Random({choice})")
    server = deployment.start_server(name="victim")
    seeds = list(range(2000, 2012))
    games = deployment.new_games(seeds)
    plans = {game: plan(seed) for game, seed in zip(games, seeds)}
    total = sum(len(p) for p in plans.values())
    kill_after = rng.randint(total // 5, total * 3 // 5)

    acknowledged = {game: [] for game in games}
    problems, lock, killed = [], threading.Lock(), threading.Event()
    done = Counter()

    def play(game: str) -> None:
        for seq, (seat, text) in enumerate(plans[game].decisions):
            try:
                status, _, raw = server.request("POST", deployment.turn_path(game, seat, seq),
                                                {"steps": text})
            except (OSError, http.client.HTTPException) as error:
                if not killed.is_set():
                    problems.append(f"{game} at {seq}: {error!r} before the kill")
                return                              # the server is gone: this turn is unacknowledged
            if status != 200:
                problems.append(f"{game} at {seq}: {status} {raw[:200]!r}")
                return
            with lock:
                acknowledged[game].append(seq)
                done["acknowledged"] += 1

    threads = [threading.Thread(target=play, args=(game,)) for game in games]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 40
    while done["acknowledged"] < kill_after and time.monotonic() < deadline and not problems:
        time.sleep(0.002)
    time.sleep(rng.uniform(0, 0.02))
    killed.set()
    server.kill9()                                  # master and workers, mid-request
    for thread in threads:
        thread.join(30)
    assert not problems, problems
    assert kill_after <= done["acknowledged"] < total, "the kill did not land among the submissions"

    restarted = deployment.start_server(port=server.port, name="victim-restarted")
    in_flight_written = 0
    for game, game_plan in plans.items():
        acked = acknowledged[game]
        assert acked == list(range(len(acked)))     # one player per game, in order
        events = stored_events(deployment, game)
        # Every acknowledged turn is in the log, as submitted; at most the one in flight beyond it.
        assert len(acked) <= len(events) <= len(acked) + 1, (game, len(acked), len(events))
        assert events == game_plan.events[:len(events)]
        if len(events) > len(acked):                 # written, but its answer died with the server
            in_flight_written += 1
            seat, text = game_plan.decisions[len(acked)]
            status, _, raw = restarted.request("POST", deployment.turn_path(game, seat, len(acked)),
                                               {"steps": text})
            assert status == 409 and "already submitted" in json.loads(raw)["error"]
        # The restarted server goes on from the log.
        if len(events) < len(game_plan):
            seat, text = game_plan.decisions[len(events)]
            path = deployment.turn_path(game, seat, len(events))
            status, _, raw = restarted.request("GET", path)
            assert status == 200 and json.loads(raw)["can_act"] is True
            status, _, raw = restarted.request("POST", path, {"steps": text})
            assert status == 200, raw[:300]
    print(f"killed after {done['acknowledged']} of {total} turns; "
          f"{in_flight_written} unacknowledged turn(s) had been written")

    verify = deployment.flask("verify")              # no half-written event: every log replays
    assert f"verified {len(games)} games: 0 no longer replay" in verify.stdout
    for game, game_plan in plans.items():
        events = stored_events(deployment, game)
        assert events == game_plan.events[:len(events)]
        assert outbox(deployment, game) == expected_mails(game_plan, len(events))

    # Nothing was delivered yet (gunicorn does not run the worker): `deliver` sends all, once.
    assert smtp.messages == []
    queued = deployment.query("SELECT message_id, to_addr, status FROM mails ORDER BY id")
    assert {status for _, _, status in queued} == {"pending"}
    assert deployment.flask("deliver").stdout.strip() == f"sent {len(queued)}, retrying 0, failed 0"
    assert deployment.flask("deliver").stdout.strip() == "sent 0, retrying 0, failed 0"
    arrived = Counter((msg["Message-ID"], tuple(rcpts)) for rcpts, msg in smtp.messages)
    assert arrived == Counter((message_id, (to_addr,)) for message_id, to_addr, _ in queued)
    assert {status for (status,) in deployment.query("SELECT status FROM mails")} == {"sent"}
    assert_no_trouble_in_logs(restarted)
