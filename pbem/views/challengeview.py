"""Open challenges as anybody sees them (`/challenges`, its JSON, a home's own, the page an
accept link opens): built once per request; the poster named by his public name, never his
address. The decisions on them are `pbem.play.challenges`'.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select

from pbem import games
from pbem.errors import NotFound
from pbem.extensions import db
from pbem.games.phrases import Phrase, phrase
from pbem.players import public, ratings, record
from pbem.policy import clocks, deadlines
from pbem.store.models import Challenge, utcnow

UNCONFIRMED, OPEN, STARTED, WITHDRAWN = "unconfirmed", "open", "started", "withdrawn"
DEFAULT_DAYS = 7


class ChallengeGone(NotFound):
    """A challenge that cannot be acted on: never confirmed, withdrawn, expired, started, full."""
    status = 410
    title: str = phrase("Challenge closed")


@dataclass(frozen=True)
class Terms:
    """A challenge as offered: what the poster asked for (checked by
    `pbem.play.challenges.checked`)."""
    kind: str
    seats: int
    options: dict[str, str] = field(default_factory=dict)
    time_limit_days: int | None = None
    bank: tuple[int, int, int] | None = None
    language: str = "en"
    rated: bool = False
    lowest: int | None = None          # the least rating an accepting player may have
    highest: int | None = None         # the most
    on_time: int | None = None         # his least on-time share, in percent
    days: int = DEFAULT_DAYS

    @property
    def clock(self) -> clocks.Choice:
        if self.bank:
            return clocks.bank(*self.bank)
        return clocks.move(self.time_limit_days) if self.time_limit_days else clocks.Choice()

    def engine(self):
        return games.get(self.kind)


def terms_of(row: Challenge) -> Terms:
    """The terms a stored challenge was posted with."""
    stored = row.terms
    return Terms(row.kind, row.seats, dict(stored.get("options") or {}),
                 stored.get("time_limit_days"),
                 tuple(stored["bank"]) if stored.get("bank") else None,
                 stored.get("language") or "en", bool(row.rated), row.lowest, row.highest,
                 row.on_time, row.days)


def closed(row: Challenge, now: datetime) -> Phrase:
    """Why a challenge cannot be acted on, in words."""
    if row.status == WITHDRAWN:
        return phrase("This challenge was withdrawn by its poster.")
    if row.status == STARTED or row.taken >= row.seats:
        return phrase("This challenge's seats are taken: its game has started.")
    if row.status == UNCONFIRMED:
        return phrase("This challenge was never confirmed by its poster.")
    return phrase("This challenge has expired.")


def is_open(row: Challenge, now: datetime | None = None) -> bool:
    """Confirmed, not withdrawn, not past its expiry, a seat free."""
    now = now or utcnow()
    return (row.status == OPEN and row.expires_at is not None
            and deadlines.utc(row.expires_at) > now and row.taken < row.seats)


@dataclass(frozen=True)
class Listed:
    """A challenge as anybody sees it: its poster by his public name, never his address."""
    id: str
    kind: str
    title: str
    seats: int
    taken: int
    clock: Phrase
    options: dict[str, str]
    language: str
    rated: bool
    lowest: int | None
    highest: int | None
    on_time: int | None
    expires_at: datetime
    poster: str | None                 # his public name; None: he has none
    rating: ratings.Rating | None
    poster_on_time: int | None         # his on-time record, percent; None: none owed yet

    def to_json(self) -> dict:
        rating = self.rating
        return {"id": self.id, "game": self.kind, "title": self.title, "seats": self.seats,
                "taken": self.taken, "clock": self.clock, "options": self.options,
                "language": self.language, "rated": self.rated,
                "rating_range": [self.lowest, self.highest], "on_time_least": self.on_time,
                "expires_at": self.expires_at.isoformat(),
                "poster": {"name": self.poster,
                           "rating": None if rating is None else {
                               "rating": rating.rating, "deviation": rating.deviation,
                               "games": rating.games},
                           "on_time": self.poster_on_time},
                "accept": f"/challenges/{self.id}/accept"}


def _listed(row: Challenge, names: dict[str, str]) -> Listed:
    terms = terms_of(row)
    engine = terms.engine()
    assert row.expires_at is not None
    return Listed(row.id, row.kind, engine.title, row.seats, row.taken, terms.clock.describe(),
                  terms.options, terms.language, row.rated, row.lowest, row.highest, row.on_time,
                  deadlines.utc(row.expires_at), names.get(row.poster),
                  ratings.rating_of(row.poster, row.kind), record.on_time(row.poster).percent)


def listed(now: datetime | None = None) -> list[Listed]:
    """The open challenges, soonest to expire first (none expired, none full)."""
    now = now or utcnow()
    rows = list(db.session.scalars(select(Challenge).where(
        Challenge.status == OPEN, Challenge.expires_at > now, Challenge.taken < Challenge.seats)
        .order_by(Challenge.expires_at, Challenge.id)))
    names = public.names_of(row.poster for row in rows)
    return [_listed(row, names) for row in rows if row.kind in games.INSTALLED]


def one(challenge_id: str, now: datetime | None = None) -> Listed:
    row = db.session.get(Challenge, challenge_id)
    now = now or utcnow()
    if row is None or not is_open(row, now):
        raise ChallengeGone(closed(row, now) if row is not None
                            else phrase("This challenge is no longer there."))
    return _listed(row, public.names_of([row.poster]))


def of_poster(address: str, now: datetime | None = None) -> list[Listed]:
    """The address's own challenges still up (for his home, where he may withdraw them)."""
    now = now or utcnow()
    rows = list(db.session.scalars(select(Challenge).where(
        Challenge.poster == address.strip().lower(), Challenge.status == OPEN,
        Challenge.expires_at > now).order_by(Challenge.expires_at)))
    names = public.names_of([address])
    return [_listed(row, names) for row in rows]
