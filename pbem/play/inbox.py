"""The use cases of incoming mail that is not a decision: answers, bounces and quarantine.

Each records the message (by its key, so the same message is handled once) together with its
effect, in one transaction. A decision that arrives by mail goes through `turns.submit` with
the message's receipt instead.

Answers never go to a message's From (which anybody can forge: answering it would make us
mail strangers, "backscatter"): only to the address that plays the seat the message's signed
token names, at most REFUSALS_PER_ADDRESS_PER_HOUR to one address and REFUSALS_PER_HOUR in
all. A message that names no seat is dropped and logged.
"""

from __future__ import annotations

import logging

from sqlalchemy import select

from pbem.extensions import db
from pbem.games.errors import GameError
from pbem.mail import notify
from pbem.mail.bounces import Failure
from pbem.players import settings
from pbem.policy import limits
from pbem.store import gamelog
from pbem.store.models import FAILED, Inbound, Mail, Quarantined, Suppression, utcnow
from pbem.store.transaction import transaction

log = logging.getLogger(__name__)

#: How much of a quarantined message is kept for the operator.
QUARANTINE_KEEP = 256 * 1024


def receipt(key: str, sender: str, result: str, game_id: str | None = None) -> Inbound:
    """The record of one incoming message (added with its effect, in its transaction)."""
    return Inbound(key=key, game_id=game_id, sender=sender[:254], result=result)


def seen(key: str) -> bool:
    return db.session.get(Inbound, key) is not None


def record(key: str, sender: str, result: str, game_id: str | None = None) -> None:
    """A message handled without an answer (ignored, dropped)."""
    with transaction():
        db.session.add(receipt(key, sender, result, game_id))


def refuse(key: str, sender: str, game_id: str, seat: int, reason: str,
           message_id: str | None) -> bool:
    """Answer a reply that cannot act, to the seat's own address, within the budgets; whether
    an answer was queued."""
    with transaction():
        db.session.add(receipt(key, sender, "refused", game_id))
        address = gamelog.address_of(game_id, seat)
        answered = (limits.allow(limits.REFUSALS_ADDRESS, address)
                    and limits.allow(limits.REFUSALS_ALL, "*"))
        if answered:
            notify.reply_refused(gamelog.load(game_id), seat, reason, message_id)
        else:
            log.info("refusal to %s for game %s not sent: over the budget", address, game_id)
    return answered


def drop(key: str, sender: str, reason: str) -> None:
    """A message that names no seat of ours: nobody is answered (its From may be forged)."""
    log.info("dropped mail from %r: %s", sender[:254], reason)
    record(key, sender, "dropped")


def failed(key: str, sender: str, game_id: str, seat: int, error: GameError, text: str,
           message_id: str | None) -> None:
    """A reply that is not a legal decision: the step and its sentence, to the seat."""
    with transaction():
        db.session.add(receipt(key, sender, "failed", game_id))
        notify.reply_failed(gamelog.load(game_id), seat, error, text, message_id)


def quarantine(raw: bytes, reason: str, sender: str = "", subject: str = "") -> Quarantined:
    """Keep a message that cannot be read for the operator, so that it stops nothing else."""
    log.warning("quarantined a mail of %d bytes from %r: %s", len(raw), sender[:254], reason)
    with transaction():
        row = Quarantined(reason=reason[:300], sender=sender[:254], subject=subject[:300],
                          size=len(raw), raw=raw[:QUARANTINE_KEEP])
        db.session.add(row)
    return row


def quarantined(limit: int = 200) -> list[Quarantined]:
    return list(db.session.scalars(select(Quarantined).order_by(Quarantined.id.desc()).limit(limit)))


def quarantined_message(message_id: int) -> Quarantined | None:
    return db.session.get(Quarantined, message_id)


def bounce(key: str, sender: str, mail_id: int, failure: Failure) -> Mail | None:
    """A remote server says one of our mails could not be delivered: it is marked failed (shown
    where failed mail is shown), and the other players of its game are told, once a day."""
    with transaction():
        mail = db.session.get(Mail, mail_id)
        db.session.add(receipt(key, sender, "bounce", mail.game_id if mail else None))
        if mail is None:
            return None
        mail.status, mail.last_error = FAILED, str(failure)
        if mail.game_id is not None and mail.seat is not None:
            _tell_others(mail.game_id, mail.seat)
    return mail


def complaint(key: str, sender: str, mail_id: int, feedback_type: str) -> Mail | None:
    """A recipient reported one of our mails as spam (a provider's feedback loop): his address
    is never mailed again, as if he had unsubscribed; the operator sees it among the addresses
    never mailed, with the reason. None when the mail is gone."""
    with transaction():
        mail = db.session.get(Mail, mail_id)
        db.session.add(receipt(key, sender, "complaint", mail.game_id if mail else None))
        if mail is None:
            return None
        address = mail.to_addr.strip().lower()
        if db.session.get(Suppression, address) is None:
            db.session.add(Suppression(address=address, reason=f"spam report ({feedback_type})"[:32],
                                       created_at=utcnow()))
    return mail


def _tell_others(game_id: str, seat: int) -> None:
    if limits.allow(limits.UNREACHABLE, f"{game_id}.{seat}"):
        loaded = gamelog.load(game_id)
        if not loaded.over:
            notify.unreachable(loaded, seat)


def confirm_reply(after: gamelog.Loaded, seat: int, address: str, move: str,
                  message_id: str | None) -> bool:
    """A short answer in the game's thread to a move mailed in (In-Reply-To and References name
    his reply), if his address asked for it; whether one was queued. Its own transaction
    after the move's: a confirmation that fails to be written never undoes a move."""
    if not settings.of(address).confirm_replies:
        return False
    with transaction():
        notify.reply_applied(after, seat, move, message_id)
    return True
