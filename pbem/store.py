"""Games as append-only logs: create, load by replaying, append with optimistic concurrency.

Appending says which `seq` it writes (one past the log as loaded); the
database's primary key (game_id, seq) refuses a second writer for the same
point of the log, so a double click or two servers never apply a turn twice.
The caller adds the mails an event causes to the same session before `commit()`.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import current_app
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from . import games
from .errors import AlreadySubmitted, NotFound
from .extensions import db
from .games.base import Decision, Game as Engine
from .models import Event, Game, Seat, SeatNonce

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

    @classmethod
    def of(cls, row: Game) -> "GameInfo":
        return cls(row.id, row.kind, dict(row.options), row.seed, row.first, row.seats,
                   row.created_at, row.time_limit_days)


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    name: str
    email: str


@dataclass
class Loaded:
    """A game as loaded: what it was created with, its seats, its log and the state it folds to."""
    row: GameInfo
    engine: Engine
    seats: list[SeatInfo]
    events: list[dict]
    state: Any

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def seq(self) -> int:
        """The number of events: the point of the log the next decision answers."""
        return len(self.events)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def owed(self, seat: int) -> Decision | None:
        return next((d for d in self.engine.to_act(self.state) if d.seat == seat), None)

    def last_event_by_other(self, seat: int) -> dict | None:
        for event in reversed(self.events):
            if event.get("seat") is not None and event["seat"] != seat:
                return event
        return None


GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")


def new_id() -> str:
    return secrets.token_urlsafe(9)


def new_nonce() -> str:
    return secrets.token_urlsafe(12)


def owed_seats(engine: Engine, state) -> list[int]:
    return [d.seat for d in engine.to_act(state)]


def create_game(engine: Engine, players: list[tuple[str, str]], options: dict | None = None,
                first: int | None = None, seed: int | None = None,
                time_limit_days: int | None = None) -> Loaded:
    """Add a new game, its seats and their first seat links to the session (not committed)."""
    options = engine.normalize_options(options)
    if seed is None:
        seed = secrets.randbits(SEED_BITS)
    state = engine.start(seed, options, len(players), first)
    row = Game(id=new_id(), kind=engine.name, options=options, seed=seed, first=first,
               seats=len(players), time_limit_days=time_limit_days,
               owed=owed_seats(engine, state))
    seats = [Seat(game_id=row.id, seat=i, name=name, email=email)
             for i, (name, email) in enumerate(players)]
    db.session.add(row)
    db.session.flush()
    db.session.add_all(seats)
    db.session.add_all(SeatNonce(game_id=row.id, seat=i, nonce=new_nonce()) for i in range(len(players)))
    return Loaded(GameInfo.of(row), engine, [SeatInfo(s.seat, s.name, s.email) for s in seats], [], state)


def load(game_id: str) -> Loaded:
    """A game by replay: from this process's cache plus the events written since, or whole."""
    # Only what new_id() makes reaches the database (PostgreSQL refuses a NUL in a query: a 500).
    if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
        raise NotFound("There is no such game.")
    cache = current_app.extensions["pbem.replay_cache"]
    cached = cache.get(game_id)
    if cached is not None:
        info, seats, events, state = cached
        engine = games.get(info.kind)
        newer = [engine.upcast(e) for e in _events(game_id, len(events) - 1)] if events else \
            [engine.upcast(e) for e in _events(game_id)]
        if not events or (newer and newer[0] == events[-1]):
            for event in newer[1:] if events else newer:
                state = engine.apply(state, event)
                events += (event,)
            cache.put(game_id, (info, seats, events, state))
            return Loaded(info, engine, list(seats), list(events), state)
        # The log no longer ends as cached (a rolled-back write, a new database): read it whole.
    row = db.session.get(Game, game_id)
    if row is None:
        raise NotFound("There is no such game.")
    try:
        engine = games.get(row.kind)
    except games.UnknownGame:
        raise NotFound(f"This server no longer hosts {row.kind}.") from None
    info = GameInfo.of(row)
    seats = tuple(SeatInfo(s.seat, s.name, s.email) for s in db.session.scalars(
        select(Seat).where(Seat.game_id == row.id).order_by(Seat.seat)))
    events = tuple(engine.upcast(e) for e in _events(row.id))
    state = engine.replay(row.seed, row.options, row.seats, row.first, events)
    cache.put(game_id, (info, seats, events, state))
    return Loaded(info, engine, list(seats), list(events), state)


def _events(game_id: str, after: int = 0) -> list[dict]:
    return list(db.session.scalars(select(Event.data).where(Event.game_id == game_id, Event.seq > after)
                                   .order_by(Event.seq)))


def append(loaded: Loaded, event: dict) -> Loaded:
    """Write the next event (flushed, not committed) and return the game after it.

    The insert is flushed at once, so a race for this point of the log is
    decided here, before any mail is written: the loser gets AlreadySubmitted.
    """
    state = loaded.engine.apply(loaded.state, event)
    db.session.add(Event(game_id=loaded.id, seq=loaded.seq + 1, seat=event.get("seat"),
                         type=event["type"], v=event.get("v", 1), data=event,
                         owed=owed_seats(loaded.engine, state)))
    _decided(db.session.flush)
    return Loaded(loaded.row, loaded.engine, loaded.seats, loaded.events + [event], state)


def commit() -> None:
    """Commit the session; a lost race for a point of the log becomes AlreadySubmitted."""
    _decided(db.session.commit)


def _decided(write) -> None:
    try:
        write()
    except IntegrityError:
        db.session.rollback()
        raise AlreadySubmitted("This turn was already submitted.") from None


def current_nonce(game_id: str, seat: int) -> str | None:
    return db.session.scalar(
        select(SeatNonce.nonce).where(SeatNonce.game_id == game_id, SeatNonce.seat == seat)
        .order_by(SeatNonce.id.desc()).limit(1))


def reissue_nonce(game_id: str, seat: int) -> str:
    """A new seat link for the seat; the old ones stop working (not committed)."""
    nonce = new_nonce()
    db.session.add(SeatNonce(game_id=game_id, seat=seat, nonce=nonce))
    return nonce


def games_of(email: str) -> list[tuple[str, int]]:
    """(game_id, seat) of every seat played from this address."""
    return [(s.game_id, s.seat) for s in db.session.scalars(
        select(Seat).where(Seat.email == email).order_by(Seat.game_id))]
