"""Games as append-only logs: create, load by replaying, append with optimistic concurrency.

Appending says which `seq` it writes (one past the log as loaded); the
database's primary key (game_id, seq) refuses a second writer for the same
point of the log, so a double click or two servers never apply a turn twice.
Nothing here commits: the use case that appends (`pbem.play.turns`) adds the mails
the event causes and commits them together.

A seat's address is not kept with the cached game: the operator may correct it
(`addresses.set_address`), and a computer may take a seat over, so mails and checks read the
game's seats fresh, once per transaction (`seats_now`).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from functools import cached_property, lru_cache
from typing import Any

from flask import current_app
from sqlalchemy import JSON, ColumnClause, DateTime, TextualSelect, column, func, select, text
from sqlalchemy.exc import IntegrityError

from pbem import games
from pbem.errors import AlreadySubmitted, NotFound, SeatLeft
from pbem.extensions import db
from pbem.games import base, phrases
from pbem.games.base import Decision, Engine
from pbem.games.phrases import phrase
from pbem.store import reading
from pbem.store.models import Event, Game, GameResult, Seat, SeatNonce, Snapshot
from pbem.store.transaction import keep, remembered

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
    #: The row read along with the game (`Along`; None: nothing asked), for this request only
    #: (never cached).
    along: Any = None
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
        return [self.engine.upcast(data) for data in db.session.scalars(
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
            rows = db.session.execute(_SNAPSHOT_AND_EVENTS_TO, {
                "game": self.id, "rules": engine.rules_version, "at": count}).all()
            snap = rows[0] if rows and rows[0].snapshot else None
            at, state = (snap.seq, engine.restore(snap.data)) if snap else (0, None)
            events = [engine.upcast(row.data) for row in (rows[1:] if snap else rows)]
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


@dataclass(frozen=True)
class Along:
    """A row the caller needs with the game, read in the same statement as the game's new
    events (or, loaded cold, as its row and seats): a page's seat facts cost no round trip of
    their own. `columns`: each a name and a scalar SQL expression (a subquery); their
    parameters in `params`, where `:game` is the game's id too. A name ending in "_" is the
    load's own, for a column and for a parameter alike."""
    columns: tuple[tuple[str, str], ...]
    params: dict[str, Any]

    def select(self) -> TextualSelect:
        """The row alone (a game loaded again after a decision, when its row is still needed)."""
        return _alone(self.columns)


#: What a load reads along when its caller needs nothing more.
NOTHING = Along((("nothing_asked", "1"),), {})


def load(game_id: str, along: Along = NOTHING) -> Loaded:
    """A game, in one statement: from this process's cache plus the events written since,
    else its row, seats, latest snapshot and the events after it (or its whole log), so the
    cost does not grow with it. `along`: a row the caller needs too (`Loaded.along`)."""
    # Only what new_id() makes reaches the database (PostgreSQL refuses a NUL in a query: a 500).
    if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
        raise NotFound(phrase("There is no such game."))
    if any(name.endswith("_") for name in along.params):
        raise ValueError(f"{sorted(along.params)}: a parameter ending in '_' is the load's own")
    cache = current_app.extensions["pbem.replay_cache"]
    cached = cache.get(game_id)
    if cached is not None:
        loaded = _newer(cached, along)
        if loaded is not None:
            cache.put(game_id, loaded.cached())
            return loaded
        # The log no longer ends as cached (a rolled-back write, a restored database): read it anew.
    versions = _rules_versions()
    rows = reading.rows(_cold(along.columns, tuple(versions)), {
        **along.params, "game": game_id, "recent_": RECENT,
        **{f"rules_{n}_": version for n, version in enumerate(versions.values())}})
    if not rows or rows[0].part_ != 0:   # (no game row: events left without their game are none)
        raise NotFound(phrase("There is no such game."))
    try:
        engine = games.get(rows[0].kind)
    except games.UnknownGame:
        raise NotFound(phrase("This server no longer hosts {kind}.", kind=rows[0].kind)) from None
    info = GameInfo.of(rows[0])
    seats = tuple(SeatInfo(row.seat, row.name) for row in rows if row.part_ == 0 and row.seat is not None)
    snapshot = next((row for row in rows if row.part_ == 1), None)
    loaded = _replayed(info, engine, seats, snapshot, [row for row in rows if row.part_ == 2])
    cache.put(game_id, loaded.cached())
    loaded.along = None if along is NOTHING else rows[0]
    return loaded


