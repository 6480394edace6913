"""Reminders and time limits, run from cron or the worker loop (`flask --app pbem remind`).

- A decision whose game has a clock and whose time has run out ends the
  game: `turns.time_out` (a loss for that seat, and the usual mails); unless
  its player has vacation days left: then a vacation starts by itself (every
  clock of his stops) and every player of the game is told.
- A player whose turn has waited REMIND_AFTER_HOURS gets a reminder, and
  again when his time will run out within REMIND_BEFORE_HOURS. All reminders
  due for one address go in one digest, most urgent first, and an address
  gets at most one digest per DIGEST_INTERVAL_HOURS (`limits.DIGEST`).
- Games asked for and never confirmed are forgotten after PROPOSAL_HOURS.
- Leagues whose start date came start (or are cancelled), and those whose games have all
  ended finish (`pbem.play.leagues.tend`).

A round reads only the seats due (`pbem.policy.due`), never every running game, and
rewrites the dues of the games it looked at, so one that needed nothing is not looked at again
before its next moment. Every function takes `now`, so tests move the clock instead of sleeping.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from flask import current_app
from sqlalchemy import select

from pbem import games, i18n
from pbem.extensions import db
from pbem.mail import notify
from pbem.mail.compose import language_for
from pbem.play import challenges, leagues, turns
from pbem.players import settings
from pbem.policy import due, limits, links, rest, vacation
from pbem.policy.deadlines import Waiting, utc, waiting
from pbem.store import gamelog
from pbem.store.models import Reminder, Seat
from pbem.store.transaction import transaction
from pbem.views.words import hours_and_days

WAITING, DEADLINE = due.WAITING, due.DEADLINE


@dataclass
class Report:
    timeouts: list[str] = field(default_factory=list)
    vacations: list[str] = field(default_factory=list)   # games where a vacation saved a seat
    reminded: list[str] = field(default_factory=list)   # addresses


def enforce_time_limits(now: datetime, report: Report, due_now: list[Waiting]) -> None:
    for w in due_now:
        if w.bot or w.deadline is None or now < w.deadline:   # a computer has no clock
            continue
        ended = turns.time_out(w.game.id, w.seat, w.seq, now)
        if isinstance(ended, vacation.Away):
            report.vacations.append(w.game.id)
        elif ended is not None:
            report.timeouts.append(w.game.id)   # (None: the player or another worker was quicker)


def _reminders_due(w: Waiting, now: datetime, after: timedelta, before: timedelta) -> list[str]:
    """The reminders due now, at the moments the dues index holds (`due.reminder_times`: none
    in the player's quiet hours). A round that comes late, in his quiet hours (a worker that was
    down), sends none either: they go at the next round after them."""
    if rest.of(gamelog.address_of(w.game.id, w.seat)).quiet_at(now):
        return []
    return [kind for kind, at in due.reminder_times(w, after, before).items() if at <= now]


def _entry(w: Waiting, seat: Seat, names: list[str], now: datetime,
           mine: settings.Settings) -> dict:
    hours = int((now - w.since).total_seconds() // 3600)
    return {
        "title": games.get(w.game.kind).title,
        "opponents": notify.opponents(w.game.id, w.game.kind, names, w.seat, seat.email),
        "waiting": hours_and_days(hours),
        "deadline": settings.local_deadline(w.deadline, mine),   # in his own time zone
        "urgency": (w.deadline or datetime.max.replace(tzinfo=UTC), w.since),
        "turn_url": links.url(links.TURN, w.game.id, w.seat, w.seq,
                              gamelog.current_nonce(w.game.id, w.seat)),
        "name": seat.name,
    }


def send_reminders(now: datetime, report: Report, due_now: list[Waiting]) -> None:
    after, before = due.windows()
    by_address: dict[str, list] = defaultdict(list)
    for w in due_now:
        if w.bot:
            continue   # computers need no reminding
        sent = due.reminded(w)   # in this turn, discards too
        kinds = [k for k in _reminders_due(w, now, after, before) if k not in sent]
        if kinds:
            seats = db.session.scalars(select(Seat).where(Seat.game_id == w.game.id)
                                       .order_by(Seat.seat)).all()
            by_address[seats[w.seat].email].append((w, kinds, seats))
    for address, waits in by_address.items():
        if remind(address, waits, now):
            report.reminded.append(address)


def remind(address: str, waits: list, now: datetime) -> bool:
    """One digest of the games waiting for an address, unless it had one lately (those wait
    for the next); whether it was sent."""
    with transaction():
        if not limits.allow(limits.DIGEST, address, now):
            return False
        mine = settings.of(address)
        with i18n.speaking(language_for(address, None, None)):   # his deadlines in his words
            entries = sorted((_entry(w, seats[w.seat], [s.name for s in seats], now, mine)
                              for w, _, seats in waits), key=lambda e: e["urgency"])
        notify.reminder(address, entries[0]["name"], entries)
        for w, kinds, _ in waits:
            db.session.add_all(Reminder(game_id=w.game.id, seat=w.seat, seq=w.seq, kind=k,
                                        sent_at=now) for k in kinds)
    return True


def _waiting_in(game_ids: list[str]) -> list[Waiting]:
    return waiting(among=game_ids)


def run(now: datetime | None = None) -> Report:
    """Time limits first (a game that ended needs no reminder), then the reminders."""
    now = utc(now or datetime.now(UTC))
    report = Report()
    looked = due.persons_due(now)
    enforce_time_limits(now, report, _waiting_in(looked))
    send_reminders(now, report, _waiting_in(looked))   # (read again: time-outs ended games)
    for start in range(0, len(looked), 500):
        with transaction():   # those that needed nothing now wait for their next moment
            due.refresh(looked[start:start + 500])
    turns.forget_unconfirmed(now)
    challenges.forget_unconfirmed(now)
    leagues.tend(now)
    with transaction():
        # The digest clock lives among the rate-limit rows: keep them as long as its interval.
        limits.prune(now, timedelta(hours=current_app.config["DIGEST_INTERVAL_HOURS"]))
    return report
