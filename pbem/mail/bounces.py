"""Bounces: every mail goes out with its own envelope sender, so a bounce names the mail.

A mail's envelope sender (MAIL FROM, where a remote server sends its delivery status
notification) is the reply address with a signed token for that mail plus-addressed in:
`turns+bounce-<id>-<mac>@host` (VERP). The reply mailbox is piped to `ingest` anyway, so
bounces arrive there too, and need no setup of their own.

Only a delivery status notification (RFC 3464: multipart/report; report-type=delivery-status)
whose recipient's action is "failed" marks a mail failed. Anything else arriving at a bounce
address (a "delayed" notice, a vacation reply, which RFC 3834 sends to the envelope sender) is
ignored.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from email.message import EmailMessage, Message
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

