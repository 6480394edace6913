"""What the operator sees of the games, and the operator's own use cases: summaries of every
game, one game in detail, deleting a game, and mailing the sign-in link.

The commands (`pbem.commands.console`) and the operator's page (`pbem.web.admin`) both read from here,
so both show the same thing; the actions they offer besides are the turn service's
(`turns.abort`) and the address use cases (`addresses.set_address`, `resend`, `unsuppress`).

A game's state is one of:
- *unstarted*: nobody has decided anything yet (it waits for its first decision);
- *running*: it waits for one or more seats;
- *finished*: it has a result (won, drawn, resigned, lost on time, aborted).

A game is *stalled* when it waits and nothing will move it on by itself:
- *undelivered*: it waits for a seat whose last mail in this game was not delivered (failed,
  bounced or dropped for a suppressed address): the player may not know it is his turn;
- *idle*: it has no time limit and has waited STALLED_AFTER_DAYS days (default 14) for a seat.
  A game with a time limit is never idle: its clock ends it.
"""

from __future__ import annotations

import hmac
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import delete, func, select

from pbem import games
from pbem.errors import LinkTampered, NotFound, ServerError
from pbem.extensions import db
from pbem.games.base import ABORT, ABORTED_REASON
from pbem.mail import deliver, notify
from pbem.policy import deadlines, due, limits, links
from pbem.store import gamelog, jobqueue
from pbem.store.models import (
    UNDELIVERED,
    Channel,
    Clock,
    Due,
    Event,
    Game,
    GameResult,
    Inbound,
    LeagueGame,
    Mail,
    Message,
    MessageMark,
    Note,
    Notice,
    Rematch,
    Reminder,
    Seat,
    SeatNonce,
    Snapshot,
    Takeover,
    utcnow,
)
from pbem.store.transaction import transaction
from pbem.views.words import plural, winner_names

UNSTARTED, RUNNING, FINISHED = "unstarted", "running", "finished"
#: Which games a list shows: all, those that wait (unstarted included), stalled or finished.
ALL, WAITING, STALLED = "all", "waiting", "stalled"
FILTERS = (ALL, WAITING, STALLED, FINISHED)
#: Why a game is stalled.
UNDELIVERED_MAIL, IDLE = "undelivered", "idle"


@dataclass(frozen=True)
class Player:
    seat: int
    name: str
    address: str             # "": a computer from the start
    bot: str | None = None   # the level of the computer that plays the seat now


@dataclass(frozen=True)
class Wait:
    """A seat the game waits for, since when, and until when (a time limit)."""
    seat: int
    name: str
    address: str
    since: datetime
    deadline: datetime | None


@dataclass(frozen=True)
class Stall:
    seat: int
    name: str
    reason: str     # UNDELIVERED_MAIL or IDLE
    detail: str     # in words, for people


@dataclass(frozen=True)
class Result:
    winners: tuple[str, ...]    # names; none for a draw or an aborted game
    reason: str                 # the engine's key: "resigned", "timeout", "aborted" ...
    description: str
    at: datetime
    why: str | None             # an aborted game's reason
    # Who won and why, tie-breaks and points spelled out (`Engine.ending`, as a spectator
    # reads it): "Carl (bot from turn 12) wins: Bob's stand ran empty, ... Points: ..."; ""
    # for a game called off (`why` says it).
    ending: str = ""


@dataclass(frozen=True)
class Summary:
    id: str
    kind: str
    title: str
    created: datetime
    players: tuple[Player, ...]
    state: str
    events: int                 # the log's length
    last_activity: datetime     # the last event, or the creation
    waiting: tuple[Wait, ...]
    stalled: tuple[Stall, ...]
    result: Result | None

    @property
    def deletable(self) -> bool:
        """Only a game nobody played in, or one that was aborted, may be deleted."""
        return self.state == UNSTARTED or (self.result is not None
                                           and self.result.reason == ABORTED_REASON)


@dataclass(frozen=True)
class MailInfo:
    id: int
    kind: str
    seat: int | None
    to: str
    subject: str
    status: str
    attempts: int
    created: datetime
    sent: datetime | None
    last_error: str | None


@dataclass(frozen=True)
class Detail:
    summary: Summary
    options: dict
    time_limit_days: int | None
    seat_links: dict[int, str]      # seat -> its current standing link
    turn_links: dict[int, str]      # seat -> the turn link of a seat that owes a decision
    record_link: str
    mails: tuple[MailInfo, ...]


# -- reading -----------------------------------------------------------------------------

