"""The sender: works the outbox until nothing is due.

Each mail is claimed in its own transaction (on PostgreSQL with
`FOR UPDATE SKIP LOCKED`, so several senders never take the same row), sent,
and marked sent; a transient failure schedules a retry with exponential
backoff (capped), a permanent one or too many attempts marks it failed. Mails
to one address go out in the order they were written: a mail waits while an
older one to the same address is still pending.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from flask import current_app
from sqlalchemy import Row, and_, exists, func, select, update
from sqlalchemy.orm import aliased

from pbem.extensions import db
from pbem.mail import signing
from pbem.mail.bounces import bounce_address
from pbem.mail.compose import OPERATOR_KINDS, to_message
from pbem.mail.transport import DeliveryFailure, from_url
from pbem.policy.deadlines import utc
from pbem.store.models import FAILED, PENDING, SENT, SUPPRESSED, Mail, Suppression, undelivered, utcnow
from pbem.store.transaction import changed, transaction

BACKOFF_FIRST = timedelta(seconds=30)
BACKOFF_CAP = timedelta(hours=2)
CLAIM_LEASE = timedelta(minutes=10)   # without row locks (SQLite): how long a claim holds a mail


@dataclass
class Report:
    sent: int = 0
    retrying: int = 0
    failed: int = 0


def backoff(attempts: int) -> timedelta:
    return min(BACKOFF_CAP, BACKOFF_FIRST * (1 << max(0, attempts - 1)))


def _claim(now: datetime, skip: set[int]) -> Mail | None:
    older = aliased(Mail)
    waiting = exists().where(and_(older.to_addr == Mail.to_addr, older.status == PENDING,
                                  older.id < Mail.id))
    query = (select(Mail).where(Mail.status == PENDING, Mail.next_attempt_at <= now, ~waiting)
             .order_by(Mail.id).limit(1))
    if skip:
        query = query.where(Mail.id.not_in(skip))
    mail: Mail | None = claim(Mail, query, now, skip)
    return mail


def claim(row: Any, query: Any, now: datetime, skip: set[int]) -> Any:
    """The first row of `query` (rows of `row`'s outbox table: pending and due), claimed for
    this sender, for the mail and the channels' notices (`pbem.mail.channel_send`) alike: on
    PostgreSQL locked for the caller's transaction (SKIP LOCKED: the next sender takes the
    next row); on SQLite, which has no row locks, leased by moving its next attempt past
    CLAIM_LEASE in one conditional UPDATE: of two senders that found the same row, only one
    moves it, and the other (`skip`) looks further."""
    if db.engine.dialect.name == "postgresql":
        return db.session.scalars(query.with_for_update(skip_locked=True, of=row)).first()
    while (found := db.session.scalars(query).first()) is not None:
        with transaction():   # the lease holds from now, whatever the sending takes
            claimed = db.session.execute(
                update(row).where(row.id == found.id, row.status == PENDING,
                                  row.next_attempt_at <= now)
                .values(next_attempt_at=utc(now) + CLAIM_LEASE)
                .execution_options(synchronize_session=False))
        if changed(claimed) == 1:
            return found
        skip.add(found.id)   # another sender took it
        query = query.where(row.id != found.id)
    return None


def deliver_due(transport=None, now: datetime | None = None, limit: int = 1000) -> Report:
    """Send every mail that is due; returns what happened."""
    transport = transport or from_url(current_app.config["MAIL_URL"])
    report, tried = Report(), set[int]()
    for _ in range(limit):
        if not _deliver_next(transport, now or utcnow(), tried, report):
            break
    db.session.remove()
    return report


def _deliver_next(transport, moment: datetime, tried: set[int], report: Report) -> bool:
    """Claim the next due mail, send it and record how it went, in one transaction (on
    PostgreSQL the claim's row lock holds while it is sent); False when none is due."""
    with transaction():
        mail = _claim(moment, tried)
        if mail is None:
            return False
        tried.add(mail.id)
        _send(mail, transport, moment, report)
    return True


def _send(mail: Mail, transport, moment: datetime, report: Report) -> None:
    # Asked never to be mailed again (maybe after it was queued); the operator's own sign-in
    # link goes all the same: an operator who unsubscribed could never sign in to undo it.
    if mail.kind not in OPERATOR_KINDS and _suppressed(mail.to_addr):
        mail.status, mail.last_error = SUPPRESSED, "the address asked never to be mailed again"
        return
    mail.attempts += 1
    try:
        message = to_message(mail)
        signing.sign(message)
    except Exception as error:   # a mail that cannot be composed must not block the outbox
        mail.status, mail.last_error = FAILED, f"cannot compose: {error}"[:2000]
        report.failed += 1
        return
    try:
        transport.send(message, bounce_address(mail.id))
    except DeliveryFailure as failure:
        mail.last_error = str(failure)[:2000]
        if failure.permanent or mail.attempts >= current_app.config["MAIL_RETRY_LIMIT"]:
            mail.status = FAILED
            report.failed += 1
        else:
            mail.next_attempt_at = utc(moment) + backoff(mail.attempts)
            report.retrying += 1
    else:
        mail.status, mail.sent_at, mail.last_error = SENT, utcnow(), None
        report.sent += 1


def retry_failed(now: datetime | None = None) -> int:
    """Put every failed mail back in the queue, due now; returns how many."""
    with transaction():
        failed = db.session.scalars(select(Mail).where(Mail.status == FAILED)).all()
        for mail in failed:
            mail.status, mail.attempts, mail.next_attempt_at = PENDING, 0, now or utcnow()
    return len(failed)


def status() -> dict:
    """How many mails are pending, sent, failed and suppressed (never sent: the address asked
    never to be mailed again), and the failed ones."""
    counts = dict(db.session.execute(select(Mail.status, func.count()).group_by(Mail.status)).all())
    failed = db.session.scalars(select(Mail).where(Mail.status == FAILED).order_by(Mail.id)).all()
    return {"counts": {s: counts.get(s, 0) for s in (PENDING, SENT, FAILED, SUPPRESSED)},
            "failed": failed}


@dataclass(frozen=True)
class Outbox:
    """The outbox as the operator watches it: what waits to be sent, since when."""
    due: int                      # pending mails whose (next) attempt is due now
    later: int                    # pending mails waiting for a retry's backoff
    oldest_due: datetime | None   # the longest waiting due mail's moment
    failed: int


def outbox(now: datetime) -> Outbox:
    pending = Mail.status == PENDING
    ask = db.session.scalar
    oldest = ask(select(func.min(Mail.next_attempt_at)).where(pending, Mail.next_attempt_at <= now))
    return Outbox(_count(pending, Mail.next_attempt_at <= now),
                  _count(pending, Mail.next_attempt_at > now),
                  utc(oldest) if oldest is not None else None,
                  _count(Mail.status == FAILED))


def _count(*where) -> int:
    return db.session.scalar(select(func.count()).select_from(Mail).where(*where)) or 0


def failed_for_game(game_id: str) -> list[Row[tuple[str, str]]]:
    """The game's mail that will not arrive (failed, bounced or suppressed): each one's
    `to_name` and `subject`, what pages show of it (not its whole text)."""
    return list(db.session.execute(select(Mail.to_name, Mail.subject).where(
        Mail.game_id == game_id, undelivered(Mail.status)).order_by(Mail.id)))


def _suppressed(address: str) -> bool:
    return db.session.get(Suppression, address.strip().lower()) is not None
