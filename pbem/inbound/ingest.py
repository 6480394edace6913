"""Mail replies as moves: one RFC 822 message in, at most one decision (or answer) out.

A valid reply is a decision like a web submission: it goes through `turns.submit`, the same
path with the same checks, event and mails (plus a turn mail to the replier if he owes the
next decision, since no page takes him there). An invalid one is answered with the failing
step and its sentence. A reply whose token is stale, or that comes from another address than
the seat's, is refused to the seat's own address only (`inbox.refuse`); one whose token is
forged or missing names no seat and is dropped unanswered: its From may be forged, and
answering it would mail a stranger. Bounces of our own mail (to their VERP address) mark that
mail failed. Other automatic mail (vacation notices, lists) is ignored, so two robots never
talk forever. Each message is recorded by its Message-ID, in the same transaction as its
effect: the same message applies once.

No single message can stop ingest: one that cannot be read (too large, nested too deeply,
or that breaks the parser) is quarantined and the next one is read. Only the database being
unreachable stops it (`Transient`): the MTA keeps the message and tries again.
"""

from __future__ import annotations

import email.policy
import hashlib
import logging
import re
from dataclasses import dataclass
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.utils import parseaddr

from sqlalchemy.exc import InterfaceError, OperationalError

from pbem.errors import AlreadySubmitted, BadInput, NotFound, RateLimited, SeatLeft
from pbem.games.errors import GameError
from pbem.games.phrases import phrase
from pbem.inbound import maildir
from pbem.inbound.bounded import Unreadable, capped, parse
from pbem.mail.bounces import Complaint, bounced_mail_id, complaint, failures
from pbem.mail.replies import RECIPIENT_HEADERS, find_token, read_token, reply_steps
from pbem.play import inbox, turns
from pbem.players import messages
from pbem.store import gamelog

log = logging.getLogger(__name__)

_MESSAGE_ID = re.compile(r"<[!-;=?-~]{1,198}>")   # printable ASCII that fits mails.in_reply_to
STALE = phrase("this turn was already submitted (or the game moved on); your latest turn mail "
               "has the current link.")
NOT_HIS = phrase("it was not sent from the address that plays this seat.")


#: The database cannot be reached, or timed out: nothing was decided, so try again later.
DATABASE_AWAY = (OperationalError, InterfaceError)


class Transient(Exception):
    """The message could not be handled now (the database is away): try it again later."""


@dataclass
class Result:
    status: str   # applied, said, failed, refused, dropped, ignored, bounce, complaint, quarantined,
    #               duplicate
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


def ingest_bytes(raw: bytes, recipients=()) -> Result:
    """Handle one message, committing what it did (or recorded), and say what happened.

    Raises Transient when the database cannot be reached; any other failure to read the
    message quarantines it, so that it stops nothing else.
    """
    try:
        return _handle(raw, recipients)
    except DATABASE_AWAY as error:
        raise Transient(f"the database cannot be reached: {type(error.orig).__name__}") from None
    except Exception as error:   # a message we cannot read must not stop the ones after it
        log.exception("quarantining a mail that broke ingest")
        return _quarantine(raw, f"could not be read ({type(error).__name__})")


def _quarantine(raw: bytes, reason: str, msg: EmailMessage | None = None) -> Result:
    sender, subject = _sender_and_subject(raw, msg)
    try:
        row = inbox.quarantine(raw, reason, sender, subject)
    except DATABASE_AWAY as error:
        raise Transient(f"the database cannot be reached: {type(error.orig).__name__}") from None
    return Result("quarantined", f"#{row.id}: {reason}")


#: How much of a message's start is read for its sender and subject when it cannot be parsed
#: whole (too large, nested too deeply, or a failure while it was handled).
HEADER_BYTES = 64 * 1024


def _sender_and_subject(raw: bytes, msg: EmailMessage | None) -> tuple[str, str]:
    """Who sent a quarantined message and its subject, for the operator's list: from the parsed
    message, else from its header block alone (a message too large or too deep to parse has
    headers that read fine)."""
    for source in (msg, None):
        try:
            if source is None:
                head = re.split(rb"\r?\n\r?\n", raw[:HEADER_BYTES], maxsplit=1)[0]
                source = BytesHeaderParser(policy=email.policy.default).parsebytes(head)
            sender = parseaddr(str(source.get("From", "")))[1]
            subject = " ".join(str(source.get("Subject", "")).split())   # one line
        except Exception:   # whatever a broken header raises: the raw bytes are kept anyway
            continue
        if sender or subject:
            return sender, subject
    return "", ""


def _handle(raw: bytes, recipients) -> Result:
    try:
        msg = parse(raw)
    except Unreadable as error:
        return _quarantine(raw, str(error))
    if not readable(msg):
        key = hashlib.sha256(raw).hexdigest()
        if inbox.seen(key):
            return Result("duplicate", "this message was ingested before")
        inbox.record(key, "", "ignored")
        return Result("ignored", "unreadable headers")
    key = message_key(msg, raw)
    if inbox.seen(key):
        return Result("duplicate", "this message was ingested before")
    try:
        return _ingest(msg, key, recipients)
    except AlreadySubmitted:   # lost a race: to another ingest of this message, or to a click
        if inbox.seen(key):
            return Result("duplicate", "this message was ingested before")
        return _ingest(msg, key, recipients)   # now it reads as stale


