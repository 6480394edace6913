"""The job engine's queues as the operator sees them (PostgreSQL: procrastinate's tables).

Read from procrastinate's own tables (`procrastinate_jobs`, `_workers`, `_events`), which its
admin shell reads too; a failed job is put back with procrastinate's own retry statement. On
SQLite there is no job table: one process runs the work in a loop (`pbem.jobs.worker`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from flask import current_app
from procrastinate import sql
from sqlalchemy import text

from pbem.extensions import db
from pbem.policy.deadlines import utc

QUEUES = ("mail", "due", "bots", "fleet")   # pbem.jobs.engine's, in the order shown


@dataclass(frozen=True)
class Queue:
    name: str
    due: int                    # waiting for a worker now
    later: int                  # scheduled for later
    running: int                # taken by a worker that answers
    failed: int                 # gave up: the operator may retry them
    stalled: int                # taken by a worker that stopped answering (retried soon)
    oldest_due: datetime | None  # since when the longest waiting due job waits


@dataclass(frozen=True)
class FailedJob:
    id: int
    queue: str
    task: str
    args: dict
    attempts: int


def kept() -> bool:
    """Whether this database keeps jobs (PostgreSQL, with procrastinate's schema)."""
    return db.session.get_bind().dialect.name == "postgresql"


_QUEUES = text("""
WITH stalled_workers AS (
  SELECT id FROM procrastinate_workers
   WHERE last_heartbeat < now() - make_interval(secs => :stalled)
)
SELECT j.queue_name,
  count(*) FILTER (WHERE j.status = 'todo' AND coalesce(j.scheduled_at <= now(), true)),
  count(*) FILTER (WHERE j.status = 'todo' AND j.scheduled_at > now()),
  count(*) FILTER (WHERE j.status = 'doing' AND j.worker_id IS NOT NULL AND sw.id IS NULL),
  count(*) FILTER (WHERE j.status = 'failed'),
  count(*) FILTER (WHERE j.status = 'doing' AND (j.worker_id IS NULL OR sw.id IS NOT NULL)),
  min(coalesce(j.scheduled_at, (SELECT min(e.at) FROM procrastinate_events e
                                WHERE e.job_id = j.id AND e.type = 'deferred')))
    FILTER (WHERE j.status = 'todo' AND coalesce(j.scheduled_at <= now(), true))
FROM procrastinate_jobs j LEFT JOIN stalled_workers sw ON sw.id = j.worker_id
WHERE j.status IN ('todo', 'doing', 'failed')
GROUP BY j.queue_name
""")


def queues() -> list[Queue]:
    """Every queue with its counts (a queue without jobs too), ours first."""
    stalled = current_app.config["JOBS_STALLED_SECONDS"]
    found = {row[0]: row for row in db.session.execute(_QUEUES, {"stalled": stalled})}
    names = [*QUEUES, *sorted(set(found) - set(QUEUES))]
    return [_queue(name, found.get(name)) for name in names]


def _queue(name: str, row) -> Queue:
    if row is None:
        return Queue(name, 0, 0, 0, 0, 0, None)
    _, due, later, running, failed_, stalled, oldest = row
    return Queue(name, due, later, running, failed_, stalled, utc(oldest) if oldest else None)


def failed(limit: int = 50) -> list[FailedJob]:
    rows = db.session.execute(text(
        "SELECT id, queue_name, task_name, args, attempts FROM procrastinate_jobs "
        "WHERE status = 'failed' ORDER BY id DESC LIMIT :limit"), {"limit": limit})
    return [FailedJob(*row) for row in rows]


def retry(job_ids: Iterable[int], now: datetime) -> int:
    """Put these failed jobs back to `todo`, due now, in the session's transaction (the caller
    commits); how many were failed."""
    ids = list(db.session.scalars(text(
        "SELECT id FROM procrastinate_jobs WHERE status = 'failed' AND id = ANY(:ids) "
        "ORDER BY id FOR UPDATE"), {"ids": list(job_ids)}))
    connection = db.session.connection().connection.driver_connection
    assert connection is not None
    for job_id in ids:   # procrastinate's own statement, on the transaction's connection
        with connection.cursor() as cursor:
            cursor.execute(sql.queries["retry_job"], {
                "job_id": job_id, "retry_at": now, "new_priority": None,
                "new_queue_name": None, "new_lock": None})
    return len(ids)


def all_failed() -> list[int]:
    return list(db.session.scalars(text("SELECT id FROM procrastinate_jobs WHERE status = 'failed'")))


def not_the_engines(_object, name: str | None, _type, _reflected, _compare_to) -> bool:
    """For Alembic's comparison of the models with the database: procrastinate's tables and
    indexes are its schema's (migration 0018), not the models'."""
    return not (name or "").startswith("procrastinate")
