"""A player's reliability, computed from the games' logs and never entered by hand.

- Decisions: the events his seats made (moves; not resigning, not the clock's), up to the
  point a computer took a seat of his over.
- Missed: the decisions his clock made for him instead: a `timeout` event for his seat (the
  game ended) or a computer taking his seat over because his time ran out.
- On time: decisions / (decisions + missed). The server never takes a late decision (the clock
  ends it first), so a missed deadline is exactly a time-out.
- Lost on time: the games he lost by his clock (each missed deadline ends his game).
- Left: the games he resigned from (ended, or a computer played on).

`may_play_rated(address)`: a loss on time bars new rated challenges for RATED_BAN_DAYS days
(a setting; 0: never barred).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from flask import current_app
from sqlalchemy import and_, func, select

from pbem.extensions import db
from pbem.games.base import ABORT, RESIGN, RESIGNED, TIMED_OUT, TIMEOUT
from pbem.store.models import Event, Seat, Takeover, utcnow


@dataclass(frozen=True)
class OnTime:
    decisions: int
    missed: int
    lost_on_time: int
    left: int

    @property
    def share(self) -> float | None:
        """Decisions made before their deadline, 0..1; None: none owed yet."""
        owed = self.decisions + self.missed
        return self.decisions / owed if owed else None

    @property
    def percent(self) -> int | None:
        return None if self.share is None else int(self.share * 100)


def _his_events(address: str, *types: str):
    return (select(func.count()).select_from(Event)
            .join(Seat, and_(Seat.game_id == Event.game_id, Seat.seat == Event.seat))
            .where(Seat.email == address, Event.type.in_(types)))


def _his_takeovers(address: str, reason: str):
    return (select(func.count()).select_from(Takeover)
            .join(Seat, and_(Seat.game_id == Takeover.game_id, Seat.seat == Takeover.seat))
            .where(Seat.email == address, Takeover.reason == reason))


def _decisions(address: str) -> int:
    after_takeover = (select(Takeover.seq).where(Takeover.game_id == Event.game_id,
                                                 Takeover.seat == Event.seat,
                                                 Event.seq > Takeover.seq).exists())
    return db.session.scalar(
        select(func.count()).select_from(Event)
        .join(Seat, and_(Seat.game_id == Event.game_id, Seat.seat == Event.seat))
        .where(Seat.email == address, Event.type.not_in((RESIGN, TIMEOUT, ABORT)), ~after_takeover)) or 0


def on_time(address: str) -> OnTime:
    """The address's on-time record, from the logs."""
    address = address.strip().lower()
    timeouts = db.session.scalar(_his_events(address, TIMEOUT)) or 0
    timeouts += db.session.scalar(_his_takeovers(address, TIMED_OUT)) or 0
    left = db.session.scalar(_his_events(address, RESIGN)) or 0
    left += db.session.scalar(_his_takeovers(address, RESIGNED)) or 0
    return OnTime(_decisions(address), timeouts, timeouts, left)


def last_lost_on_time(address: str) -> datetime | None:
    address = address.strip().lower()
    moments = [db.session.scalar(
        select(func.max(Event.created_at))
        .join(Seat, and_(Seat.game_id == Event.game_id, Seat.seat == Event.seat))
        .where(Seat.email == address, Event.type == TIMEOUT)),
        db.session.scalar(
        select(func.max(Takeover.created_at))
        .join(Seat, and_(Seat.game_id == Takeover.game_id, Seat.seat == Takeover.seat))
        .where(Seat.email == address, Takeover.reason == TIMED_OUT))]
    known = [m if m.tzinfo else m.replace(tzinfo=UTC) for m in moments if m is not None]
    return max(known, default=None)


def barred_until(address: str, now: datetime | None = None) -> datetime | None:
    """Until when a loss on time bars the address from rated challenges; None: not barred."""
    days = current_app.config.get("RATED_BAN_DAYS", 7)
    last = last_lost_on_time(address) if days else None
    if last is None:
        return None
    until = last + timedelta(days=days)
    return until if until > (now or utcnow()) else None


def may_play_rated(address: str, now: datetime | None = None) -> bool:
    """Whether the address may take up a new rated challenge (`barred_until`)."""
    return barred_until(address, now) is None
