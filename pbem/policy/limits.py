"""Rate limits: every limit the server keeps, in one table, counted one way.

A request is counted under a key (a limit's name and whom it counts: a client, an address,
a seat) in a sliding window, in the database, so every process of a deployment counts the
same. Counting is safe under concurrent requests: the key's row in `rate_locks` is locked
(an upsert) before its requests are counted, so of 40 simultaneous requests for one key with
a limit of 20, exactly 20 pass. The lock is held until the transaction ends. A request
counted under several limits (a submission: per client and per address) is counted in three
statements however many (`take_all`): its keys locked in one, in sorted order (two requests
that share keys never each hold one the other waits for), counted in the next, and written in
a third, or none written when one of the limits is reached.

Some limits refuse the request (429, with the limit's words); others are quiet budgets: the
request is answered as usual, but what it would have mailed is not sent (a stranger must
not learn whether an address plays here, nor use us to mail anybody much).

Previews and feeds are the exception: they are cheap, frequent and write nothing, so they
are counted in memory per process (`PREVIEWS`, `FEEDS`), where a database row per request
would cost more than the request itself (and a feed, polled by calendars, would write on
every read).
"""

from __future__ import annotations

import threading
import time
from collections import Counter, defaultdict, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import delete, func, insert, select
from sqlalchemy.dialects import postgresql, sqlite

from pbem.errors import RateLimited
from pbem.extensions import db
from pbem.games.phrases import Phrase, phrase
from pbem.store.models import RateEvent, RateLock, utcnow
from pbem.store.transaction import changed

KEEP = timedelta(days=2)   # the longest window in use: older counts are pruned

MINUTE, HOUR, DAY = timedelta(minutes=1), timedelta(hours=1), timedelta(days=1)


@dataclass(frozen=True)
class Limit:
    """At most `setting` (a config key, or a fixed number) requests per key in `window`."""
    name: str
    setting: str | int
    window: timedelta | str          # a timedelta, or a config key holding seconds or hours
    message: str = ""                # what a refused request is told ("": a quiet budget); a
                                     # phrase, its {who} filled in when it refuses

    def count(self) -> int:
        value = self.setting
        return int(current_app.config[value]) if isinstance(value, str) else value

    def span(self) -> timedelta:
        window = self.window
        if isinstance(window, timedelta):
            return window
        seconds = float(current_app.config[window]) * (3600 if window.endswith("_HOURS") else 1)
        return timedelta(seconds=seconds)


#: Turns submitted, per client and per seat's address.
SUBMIT_CLIENT = Limit("submit-client", "SUBMISSIONS_PER_CLIENT_PER_MINUTE", MINUTE,
                      phrase("Too many submissions in a minute; please wait a little."))
SUBMIT_ADDRESS = Limit("submit-address", "SUBMISSIONS_PER_ADDRESS_PER_MINUTE", MINUTE,
                       phrase("Too many submissions in a minute; please wait a little."))
#: "Mail me my links", per client; and quietly, one mail per address in a while.
LINKS_CLIENT = Limit("links-client", "LINK_REQUESTS_PER_CLIENT_PER_HOUR", HOUR,
                     phrase("Too many requests for links from here; please try again in an hour."))
LINKS_ADDRESS = Limit("links-address", 1, "LINK_REQUEST_INTERVAL_SECONDS")
#: Links mailed again to one seat (from an expired or replaced link), and replacements asked for.
LINKS_SEAT = Limit("links-seat", 1, "LINK_REQUEST_INTERVAL_SECONDS",
                   phrase("Links were mailed to this seat a few minutes ago; please look for them in "
                          "the player's mailbox."))
#: Games asked for on the start page, per client and per creator's address (a day).
PROPOSALS_CLIENT = Limit("proposals-client", "PROPOSALS_PER_CLIENT_PER_DAY", DAY,
                         phrase("Too many games were started from here today; please try tomorrow."))
PROPOSALS_ADDRESS = Limit("proposals-address", "PROPOSALS_PER_ADDRESS_PER_DAY", DAY,
                          phrase("Too many games were started for this address today; please try "
                                 "tomorrow."))
