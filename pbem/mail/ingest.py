"""Mail replies as moves: one RFC 822 message in, at most one event out.

A valid reply is applied exactly as a web submission (same checks, same
event, same mails, plus a turn mail to the replier if he owes the next
decision, since no page takes him there). An invalid one is answered with the
failing step and its sentence. A reply whose token is stale or forged, or that
comes from an address that does not play the seat, gets a short refusal.
Automatic mail (bounces, vacation notices) is ignored without an answer, so
two robots never talk forever. Each message is recorded by its Message-ID,
in the same transaction as its effect: the same message applies once.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import mailbox
import re
from dataclasses import dataclass
from datetime import timedelta
from email.message import EmailMessage
from email.utils import parseaddr

from sqlalchemy import func, select

from .. import reminders, store
from ..errors import AlreadySubmitted, NotFound
from ..extensions import db
from ..games.errors import GameError
from ..models import Inbound, RateEvent, utcnow
from . import notify
from .replies import RECIPIENT_HEADERS, find_token, read_token, reply_steps

REFUSALS_PER_SENDER_PER_HOUR = 5
MAX_ADDRESS = 254     # RFC 5321; and the columns that hold an address
_MESSAGE_ID = re.compile(r"<[!-;=?-~]{1,198}>")   # printable ASCII that fits mails.in_reply_to
STALE = ("this turn was already submitted (or the game moved on); your latest turn mail has "
         "the current link.")


@dataclass
class Result:
    status: str          # applied, failed, refused, ignored, duplicate
    detail: str = ""
    game_id: str | None = None

    def __str__(self) -> str:
        where = f" (game {self.game_id})" if self.game_id else ""
        return f"{self.status}{where}: {self.detail}" if self.detail else self.status + where


def message_key(msg: EmailMessage, raw: bytes) -> str:
    ident = (msg.get("Message-ID") or "").strip()
    return hashlib.sha256(ident.encode() if ident else raw).hexdigest()


def answerable_id(msg: EmailMessage) -> str | None:
    """The Message-ID an answer may name in In-Reply-To: not one with an encoded CR or LF
    (no mail could be composed with it) or too long to keep."""
    ident = str(msg.get("Message-ID") or "").strip()
    return ident if _MESSAGE_ID.fullmatch(ident) else None


def readable(msg: EmailMessage) -> bool:
    """The email package refuses to read some address headers (an encoded CR or LF in a name):
    such a message is nobody's reply. It is ignored, not left to fail on every run."""
    try:
        for header in ("From", "Message-ID", *RECIPIENT_HEADERS):
            msg.get_all(header)
    except Exception:   # whatever the header parser raises
        return False
    return True


def automatic(msg: EmailMessage) -> bool:
    """Bounces, auto-replies and lists: never answered."""
    sender = parseaddr(msg.get("From", ""))[1].lower()
    return ((msg.get("Auto-Submitted", "no").strip().lower() != "no")
            or msg.get("Precedence", "").strip().lower() in ("bulk", "junk", "list")
            or msg.get("X-Autoreply") is not None or msg.get("X-Autorespond") is not None
            or msg.get("Return-Path", "").strip() == "<>"
            or sender.startswith(("mailer-daemon@", "postmaster@")) or not sender
            or msg.get_content_type() == "multipart/report")


def _record(key: str, sender: str, result: Result) -> Result:
    db.session.add(Inbound(key=key, game_id=result.game_id, sender=sender[:254], result=result.status))
    return result


def _refuse(key: str, sender: str, reason: str, message_id: str | None, game_id=None) -> Result:
    """Answer a refusal, unless this sender has had many lately (no mail loops)."""
    since = utcnow() - timedelta(hours=1)
    recent = db.session.scalar(select(func.count()).select_from(RateEvent).where(
        RateEvent.key == f"refusal:{sender}", RateEvent.at >= since))
    if recent < REFUSALS_PER_SENDER_PER_HOUR and len(sender) <= MAX_ADDRESS:   # else: no address
        db.session.add(RateEvent(key=f"refusal:{sender}"))
        notify.reply_refused(sender, reason, message_id)
    return _record(key, sender, Result("refused", reason, game_id))


def ingest_bytes(raw: bytes, recipients=()) -> Result:
    """Apply one message; commits what it did (or recorded) and returns it."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    ok = readable(msg)
    key = message_key(msg, raw) if ok else hashlib.sha256(raw).hexdigest()
    if db.session.get(Inbound, key) is not None:
        return Result("duplicate", "this message was ingested before")
    if not ok:
        result = _record(key, "", Result("ignored", "unreadable headers"))
        store.commit()
        return result
    try:
        result = _ingest(msg, key, recipients)
        store.commit()
    except AlreadySubmitted:   # lost a race: to another ingest of this message, or to a click
        db.session.rollback()
        if db.session.get(Inbound, key) is not None:
            return Result("duplicate", "this message was ingested before")
        sender = parseaddr(msg.get("From", ""))[1].lower()
        result = _refuse(key, sender, STALE, answerable_id(msg))
        store.commit()
    return result


def _ingest(msg: EmailMessage, key: str, recipients) -> Result:
    sender = parseaddr(msg.get("From", ""))[1].lower()
    message_id = answerable_id(msg)
    if automatic(msg):
        return _record(key, sender, Result("ignored", "automatic mail"))
    token = find_token(msg, recipients)
    ref = read_token(token) if token else None
    if ref is None:
        return _refuse(key, sender, "its address does not belong to a turn of any game.", message_id)
    try:
        loaded = store.load(ref.game_id)
    except NotFound:
        return _refuse(key, sender, "its game does not exist.", message_id)
    if not 0 <= ref.seat < len(loaded.seats) or loaded.seats[ref.seat].email != sender:
        return _refuse(key, sender, "it was not sent from the address that plays this seat.",
                       message_id, loaded.id)
    if loaded.seq != ref.seq or loaded.owed(ref.seat) is None:
        return _refuse(key, sender, STALE, message_id, loaded.id)
    if reminders.expired(loaded, ref.seat):
        reminders.time_out(loaded, ref.seat)
        return _record(key, sender, Result("refused", "the time for this turn ran out", loaded.id))
    text = reply_steps(msg)
    try:
        event = loaded.engine.decide(loaded.state, ref.seat, text)
    except GameError as error:
        notify.reply_failed(loaded, ref.seat, error, text, message_id)
        return _record(key, sender, Result("failed", str(error), loaded.id))
    after = store.append(loaded, event)
    notify.event_appended(after, ref.seat, by_mail=True)
    return _record(key, sender, Result("applied", loaded.engine.notation(event, ref.seat), loaded.id))


def ingest_maildir(path: str, recipients=()) -> list[Result]:
    """Every message not yet seen in a Maildir folder; each is then marked seen (moved to cur/)."""
    box = mailbox.Maildir(path, factory=None, create=False)
    results = []
    unseen = [(m.get_date(), key, m) for key, m in ((k, box.get_message(k)) for k in box.keys())
              if "S" not in m.get_flags()]
    for _, key, message in sorted(unseen, key=lambda item: item[:2]):   # in order of arrival
        results.append(ingest_bytes(box.get_bytes(key), recipients))
        message.set_subdir("cur")
        message.add_flag("S")
        box[key] = message
    return results
