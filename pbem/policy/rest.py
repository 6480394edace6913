"""Rest days and quiet hours: the time off an address takes every week, in its own time zone.

A player names his rest days (weekdays, at most `MOST_DAYS` a week) and may name quiet hours
(`22:00` to `07:00`) on his home. Both are read in his time zone, so "Saturday" is his Saturday,
midnight to midnight, summer time or not.

- On a rest day none of his clocks runs, in every game that allows rest days (its creator may
  forbid them: `games.rest_days`, tournament rules): a deadline moves on by the rest time it
  spans, exactly as for a vacation. `stops` gives a clock the spans during which it stands
  still, vacations and rest days merged, for `vacation.pushed` and `vacation.running`.
- During quiet hours his clocks run, but no reminder is mailed: one that falls in them waits
  for their end (`awake`); a warning that would then come after the deadline it warns of goes
  out just before the quiet hours begin instead (`warn_at`). The dues index holds those moments,
  so the worker does not look at his games during his quiet hours at all.

Every function takes its moments, so tests move the clock instead of sleeping.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbem.errors import BadInput
from pbem.extensions import db
from pbem.games.phrases import phrase
from pbem.policy.vacation import Away
from pbem.store.models import AddressSettings

MOST_DAYS = 3   # a clock must run most of a week: more rest days would stop a game for good
DAY = timedelta(days=1)
BEFORE_QUIET = timedelta(minutes=1)   # a warning moved before quiet hours goes out this early


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


@dataclass(frozen=True)
class Rest:
    """An address's rest days (0 Monday .. 6 Sunday) and quiet hours, in its time zone."""
    days: frozenset[int] = frozenset()
    quiet: tuple[time, time] | None = None   # from, until (it may run past midnight)
    time_zone: str = "UTC"

    @property
    def zone(self) -> ZoneInfo:
        return _zone(self.time_zone)

    def without_days(self) -> Rest:
        """The same quiet hours, no rest days: in a game that forbids them."""
        return Rest(frozenset(), self.quiet, self.time_zone)

    def _midnight(self, day: date) -> datetime:
        return datetime.combine(day, time(0), tzinfo=self.zone).astimezone(UTC)

    def spans(self, since: datetime) -> Iterator[Away]:
        """His rest days that end after `since`, in order, consecutive days as one span; as
        many as asked for (a week holds at most MOST_DAYS of them, so it never stops)."""
        if not self.days or len(self.days) >= 7:   # (a week of rest: no rest at all)
            return
        day = since.astimezone(self.zone).date() - DAY
        start = None
        while True:
            if day.weekday() in self.days:
                start = start or self._midnight(day)
            elif start is not None:
                end = self._midnight(day)
                if end > since:
                    yield Away(start, end)
                start = None
            day += DAY

    def rests_between(self, since: datetime, until: datetime) -> bool:
        """Whether a rest day of his begins before `until` (a deadline it moved on)."""
        first = next(self.spans(since), None)
        return first is not None and first.starts_at < until

    def _quiet_span(self, moment: datetime) -> tuple[datetime, datetime] | None:
        """The quiet hours `moment` falls in (their start and end), if any."""
        if self.quiet is None:
            return None
        begin, until = self.quiet
        local = moment.astimezone(self.zone)
        today = local.date()
        for first in (today - DAY, today):
            start = datetime.combine(first, begin, tzinfo=self.zone)
            end = datetime.combine(first + (DAY if until <= begin else timedelta(0)), until,
                                   tzinfo=self.zone)
            if start <= local < end:
                return start.astimezone(UTC), end.astimezone(UTC)
        return None

    def quiet_at(self, moment: datetime) -> bool:
        return self._quiet_span(moment) is not None

    def awake(self, moment: datetime) -> datetime:
        """`moment`, or the end of the quiet hours it falls in."""
        span = self._quiet_span(moment)
        return span[1] if span else moment

    def warn_at(self, moment: datetime, deadline: datetime) -> datetime:
        """When a warning meant for `moment` goes out: after the quiet hours it falls in, or,
        when that would be after the deadline it warns of, just before they begin."""
        span = self._quiet_span(moment)
        if span is None:
            return moment
        return span[1] if span[1] < deadline else span[0] - BEFORE_QUIET


def stops(vacations: Iterable[Away], rest: Rest, since: datetime) -> Iterator[Away]:
    """The spans after `since` during which his clock stands still, in order and merged:
    his vacations (sorted) and his rest days."""
    spans = heapq.merge(vacations, rest.spans(since), key=lambda a: a.starts_at)
    current: Away | None = None
    for span in spans:
        if current is not None and span.starts_at <= current.ends_at:
            current = Away(current.starts_at, max(current.ends_at, span.ends_at), current.automatic)
            continue
        if current is not None:
            yield current
        current = span
    if current is not None:
        yield current


# -- stored on the home (address_settings) ------------------------------------------------

def of(address: str) -> Rest:
    """The address's rest days and quiet hours (none without a row)."""
    address = address.strip().lower()
    row = db.session.get(AddressSettings, address) if address else None
    return (stored(row.rest_days, row.quiet_from, row.quiet_until, row.time_zone)
            if row is not None else Rest())


def stored(days: str | None, quiet_from: str | None, quiet_until: str | None,
           time_zone: str | None) -> Rest:
    """A Rest as `address_settings` keeps it: "5,6", "22:00", "07:00"."""
    quiet = ((time.fromisoformat(quiet_from), time.fromisoformat(quiet_until))
             if quiet_from and quiet_until else None)
    return Rest(frozenset(int(d) for d in (days or "").split(",") if d), quiet, time_zone or "UTC")


def checked(days: Iterable[int | str], quiet_from: str, quiet_until: str) -> tuple[str, str | None,
                                                                                 str | None]:
    """Rest days and quiet hours as typed, as `address_settings` keeps them; BadInput naming
    what is wrong (nothing is written)."""
    try:
        picked = sorted({int(d) for d in days})
    except (TypeError, ValueError):
        raise BadInput(phrase("Rest days are weekdays, 0 (Monday) to 6 (Sunday).")) from None
    if any(not 0 <= d <= 6 for d in picked):
        raise BadInput(phrase("Rest days are weekdays, 0 (Monday) to 6 (Sunday)."))
    if len(picked) > MOST_DAYS:
        raise BadInput(phrase("At most {most} rest days a week: your clocks must run most of "
                              "the week.", most=MOST_DAYS))
    quiet_from, quiet_until = (quiet_from or "").strip(), (quiet_until or "").strip()
    if not quiet_from and not quiet_until:
        return ",".join(map(str, picked)), None, None
    try:
        begin, until = time.fromisoformat(quiet_from), time.fromisoformat(quiet_until)
    except ValueError:
        raise BadInput(phrase("Quiet hours are two times of day, like 22:00 and 07:00.")) from None
    if begin == until or begin.second or until.second or len(quiet_from) != 5 or len(quiet_until) != 5:
        raise BadInput(phrase("Quiet hours are two different times of day, like 22:00 and 07:00."))
    return ",".join(map(str, picked)), quiet_from, quiet_until
