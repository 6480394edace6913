"""Who waits for whom, since when, and until when: read from the log, written by nobody.

Who waits since when comes from the `owed` column written with each event
(and with each game for its start), so no game is replayed to find out. A
seat's turn starts at the last event by anybody else: owed halving discards
and the turn after them are one turn. A game with a time limit gives each
turn that many days from its start.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property

from sqlalchemy import func, or_, select

from pbem.extensions import db
from pbem.policy import clocks
from pbem.store import gamelog
from pbem.store.models import Clock, Event, Game, GameResult, Seat


@dataclass
class Waiting:
    game: Game
    seat: int
    seq: int
    since: datetime
    turn_seq: int = 0   # the point of the log where the seat's turn began (discards then turn: one turn)
    bot: str | None = None   # the level of the computer that plays the seat (None: a person)
    banked: bool = False     # the game has a time bank (a `clocks` row)

    @cached_property
    def deadline(self) -> datetime | None:
        if self.bot:
            return None   # a computer has no clock
        if not self.game.time_limit_days and not self.banked:
            return None
        return clocks.deadline(self.game.id, self.game.time_limit_days, self.seat,
                               gamelog.address_of(self.game.id, self.seat), self.since)


def utc(moment: datetime) -> datetime:
    """The moment in UTC (naive: taken as UTC). SQLite keeps a time's digits, not its offset."""
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


def _turn_start(game_id: str, seat: int, fallback: datetime) -> datetime:
    """When this seat's turn began: the last event by another seat (or the game's start)."""
    moment = db.session.scalar(select(func.max(Event.created_at)).where(
        Event.game_id == game_id, or_(Event.seat != seat, Event.seat.is_(None))))
    return utc(moment or fallback)


def _turn_seq(game_id: str, seat: int) -> int:
    """Where this seat's turn began in the log: the last event by another seat (0: the start)."""
    return db.session.scalar(select(func.max(Event.seq)).where(
        Event.game_id == game_id, or_(Event.seat != seat, Event.seat.is_(None)))) or 0


def _last(column):
    """`column` of the game's last event (NULL before the first): an index probe per game,
    so finding who waits does not read every event of every game stored."""
    return (select(column).where(Event.game_id == Game.id).order_by(Event.seq.desc()).limit(1)
            .correlate(Game).scalar_subquery())


#: Each running game with its last event, whether it has a time bank and whether a computer
#: plays one of its seats, in one row (built once: a round and every commit's dues ask for it).
#: A finished game owes nothing: its result row (written with its last event) keeps it out of
#: the scan, so the worker's rounds do not grow with every game ever played.
_PLAYED_BY_A_COMPUTER = (select(Seat.game_id).where(Seat.game_id == Game.id, Seat.bot.is_not(None))
                         .exists())
_RUNNING = (select(Game, _last(Event.seq), _last(Event.seat), _last(Event.owed),
                   _last(Event.created_at),
                   select(Clock.game_id).where(Clock.game_id == Game.id).exists(),
                   _PLAYED_BY_A_COMPUTER)
            .where(~select(GameResult.game_id).where(GameResult.game_id == Game.id).exists()))


def waiting(game_id: str | None = None, bots_only: bool = False,
            among: list[str] | None = None) -> list[Waiting]:
    """Every decision owed now, in every running game (or in the one game given, or `among`
    these games, 500 a query; or, with `bots_only`, the decisions computers owe)."""
    if among is not None:
        return [w for start in range(0, len(among), 500)
                for w in _waiting(Game.id.in_(among[start:start + 500]), bots_only)]
    return _waiting(Game.id == game_id if game_id is not None else None, bots_only)


def _waiting(which, bots_only: bool) -> list[Waiting]:
    query = _RUNNING
    if which is not None:
        query = query.where(which)
    if bots_only:
        query = query.where(_PLAYED_BY_A_COMPUTER)
    rows = db.session.execute(query).all()
    played = _bots([game.id for game, *_, has_bot in rows if has_bot])
    out = []
    for game, seq, actor, to_act, created_at, banked, _ in rows:
        if seq is None:   # no event yet: the game's start
            seq, actor, to_act, created_at = 0, None, game.owed, game.created_at
        if to_act is None:   # rows written before the `owed` column existed: ask the engine
            loaded = gamelog.load(game.id)
            to_act = gamelog.seats_to_act(loaded.engine, loaded.state)
        for seat in to_act:
            since, turn_seq = utc(created_at), seq
            if seq and actor == seat:
                since = _turn_start(game.id, seat, game.created_at)
                turn_seq = _turn_seq(game.id, seat)
            bot = played.get((game.id, seat))
            if bot or not bots_only:
                out.append(Waiting(game, seat, seq, since, turn_seq, bot, bool(banked)))
    return out


def _bots(game_ids: list[str]) -> dict[tuple[str, int], str]:
    """The seats computers play in these games, and their levels."""
    out: dict[tuple[str, int], str] = {}
    for start in range(0, len(game_ids), 500):   # bounded IN lists
        out.update(((game_id, seat), level or "") for game_id, seat, level in db.session.execute(
            select(Seat.game_id, Seat.seat, Seat.bot).where(
                Seat.game_id.in_(game_ids[start:start + 500]), Seat.bot.is_not(None))))
    return out


def deadline(loaded: gamelog.Loaded, seat: int) -> datetime | None:
    """When the seat's time for the decision it owes runs out (None: no limit, or nothing owed)."""
    if loaded.decision_of(seat) is None:
        return None
    if gamelog.bot_of(loaded.id, seat):
        return None   # a computer has no clock
    return person_deadline(loaded, seat)


def person_deadline(loaded: gamelog.Loaded, seat: int, banked: bool | None = None) -> datetime | None:
    """`deadline` for a seat the caller knows a person plays (a page has read it already, and
    whether the game has a time bank: `banked`; None: ask)."""
    if loaded.decision_of(seat) is None:
        return None
    if clocks.of_game(loaded.id, loaded.row.time_limit_days, banked).kind == clocks.NONE:
        return None   # no clock: no need to ask when the turn began, nor where he plays from
    return clocks.deadline(loaded.id, loaded.row.time_limit_days, seat,
                           gamelog.address_of(loaded.id, seat),
                           _turn_start(loaded.id, seat, loaded.row.created_at))


def expired(loaded: gamelog.Loaded, seat: int, now: datetime | None = None) -> bool:
    """The seat's time for its decision has run out (its game only waits for `remind`)."""
    limit = deadline(loaded, seat)
    return limit is not None and utc(now or datetime.now(UTC)) >= limit
