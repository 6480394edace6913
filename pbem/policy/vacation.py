"""Vacations: an address's clocks stop, in every game it plays, while it is away.

Each address has VACATION_DAYS_PER_YEAR days a calendar year (UTC), taken in whole days: a
vacation of N days starts now and ends N days later, or earlier when the player comes back
(`end`: the days begun count as used). While it lasts, no clock of his runs (`running`,
`pushed`): a deadline moves on by the time spent on vacation, and his opponents see "on
vacation until ...".

When a clock of his would run out while days remain, the worker starts a vacation by itself
(`automatic`, a day at a time, from the moment the clock ran out) and every player of that game
is told; with no days left the turn is lost on time as before (`pbem.jobs.reminders`). A player who
acts while on an automatic vacation is back: it ends (`turns.submit`).

Every function takes `now`, so tests move the clock instead of sleeping.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from flask import current_app
from sqlalchemy import bindparam, select

from pbem.errors import BadInput
from pbem.extensions import db
from pbem.games.phrases import phrase
from pbem.policy import limits
from pbem.store.models import Seat, Vacation, utcnow
from pbem.store.transaction import transaction

DAY = timedelta(days=1)


@dataclass(frozen=True)
class Away:
    """A span during which an address's clocks stand still."""
    starts_at: datetime
    ends_at: datetime
    automatic: bool = False


class NoVacationLeft(BadInput):
    title = phrase("No vacation days left")


def _utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


def spans(address: str, since: datetime | None = None) -> list[Away]:
    """The address's vacations that end after `since` (all without it), in order."""
    if not address:
        return []
    query = select(Vacation).where(Vacation.address == address).order_by(Vacation.starts_at)
    if since is not None:
        query = query.where(Vacation.ends_at > since)
    return [Away(_utc(v.starts_at), _utc(v.ends_at), v.automatic) for v in db.session.scalars(query)]


def running(away: Iterable[Away], since: datetime, until: datetime) -> timedelta:
    """How long a clock ran from `since` to `until`: the time between, less the vacations
    (sorted, not overlapping; rest days too: `rest.stops`)."""
    total = until - since
    for span in away:
        if span.starts_at >= until:
            break
        start, end = max(span.starts_at, since), min(span.ends_at, until)
        if end > start:
            total -= end - start
    return max(total, timedelta(0))


def pushed(away: Iterable[Away], since: datetime, allowance: timedelta) -> datetime:
    """When a clock started at `since` with `allowance` left runs out, standing still during
    the vacations (sorted, not overlapping)."""
    moment, left = since, allowance
    for span in away:
        if span.ends_at <= moment:
            continue
        if span.starts_at > moment + left:   # (one starting as the clock runs out stops it)
            break
        left -= max(span.starts_at - moment, timedelta(0))
        moment = span.ends_at
    return moment + left


def days_used(address: str, now: datetime) -> int:
    """Whole days of vacation the address has taken (or booked) in `now`'s year."""
    return _used(spans(address, _year(now)), now)


def _year(now: datetime) -> datetime:
    return datetime(_utc(now).year, 1, 1, tzinfo=UTC)


def _used(away: list[Away], now: datetime) -> int:
    year = _year(now)
    return sum(math.ceil((a.ends_at - a.starts_at) / DAY - 1e-9)
               for a in away if a.starts_at >= year)


def year_ago(now: datetime) -> datetime:
    """The vacations that end after this are all `status` reads (this year's, and any still on)."""
    return min(_year(now), _utc(now) - 366 * DAY)


def per_year() -> int:
    return int(current_app.config["VACATION_DAYS_PER_YEAR"])


def status(address: str, now: datetime) -> tuple[Away | None, int]:
    """The vacation the address is on now (if any) and its days left this year: one query,
    for a page."""
    away = spans(address, year_ago(now))
    on = next((a for a in away if a.starts_at <= _utc(now) < a.ends_at), None)
    return on, max(0, per_year() - _used(away, now))


def days_left(address: str, now: datetime) -> int:
    return max(0, per_year() - days_used(address, now))


def current(address: str, now: datetime | None = None) -> Away | None:
    """The vacation the address is on now, if any."""
    now = _utc(now or utcnow())
    for span in spans(address, now):
        if span.starts_at <= now < span.ends_at:
            return span
    return None


