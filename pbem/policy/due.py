"""What is due when: the background work reads this index, never every running game.

Each seat that owes a decision has one `dues` row with the moment the worker must next look
at it: a computer's decision at once; a person's at the earliest of his "waiting" reminder,
his "deadline" reminder (each until it was sent for this turn) and his deadline. A person
with neither a clock nor a reminder to come has no row.

The rows of a game are rewritten at the commit of any transaction that changes what they
depend on (its log, its seats, its reminders sent, its clock, a vacation of one of its
players, the rest days, quiet hours or time zone of one: `pbem.policy.rest`), by the session
hooks `install` sets up, so no use case keeps them by hand. A round
looks at the seats due, does what is due, and rewrites those games' rows (`refresh`): a row
due too early costs one look, so the migration (0013) marks every running game due at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from flask import current_app
from sqlalchemy import delete, event, func, inspect, select, update

from pbem.extensions import db
from pbem.policy import rest
from pbem.policy.deadlines import Waiting, utc, waiting
from pbem.store import gamelog
from pbem.store.models import (
    AddressSettings,
    Clock,
    Due,
    Event,
    Game,
    GameResult,
    Reminder,
    Seat,
    Takeover,
    Vacation,
)
from pbem.store.transaction import changed

WAITING, DEADLINE = "waiting", "deadline"   # the two reminders of a turn (`reminders.kind`)

#: The rows whose writing changes a game's dues, by the column naming the game.
_OF_GAME = (Event, Game, GameResult, Reminder, Seat, Clock, Takeover)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)   # the migration's "look at this game" (0013)
_TOUCHED = "pbem.due.games"   # the session's info key: games whose dues the commit rewrites
_AWAY = "pbem.due.addresses"   # and addresses whose vacations changed (all their games)
#: The session's info key: the computers' decisions (game, seat, seq) its commit makes owed.
COMPUTERS = "pbem.due.computers"


def reminded(w: Waiting) -> set[str]:
    """The reminders already sent for this turn of the seat (halving discards included)."""
    return set(db.session.scalars(select(Reminder.kind).where(
        Reminder.game_id == w.game.id, Reminder.seat == w.seat,
        Reminder.seq.between(w.turn_seq, w.seq))))


def windows() -> tuple[timedelta, timedelta]:
    """How long a turn waits before its reminder, and how long before a deadline its warning."""
    config = current_app.config
    return (timedelta(hours=config["REMIND_AFTER_HOURS"]),
            timedelta(hours=config["REMIND_BEFORE_HOURS"]))


def reminder_times(w: Waiting, after: timedelta, before: timedelta) -> dict[str, datetime]:
    """When each reminder of this turn is due: `after` its start, and `before` its deadline,
    each out of its player's quiet hours (`rest.Rest.awake`, `warn_at`)."""
    quiet = rest.of(gamelog.address_of(w.game.id, w.seat))
    times = {WAITING: quiet.awake(w.since + after)}
    if w.deadline is not None:
        times[DEADLINE] = quiet.warn_at(w.deadline - before, w.deadline)
    return times


def moment(w: Waiting, sent: set[str], after: timedelta, before: timedelta) -> datetime | None:
    """When the worker must next look at this seat (None: nothing will come due this turn)."""
    if w.bot:
        return w.since   # a computer decides at once
    moments = [at for kind, at in reminder_times(w, after, before).items() if kind not in sent]
    if w.deadline is not None:
        moments.append(w.deadline)
    return min(moments, default=None)


def rows(game_ids: list[str]) -> list[Due]:
    """These games' dues as their logs, seats, reminders and clocks say now."""
    return [row for row, _ in _owed(game_ids)]


def _owed(game_ids: list[str]) -> list[tuple[Due, Waiting]]:
    after, before = windows()
    out = []
    for w in waiting(among=game_ids):
        at = moment(w, set() if w.bot else reminded(w), after, before)
        if at is not None:
            out.append((Due(game_id=w.game.id, seat=w.seat, bot=w.bot or None, due_at=at), w))
    return out


def refresh(game_ids: Iterable[str]) -> None:
    """Rewrite these games' dues in the session's transaction (the caller commits). The
    computers' decisions owed among them are noted in the session (`COMPUTERS`): the commit
    hands them to the job engine (`pbem.mail.wakeup`), in the same transaction."""
    ids = sorted(set(game_ids))
    noted: set[tuple[str, int, int]] = db.session.info.setdefault(COMPUTERS, set())
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        db.session.execute(delete(Due).where(Due.game_id.in_(chunk))
                           .execution_options(synchronize_session=False))
        owed = _owed(chunk)
        db.session.add_all(row for row, _ in owed)
        noted.update((w.game.id, w.seat, w.seq) for row, w in owed if row.bot)
    db.session.flush()


def persons_due(now: datetime) -> list[str]:
    """The games where a person's reminder or deadline is due by `now`, most overdue first
    (all of them: one address's reminders go out in one digest)."""
    return list(dict.fromkeys(db.session.scalars(
        select(Due.game_id).where(Due.bot.is_(None), Due.due_at <= now).order_by(Due.due_at))))


def computers_due(now: datetime, limit: int = 100) -> list[str]:
    """The games where a computer owes a decision no worker is thinking about, longest
    waiting first."""
    return list(dict.fromkeys(db.session.scalars(
        select(Due.game_id).where(Due.bot.is_not(None), Due.due_at <= now)
        .order_by(Due.due_at).limit(limit))))


