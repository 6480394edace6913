"""A game's clock, chosen at creation: none, a fixed time per move, or a time bank.

- none: the game waits as long as it takes (reminders still go out);
- a fixed time per move (`games.time_limit_days`, as before): each turn may take that many days;
- a time bank, as in correspondence chess and on Little Golem (a `clocks` row): each player
  starts with `start_days`; his turns draw on it; after each move `increment_days` are added,
  never more than `cap_days` (7 days + 1 a move, at most 14).

Vacations stop every clock of the player's address (`pbem.policy.vacation`): a turn's time is the time
it waited less the time its player was away, and its deadline moves on by as much. His rest days
do the same in a game that allows them (`pbem.policy.rest`; `stops` merges both).

The bank is not stored: it is read from the log (when each of the seat's turns began and
ended), so it can never disagree with it. Computers have no clock.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from pbem.errors import BadInput
from pbem.extensions import db
from pbem.games.phrases import Phrase, phrase, phrase_n
from pbem.policy import rest, vacation
from pbem.store import gamelog
from pbem.store.models import Clock, Event, Game

NONE, MOVE, BANK = "none", "move", "bank"
MAX_DAYS = 365           # no single figure of a clock may exceed this (a year)
DEFAULT_BANK = (7, 1, 14)


@dataclass(frozen=True)
class Choice:
    """A clock as chosen: `days` a move (MOVE), or a bank of `start` days, `increment` added
    a move, at most `cap` (BANK)."""
    kind: str = NONE
    days: int = 0
    start: int = 0
    increment: int = 0
    cap: int = 0

    def describe(self) -> Phrase:
        """The clock in words: "7 days a turn", "a time bank of 7 days, 1 day added a turn,
        at most 14 days"."""
        if self.kind == MOVE:
            return phrase("{days} a turn", days=_days(self.days))
        if self.kind == BANK:
            return phrase("a time bank of {start}, {increment} added a turn, at most {cap}",
                          start=_days(self.start), increment=_days(self.increment),
                          cap=_days(self.cap))
        return phrase("no time limit")

    def spelled(self) -> str:
        """The choice as `parse` reads it (forms, the CLI, JSON)."""
        if self.kind == MOVE:
            return f"move:{self.days}"
        if self.kind == BANK:
            return f"bank:{self.start}+{self.increment}/{self.cap}"
        return NONE

    @property
    def time_limit_days(self) -> int | None:
        return self.days if self.kind == MOVE else None

    @property
    def bank(self) -> tuple[int, int, int] | None:
        return (self.start, self.increment, self.cap) if self.kind == BANK else None


def _days(n: int) -> Phrase:
    return phrase_n("{n} day", "{n} days", n)


_MOVE = re.compile(r"^(?:move:)?(\d{1,3})$")
_BANK = re.compile(r"^bank:(\d{1,3})\+(\d{1,3})(?:/(\d{1,3}))?$")


def parse(text: str | None) -> Choice:
    """`none`, `move:DAYS` (or `DAYS`), `bank:START+INCREMENT/CAP` (days; the cap defaults to
    twice the start); BadInput naming the text otherwise."""
    spelled = (text or NONE).strip().lower().replace(" ", "")
    if spelled in (NONE, ""):
        return Choice()
    if found := _MOVE.match(spelled):
        return move(int(found.group(1)))
    if found := _BANK.match(spelled):
        start, increment = int(found.group(1)), int(found.group(2))
        cap = int(found.group(3)) if found.group(3) else 2 * start
        return bank(start, increment, cap)
    raise BadInput(phrase("The clock {clock} is not one: write none, move:DAYS (say move:3) or "
                          "bank:START+INCREMENT/CAP (say bank:7+1/14).", clock=repr(str(text)[:40])))


def move(days: int) -> Choice:
    if not 1 <= days <= MAX_DAYS:
        raise BadInput(phrase("A time per move of {days} days: it must be 1 to {most} days.",
                              days=days, most=MAX_DAYS))
    return Choice(MOVE, days=days)