def _ingest(msg: EmailMessage, key: str, recipients) -> Result:
    sender = parseaddr(msg.get("From", ""))[1].lower()
    bounced = bounced_mail_id(msg, recipients)
    report = complaint(msg)
    if report is not None:
        reported = bounced_mail_id(msg, [*recipients, report.return_path or ""])
        return _complaint(key, sender, report, reported)
    if bounced is not None:
        return _bounce(msg, key, sender, bounced)
    if automatic(msg):
        inbox.record(key, sender, "ignored")
        return Result("ignored", "automatic mail")
    token = find_token(msg, recipients)
    ref = read_token(token) if token else None
    if ref is None:
        inbox.drop(key, sender, "no seat's token")
        return Result("dropped", "its address does not belong to a turn of any game")
    try:
        loaded = gamelog.load(ref.game_id)
    except NotFound:
        inbox.drop(key, sender, "no such game")
        return Result("dropped", "its game does not exist")
    if not 0 <= ref.seat < len(loaded.seats):
        inbox.drop(key, sender, "no such seat")
        return Result("dropped", "its game has no such seat")
    if loaded.over:
        # Nothing can be played any more, and what comes now ("good game!") is a word for the
        # other players, not a move: no answer (the game-over mail said how it ended).
        inbox.record(key, sender, "ignored", loaded.id)
        return Result("ignored", "its game is over", loaded.id)
    message_id = answerable_id(msg)
    if gamelog.address_of(loaded.id, ref.seat) != sender:
        return _refuse(key, sender, loaded.id, ref.seat, NOT_HIS, message_id)
    text, said = messages.from_reply(capped(reply_steps(msg)))
    if said and not text:   # words on their own: said whatever the point of the game
        try:
            messages.say(loaded.id, ref.seat, said,
                         receipt=inbox.receipt(key, sender, "said", loaded.id))
        except (BadInput, RateLimited, SeatLeft) as error:   # (a player who left: refused)
            return _refuse(key, sender, loaded.id, ref.seat, error.message, message_id)
        return Result("said", said[:60], loaded.id)
    origin = turns.Origin(turns.MAIL, receipt=inbox.receipt(key, sender, "applied", loaded.id))
    try:
        after = turns.submit(loaded.id, ref.seat, ref.seq, text, origin, message=said)
    except (messages.MessageTooLong, RateLimited) as error:
        if not said:
            raise
        return _refuse(key, sender, loaded.id, ref.seat, error.message, message_id)
    except SeatLeft as error:   # he left the game: his replies act no more
        return _refuse(key, sender, loaded.id, ref.seat, error.message, message_id)
    except AlreadySubmitted:
        return _refuse(key, sender, loaded.id, ref.seat, STALE, message_id)
    except turns.TooLate:
        return Result("refused", "the time for this turn ran out", loaded.id)
    except GameError as error:
        inbox.failed(key, sender, loaded.id, ref.seat, error, text, message_id)
        return Result("failed", str(error), loaded.id)
    move = loaded.engine.notation(after.recent[-1], ref.seat)
    inbox.confirm_reply(after, ref.seat, sender, move, message_id)   # if he asked for it
    return Result("applied", move, loaded.id)


def _refuse(key: str, sender: str, game_id: str, seat: int, reason: str,
            message_id: str | None) -> Result:
    answered = inbox.refuse(key, sender, game_id, seat, reason, message_id)
    return Result("refused", reason + ("" if answered else " (not answered: too many lately)"),
                  game_id)


def _complaint(key: str, sender: str, report: Complaint, mail_id: int | None) -> Result:
    if mail_id is None:   # (no bounce address of ours, or a forged one: nobody is silenced)
        inbox.record(key, sender, "ignored")
        return Result("ignored", "a spam report naming no mail of ours")
    mail = inbox.complaint(key, sender, mail_id, report.feedback_type)
    if mail is None:
        return Result("ignored", f"a spam report about mail #{mail_id}, which is gone")
    return Result("complaint", f"{mail.to_addr} reported mail #{mail_id} as {report.feedback_type}: "
                               "it is never mailed again", mail.game_id)


def _bounce(msg: EmailMessage, key: str, sender: str, mail_id: int) -> Result:
    found = failures(msg)
    if not found:   # a delay notice, or a vacation reply sent to the envelope sender
        inbox.record(key, sender, "ignored")
        return Result("ignored", "automatic mail to a bounce address")
    mail = inbox.bounce(key, sender, mail_id, found[0])
    where = mail.game_id if mail is not None else None
    return Result("bounce", f"mail #{mail_id} {found[0]}", where)


def ingest_maildir(path: str, recipients=()) -> list[Result]:
    """Every message not yet seen in a Maildir folder, in order of delivery; each is then marked
    seen (moved to cur/), or moved into the folder's .Quarantine subfolder when unreadable.
    Stops at the first Transient failure, leaving that message and the rest unseen.

    The folder is read as files (maildir.py), not through the mailbox module, which parses
    every message to read its flags: the message that cannot be parsed would stop the loop.
    """
    results = []
    for message in maildir.unseen(path):
        result = ingest_bytes(message.read(), recipients)
        results.append(result)
        if result.status == "quarantined":
            message.move_to_quarantine()
        else:
            message.mark_seen()
    return results