def _newer(cached: Cached, along: Along) -> Loaded | None:
    """A cached game brought up to date, or None when its last cached event is no longer there
    (or, for a game cached before its first event, the game itself: the operator deleted it)."""
    info, seats, seq, recent, state = (cached.info, cached.seats, cached.seq, cached.recent,
                                       cached.state)
    engine = games.get(info.kind)
    rows = reading.rows(_warm(along.columns), {
        **along.params, "game": info.id, "after_": max(seq - 1, 0)})
    if rows[0].game_present_ is None:
        return None   # the game is gone
    newer = [engine.upcast(row.event_data_) for row in rows if row.event_seq_ is not None]
    if seq:
        if not newer or newer[0] != recent[-1]:
            return None
        newer = newer[1:]
    for event in newer:
        state = engine.apply(state, event)
    return Loaded(info, engine, list(seats), seq + len(newer), (recent + tuple(newer))[-RECENT:], state,
                  along=None if along is NOTHING else rows[0])


def _replayed(info: GameInfo, engine: Engine, seats, snapshot: Any, logged: list) -> Loaded:
    """The game from its latest snapshot of this rules version (None: none) and the events
    read from RECENT before it (for "the last turn"), or from its whole log."""
    base = snapshot.seq if snapshot else 0
    events = [engine.upcast(row.data) for row in logged]
    tail = [e for row, e in zip(logged, events) if row.seq > base]
    if snapshot:
        state = restored = engine.restore(snapshot.data)
        for event in tail:
            state = engine.apply(state, event)   # (a new state each time: `restored` stays)
    else:
        state, restored = engine.replay(info.seed, info.options, info.seats, info.first, tail), None
    return Loaded(info, engine, list(seats), base + len(tail), tuple(events[-RECENT:]), state,
                  anchor=(base, restored, tuple(tail)))


def _rules_versions() -> dict[str, int]:
    """Each installed game's rules version, for a cold load to find its latest snapshot in SQL.
    A game whose module fails to import is left out here, so that the other games still load
    (its own games fail loudly when their engine is asked for)."""
    versions = {}
    for kind in games.INSTALLED:
        try:
            versions[kind] = games.get(kind).rules_version
        except (games.UnknownGame, ImportError):
            continue
    return versions


# The loads' queries as plain SQL, built once per `Along`: an ORM statement costs more to build
# and compile on every page than the database takes to answer it (benchmarks/cost.py). A load
# is one round trip, cold or warm, with what its caller needs along (a page's seat facts).
# Each names its columns in order, so that SQLAlchemy keeps how it reads a row with the
# statement (by name, it would match the columns again on every execution).

def _along(columns: tuple[tuple[str, str], ...]) -> tuple[str, list[ColumnClause]]:
    """The `Along` columns as a select list, and as the statement's first columns."""
    for name, _ in columns:
        if not re.fullmatch(r"[a-z][a-z0-9_]*[a-z0-9]", name) or name in _GAME_COLUMNS:
            raise ValueError(f"{name!r}: an Along column is a lower-case name the load does not use")
    return (", ".join(f"{sql} AS {name}" for name, sql in columns),
            [column(name) for name, _ in columns])


@lru_cache(maxsize=16)
def _alone(columns: tuple[tuple[str, str], ...]) -> TextualSelect:
    listed, named = _along(columns)
    return text(f"SELECT {listed}").columns(*named)


