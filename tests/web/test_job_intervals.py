"""The job engine's periodic intervals are settings: checked at start, and the ones a worker
schedules (`pbem.jobs.engine.schedule`, `pbem.config.tick_cron`).

On PostgreSQL a real worker (procrastinate's, in a thread) runs with intervals none of the
defaults share, and the ticks it deferred are read back from procrastinate's own table of
periodic defers: each task's ticks are its setting apart.
"""

from __future__ import annotations

import threading
import time

import pytest
from croniter import croniter
from sqlalchemy import text

from pbem.config import ConfigError, from_environment, tick_cron
from pbem.extensions import db
from pbem.jobs import engine
from pbem.jobs.worker import QUEUES, on_postgresql

#: Intervals unlike the defaults (10, 30, 15, 5), short enough to see two ticks of each.
INTERVALS = {"JOBS_OUTBOX_SECONDS": 4, "JOBS_ROUND_SECONDS": 6, "JOBS_SWEEP_SECONDS": 3,
             "JOBS_RECOVER_SECONDS": 2}
DEFAULTS = {"JOBS_OUTBOX_SECONDS": 10, "JOBS_ROUND_SECONDS": 30, "JOBS_SWEEP_SECONDS": 15,
            "JOBS_RECOVER_SECONDS": 5}


def test_the_intervals_are_settings_with_their_defaults(tmp_path):
    assert {name: from_environment(str(tmp_path), {})[name] for name in DEFAULTS} == DEFAULTS
    given = {name: str(seconds) for name, seconds in INTERVALS.items()}
    assert {name: from_environment(str(tmp_path), given)[name] for name in INTERVALS} == INTERVALS
    hourly = from_environment(str(tmp_path), {"JOBS_ROUND_SECONDS": "3600"})
    assert hourly["JOBS_ROUND_SECONDS"] == 3600


@pytest.mark.parametrize("raw", ["45", "7", "90", "0", "-5", "soon", "2.5", "172800"])
def test_an_interval_that_is_no_tick_of_the_clock_is_refused_in_one_line(tmp_path, raw):
    with pytest.raises(ConfigError) as refused:
        from_environment(str(tmp_path), {"JOBS_ROUND_SECONDS": raw})
    assert refused.value.message == (
        "JOBS_ROUND_SECONDS must be a whole number of seconds that divides a minute, an hour or "
        f"a day (e.g. 5, 15, 30, 60, 300, 3600), not {raw!r}")


def test_a_worker_is_not_taken_for_dead_between_its_heartbeats(tmp_path):
    with pytest.raises(ConfigError) as refused:
        from_environment(str(tmp_path), {"JOBS_HEARTBEAT_SECONDS": "20"})
    assert refused.value.message == (
        "JOBS_STALLED_SECONDS (20) must be longer than JOBS_HEARTBEAT_SECONDS (20): a live "
        "worker would be taken for dead between its heartbeats")
    assert from_environment(str(tmp_path), {"JOBS_HEARTBEAT_SECONDS": "19"})


@pytest.mark.parametrize("seconds", [1, 2, 5, 15, 30, 60, 120, 300, 900, 3600, 7200, 86400])
def test_a_tick_comes_every_interval_on_the_clock(seconds):
    ticks = croniter(tick_cron(seconds), 1_700_000_123)
    first, second, third = (ticks.get_next(float) for _ in range(3))
    assert first % seconds == 0 and second - first == third - second == seconds


def test_the_worker_schedules_the_intervals_of_its_settings(make_app):
    """Read back from the worker that `flask --app pbem worker` runs (`engine.new_worker`)."""
    app = make_app(**INTERVALS)
    worker = engine.new_worker(app, QUEUES, install_signal_handlers=False)
    scheduled = dict(worker.schedule.periodic_tasks)
    assert set(scheduled) == {(name, name) for name in engine.PERIODIC}
    for name, setting in engine.PERIODIC.items():
        ticks = croniter(scheduled[(name, name)].cron, 1_700_000_000)
        first, second = ticks.get_next(float), ticks.get_next(float)
        assert second - first == INTERVALS[setting], name
    # The other app in this process keeps the defaults: each worker has its own schedule.
    other = engine.new_worker(make_app(), QUEUES, install_signal_handlers=False)
    assert other.schedule.periodic_tasks[("round", "round")].cron == tick_cron(30)


def test_a_running_worker_defers_the_periodic_jobs_at_those_intervals(make_app):
    """PostgreSQL: the ticks the worker deferred, as procrastinate records them (it keeps the
    latest tick of each task, so the table is read every tenth of a second)."""
    app = make_app(**INTERVALS)
    if not on_postgresql(app):
        pytest.skip("SQLite has no job engine: its loop's round is JOBS_ROUND_SECONDS too")
    seen: dict[str, set[int]] = {name: set() for name in engine.PERIODIC}

    def apart(name: str) -> set[int]:
        ticks = sorted(seen[name])
        return {b - a for a, b in zip(ticks, ticks[1:], strict=False)}

    stop = threading.Event()
    worker = threading.Thread(target=engine.run_worker, args=(app, QUEUES), kwargs={"stop": stop})
    worker.start()
    try:
        deadline = time.monotonic() + 45
        while time.monotonic() < deadline:
            with app.app_context():
                for name, tick in db.session.execute(text(
                        "SELECT periodic_id, defer_timestamp FROM procrastinate_periodic_defers")):
                    seen[name].add(tick)
                db.session.rollback()
            if all(INTERVALS[engine.PERIODIC[name]] in apart(name) for name in seen):
                break
            time.sleep(0.1)
    finally:
        stop.set()
        worker.join(30)   # (unregistered before its schema is dropped)
    for name, setting in engine.PERIODIC.items():
        seconds = INTERVALS[setting]
        assert all(tick % seconds == 0 for tick in seen[name]), (name, sorted(seen[name]))
        # (a busy machine may defer two ticks at once: then only the later one is seen)
        assert seconds in apart(name) and all(gap % seconds == 0 for gap in apart(name)), \
            (name, sorted(seen[name]))
