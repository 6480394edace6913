"""Counting requests per key (a client, an address) in a sliding window, in the database,
so every process of a deployment counts the same. Old rows are pruned as we go."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete, func, select

from .extensions import db
from .models import RateEvent, utcnow

KEEP = timedelta(days=2)


def allow(key: str, limit: int, window: timedelta, now: datetime | None = None) -> bool:
    """Count one more request for `key` unless `limit` were made within `window` (not committed)."""
    now = now or utcnow()
    made = db.session.scalar(select(func.count()).select_from(RateEvent).where(
        RateEvent.key == key, RateEvent.at >= now - window))
    if made >= limit:
        return False
    db.session.add(RateEvent(key=key[:300], at=now))
    return True


def prune(now: datetime | None = None, keep: timedelta = KEEP) -> int:
    """Forget requests older than any window in use (`keep`: the longest of them)."""
    result = db.session.execute(delete(RateEvent).where(RateEvent.at < (now or utcnow()) - max(keep, KEEP)))
    return result.rowcount or 0