@lru_cache(maxsize=16)
def _warm(columns: tuple[tuple[str, str], ...]) -> TextualSelect:
    """A cached game's new events after a point, each beside the `Along` row (no new event:
    that row alone); `game_present_` is NULL when the game is gone (a game not played yet is
    not looked up again to know it still exists)."""
    listed, named = _along(columns)
    return text(
        f"SELECT a.*, (SELECT 1 FROM games WHERE id = :game) AS game_present_,"
        f"       e.seq AS event_seq_, e.data AS event_data_"
        f" FROM (SELECT {listed}) AS a"
        f" LEFT JOIN events e ON e.game_id = :game AND e.seq > :after_"
        f" ORDER BY e.seq").columns(*named, column("game_present_"), column("event_seq_"),
                                    column("event_data_", JSON))


#: A cold load's game and seat columns: each its name, where it is read from, and the type it
#: is read into Python as (None: as the driver gives it).
_GAME = (("id", "g.id", None), ("kind", "g.kind", None), ("options", "g.options", JSON),
         ("seed", "g.seed", None), ("first", "g.first", None), ("seats", "g.seats", None),
         ("created_at", "g.created_at", DateTime(timezone=True)),
         ("time_limit_days", "g.time_limit_days", None), ("takeover", "g.takeover", None),
         ("seat", "s.seat", None), ("name", "s.name", None))
#: A cold load's columns after the `Along` row's, in order: its part, the game's, a snapshot's
#: or an event's.
_GAME_COLUMNS = {"part_": None, **{name: type_ for name, _, type_ in _GAME}, "seq": None,
                 "data": JSON}


@lru_cache(maxsize=16)
def _cold(columns: tuple[tuple[str, str], ...], kinds: tuple[str, ...]) -> TextualSelect:
    """A game read whole, each row beside the `Along` row: `part_` 0, its row and seats (no row
    at all: no such game); 1, its latest snapshot of its rules version (`:rules_<n>_` for the
    n-th of `kinds`); 2, the events from RECENT before that snapshot on."""
    if not all(re.fullmatch(r"[a-z0-9_-]+", kind) for kind in kinds):   # (written into the SQL)
        raise ValueError(f"a game's name that is no identifier: {kinds!r}")
    listed, named = _along(columns)
    cases = " ".join(f"WHEN '{kind}' THEN :rules_{n}_" for n, kind in enumerate(kinds))
    rules = f"(SELECT CASE kind {cases} END FROM games WHERE id = :game)"
    game = ", ".join(source for _, source, _ in _GAME)
    missing = ", ".join("NULL" for _ in _GAME)   # (the other parts have no game row)
    return text(
        f"SELECT a.*, x.* FROM (SELECT {listed}) AS a CROSS JOIN ("
        f"  SELECT 0 AS part_, {game}, NULL AS seq, NULL AS data"
        f"  FROM games g LEFT JOIN seats s ON s.game_id = g.id WHERE g.id = :game"
        f"  UNION ALL"
        f"  SELECT 1, {missing}, seq, state FROM (SELECT seq, state FROM snapshots"
        f"    WHERE game_id = :game AND rules = {rules} ORDER BY seq DESC LIMIT 1) AS latest"
        f"  UNION ALL"
        f"  SELECT 2, {missing}, seq, data FROM events WHERE game_id = :game AND seq >"
        f"    (SELECT COALESCE(MAX(seq), 0) FROM snapshots WHERE game_id = :game AND rules = {rules})"
        f"    - :recent_"
        f") AS x ORDER BY x.part_, x.seat, x.seq"
    ).columns(*named, *(column(name, type_) for name, type_ in _GAME_COLUMNS.items()))


# The events after a point (the whole log: after 0).
_EVENTS_AFTER = text("SELECT data FROM events WHERE game_id = :game AND seq > :after ORDER BY seq"
                     ).columns(data=JSON)

# For the last turns a seat is told of (`Loaded.events_after`, `last_turn_of`, `state_after`).
_EVENTS_BETWEEN = text("SELECT data FROM events WHERE game_id = :game AND seq > :after"
                       " AND seq <= :upto ORDER BY seq").columns(data=JSON)
_TURNS_OF = text("SELECT seq, data FROM events WHERE game_id = :game AND seat = :seat"
                 " AND seq < :before ORDER BY seq DESC LIMIT 16").columns(data=JSON)