def _take(address: str, days: int, starts_at: datetime, automatic: bool) -> Away:
    row = Vacation(address=address, starts_at=starts_at, ends_at=starts_at + days * DAY,
                   automatic=automatic)
    db.session.add(row)
    db.session.flush()
    return Away(starts_at, row.ends_at, automatic)


def start(address: str, days: int, now: datetime | None = None) -> Away:
    """The player goes away for `days` whole days from now: every clock of his stops."""
    now = _utc(now or utcnow())
    if days < 1:
        raise BadInput(phrase("A vacation lasts at least one day."))
    with transaction():
        lock(address)
        if current(address, now) is not None:
            raise BadInput(phrase("You are on vacation already; end it first to start another."))
        left = days_left(address, now)
        if days > left:
            raise NoVacationLeft(phrase("You have {left} vacation days left this year; {asked} "
                                        "were asked for.", left=left, asked=days))
        away = _take(address, days, now, automatic=False)
    return away


def end(address: str, now: datetime | None = None) -> bool:
    """The player is back: his vacation ends now (the days begun count). Whether he was away."""
    now = _utc(now or utcnow())
    with transaction():
        lock(address)
        ended = _end(address, now)
    return ended


def lock(address: str) -> None:
    """Hold the address's vacations until the transaction ends: two requests (a double click,
    the home and a seat page, the worker's automatic day) never both start one."""
    limits.lock(f"vacation:{address}")


def _end(address: str, now: datetime, automatic_only: bool = False) -> bool:
    ended = False
    for row in db.session.scalars(select(Vacation).where(Vacation.address == address,
                                                          Vacation.ends_at > now)):
        if automatic_only and not row.automatic:
            continue
        if _utc(row.starts_at) >= now:   # booked for later: forgotten, nothing used
            db.session.delete(row)
        else:
            row.ends_at = now
        ended = True
    db.session.flush()
    return ended


def back(address: str, now: datetime, game_id: str | None = None) -> None:
    """In the caller's transaction: a player who acts is back from an automatic vacation.
    `game_id`: the game he acts in; its players' vacations (`_of_game`) tell when there is
    none to end."""
    if not address:
        return
    if game_id is not None and not any(kept.address == address and kept.away.automatic
                                       for kept in _of_game(game_id, now)):
        return
    _end(address, now, automatic_only=True)


def automatic(address: str, ran_out: datetime, now: datetime) -> Away | None:
    """In the caller's transaction: the clock of an address ran out at `ran_out`: a vacation
    starts by itself then, for as many whole days as reach past `now` (at least one), if the
    year has that many left; None (nothing written) when it has not."""
    needed = max(1, math.ceil((now - ran_out) / DAY + 1e-9))
    if needed > days_left(address, now):
        return None
    return _take(address, needed, ran_out, automatic=True)


def in_game(game_id: str, now: datetime | None = None) -> list[tuple[int, Away]]:
    """The seats of a game whose players are on vacation now."""
    now = _utc(now or utcnow())
    return [(kept.seat, kept.away) for kept in _of_game(game_id, now)
            if kept.bot is None and kept.away.starts_at <= now]


# -- a game's vacations ----------------------------------------------

@dataclass(frozen=True)
class _Seated:
    """A vacation of a game's player, and his seat."""
    seat: int
    address: str
    bot: str | None
    away: Away


_OF_GAME = (select(Seat.seat, Seat.email, Seat.bot, Vacation.starts_at, Vacation.ends_at,
                   Vacation.automatic)
            .join(Vacation, Vacation.address == Seat.email)
            .where(Seat.game_id == bindparam("game"), Seat.email != "",
                   Vacation.ends_at > bindparam("since"))
            .order_by(Seat.seat, Vacation.starts_at))


def _of_game(game_id: str, since: datetime) -> tuple[_Seated, ...]:
    """The vacations of the game's players (its seats' addresses) that end after `since`, by seat."""
    rows = db.session.execute(_OF_GAME, {"game": game_id, "since": since})
    return tuple(_Seated(row.seat, row.email, row.bot,
                         Away(_utc(row.starts_at), _utc(row.ends_at), row.automatic))
                 for row in rows)
