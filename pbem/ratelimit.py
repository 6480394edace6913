"""Counting requests per key (a client, an address) in a sliding window, in the database,
so every process of a deployment counts the same. Old rows are pruned as we go."""

from __future__ import annotations

import threading
import time
from collections import defaultdict, deque
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


class ProcessLimiter:
    """A sliding window in memory, per process: for cheap, frequent requests such as previews,
    where a database row per request would cost more than the request itself."""

    def __init__(self):
        self._hits: dict[str, deque] = defaultdict(deque)
        self._lock = threading.Lock()

    def allow(self, key: str, limit: int, window: float = 60.0) -> bool:
        now = time.monotonic()
        with self._lock:
            hits = self._hits[key]
            while hits and hits[0] <= now - window:
                hits.popleft()
            if len(hits) >= limit:
                return False
            hits.append(now)
            if len(self._hits) > 10_000:   # forget idle clients
                for idle in [k for k, v in self._hits.items() if not v]:
                    del self._hits[idle]
            return True