# The latest snapshot at or before a point (flagged), then the events after it up to the point.
_SNAPSHOT_AND_EVENTS_TO = text(
    "SELECT 1 AS snapshot, seq, state AS data FROM"
    " (SELECT seq, state FROM snapshots WHERE game_id = :game AND rules = :rules AND seq <= :at"
    "  ORDER BY seq DESC LIMIT 1) AS latest"
    " UNION ALL"
    " SELECT 0 AS snapshot, seq, data FROM events WHERE game_id = :game AND seq <= :at AND seq >"
    " (SELECT COALESCE(MAX(seq), 0) FROM snapshots WHERE game_id = :game AND rules = :rules"
    "  AND seq <= :at)"
    " ORDER BY snapshot DESC, seq"
).columns(data=JSON)


def _events(game_id: str, after: int = 0) -> list[dict]:
    return list(db.session.scalars(_EVENTS_AFTER, {"game": game_id, "after": after}))


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


#: What `seats_now` reads from: a write to one of them in the transaction reads it again.
SEAT_TABLES = ("seats", "takeovers")
#: What `time_bank` reads from.
BANK_TABLES = ("clocks",)

# The game's time bank comes with its seats: a submission asks for both (who plays the seat,
# and whether his time ran out), one round trip.
_SEATS_NOW = text(
    "SELECT s.seat, s.email, s.bot, s.language, t.seq, t.reason, t.level,"
    "       c.start_days, c.increment_days, c.cap_days"
    " FROM seats s LEFT JOIN takeovers t ON t.game_id = s.game_id AND t.seat = s.seat"
    " LEFT JOIN clocks c ON c.game_id = s.game_id"
    " WHERE s.game_id = :game")
_BANK = text("SELECT start_days, increment_days, cap_days FROM clocks WHERE game_id = :game")


def seats_now(game_id: str) -> dict[int, SeatNow]:
    """The game's seats as they are now, by seat: read once per transaction (not with the
    cached game: the operator may correct an address, a computer may take a seat over, in
    another transaction; `transaction.remembered`), with their takeovers."""
    return remembered(("seats", game_id), SEAT_TABLES, lambda: _read_seats(game_id))


def time_bank(game_id: str) -> tuple[int, int, int] | None:
    """The game's time bank as stored (days: start, increment, cap; None: it has none), once
    per transaction: read with its seats, or on its own when they were read before (and the
    bank forgotten since: the transaction wrote one)."""
    seats_now(game_id)
    return remembered(("bank", game_id), BANK_TABLES, lambda: _read_bank(game_id))


def _read_seats(game_id: str) -> dict[int, SeatNow]:
    seats, bank = {}, None
    for row in db.session.execute(_SEATS_NOW, {"game": game_id}):
        seats[row.seat] = SeatNow(row.email, row.bot, row.language,
                                  Left(row.seat, row.seq, row.reason, row.level)
                                  if row.seq is not None else None)
        if row.start_days is not None:
            bank = (row.start_days, row.increment_days, row.cap_days)
    keep(("bank", game_id), BANK_TABLES, bank)
    return seats


def _read_bank(game_id: str) -> tuple[int, int, int] | None:
    row = db.session.execute(_BANK, {"game": game_id}).first()
    return (row.start_days, row.increment_days, row.cap_days) if row is not None else None


def seen_bot(game_id: str, seat: int, bot: str | None) -> None:
    """What a locking read of the seat's computer saw (`turns._still_a_person`): the rest of
    the transaction goes by it, not by what was read before the lock."""
    now = dict(seats_now(game_id))
    if seat in now:
        now[seat] = replace(now[seat], bot=bot)
        keep(("seats", game_id), SEAT_TABLES, now)


def _seat_now(game_id: str, seat: int) -> SeatNow:
    row = seats_now(game_id).get(seat)
    if row is None:
        raise NotFound(phrase("Game {game} has no seat {seat}.", game=game_id, seat=seat))
    return row