#: Games confirmed, per creator's address and per the client that asked for them (a day).
GAMES_ADDRESS = Limit("games-address", "GAMES_PER_ADDRESS_PER_DAY", DAY,
                      phrase("This address started as many games today as one may; please confirm "
                             "this one tomorrow."))
GAMES_CLIENT = Limit("games-client", "GAMES_PER_CLIENT_PER_DAY", DAY,
                     phrase("As many games were started from there today as one may; please confirm "
                            "this one tomorrow."))
#: Invitations to one address (a day), whoever invites it.
INVITES_ADDRESS = Limit("invites-address", "INVITES_PER_ADDRESS_PER_DAY", DAY,
                        phrase("{who} was invited to as many games today as one may; please try "
                               "tomorrow."))
#: Leagues asked for and joins asked for (each mails a link to confirm), per client and per
#: address: as many as games asked for on the start page (the same settings).
LEAGUES_CLIENT = Limit("leagues-client", "PROPOSALS_PER_CLIENT_PER_DAY", DAY,
                       phrase("Too many league requests were sent from here today; please try "
                              "tomorrow."))
LEAGUES_ADDRESS = Limit("leagues-address", "PROPOSALS_PER_ADDRESS_PER_DAY", DAY,
                        phrase("Too many league requests were made for this address today; please "
                               "try tomorrow."))
#: Answers to mail replies that cannot act: per address, and for everybody together.
REFUSALS_ADDRESS = Limit("refusal", "REFUSALS_PER_ADDRESS_PER_HOUR", HOUR)
REFUSALS_ALL = Limit("refusals-all", "REFUSALS_PER_HOUR", HOUR)
#: Telling the other players that a seat's mail bounces: once a day per seat.
UNREACHABLE = Limit("unreachable", 1, DAY)
#: Reminder digests: one per address in DIGEST_INTERVAL_HOURS.
DIGEST = Limit("digest", 1, "DIGEST_INTERVAL_HOURS")
#: Messages between players, per seat (`pbem.players.messages`).
MESSAGES_SEAT = Limit("messages-seat", "MESSAGES_PER_SEAT_PER_HOUR", HOUR,
                      phrase("You have said a lot this hour; please wait a little before the next "
                             "message."))
#: Operator sign-in links mailed.
SIGN_IN = Limit("sign-in", 3, HOUR)


def _key(limit: Limit, who: str) -> str:
    return f"{limit.name}:{who}"[:300]


# -- counting: three statements, whatever the number of keys --------------------------------

def _upsert_locks(dialect: str, keys: Sequence[str], now: datetime):
    """Every key's row, inserted or updated: each row locked until the transaction ends."""
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    statement = insert(RateLock).values([{"key": key, "at": now} for key in keys])
    return statement.on_conflict_do_update(index_elements=[RateLock.key],
                                           set_={"at": statement.excluded.at})


def _used_counts(keys: Sequence[str], since: Sequence[datetime]):
    """Each key's requests in its window, in one row (an index range each)."""
    return select(*(select(func.count()).select_from(RateEvent)
                    .where(RateEvent.key == key, RateEvent.at > moment).scalar_subquery()
                    for key, moment in zip(keys, since, strict=True)))


def lock_all(keys: Iterable[str], now: datetime | None = None) -> None:
    """Hold every key until the transaction ends: concurrent holders of one key wait their turn.

    One statement, its rows in sorted order: two transactions locking keys they share lock them
    in the same order, so neither holds one the other waits for while waiting for one it holds.
    (Each key once: PostgreSQL refuses a row updated twice by one statement.)"""
    ordered = sorted({key[:300] for key in keys})
    if ordered:
        db.session.execute(_upsert_locks(db.session.get_bind().dialect.name, ordered, now or utcnow()))


def lock(key: str, now: datetime | None = None) -> None:
    """Hold `key` until the transaction ends: concurrent holders of one key wait their turn."""
    lock_all([key], now)