def summaries(which: str = ALL, now: datetime | None = None, limit: int | None = None,
              game_id: str | None = None) -> list[Summary]:
    """The games `which` names (see FILTERS), most recently active first, at most `limit`."""
    if which not in FILTERS:
        raise ValueError(f"no such filter {which!r}")
    now = deadlines.utc(now or utcnow())
    rows = db.session.scalars(select(Game).where(*_one(Game.id, game_id))).all()
    seats = _players(game_id)
    last = _last_events(game_id)
    waits = _waits(game_id, seats)
    mails = _last_mails(game_id)
    stall_days = current_app.config.get("STALLED_AFTER_DAYS", 14)
    found = []
    for row in rows:
        seq, at = last.get(row.id, (0, None))
        waiting = tuple(waits.get(row.id, ()))
        state = UNSTARTED if not seq else RUNNING if waiting else FINISHED
        stalled = tuple(_stalls(row, waiting, mails, now, stall_days))
        summary = Summary(row.id, row.kind, _title(row.kind), deadlines.utc(row.created_at),
                          tuple(seats.get(row.id, ())), state, seq,
                          deadlines.utc(at or row.created_at), waiting, stalled, None)
        if _shown(summary, which):
            found.append(summary)
    found.sort(key=lambda s: (s.last_activity, s.id), reverse=True)
    found = found[:limit] if limit is not None else found
    return [_with_result(s) if s.state == FINISHED else s for s in found]


def summary(game_id: str, now: datetime | None = None) -> Summary:
    """One game's summary; NotFound when there is no such game."""
    found = summaries(ALL, now, game_id=game_id) if gamelog.GAME_ID.fullmatch(game_id) else []
    if not found:
        raise NotFound(f"There is no game {game_id}.")
    return found[0]


def detail(game_id: str, now: datetime | None = None) -> Detail:
    """One game with what the operator needs to help its players: links, options, its mail."""
    info = summary(game_id, now)
    row = db.session.get(Game, game_id)
    if row is None:
        raise NotFound(f"There is no game {game_id}.")
    nonces = {p.seat: gamelog.current_nonce(game_id, p.seat) for p in info.players}
    seat_links = {p.seat: links.url(links.SEAT, game_id, p.seat, nonces[p.seat]) for p in info.players}
    # A turn link names the point of the log where the decision is owed: its end.
    turn_links = {w.seat: links.url(links.TURN, game_id, w.seat, info.events, nonces[w.seat])
                  for w in info.waiting}
    return Detail(info, dict(row.options), row.time_limit_days, seat_links, turn_links,
                  links.record_url(game_id), tuple(_mails(game_id)))


def _one(column, game_id: str | None) -> tuple:
    return () if game_id is None else (column == game_id,)


def _title(kind: str) -> str:
    try:
        return games.get(kind).title
    except games.UnknownGame:
        return kind


def _players(game_id: str | None) -> dict[str, list[Player]]:
    out: dict[str, list[Player]] = {}
    for row in db.session.scalars(select(Seat).where(*_one(Seat.game_id, game_id))
                                  .order_by(Seat.game_id, Seat.seat)):
        out.setdefault(row.game_id, []).append(Player(row.seat, row.name, row.email, row.bot))
    return out


def _last_events(game_id: str | None) -> dict[str, tuple[int, datetime]]:
    """Each game's log length and the time of its last event."""
    newest = (select(Event.game_id, func.max(Event.seq).label("seq"))
              .where(*_one(Event.game_id, game_id)).group_by(Event.game_id).subquery())
    rows = db.session.execute(select(Event.game_id, Event.seq, Event.created_at).join(
        newest, (Event.game_id == newest.c.game_id) & (Event.seq == newest.c.seq)))
    return {gid: (seq, at) for gid, seq, at in rows}


def _waits(game_id: str | None, seats: dict[str, list[Player]]) -> dict[str, list[Wait]]:
    out: dict[str, list[Wait]] = {}
    for w in deadlines.waiting(game_id):
        player = seats[w.game.id][w.seat]
        out.setdefault(w.game.id, []).append(
            Wait(w.seat, player.name, player.address, w.since, w.deadline))
    return out


def _last_mails(game_id: str | None) -> dict[tuple[str, int], Mail]:
    """The newest mail of each seat of each game."""
    newest = (select(func.max(Mail.id)).where(Mail.game_id.is_not(None), Mail.seat.is_not(None),
                                              *_one(Mail.game_id, game_id))
              .group_by(Mail.game_id, Mail.seat))
    return {(m.game_id, m.seat): m for m in db.session.scalars(select(Mail).where(Mail.id.in_(newest)))
            if m.game_id is not None and m.seat is not None}


