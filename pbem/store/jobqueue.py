"""The job engine's queues as the operator sees them (PostgreSQL: procrastinate's tables).

Read from procrastinate's own tables (`procrastinate_jobs`, `_workers`, `_events`), which its
admin shell reads too; a failed job is put back with procrastinate's own retry statement. On
SQLite there is no job table: one process runs the work in a loop (`pbem.jobs.worker`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from flask import current_app
from procrastinate import sql
from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    and_,
    func,
    or_,
    select,
    true,
)
from sqlalchemy.dialects.postgresql import ENUM, JSONB

from pbem.extensions import db

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


# procrastinate's tables, as far as they are read here: in a MetaData of their own, so that
# neither the models nor Alembic's comparison count them (migration 0018 makes them).
_theirs = MetaData()
_STATUS = ENUM("todo", "doing", "succeeded", "failed", "cancelled", "aborting", "aborted",
               name="procrastinate_job_status", create_type=False)
_EVENT = ENUM("deferred", "started", "deferred_for_retry", "failed", "succeeded", "cancelled",
              "abort_requested", "aborted", "scheduled", "retried",
              name="procrastinate_job_event_type", create_type=False)
jobs = Table("procrastinate_jobs", _theirs, Column("id", BigInteger, primary_key=True),
             Column("queue_name", String), Column("task_name", String), Column("lock", String),
             Column("args", JSONB), Column("status", _STATUS),
             Column("scheduled_at", DateTime(timezone=True)), Column("attempts", Integer),
             Column("worker_id", BigInteger))
_workers = Table("procrastinate_workers", _theirs, Column("id", BigInteger, primary_key=True),
                 Column("last_heartbeat", DateTime(timezone=True)))
_events = Table("procrastinate_events", _theirs, Column("id", BigInteger, primary_key=True),
                Column("job_id", BigInteger), Column("type", _EVENT),
                Column("at", DateTime(timezone=True)))


def queues() -> list[Queue]:
    """Every queue with its counts (a queue without jobs too), ours first."""
    found = {row[0]: row for row in db.session.execute(_counts())}
    names = [*QUEUES, *sorted(set(found) - set(QUEUES))]
    return [_queue(name, found.get(name)) for name in names]


def _counts():
    silent = func.now() - func.make_interval(0, 0, 0, 0, 0, 0, current_app.config["JOBS_STALLED_SECONDS"])
    stalled_workers = select(_workers.c.id).where(_workers.c.last_heartbeat < silent).cte()
    sw = stalled_workers.c.id
    todo, doing = jobs.c.status == "todo", jobs.c.status == "doing"
    due_now = and_(todo, func.coalesce(jobs.c.scheduled_at <= func.now(), true()))
    deferred = (select(func.min(_events.c.at))
                .where(_events.c.job_id == jobs.c.id, _events.c.type == "deferred").scalar_subquery())
    return (select(jobs.c.queue_name,
                   func.count().filter(due_now),
                   func.count().filter(and_(todo, jobs.c.scheduled_at > func.now())),
                   func.count().filter(and_(doing, jobs.c.worker_id.is_not(None), sw.is_(None))),
                   func.count().filter(jobs.c.status == "failed"),
                   func.count().filter(and_(doing, or_(jobs.c.worker_id.is_(None), sw.is_not(None)))),
                   func.min(func.coalesce(jobs.c.scheduled_at, deferred)).filter(due_now))
            .select_from(jobs.outerjoin(stalled_workers, sw == jobs.c.worker_id))
            .where(jobs.c.status.in_(("todo", "doing", "failed")))
            .group_by(jobs.c.queue_name))


def _queue(name: str, row) -> Queue:
    if row is None:
        return Queue(name, 0, 0, 0, 0, 0, None)
    _, due, later, running, failed_, stalled, oldest = row
    return Queue(name, due, later, running, failed_, stalled, _utc(oldest) if oldest else None)


def failed(limit: int = 50) -> list[FailedJob]:
    rows = db.session.execute(
        select(jobs.c.id, jobs.c.queue_name, jobs.c.task_name, jobs.c.args, jobs.c.attempts)
        .where(jobs.c.status == "failed").order_by(jobs.c.id.desc()).limit(limit))
    return [FailedJob(*row) for row in rows]


def retry(job_ids: Iterable[int], now: datetime) -> int:
    """Put these failed jobs back to `todo`, due now, in the session's transaction (the caller
    commits); how many were failed."""
    ids = list(db.session.scalars(select(jobs.c.id).where(
        jobs.c.status == "failed", jobs.c.id.in_(list(job_ids))).order_by(jobs.c.id).with_for_update()))
    connection = db.session.connection().connection.driver_connection
    assert connection is not None
    for job_id in ids:   # procrastinate's own statement, on the transaction's connection
        with connection.cursor() as cursor:
            cursor.execute(sql.queries["retry_job"], {
                "job_id": job_id, "retry_at": now, "new_priority": None,
                "new_queue_name": None, "new_lock": None})
    return len(ids)


def all_failed() -> list[int]:
    return list(db.session.scalars(select(jobs.c.id).where(jobs.c.status == "failed")))


def not_the_engines(_object, name: str | None, _type, _reflected, _compare_to) -> bool:
    """For Alembic's comparison of the models with the database: procrastinate's tables and
    indexes are its schema's (migration 0018), not the models'."""
    return not (name or "").startswith("procrastinate")


def _utc(moment: datetime) -> datetime:
    """The moment in UTC (naive: taken as UTC, as the driver may hand it back)."""
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)