def used(limit: Limit, who: str, now: datetime | None = None) -> int:
    """How many requests were counted under the limit for `who` in its window (one made a whole
    window ago no longer counts: a digest a day may go out 24 hours after the last)."""
    now = now or utcnow()
    return _used([_key(limit, who)], [now - limit.span()])[0]


def _used(keys: Sequence[str], since: Sequence[datetime]) -> list[int]:
    """The requests counted under each key after its moment, in one statement."""
    return [int(n) for n in db.session.execute(_used_counts(keys, since)).one()]


def _reached(counted: Sequence[tuple[Limit, str]], now: datetime) -> tuple[Limit, str] | None:
    """Count one more request under each (limit, who), unless one of the limits is reached:
    then the first of them, in the order given, and nothing is counted under any.

    The keys are locked in a statement before the one that counts: in PostgreSQL's READ
    COMMITTED each statement sees what was committed when it began, so the count sees every
    request counted by the transaction that held a lock before this one got it."""
    if not counted:
        return None
    keys = [_key(limit, who) for limit, who in counted]
    lock_all(keys, now)
    earlier: Counter[str] = Counter()   # a key given twice: its second request counts the first
    counts = _used(keys, [now - limit.span() for limit, _ in counted])
    for (limit, who), key, n in zip(counted, keys, counts, strict=True):
        if n + earlier[key] >= limit.count():
            return limit, who
        earlier[key] += 1
    db.session.execute(insert(RateEvent).values([{"key": key, "at": now} for key in keys]))
    return None


def allow(limit: Limit, who: str, now: datetime | None = None) -> bool:
    """Count one more request for `who` unless the limit is reached (not committed)."""
    return _reached([(limit, who)], now or utcnow()) is None


def take_all(counted: Sequence[tuple[Limit, str]], now: datetime | None = None) -> None:
    """Count one more request under each (limit, who), or refuse it with RateLimited in the
    words of the first limit reached, in the order given (nothing counted then, under any).
    Three statements, however many limits: a submission is counted per client and per address."""
    reached = _reached(counted, now or utcnow())
    if reached is not None:
        raise _refused(*reached)


def take(limit: Limit, who: str, now: datetime | None = None) -> None:
    """Count one more request, or refuse it with RateLimited (nothing counted then)."""
    take_all([(limit, who)], now)


def _refused(limit: Limit, who: str) -> RateLimited:
    message = limit.message
    return RateLimited(Phrase(message.msgid, {"who": who}) if isinstance(message, Phrase)
                       else message.format(who=who))


def prune(now: datetime | None = None, keep: timedelta = KEEP) -> int:
    """Forget requests older than any window in use (`keep`: the longest of them).

    A key a request holds locked right now is left for the next round (SKIP LOCKED, on
    PostgreSQL): pruning never waits for a request, so the two can never each hold a key the
    other waits for (a deadlock, which PostgreSQL would end by failing one of them)."""
    before = (now or utcnow()) - max(keep, KEEP)
    unused = (select(RateLock.key).where(RateLock.at < before).order_by(RateLock.key)
              .with_for_update(skip_locked=True))
    db.session.execute(delete(RateLock).where(RateLock.key.in_(unused)))
    return changed(db.session.execute(delete(RateEvent).where(RateEvent.at < before)))


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


PREVIEWS = ProcessLimiter()


def take_preview(client: str) -> None:
    if not PREVIEWS.allow(f"preview:{client}", current_app.config["PREVIEWS_PER_CLIENT_PER_MINUTE"]):
        raise RateLimited(phrase("Too many previews in a minute; please wait a little."))


FEEDS = ProcessLimiter()


def take_feed(address: str) -> None:
    """A player's feeds, counted per address (his calendar and reader poll from anywhere)."""
    if not FEEDS.allow(f"feed:{address}", current_app.config["FEEDS_PER_ADDRESS_PER_HOUR"], 3600.0):
        raise RateLimited(phrase("Your feeds were read too often in the last hour; please wait "
                                 "a little."))