def _stalls(row: Game, waiting, mails, now: datetime, stall_days: float):
    for w in waiting:
        mail = mails.get((row.id, w.seat))
        if mail is not None and mail.status in UNDELIVERED:
            yield Stall(w.seat, w.name, UNDELIVERED_MAIL,
                        f"{w.name}'s last mail ({mail.subject!r}) was not delivered: "
                        f"{mail.status}, {mail.last_error or 'no reason given'}")
        elif not row.time_limit_days and now - w.since >= timedelta(days=stall_days):
            days = (now - w.since).days
            yield Stall(w.seat, w.name, IDLE, f"{w.name} has not played for {plural(days, 'day')}")


def _shown(summary: Summary, which: str) -> bool:
    return (which == ALL or (which == WAITING and summary.state != FINISHED)
            or (which == STALLED and bool(summary.stalled))
            or (which == FINISHED and summary.state == FINISHED))


def _with_result(summary: Summary) -> Summary:
    """A finished game's result (replaying it: only the games shown are replayed)."""
    loaded = gamelog.load(summary.id)
    outcome = loaded.engine.outcome(loaded.state)
    if outcome is None:   # (only finished games are summed up with a result)
        return summary
    last = loaded.recent[-1] if loaded.recent else {}
    why = last.get("why") if last.get("type") == ABORT else None
    ending = ("" if outcome.reason == ABORTED_REASON else str(loaded.engine.ending(
        loaded.state, None, gamelog.display_names(loaded.names, gamelog.takeovers(loaded.id)))))
    result = Result(tuple(winner_names(outcome, loaded.names)), outcome.reason, outcome.description,
                    summary.last_activity, why, ending)
    return replace(summary, result=result)


def _mails(game_id: str) -> list[MailInfo]:
    return [MailInfo(m.id, m.kind, m.seat, m.to_addr, m.subject, m.status, m.attempts,
                     deadlines.utc(m.created_at), m.sent_at and deadlines.utc(m.sent_at), m.last_error)
            for m in db.session.scalars(select(Mail).where(Mail.game_id == game_id).order_by(Mail.id))]


# -- deleting ----------------------------------------------------------------------------

class NotDeletable(ServerError):
    """Only an unstarted or an aborted game may be deleted: any other is somebody's record."""
    status, title = 409, "Not deletable"


#: Every table that refers to a game, children first (PostgreSQL checks the foreign keys).
TABLES = ((Event, Event.game_id), (Snapshot, Snapshot.game_id), (Reminder, Reminder.game_id),
          (GameResult, GameResult.game_id), (Rematch, Rematch.source),
          (Takeover, Takeover.game_id), (Notice, Notice.game_id), (Channel, Channel.game_id),
          (Mail, Mail.game_id),
          (SeatNonce, SeatNonce.game_id),
          (Seat, Seat.game_id), (Inbound, Inbound.game_id),
          (Message, Message.game_id), (MessageMark, MessageMark.game_id), (Note, Note.game_id),
          (Clock, Clock.game_id), (Due, Due.game_id), (LeagueGame, LeagueGame.game_id),
          (Game, Game.id))


def deletion(game_id: str) -> dict[str, int]:
    """What deleting the game would delete: rows per table. NotFound, or NotDeletable."""
    _check_deletable(game_id)
    return _counts(game_id)


def delete_game(game_id: str) -> dict[str, int]:
    """Delete an unstarted or aborted game and every row that refers to it, in one transaction
    (its mail not yet sent included: nobody is invited to a game that is gone); what was deleted.

    The game's row is locked first: on PostgreSQL a concurrent first decision waits for the
    lock (an event's foreign key locks its game's row) and then finds no game, and a decision
    made just before is seen by the check."""
    with transaction():
        db.session.execute(select(Game.id).where(Game.id == game_id).with_for_update())
        _check_deletable(game_id)
        counts = _counts(game_id)
        for model, column in TABLES:
            db.session.execute(delete(model).where(column == game_id)
                               .execution_options(synchronize_session=False))
    return counts


def _check_deletable(game_id: str) -> None:
    if not gamelog.GAME_ID.fullmatch(game_id) or db.session.get(Game, game_id) is None:
        raise NotFound(f"There is no game {game_id}.")
    last = db.session.scalar(select(Event.type).where(Event.game_id == game_id)
                             .order_by(Event.seq.desc()).limit(1))
    if last not in (None, ABORT):
        raise NotDeletable(f"Game {game_id} was played and not aborted: abort it first, or keep "
                           "it (only unstarted or aborted games may be deleted).")


def _counts(game_id: str) -> dict[str, int]:
    return {model.__tablename__: db.session.scalar(select(func.count()).select_from(model)
                                                   .where(column == game_id)) or 0
            for model, column in TABLES}


