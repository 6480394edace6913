"""Composing mails into the outbox.

Nothing in a header comes from user input unescaped: names lose control
characters and are length-capped, and addresses are encoded by the email
package at delivery. Each player's mails about one game form one thread: the
invitation's Message-ID is the root every later mail replies to.
"""

from __future__ import annotations

import re
import secrets
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import formatdate, parseaddr

from flask import current_app, render_template

from ..config import mail_domain
from ..extensions import db
from ..models import Mail

_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]+")
NAME_LIMIT = 100


def clean(text: str, limit: int = NAME_LIMIT) -> str:
    """A name or subject safe for a header: one line, no control characters, capped."""
    return _CONTROL.sub(" ", text or "").strip()[:limit].strip()


def thread_root(game_id: str, seat: int) -> str:
    return f"<{game_id}.{seat}@{mail_domain(current_app)}>"


def _new_message_id(game_id: str | None, seat: int | None) -> str:
    tag = f"{game_id}.{seat}." if game_id else ""
    return f"<{tag}{secrets.token_hex(8)}@{mail_domain(current_app)}>"


def queue(kind: str, to_name: str, to_addr: str, subject: str, context: dict, *,
          game_id: str | None = None, seat: int | None = None, from_name: str = "pbem",
          root: bool = False) -> Mail:
    """Render `mail/<kind>.txt|.html` and add the mail to the session (not committed)."""
    context = {**context, "to_name": to_name}
    if game_id is not None and root:
        message_id, in_reply_to = thread_root(game_id, seat), None
    else:
        message_id = _new_message_id(game_id, seat)
        in_reply_to = thread_root(game_id, seat) if game_id is not None else None
    mail = Mail(kind=kind, game_id=game_id, seat=seat, to_name=clean(to_name),
                to_addr=to_addr.strip(), from_name=clean(from_name, 200),
                subject=clean(subject, 300),
                text=render_template(f"mail/{kind}.txt", **context),
                html=render_template(f"mail/{kind}.html", **context),
                message_id=message_id, in_reply_to=in_reply_to)
    db.session.add(mail)
    return mail


def _address(name: str, addr: str) -> Address:
    return Address(display_name=clean(name), addr_spec=parseaddr(addr)[1] or addr)


def to_message(mail: Mail) -> EmailMessage:
    """The outbox row as an RFC 5322 message with a text and an HTML part."""
    sender = parseaddr(current_app.config["MAIL_FROM"])[1] or "pbem@localhost"
    msg = EmailMessage()
    msg["From"] = _address(mail.from_name, sender)
    msg["To"] = _address(mail.to_name, mail.to_addr)
    msg["Subject"] = clean(mail.subject, 300)
    msg["Date"] = formatdate(mail.created_at.timestamp(), localtime=False)
    msg["Message-ID"] = mail.message_id
    if mail.in_reply_to:
        msg["In-Reply-To"] = mail.in_reply_to
        msg["References"] = mail.in_reply_to
    msg["Auto-Submitted"] = "auto-generated"
    msg.set_content(mail.text)
    msg.add_alternative(mail.html, subtype="html")
    return msg