def thinking() -> timedelta:
    """How long a computer's decision is the claiming worker's (COMPUTER_CLAIM_SECONDS)."""
    return timedelta(seconds=current_app.config["COMPUTER_CLAIM_SECONDS"])


def claim(game_id: str, seat: int, now: datetime) -> bool:
    """Take a computer's decision for this worker (the caller commits): its row moves
    `thinking()` ahead, so no other worker thinks about it meanwhile; whether this worker got
    it. A worker that dies thinking leaves the row to come due again when that has passed;
    the decision's commit rewrites the row anyway."""
    taken = db.session.execute(update(Due).where(
        Due.game_id == game_id, Due.seat == seat, Due.bot.is_not(None), Due.due_at <= now)
        .values(due_at=now + thinking()).execution_options(synchronize_session=False))
    return changed(taken) == 1


@dataclass(frozen=True)
class Backlog:
    """What the index says the background work has before it (for the operator)."""
    people_due: int               # seats whose reminder or deadline is due now
    next_moment: datetime | None  # the next moment after now something comes due for a person
    computers_free: int           # computers' decisions no worker is thinking about
    computers_thinking: int       # ... that a worker claimed (or a dead worker, until its claim ends)
    oldest_free: datetime | None  # since when the longest waiting free decision waits


def backlog(now: datetime) -> Backlog:
    person, computer = Due.bot.is_(None), Due.bot.is_not(None)
    ask = db.session.scalar
    return Backlog(
        _count(person, Due.due_at <= now),
        _utc_or_none(ask(select(func.min(Due.due_at)).where(person, Due.due_at > now))),
        _count(computer, Due.due_at <= now),
        _count(computer, Due.due_at > now),
        _utc_or_none(ask(select(func.min(Due.due_at)).where(computer, Due.due_at <= now))))


def _count(*where) -> int:
    return db.session.scalar(select(func.count()).select_from(Due).where(*where)) or 0


def _utc_or_none(moment: datetime | None) -> datetime | None:
    return utc(moment) if moment is not None else None


def summary() -> tuple[int, datetime | None]:
    """How many rows, and the earliest moment among them."""
    count, first = db.session.execute(select(func.count(), func.min(Due.due_at))).one()
    return count, _utc_or_none(first)


def disagreements() -> list[str]:
    """Where the stored dues differ from what the logs say (for `verify`): one line each. A
    game the migration marked to be looked at (a row due at the epoch) waits for its first
    round and is not counted."""
    stored = {(d.game_id, d.seat, d.bot, utc(d.due_at)) for d in db.session.scalars(select(Due))}
    marked = {game_id for game_id, _, _, at in stored if at == EPOCH}
    running = {w.game.id for w in waiting()} - marked
    expected = {(d.game_id, d.seat, d.bot, utc(d.due_at)) for d in rows(sorted(running))}
    stored = {row for row in stored if row[0] not in marked}
    return ([f"{g} seat {s}: row missing ({b or 'a person'}, due {t:%Y-%m-%d %H:%M})"
             for g, s, b, t in sorted(expected - stored)]
            + [f"{g} seat {s}: row not owed ({b or 'a person'}, due {t:%Y-%m-%d %H:%M})"
               for g, s, b, t in sorted(stored - expected)])


# -- the hooks that keep the rows ------------------------------------------------------

def _note(session, _context, _instances) -> None:
    """Before a flush: remember the games whose dues what is flushed may change."""
    touched: set[str] = session.info.setdefault(_TOUCHED, set())
    for row in (*session.new, *session.dirty, *session.deleted):
        if isinstance(row, _OF_GAME):
            touched.add(row.id if isinstance(row, Game) else row.game_id)
        elif isinstance(row, Vacation):   # his clocks stop or run again, in every game of his
            session.info.setdefault(_AWAY, set()).add(row.address)
        elif isinstance(row, AddressSettings) and _rest_changed(row):   # his rest, his zone
            session.info.setdefault(_AWAY, set()).add(row.address)


def _rest_changed(row: AddressSettings) -> bool:
    """Whether the row's change moves his clocks or reminders: his rest days, quiet hours or
    time zone (they are read in it); a new row has the defaults (no rest), nothing moves."""
    state = inspect(row)
    if state.pending:
        return bool(row.rest_days or row.quiet_from)
    return any(state.attrs[name].history.has_changes()
               for name in ("rest_days", "quiet_from", "quiet_until", "time_zone"))


def _rewrite(session) -> None:
    """Before a commit: rewrite the dues of the games the transaction touched."""
    session.flush()
    touched = session.info.pop(_TOUCHED, set())
    for address in session.info.pop(_AWAY, ()):
        touched.update(db.session.scalars(select(Seat.game_id).where(
            Seat.email == address, ~select(GameResult.game_id)
            .where(GameResult.game_id == Seat.game_id).exists())))
    if touched:
        refresh(touched)
        session.info.pop(_TOUCHED, None)   # (the rows just written touch nothing)
        session.info.pop(_AWAY, None)


def _forget(session, *_args) -> None:
    session.info.pop(_TOUCHED, None)
    session.info.pop(_AWAY, None)
    session.info.pop(COMPUTERS, None)


def install(session_class) -> None:
    """Keep the dues with every commit of sessions of this class (once per process)."""
    if not event.contains(session_class, "before_flush", _note):
        event.listen(session_class, "before_flush", _note)
        event.listen(session_class, "before_commit", _rewrite)
        event.listen(session_class, "after_rollback", _forget)
