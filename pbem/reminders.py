"""Reminders and time limits, run from cron or the worker loop (`flask --app pbem remind`).

Who waits since when comes from the `owed` column written with each event
(and with each game for its start), so no game is replayed to find out. A
seat's turn starts at the last event by anybody else: owed halving discards
and the turn after them are one turn.

- A decision whose game has a time limit and whose time has run out ends the
  game: a `timeout` event for that seat (a loss), and the usual mails.
- A player whose turn has waited REMIND_AFTER_HOURS gets a reminder, and
  again when his time will run out within REMIND_BEFORE_HOURS. All reminders
  due for one address go in one digest, most urgent first, and an address
  gets at most one digest per DIGEST_INTERVAL_HOURS.

Every function takes `now`, so tests move the clock instead of sleeping.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

from flask import current_app
from sqlalchemy import func, or_, select

from . import games, links, ratelimit, store
from .errors import AlreadySubmitted
from .extensions import db
from .mail import notify
from .mail.words import listing
from .models import Event, Game, RateEvent, Reminder, Seat

WAITING, DEADLINE = "waiting", "deadline"


@dataclass
class Waiting:
    game: Game
    seat: int
    seq: int
    since: datetime
    turn_seq: int = 0   # the point of the log where the seat's turn began (discards then turn: one turn)

    @property
    def deadline(self) -> datetime | None:
        days = self.game.time_limit_days
        return self.since + timedelta(days=days) if days else None


@dataclass
class Report:
    timeouts: list[str] = field(default_factory=list)
    reminded: list[str] = field(default_factory=list)   # addresses


def utc(moment: datetime) -> datetime:
    """The moment in UTC (naive: taken as UTC). SQLite keeps a time's digits, not its offset."""
    return moment.astimezone(timezone.utc) if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


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


def waiting() -> list[Waiting]:
    """Every decision owed now, in every running game."""
    rows = db.session.execute(select(Game, _last(Event.seq), _last(Event.seat), _last(Event.owed),
                                     _last(Event.created_at)))
    out = []
    for game, seq, actor, owed, created_at in rows:
        if seq is None:   # no event yet: the game's start
            seq, actor, owed, created_at = 0, None, game.owed, game.created_at
        if owed is None:   # rows written before `owed` existed: ask the engine
            loaded = store.load(game.id)
            owed = store.owed_seats(loaded.engine, loaded.state)
        for seat in owed:
            since, turn_seq = utc(created_at), seq
            if seq and actor == seat:
                since = _turn_start(game.id, seat, game.created_at)
                turn_seq = _turn_seq(game.id, seat)
            out.append(Waiting(game, seat, seq, since, turn_seq))
    return out


def enforce_time_limits(now: datetime, report: Report) -> None:
    for w in waiting():
        if w.deadline is None or now < w.deadline:
            continue
        loaded = store.load(w.game.id)
        if loaded.seq != w.seq or loaded.owed(w.seat) is None:
            continue
        try:
            time_out(loaded, w.seat)
            store.commit()
            report.timeouts.append(w.game.id)
        except AlreadySubmitted:   # the player (or another worker) was quicker
            continue


def _due(w: Waiting, now: datetime, after: timedelta, before: timedelta) -> list[str]:
    kinds = []
    if now - w.since >= after:
        kinds.append(WAITING)
    if w.deadline is not None and w.deadline - now <= before:
        kinds.append(DEADLINE)
    return kinds


def _entry(w: Waiting, seat: Seat, names: list[str], now: datetime) -> dict:
    hours = int((now - w.since).total_seconds() // 3600)
    return {
        "title": games.get(w.game.kind).title,
        "opponents": listing(n for i, n in enumerate(names) if i != w.seat),
        "waiting": f"{hours // 24} days {hours % 24} hours" if hours >= 24 else f"{hours} hours",
        "deadline": w.deadline.strftime("%Y-%m-%d %H:%M") if w.deadline else None,
        "urgency": (w.deadline or datetime.max.replace(tzinfo=timezone.utc), w.since),
        "turn_url": links.url(links.TURN, w.game.id, w.seat, w.seq),
        "name": seat.name,
    }


def send_reminders(now: datetime, report: Report) -> None:
    config = current_app.config
    after = timedelta(hours=config["REMIND_AFTER_HOURS"])
    before = timedelta(hours=config["REMIND_BEFORE_HOURS"])
    interval = timedelta(hours=config["DIGEST_INTERVAL_HOURS"])
    by_address: dict[str, list] = defaultdict(list)
    for w in waiting():
        sent = set(db.session.scalars(select(Reminder.kind).where(   # in this turn, discards too
            Reminder.game_id == w.game.id, Reminder.seat == w.seat,
            Reminder.seq.between(w.turn_seq, w.seq))))
        kinds = [k for k in _due(w, now, after, before) if k not in sent]
        if kinds:
            seats = db.session.scalars(select(Seat).where(Seat.game_id == w.game.id)
                                       .order_by(Seat.seat)).all()
            by_address[seats[w.seat].email].append((w, kinds, seats))
    for address, due in by_address.items():
        last = db.session.scalar(select(func.max(RateEvent.at)).where(
            RateEvent.key == f"digest:{address}"))
        if last is not None and now - utc(last) < interval:
            continue   # at most one digest a day: these wait for the next one
        db.session.add(RateEvent(key=f"digest:{address}", at=now))
        entries = sorted((_entry(w, seats[w.seat], [s.name for s in seats], now)
                          for w, _, seats in due), key=lambda e: e["urgency"])
        notify.reminder(address, entries[0]["name"], entries)
        for w, kinds, _ in due:
            db.session.add_all(Reminder(game_id=w.game.id, seat=w.seat, seq=w.seq, kind=k,
                                        sent_at=now) for k in kinds)
        db.session.commit()
        report.reminded.append(address)


def deadline(loaded: store.Loaded, seat: int) -> datetime | None:
    """When the seat's time for the decision it owes runs out (None: no limit, or nothing owed)."""
    days = loaded.row.time_limit_days
    if not days or loaded.owed(seat) is None:
        return None
    return _turn_start(loaded.id, seat, loaded.row.created_at) + timedelta(days=days)


def expired(loaded: store.Loaded, seat: int, now: datetime | None = None) -> bool:
    """The seat's time for its decision has run out (its game only waits for `remind`)."""
    limit = deadline(loaded, seat)
    return limit is not None and utc(now or datetime.now(timezone.utc)) >= limit


def time_out(loaded: store.Loaded, seat: int) -> store.Loaded:
    """End the game by time for this seat: the event and its mails (not committed)."""
    after = store.append(loaded, loaded.engine.timeout_event(seat))
    notify.event_appended(after, None)
    return after


def run(now: datetime | None = None) -> Report:
    """Time limits first (a game that ended needs no reminder), then the reminders."""
    now = utc(now or datetime.now(timezone.utc))
    report = Report()
    enforce_time_limits(now, report)
    send_reminders(now, report)
    # The digest clock lives among the rate-limit rows: keep them as long as the digest interval.
    ratelimit.prune(now, timedelta(hours=current_app.config["DIGEST_INTERVAL_HOURS"]))
    db.session.commit()
    return report
