"""Bounces: every mail goes out with its own envelope sender, so a bounce names the mail.

A mail's envelope sender (MAIL FROM, where a remote server sends its delivery status
notification) is the reply address with a signed token for that mail plus-addressed in:
`turns+bounce-<id>-<mac>@host` (VERP). The reply mailbox is piped to `ingest` anyway, so
bounces arrive there too, and need no setup of their own.

Only a delivery status notification (RFC 3464: multipart/report; report-type=delivery-status)
whose recipient's action is "failed" marks a mail failed. A spam complaint a provider's
feedback loop sends (ARF, RFC 5965: report-type=feedback-report) is read too, wherever it
arrives: it names our mail by its bounce address, the envelope it came to or the Return-Path of
the copy it carries (signed, so a forged report cannot silence anybody).
Anything else arriving at a bounce address (a "delayed" notice, a vacation reply, which RFC
3834 sends to the envelope sender) is ignored.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from email.message import EmailMessage, Message
from email.parser import HeaderParser
from email.utils import parseaddr

from flask import current_app

from pbem.mail.replies import RECIPIENT_HEADERS, _b32, _keys

_BOUNCE = re.compile(r"\+bounce-([0-9]{1,12})-([a-z2-7]{16})@", re.IGNORECASE)
MAC_BYTES = 10


def _mac(key: str, mail_id: int) -> str:
    return _b32(hmac.new(key.encode(), f"pbem-bounce:{mail_id}".encode(),
                         hashlib.sha256).digest()[:MAC_BYTES])


def bounce_address(mail_id: int) -> str:
    """The envelope sender for one mail: `local+bounce-ID-MAC@domain` of the reply address."""
    config = current_app.config
    base = config.get("REPLY_ADDRESS") or parseaddr(config["MAIL_FROM"])[1] or "pbem@localhost"
    local, _, domain = base.partition("@")
    return f"{local}+bounce-{mail_id}-{_mac(_keys()[0], mail_id)}@{domain}"


def bounced_mail_id(msg: EmailMessage, recipients=()) -> int | None:
    """The id of our mail a message is addressed back to (its bounce address), if any."""
    addresses = list(recipients)
    for header in RECIPIENT_HEADERS:
        addresses += [parseaddr(str(value))[1] for value in msg.get_all(header, [])]
    for address in addresses:
        found = _BOUNCE.search(address or "")
        if found:
            mail_id, mac = int(found.group(1)), found.group(2).lower()
            if any(hmac.compare_digest(mac, _mac(key, mail_id)) for key in _keys()):
                return mail_id
    return None


@dataclass(frozen=True)
class Failure:
    """One recipient a delivery status notification says could not be reached."""
    recipient: str
    status: str
    diagnostic: str

    def __str__(self) -> str:
        why = f": {self.diagnostic}" if self.diagnostic else ""
        return f"bounced ({self.status}){why}"[:2000]


def failures(msg: EmailMessage) -> list[Failure]:
    """The failed recipients of a delivery status notification (RFC 3464); [] for anything else."""
    if msg.get_content_type() != "multipart/report":
        return []
    if str(msg.get_param("report-type") or "").lower() != "delivery-status":
        return []
    out = []
    for part in msg.iter_parts():
        if part.get_content_type() != "message/delivery-status":
            continue
        blocks = part.get_payload()
        if not isinstance(blocks, list):
            continue
        for block in blocks[1:]:   # the first block is about the message, the rest per recipient
            failure = _failure(block) if isinstance(block, Message) else None
            if failure is not None:
                out.append(failure)
    return out


def _failure(block: Message) -> Failure | None:
    if str(block.get("Action", "")).strip().lower() != "failed":
        return None
    recipient = str(block.get("Final-Recipient") or block.get("Original-Recipient") or "")
    recipient = recipient.split(";", 1)[-1].strip()
    diagnostic = str(block.get("Diagnostic-Code", "")).split(";", 1)[-1]
    return Failure(recipient, str(block.get("Status", "")).strip()[:20],
                   " ".join(diagnostic.split())[:500])



@dataclass(frozen=True)
class Complaint:
    """A recipient's spam report, as a feedback loop forwards it (RFC 5965)."""
    feedback_type: str          # abuse, fraud, virus, other, ...
    return_path: str | None     # the envelope sender of the reported copy: our bounce address


def complaint(msg: EmailMessage) -> Complaint | None:
    """The complaint an ARF report makes (None: the message is not one)."""
    if msg.get_content_type() != "multipart/report":
        return None
    if str(msg.get_param("report-type") or "").lower() != "feedback-report":
        return None
    fields, copy = None, None
    for part in msg.iter_parts():
        kind = part.get_content_type()
        if kind == "message/feedback-report":
            fields = HeaderParser().parsestr(_text(part))
        elif kind in ("message/rfc822", "text/rfc822-headers"):
            copy = HeaderParser().parsestr(_text(part))
    if fields is None:
        return None
    return_path = parseaddr(str(copy.get("Return-Path", "")))[1] or None if copy is not None else None
    return Complaint(str(fields.get("Feedback-Type", "other")).strip().lower()[:32], return_path)


def _text(part: Message) -> str:
    """A report part's text, whether the parser kept it as text or as a message."""
    payload = part.get_payload()
    if isinstance(payload, list):   # message/* parsed into its message
        first = payload[0] if payload else None
        return first.as_string() if isinstance(first, Message) else ""
    if isinstance(payload, str):
        return payload
    return ""
