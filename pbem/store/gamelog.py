"""Games as append-only logs: create, load by replaying, append with optimistic concurrency.

Appending says which `seq` it writes (one past the log as loaded); the
database's primary key (game_id, seq) refuses a second writer for the same
point of the log, so a double click or two servers never apply a turn twice.
Nothing here commits: the use case that appends (`pbem.play.turns`) adds the mails
the event causes and commits them together.

A seat's address is not kept with the cached game: the operator may correct it
(`addresses.set_address`), and a computer may take a seat over, so mails and checks read the
game's seats fresh (`seats_now`), once per stretch of a use case that writes none of them
(`seats_read_once`: a decision, its mails and its dues).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any

from flask import current_app
from sqlalchemy import BindParameter, and_, bindparam, func, literal, select
from sqlalchemy.exc import IntegrityError

from pbem import games
from pbem.errors import AlreadySubmitted, NotFound, SeatLeft
from pbem.extensions import db
from pbem.games import base, phrases
from pbem.games.base import Decision, Engine
from pbem.games.phrases import phrase
from pbem.store import reading
from pbem.store.models import Clock, Event, Game, GameResult, Seat, SeatNonce, Snapshot, Takeover

SEED_BITS = 63   # fits a signed BIGINT


@dataclass(frozen=True)
class GameInfo:
    """What a game was created with (its row never changes: it is kept with cached states)."""
    id: str
    kind: str
    options: dict
    seed: int
    first: int | None
    seats: int
    created_at: datetime
    time_limit_days: int | None
    takeover: str = "normal"   # the level of a computer that takes a leaving player's seat

    @classmethod
    def of(cls, row: Any) -> GameInfo:
        """From a `Game`, or a row with its columns."""
        return cls(row.id, row.kind, dict(row.options), row.seed, row.first, row.seats,
                   row.created_at, row.time_limit_days, row.takeover or "normal")


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    name: str


@dataclass(frozen=True)
class Cached:
    """A replayed game as this process keeps it (see `pbem.store.replaycache`)."""
    info: GameInfo
    seats: tuple[SeatInfo, ...]
    seq: int
    recent: tuple[base.Event, ...]
    state: Any


@dataclass
class Loaded:
    """A game as loaded: what it was created with, its seats, and the state its log folds to.

    `recent` holds the last events of the log (ending at `seq`); `events`
    reads the whole log from the database when it is needed (the record).
    """
    row: GameInfo
    engine: Engine
    seats: list[SeatInfo]
    seq: int
    recent: tuple[base.Event, ...]
    state: Any
    #: A cold load's starting point, kept for this request only (never cached): the point of
    #: the log its snapshot stood at (0: none), that state (None: the game's start) and every
    #: event read after it. The turns a page tells are then replayed without asking again.
    #: After `append`, the state the event was made in (or the load's anchor) and the event.
    anchor: tuple[int, Any, tuple[base.Event, ...]] | None = None

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @cached_property
    def events(self) -> list[base.Event]:
        """The whole log, upcast (from the database unless `recent` holds all of it)."""
        if len(self.recent) == self.seq:
            return list(self.recent)
        return [self.engine.upcast(e) for e in _events(self.id)]

    def decision_of(self, seat: int) -> Decision | None:
        """The decision the seat owes now, if any."""
        return next((d for d in self.engine.to_act(self.state) if d.seat == seat), None)

    def has_decided(self, seat: int) -> bool:
        """Whether the seat made a decision yet, as far as the page needs to know (to offer
        declining): seen in the recent events, or taken for granted in a log longer than they
        reach, where every seat has had its turn. `turns.decline` checks the whole log."""
        return self.seq > len(self.recent) or any(e.get("seat") == seat for e in self.recent)

    @property
    def over(self) -> bool:
        return self.engine.outcome(self.state) is not None

    def cached(self) -> Cached:
        return Cached(self.row, tuple(self.seats), self.seq, self.recent, self.state)

    def last_event_by_other(self, seat: int) -> base.Event | None:
        for event in reversed(self.recent):
            if event.get("seat") is not None and event["seat"] != seat:
                return event
        if len(self.recent) == self.seq:
            return None
        data = db.session.scalar(select(Event.data).where(
            Event.game_id == self.id, Event.seat.is_not(None), Event.seat != seat)
            .order_by(Event.seq.desc()).limit(1))
        return self.engine.upcast(data) if data is not None else None


    def events_after(self, after: int) -> list[base.Event]:
        """The events after the first `after` of the log, upcast (from `recent` when it
        reaches back so far)."""
        first = self.seq - len(self.recent)      # recent[0] is event number first + 1
        if after >= first:
            return list(self.recent[after - first:])
        if self.anchor is not None and after >= self.anchor[0]:
            return list(self.anchor[2][after - self.anchor[0]:])
        return [self.engine.upcast(row.data) for row in db.session.execute(
            _EVENTS_BETWEEN, {"game": self.id, "after": after, "upto": self.seq})]

    def last_turn_of(self, seat: int) -> int:
        """How many events the log held when the seat's own latest turn was made (its number
        in the log), 0 before it ever played one (`Engine.is_turn`: not what a seat owes
        within another's turn, nor a resignation)."""
        first = self.seq - len(self.recent)
        for number in range(self.seq, first, -1):
            event = self.recent[number - first - 1]
            if event.get("seat") == seat and self.engine.is_turn(event):
                return number
        if not first:
            return 0
        if self.anchor is not None and self.anchor[0] < first:
            at, _, read = self.anchor
            for number in range(first, at, -1):
                event = read[number - at - 1]
                if event.get("seat") == seat and self.engine.is_turn(event):
                    return number
            if not at:
                return 0
        for number, data in db.session.execute(_TURNS_OF, {"game": self.id, "seat": seat,
                                                           "before": first + 1}):
            if self.engine.is_turn(self.engine.upcast(data)):
                return int(number)
        return 0

    def state_after(self, count: int) -> Any:
        """The state after the first `count` events: the latest snapshot at or before that
        point and the events after it (the state as loaded when that is the log's end)."""
        if count == self.seq:
            return self.state
        engine, info = self.engine, self.row
        if self.anchor is not None and self.anchor[0] <= count:   # a cold load's: at hand
            at, state, read = self.anchor
            events: Iterable[base.Event] = read[:count - at]
        elif len(self.recent) == self.seq:    # the whole log is at hand
            at, state, events = 0, None, self.recent[:count]
        else:
            snap = db.session.execute(_SNAPSHOT_AT, {
                "game": self.id, "rules": engine.rules_version, "upto": count}).first()
            at, state = (snap.seq, engine.restore(snap.state)) if snap else (0, None)
            events = [engine.upcast(row.data) for row in db.session.execute(
                _EVENTS_BETWEEN, {"game": self.id, "after": at, "upto": count})]
        if state is None:
            state = engine.start(info.seed, info.options, info.seats, info.first)
        for event in events:
            state = engine.apply(state, event)
        return state


GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")


def new_id() -> str:
    """A game's id; never starting with "-", which a command line would read as an option
    (`flask messages list -x2…`: "No such option")."""
    while True:
        made = secrets.token_urlsafe(9)
        if not made.startswith("-"):
            return made


def new_nonce() -> str:
    return secrets.token_urlsafe(12)


def seats_to_act(engine: Engine, state) -> list[int]:
    return [d.seat for d in engine.to_act(state)]


def create_game(engine: Engine, players: list[tuple[str, str]], options: dict | None = None,
                first: int | None = None, seed: int | None = None,
                time_limit_days: int | None = None, game_id: str | None = None,
                bots: list[str | None] | None = None, takeover: str = "normal",
                languages: list[str] | None = None, rated: bool = False) -> Loaded:
    """Add a new game, its seats and their first seat links to the session (not committed).
    `bots[i]`: the level of the computer that plays seat i (None: a person, at players[i]'s
    address). `languages[i]`: the language seat i reads (English when not given)."""
    options = engine.normalize_options(options)
    if seed is None:
        seed = secrets.randbits(SEED_BITS)
    state = engine.start(seed, options, len(players), first)
    row = Game(id=game_id or new_id(), kind=engine.name, options=options, seed=seed, first=first,
               seats=len(players), time_limit_days=time_limit_days,
               owed=seats_to_act(engine, state), takeover=takeover, rated=rated)
    levels = list(bots or []) + [None] * (len(players) - len(bots or []))
    spoken = list(languages or []) + ["en"] * (len(players) - len(languages or []))
    seats = [Seat(game_id=row.id, seat=i, name=name, email="" if levels[i] else email, bot=levels[i],
                  language=spoken[i])
             for i, (name, email) in enumerate(players)]
    db.session.add(row)
    db.session.flush()
    db.session.add_all(seats)
    db.session.add_all(SeatNonce(game_id=row.id, seat=i, nonce=new_nonce()) for i in range(len(players)))
    return Loaded(GameInfo.of(row), engine, [SeatInfo(s.seat, s.name) for s in seats], 0, (), state)


RECENT = 8             # events kept with a loaded game: enough for "the opponent's last turn"


def load(game_id: str) -> Loaded:
    """A game: from this process's cache plus the events written since, else its row and
    seats, its latest snapshot and the events after it (or its whole log), so the cost does
    not grow with it."""
    # Only what new_id() makes reaches the database (PostgreSQL refuses a NUL in a query: a 500).
    if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
        raise NotFound(phrase("There is no such game."))
    cache = current_app.extensions["pbem.replay_cache"]
    cached = cache.get(game_id)
    if cached is not None:
        loaded = _newer(cached)
        if loaded is not None:
            cache.put(game_id, loaded.cached())
            return loaded
        # The log no longer ends as cached (a rolled-back write, a restored database): read it anew.
    loaded = _cold(game_id)
    cache.put(game_id, loaded.cached())
    return loaded


def _newer(cached: Cached) -> Loaded | None:
    """A cached game brought up to date, or None when its last cached event is no longer there
    (or, for a game cached before its first event, the game itself: the operator deleted it)."""
    info, seats, seq, recent, state = (cached.info, cached.seats, cached.seq, cached.recent,
                                       cached.state)
    engine = games.get(info.kind)
    rows = reading.rows(_WARM, {"game": info.id, "after": max(seq - 1, 0)})
    if rows[0].game_present is None:
        return None   # the game is gone
    newer = [engine.upcast(row.data) for row in rows if row.seq is not None]
    if seq:
        if not newer or newer[0] != recent[-1]:
            return None
        newer = newer[1:]
    for event in newer:
        state = engine.apply(state, event)
    return Loaded(info, engine, list(seats), seq + len(newer), (recent + tuple(newer))[-RECENT:], state)


def _cold(game_id: str) -> Loaded:
    """The game read whole: its row and seats, then its latest snapshot of its rules version
    and the events from RECENT before it on. (The log only grows: events appended between
    these reads are read too, after the snapshot they follow.)"""
    rows = reading.rows(_GAME_AND_SEATS, {"game": game_id})
    if not rows:
        raise NotFound(phrase("There is no such game."))
    try:
        engine = games.get(rows[0].kind)
    except games.UnknownGame:
        raise NotFound(phrase("This server no longer hosts {kind}.", kind=rows[0].kind)) from None
    info = GameInfo.of(rows[0])
    seats = tuple(SeatInfo(row.seat, row.name) for row in rows if row.seat is not None)
    at = {"game": game_id, "rules": engine.rules_version}
    snapshot = next(iter(reading.rows(_LATEST_SNAPSHOT, at)), None)
    logged = reading.rows(_EVENTS_AFTER, {"game": game_id,
                                          "after": (snapshot.seq if snapshot else 0) - RECENT})
    return _replayed(info, engine, seats, snapshot, logged)


def _replayed(info: GameInfo, engine: Engine, seats, snapshot: Any, logged: Sequence) -> Loaded:
    """The game from its latest snapshot of this rules version (None: none) and the events
    read from RECENT before it (for "the last turn"), or from its whole log."""
    base = snapshot.seq if snapshot else 0
    events = [engine.upcast(row.data) for row in logged]
    tail = [e for row, e in zip(logged, events) if row.seq > base]
    if snapshot:
        state = restored = engine.restore(snapshot.state)
        for event in tail:
            state = engine.apply(state, event)   # (a new state each time: `restored` stays)
    else:
        state, restored = engine.replay(info.seed, info.options, info.seats, info.first, tail), None
    return Loaded(info, engine, list(seats), base + len(tail), tuple(events[-RECENT:]), state,
                  anchor=(base, restored, tuple(tail)))


# -- the log's statements ---------------------------------------------------------------------

_GAME_ID: BindParameter[str] = bindparam("game")
_AFTER: BindParameter[int] = bindparam("after")

#: A cached game's new events from a point on (the last cached one, to check it is still
#: there), each with whether the game is there at all: one row of NULLs when nothing is new.
_WARM = (select(select(literal(1)).where(Game.id == _GAME_ID).scalar_subquery()
                .label("game_present"), Event.seq, Event.data)
         .select_from(select(literal(1).label("one")).subquery("one")
                      .outerjoin(Event, and_(Event.game_id == _GAME_ID, Event.seq > _AFTER)))
         .order_by(Event.seq))

#: A game's row, once per seat with the seat's number and name.
_GAME_AND_SEATS = (select(Game.id, Game.kind, Game.options, Game.seed, Game.first, Game.seats,
                          Game.created_at, Game.time_limit_days, Game.takeover,
                          Seat.seat, Seat.name)
                   .outerjoin(Seat, Seat.game_id == Game.id)
                   .where(Game.id == _GAME_ID).order_by(Seat.seat))

#: A game's latest snapshot of a rules version (at or before a point: `_SNAPSHOT_AT`).
_LATEST_SNAPSHOT = (select(Snapshot.seq, Snapshot.state)
                    .where(Snapshot.game_id == _GAME_ID, Snapshot.rules == bindparam("rules"))
                    .order_by(Snapshot.seq.desc()).limit(1))
_SNAPSHOT_AT = _LATEST_SNAPSHOT.where(Snapshot.seq <= bindparam("upto"))

#: The events after a point (the whole log: after 0), and up to a point.
_EVENTS_AFTER = (select(Event.seq, Event.data).where(Event.game_id == _GAME_ID, Event.seq > _AFTER)
                 .order_by(Event.seq))
_EVENTS_BETWEEN = _EVENTS_AFTER.where(Event.seq <= bindparam("upto"))

#: A seat's events before a point, latest first (`Loaded.last_turn_of`).
_TURNS_OF = (select(Event.seq, Event.data)
             .where(Event.game_id == _GAME_ID, Event.seat == bindparam("seat"),
                    Event.seq < bindparam("before"))
             .order_by(Event.seq.desc()).limit(16))


def _events(game_id: str, after: int = 0) -> list[dict]:
    return [row.data for row in db.session.execute(_EVENTS_AFTER, {"game": game_id, "after": after})]


def append(loaded: Loaded, event: dict) -> Loaded:
    """Write the next event (flushed, not committed) and return the game after it.

    The insert is flushed at once, so a race for this point of the log is
    decided here, before any mail is written: the loser gets AlreadySubmitted.
    Every SNAPSHOT_EVERY events the state is written too, in the same transaction.
    """
    engine, seq = loaded.engine, loaded.seq + 1
    state = engine.apply(loaded.state, event)
    db.session.add(Event(game_id=loaded.id, seq=seq, seat=event.get("seat"),
                         type=event["type"], v=event.get("v", 1), data=event,
                         owed=seats_to_act(engine, state)))
    if (outcome := engine.outcome(state)) is not None:   # the home lists it without a replay
        db.session.add(GameResult(game_id=loaded.id, winners=list(outcome.winners),
                                  reason=outcome.reason, description=outcome.description,
                                  said=phrases.to_data(outcome.description),
                                  places=engine.places(state),
                                  left={str(seat): left.first_turn
                                        for seat, left in takeovers(loaded.id).items()}))
    every = current_app.config.get("SNAPSHOT_EVERY", 16)
    if every and seq % every == 0 and (data := engine.snapshot(state)) is not None:
        db.session.add(Snapshot(game_id=loaded.id, seq=seq, rules=engine.rules_version, state=data))
    _decided(db.session.flush)
    # The state the event was made in stays at hand: the turn mails tell the event from it,
    # which would otherwise be replayed (the log from a snapshot, or from the start).
    at, before, read = loaded.anchor if loaded.anchor is not None else (loaded.seq, loaded.state, ())
    return Loaded(loaded.row, engine, loaded.seats, seq, (loaded.recent + (event,))[-RECENT:], state,
                  anchor=(at, before, read + (event,)))


def _decided(write) -> None:
    try:
        write()
    except IntegrityError:
        db.session.rollback()
        raise AlreadySubmitted(phrase("This turn was already submitted.")) from None


def current_nonce(game_id: str, seat: int) -> str | None:
    return db.session.scalar(
        select(SeatNonce.nonce).where(SeatNonce.game_id == game_id, SeatNonce.seat == seat)
        .order_by(SeatNonce.id.desc()).limit(1))


def nonces_issued(game_id: str, seat: int) -> int:
    """How many seat links the seat was ever given (1: never replaced)."""
    return db.session.scalar(select(func.count()).select_from(SeatNonce).where(
        SeatNonce.game_id == game_id, SeatNonce.seat == seat)) or 0


def reissue_nonce(game_id: str, seat: int) -> str:
    """A new seat link for the seat; the old ones stop working (not committed)."""
    nonce = new_nonce()
    db.session.add(SeatNonce(game_id=game_id, seat=seat, nonce=nonce))
    return nonce


def games_of(email: str) -> list[tuple[str, int]]:
    """(game_id, seat) of every seat played from this address."""
    return [(s.game_id, s.seat) for s in db.session.scalars(
        select(Seat).where(Seat.email == email).order_by(Seat.game_id))]


def bots(game_id: str) -> dict[int, str]:
    """The seats a computer plays now, and its level (read fresh: a seat may be taken over)."""
    return {seat: row.bot or "" for seat, row in seats_now(game_id).items() if row.bot is not None}


def bot_of(game_id: str, seat: int) -> str | None:
    """The level of the computer that plays this seat now; None: a person plays it."""
    row = seats_now(game_id).get(seat)
    return row.bot if row is not None else None


def still_his(game_id: str, seat: int) -> None:
    """SeatLeft when a computer plays the seat now because its player left: his links show
    the game but act no more (no turn, message, notes or language of his is written)."""
    if bot_of(game_id, seat):
        raise SeatLeft()


@dataclass(frozen=True)
class Left:
    """A player who left a game of three or four: a computer plays his seat after `seq`."""
    seat: int
    seq: int
    reason: str     # "resigned" or "timeout"
    level: str

    @property
    def first_turn(self) -> int:
        """The first turn (event number) the computer plays."""
        return self.seq + 1


def takeovers(game_id: str) -> dict[int, Left]:
    """The seats taken over by a computer in this game, by seat."""
    return {seat: row.left for seat, row in seats_now(game_id).items() if row.left is not None}


def display_names(names: list[str], left: dict[int, Left]) -> list[str]:
    """The players' names as pages and mails show them: a seat a computer took over says from
    which turn on ("Carl (bot from turn 12)")."""
    return [phrase("{name} (bot from turn {turn})", name=name, turn=left[i].first_turn)
            if i in left else name for i, name in enumerate(names)]


def left_result(turn: int, place: int | None, players: int) -> str:
    """The result of a player who left a game a computer finished for him: never his win."""
    if place is None:
        return phrase("You left at turn {turn}; the computer that took your seat finished the "
                      "game", turn=turn)
    return phrase("You left at turn {turn}; the computer that took your seat finished in place "
                  "{place} of {players}", turn=turn, place=place, players=players)


def player_of(game_id: str, seat: int) -> tuple[str, str | None]:
    """The seat's address ("" for a computer from the start) and its computer's level, if any."""
    row = _seat_now(game_id, seat)
    return row.email, row.bot


def address_of(game_id: str, seat: int) -> str:
    """The address a seat is played from now (read fresh: the operator may have corrected it)."""
    return _seat_now(game_id, seat).email


def language_of_seat(game_id: str, seat: int) -> str | None:
    """The language the seat reads (None: a seat the game does not have)."""
    row = seats_now(game_id).get(seat)
    return row.language if row is not None else None


# -- the seats as they are now ---------------------------------------------------------------

@dataclass(frozen=True)
class SeatNow:
    """What may change of a seat without an event: who plays it, from where, in which language."""
    email: str            # "": a computer from the start
    bot: str | None       # the level of the computer that plays it now; None: a person
    language: str | None
    left: Left | None     # its player left the game, and a computer took it over


#: A game's seats with their takeovers; its time bank comes with them: a submission asks for
#: both (who plays the seat, and whether his time ran out).
_SEATS_NOW = (select(Seat.seat, Seat.email, Seat.bot, Seat.language, Takeover.seq, Takeover.reason,
                     Takeover.level, Clock.start_days, Clock.increment_days, Clock.cap_days)
              .outerjoin(Takeover, and_(Takeover.game_id == Seat.game_id, Takeover.seat == Seat.seat))
              .outerjoin(Clock, Clock.game_id == Seat.game_id)
              .where(Seat.game_id == _GAME_ID))


def seats_now(game_id: str) -> dict[int, SeatNow]:
    """The game's seats as they are now, by seat (not kept with the cached game: the operator
    may correct an address, a computer may take a seat over), with their takeovers."""
    return _read_seats(game_id)[0]


def time_bank(game_id: str) -> tuple[int, int, int] | None:
    """The game's time bank as stored (days: start, increment, cap; None: it has none)."""
    return _read_seats(game_id)[1]


_Seats = tuple[dict[int, SeatNow], tuple[int, int, int] | None]
#: The game whose seats a stretch of a use case reads once (`seats_read_once`), and what was
#: read of them in it (None: not yet).
_ONCE: ContextVar[tuple[str, list[_Seats | None]] | None] = ContextVar("pbem_seats_once",
                                                                       default=None)


@contextmanager
def seats_read_once(game_id: str) -> Iterator[None]:
    """Within the block, the game's seats (and its time bank) are read once, however often its
    checks and mails ask who plays a seat, from where, in which language: for a stretch of a
    use case that writes none of them (a decision, its mails and its dues). Outside such a
    block, in the next one, and for any other game, every read is fresh."""
    if _ONCE.get() is not None:   # (nested: the outer block stands)
        yield
        return
    token = _ONCE.set((game_id, [None]))
    try:
        yield
    finally:
        _ONCE.reset(token)


def _read_seats(game_id: str) -> _Seats:
    once = _ONCE.get()
    if once is None or once[0] != game_id:
        return _select_seats(game_id)
    kept = once[1]
    seats = kept[0]
    if seats is None:
        seats = kept[0] = _select_seats(game_id)
    return seats


def _select_seats(game_id: str) -> _Seats:
    seats, bank = {}, None
    for row in db.session.execute(_SEATS_NOW, {"game": game_id}):
        seats[row.seat] = SeatNow(row.email, row.bot, row.language,
                                  Left(row.seat, row.seq, row.reason, row.level)
                                  if row.seq is not None else None)
        if row.start_days is not None:
            bank = (row.start_days, row.increment_days, row.cap_days)
    return seats, bank


def _seat_now(game_id: str, seat: int) -> SeatNow:
    row = seats_now(game_id).get(seat)
    if row is None:
        raise NotFound(phrase("Game {game} has no seat {seat}.", game=game_id, seat=seat))
    return row