# -- signing in --------------------------------------------------------------------------

SIGN_IN_MAX_AGE = 3600   # seconds a sign-in link works


def mail_sign_in(address: str) -> None:
    """Mail the operator a sign-in link, if `address` is ADMIN_EMAIL (at most limits.SIGN_IN in
    an hour, quietly). Whoever asks learns nothing: the answer is the same for any address."""
    admin = current_app.config.get("ADMIN_EMAIL") or ""
    given = (address or "").strip().lower()
    if not admin or not hmac.compare_digest(given.encode(), admin.encode()):
        return
    with transaction():
        if limits.allow(limits.SIGN_IN, admin):
            notify.sign_in(admin, links.url_of(links.SIGN_IN, admin), SIGN_IN_MAX_AGE // 60)


def signed_in_address(token: str) -> str:
    """The address a sign-in link was mailed to, if it is still the operator's; LinkTampered or
    LinkExpired otherwise (changing ADMIN_EMAIL kills the links mailed to the old one)."""
    address = links.unsign(links.SIGN_IN, token, SIGN_IN_MAX_AGE)
    admin = current_app.config.get("ADMIN_EMAIL") or ""
    if not (isinstance(address, str) and admin and hmac.compare_digest(address.encode(), admin.encode())):
        raise LinkTampered()
    return address


# -- as JSON (stable: docs/operators.md documents every field) ------------------------------------

def iso(moment: datetime | None) -> str | None:
    """A moment as JSON writes it: ISO 8601 in UTC, to the second."""
    if moment is None:
        return None
    return deadlines.utc(moment).replace(microsecond=0).isoformat()


def summary_json(s: Summary) -> dict:
    return {
        "id": s.id, "kind": s.kind, "title": s.title, "created": iso(s.created),
        "state": s.state, "events": s.events, "last_activity": iso(s.last_activity),
        "players": [asdict(p) for p in s.players],
        "waiting": [{**asdict(w), "since": iso(w.since), "deadline": iso(w.deadline)}
                    for w in s.waiting],
        "stalled": [asdict(x) for x in s.stalled],
        "result": s.result and {**asdict(s.result), "winners": list(s.result.winners),
                                "at": iso(s.result.at)},
        "deletable": s.deletable,
    }


def detail_json(d: Detail) -> dict:
    out = summary_json(d.summary)
    for player in out["players"]:
        player["seat_link"] = d.seat_links[player["seat"]]
    for wait in out["waiting"]:
        wait["turn_link"] = d.turn_links[wait["seat"]]
    out.update({
        "options": d.options, "time_limit_days": d.time_limit_days, "record_link": d.record_link,
        "mails": [{**asdict(m), "created": iso(m.created), "sent": iso(m.sent)} for m in d.mails],
    })
    return out


def rebuild_dues(progress=None) -> int:
    """Rewrite the index of what is due for every running game from the logs (after a change
    of REMIND_AFTER_HOURS or REMIND_BEFORE_HOURS, or when `verify` finds rows that disagree),
    a thousand games a transaction; how many games."""
    running = db.session.scalars(select(Game.id).where(
        ~select(GameResult.game_id).where(GameResult.game_id == Game.id).exists())
        .order_by(Game.id)).all()
    with transaction():   # finished games owe nothing: their rows go at once
        db.session.execute(delete(Due).where(Due.game_id.not_in(select(Game.id).where(
            ~select(GameResult.game_id).where(GameResult.game_id == Game.id).exists())))
            .execution_options(synchronize_session=False))
    for start in range(0, len(running), 1000):
        with transaction():
            due.refresh(running[start:start + 1000])
        if progress is not None:
            progress(min(start + 1000, len(running)))
    return len(running)


def background(now: datetime) -> tuple[deliver.Outbox, due.Backlog]:
    """What the background work has before it: the outbox, and the index of what is due."""
    return deliver.outbox(now), due.backlog(now)


def job_queues() -> list[jobqueue.Queue] | None:
    """The job engine's queues (None on SQLite, where one process loops over the work)."""
    return jobqueue.queues() if jobqueue.kept() else None


def failed_jobs() -> list[jobqueue.FailedJob]:
    return jobqueue.failed() if jobqueue.kept() else []


def retry_jobs(job_ids: list[int] | None = None, now: datetime | None = None) -> int:
    """Put failed jobs back in their queues, due now (all of them when `job_ids` is None);
    how many."""
    if not jobqueue.kept():
        return 0
    with transaction():
        return jobqueue.retry(jobqueue.all_failed() if job_ids is None else job_ids,
                              now or utcnow())