def bank(start: int, increment: int, cap: int) -> Choice:
    if not 1 <= start <= MAX_DAYS or not 0 <= increment <= MAX_DAYS or not 1 <= cap <= MAX_DAYS:
        raise BadInput(phrase("A time bank of {bank} days: the start and the cap must be 1 to "
                              "{most} days, the increment 0 to {most}.",
                              bank=f"{start}+{increment}/{cap}", most=MAX_DAYS))
    if cap < start:
        raise BadInput(phrase("A time bank of {bank} days: its cap ({cap}) is below its start "
                              "({start}).", bank=f"{start}+{increment}/{cap}", cap=cap, start=start))
    return Choice(BANK, start=start, increment=increment, cap=cap)


def of_game(game_id: str, time_limit_days: int | None, banked: bool | None = None) -> Choice:
    """The game's clock; `banked` False: the caller knows it has no time bank (a page's facts)."""
    held = _bank_of_game(game_id) if banked is not False else None
    if held is not None:
        return held
    return Choice(MOVE, days=time_limit_days) if time_limit_days else Choice()


def _bank_of_game(game_id: str) -> Choice | None:
    """The game's time bank, if it has one (`gamelog.time_bank`: read with the game's seats)."""
    days = gamelog.time_bank(game_id)
    return Choice(BANK, start=days[0], increment=days[1], cap=days[2]) if days is not None else None


def save(game_id: str, choice: Choice) -> None:
    """A new game's time bank, in the creating transaction (a fixed time per move is the game
    row's `time_limit_days`)."""
    if choice.kind == BANK:
        db.session.add(Clock(game_id=game_id, start_days=choice.start,
                             increment_days=choice.increment, cap_days=choice.cap))


def _utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class Bank:
    """A seat's bank at the start of the turn it is in: how much, and when that turn began."""
    left: timedelta
    since: datetime | None    # None: the seat owes nothing now


def bank_of(game_id: str, seat: int, choice: Choice, address: str) -> Bank:
    """Walk the log: each turn of the seat (from when it came to owe a decision to its own
    event after which it owes none) draws its running time from the bank; then the increment
    is added, up to the cap."""
    game = db.session.get(Game, game_id)
    assert game is not None
    cap = timedelta(days=choice.cap)
    left = timedelta(days=choice.start)
    since = _utc(game.created_at) if seat in (game.owed or []) else None
    rows = db.session.execute(select(Event.seat, Event.owed, Event.created_at)
                              .where(Event.game_id == game_id).order_by(Event.seq)).all()
    away = list(_until(stops(game_id, address, since or _utc(game.created_at)), rows))
    for actor, to_act, created_at in rows:
        at, owes = _utc(created_at), seat in (to_act or [])
        if since is not None and actor == seat and not owes:   # his turn ended
            left = min(cap, max(timedelta(0), left - vacation.running(away, since, at))
                       + timedelta(days=choice.increment))
            since = None
        elif since is None and owes:
            since = at
    return Bank(left, since)


def deadline(game_id: str, time_limit_days: int | None, seat: int, address: str,
             since: datetime) -> datetime | None:
    """When the seat's time for the turn it is in (begun `since`) runs out; None: no clock."""
    choice = of_game(game_id, time_limit_days)
    if choice.kind == NONE:
        return None
    if choice.kind == MOVE:
        return vacation.pushed(stops(game_id, address, since), since, timedelta(days=choice.days))
    held = bank_of(game_id, seat, choice, address)
    start = held.since or since
    return vacation.pushed(stops(game_id, address, start), start, held.left)


def allows_rest(game_id: str) -> bool:
    """Whether the game lets its players' rest days stop their clocks (its creator's choice)."""
    game = db.session.get(Game, game_id)   # (the caller's game row, mostly: no query)
    return game is None or game.rest_days is not False


def rest_of(game_id: str, address: str) -> rest.Rest:
    """The player's rest as the game counts it: his rest days only where it allows them."""
    mine = rest.of(address)
    return mine if not mine.days or allows_rest(game_id) else mine.without_days()


def stops(game_id: str, address: str, since: datetime):
    """When the player's clock in this game stands still after `since`: his vacations and,
    where the game allows them, his rest days (in order, merged; as many as are read)."""
    return rest.stops(vacation.spans(address, since), rest_of(game_id, address), since)


def _until(spans, rows):
    """The spans up to the log's last event (a bank's walk needs none later)."""
    if not rows:
        return
    last = _utc(rows[-1][2])
    for span in spans:
        if span.starts_at > last:
            return
        yield span
