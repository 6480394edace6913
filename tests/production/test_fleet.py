"""A fleet of workers on one PostgreSQL: every piece of background work done once, none lost.

Real `flask --app pbem worker` processes (two, then four) share one database and one SMTP
server, as workers on several machines do. Computers owe decisions, clocks have run out and
players wait for reminders; when the fleet is done, every mail was handed to SMTP once, every
computer's decision was thought about by one worker once, each time-out ended its game once and
each address got one reminder. Then a worker is killed with `kill -9` while it thinks: its
heartbeats stop, the fleet's recovery (`pbem.jobs.engine.recover`) gives its job back to the
queue once they have been missing for JOBS_STALLED_SECONDS, another worker takes it, and the
decision is made once. Here, with a heartbeat every second and 4 seconds of silence taken for
death, that is within STALLED + RECOVER_EVERY + a poll + the thinking: under 12 s on a quiet
machine; the test allows 60 on a busy one and prints what it took.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FLASK = str(Path(sys.executable).parent / "flask")
THINKING = re.compile(r"in game ([\w-]+): thinking at (\d+)")
HEARTBEAT, STALLED = 1, 4   # seconds: a worker's heartbeat, and the silence taken for its death
RECOVER_EVERY = 5          # JOBS_RECOVER_SECONDS (pbem.config), its default


class Worker:
    """`flask --app pbem worker` in a process group of its own, its output in a file."""

    def __init__(self, deployment, name: str, env: dict, *args: str):
        self.log_path = deployment.tmp / f"{name}.log"
        self.log = open(self.log_path, "a")
        self.process = subprocess.Popen(
            [FLASK, "--app", "pbem", "worker", "--deliver-every", "0.5", "--remind-every", "1",
             "--bots-every", "0.2", *args], cwd=ROOT, env={**deployment.env, **env},
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)

    def thought(self) -> list[tuple[str, int]]:
        return [(g, int(s)) for g, s in THINKING.findall(Path(self.log_path).read_text())]

    def kill9(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill9()
        self.log.close()


ENV = {"VACATION_DAYS_PER_YEAR": "0", "JOBS_HEARTBEAT_SECONDS": str(HEARTBEAT),
       "JOBS_STALLED_SECONDS": str(STALLED), "JOBS_POLL_SECONDS": "0.5"}


def fleet(deployment, count: int) -> list[Worker]:
    return [Worker(deployment, f"worker-{i}", ENV) for i in range(count)]


def new_game_args(*players: str, limit: int | None = None) -> list[str]:
    args = ["new-game", "--game", "babel", "--first", "0", "--option", "sumerians=top-run"]
    for player in players:
        args += ["--player", player]
    if limit:
        args += ["--time-limit", str(limit)]
    return args


def new_game(deployment, *players: str, limit: int | None = None) -> str:
    return deployment.flask(*new_game_args(*players, limit=limit)).stdout.strip().splitlines()[-1]


def thought_while_created(deployment, running: list[Worker],
                          *players: str) -> tuple[str, Worker, float]:
    """A new game whose first seat a computer plays, and the worker that began to think about
    it, killed (`kill -9`) as soon as its log says so, and when: looked for while the command that
    created the game is still running, as its commit wakes a worker at once and strong's
    first decision in Babel may take a fifth of a second, less than the command takes to exit."""
    seen = {game for worker in running for game, _ in worker.thought()}
    command = subprocess.Popen([FLASK, "--app", "pbem", *new_game_args(*players)], cwd=ROOT,
                               env=deployment.env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    found: list[tuple[str, Worker]] = []

    def thinking() -> bool:
        found.extend((game, worker) for worker in running for game, seat in worker.thought()
                     if game not in seen and seat == 0)
        return bool(found)
    try:
        until(thinking, 30, "a worker thinking", every=0.01)
        game, thinker = found[0]
        thinker.kill9()
        killed = time.monotonic()
    finally:
        out, err = command.communicate(timeout=120)
    assert command.returncode == 0, err
    assert out.strip().splitlines()[-1] == game
    return game, thinker, killed


def until(condition, within: float, what: str, every: float = 0.2) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(every)
    raise AssertionError(f"not within {within} s: {what}")


def count(deployment, sql: str, *params) -> int:
    return deployment.query(sql, *params)[0][0]


@pytest.mark.parametrize("workers", [2, 4])
def test_a_fleet_does_each_piece_of_background_work_once(deployment, smtp, workers):
    computers = [new_game(deployment, "bot:easy", f"Anna {i} <anna.{i}@example.org>")
                 for i in range(4)]
    timed = [new_game(deployment, f"Bob {i} <bob.{i}@example.org>",
                      f"Carl {i} <carl.{i}@example.org>", limit=1) for i in range(3)]
    waiting = [new_game(deployment, f"Dora {i} <dora.{i}@example.org>",
                        f"Emil {i} <emil.{i}@example.org>") for i in range(3)]
    # Their clocks ran out and their turns have waited for days; the index is told so.
    deployment.query("UPDATE games SET created_at = created_at - interval '3 days' "
                     "WHERE id = ANY(%s) RETURNING id", timed + waiting)
    deployment.flask("dues", "--rebuild")
    running = fleet(deployment, workers)
    try:
        until(lambda: count(deployment, "SELECT count(*) FROM events WHERE game_id = ANY(%s)",
                            computers) == len(computers), 90, "the computers' first decisions")
        until(lambda: count(deployment, "SELECT count(*) FROM game_results WHERE game_id = ANY(%s)",
                            timed) == len(timed), 60, "the time-outs")
        until(lambda: count(deployment, "SELECT count(*) FROM reminders WHERE game_id = ANY(%s)",
                            waiting) == len(waiting), 60, "the reminders")
        until(lambda: count(deployment, "SELECT count(*) FROM mails WHERE status = 'pending'") == 0,
              60, "the mail")
        time.sleep(2)   # (a second round of every worker: nothing more may happen)
    finally:
        for worker in running:
            worker.stop()
    thought = Counter(decision for worker in running for decision in worker.thought())
    assert thought == Counter({(game, 0): 1 for game in computers})
    assert count(deployment, "SELECT count(*) FROM events WHERE game_id = ANY(%s)", timed) == len(timed)
    assert count(deployment, "SELECT count(*) FROM events WHERE game_id = ANY(%s)",
                 computers) == len(computers)
    statuses = dict(deployment.query("SELECT status, count(*) FROM mails GROUP BY status"))
    assert set(statuses) == {"sent"}, statuses
    ids = Counter(message["Message-ID"] for message in (m for _, m in smtp.messages))
    assert len(ids) == statuses["sent"] and set(ids.values()) == {1}
    for i in range(3):
        reminded = [m for m in smtp.to(f"dora.{i}@example.org")
                    if str(m["Subject"]).startswith("Reminder:")]
        assert len(reminded) == 1


def test_a_worker_killed_while_it_thinks_leaves_the_decision_to_another(deployment, smtp):
    running = fleet(deployment, 2)
    try:
        for attempt in range(4):
            game, thinker, killed = thought_while_created(
                deployment, running, "bot:strong", f"Anna {attempt} <anna.{attempt}@example.org>")
            if count(deployment, "SELECT count(*) FROM events WHERE game_id = %s", game):
                # It decided before the kill landed: a new worker in its place, and again (a log
                # of its own: sharing worker-0's, it would be taken for the other worker-0).
                running[running.index(thinker)] = Worker(deployment, f"replacement-{attempt}", ENV)
                continue
            [other] = [w for w in running if w is not thinker]
            until(lambda game=game: count(deployment, "SELECT count(*) FROM events WHERE game_id = %s",
                                          game) == 1, 60, "the other worker's decision")
            taken_after = time.monotonic() - killed
            print(f"the killed worker's decision made by the other {taken_after:.1f} s after the kill")
            assert (game, 0) in other.thought()
            assert taken_after >= STALLED - HEARTBEAT   # not before its silence was long enough
            assert count(deployment, "SELECT count(*) FROM procrastinate_jobs WHERE status "
                         "IN ('todo', 'doing', 'failed') AND queue_name = 'bots'") == 0
            until(lambda game=game: count(deployment, "SELECT count(*) FROM mails WHERE game_id = %s "
                                          "AND status = 'pending'", game) == 0, 30, "the mail")
            time.sleep(1)
            assert count(deployment, "SELECT count(*) FROM events WHERE game_id = %s", game) == 1
            turn_mails = [m for m in smtp.to(f"anna.{attempt}@example.org")
                          if "your turn" in str(m["Subject"])]
            assert len(turn_mails) == 1
            return
        pytest.fail("every computer decided before its worker could be killed")
    finally:
        for worker in running:
            worker.stop()


def test_workers_split_by_queue_each_do_only_their_own_work(deployment, smtp):
    """A worker for the computers only (`--queues bots`, on a machine of its own) thinks and
    sends nothing; the mail waits for a worker of the `mail` queue, which thinks about nothing."""
    thinker = Worker(deployment, "bots", ENV, "--queues", "bots")
    running = [thinker]
    try:
        games = [new_game(deployment, "bot:easy", f"Anna {i} <anna.{i}@example.org>")
                 for i in range(2)]
        until(lambda: count(deployment, "SELECT count(*) FROM events WHERE game_id = ANY(%s)",
                            games) == len(games), 60, "the computers' decisions")
        time.sleep(1.5)   # (three of a mail worker's rounds: none here)
        pending = count(deployment, "SELECT count(*) FROM mails WHERE status = 'pending'")
        assert pending > 0 and smtp.messages == []
        sender = Worker(deployment, "mail", ENV, "--queues", "mail,due")
        running.append(sender)
        until(lambda: count(deployment, "SELECT count(*) FROM mails WHERE status = 'pending'") == 0,
              30, "the mail")
        assert len(smtp.messages) == pending
    finally:
        for worker in running:
            worker.stop()
    assert sorted(g for g, _ in thinker.thought()) == sorted(games)
    assert sender.thought() == []
    assert "pbem worker: mail, due" in sender.log_path.read_text()


def test_a_worker_refuses_a_queue_that_does_not_exist(deployment):
    result = subprocess.run([FLASK, "--app", "pbem", "worker", "--queues", "mail,bot"], cwd=ROOT,
                            env=deployment.env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "not bot" in result.stderr
