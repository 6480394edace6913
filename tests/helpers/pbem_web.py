"""Helpers the server's tests share: reading mails, creating games, delivering mail."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from email.message import EmailMessage
from email.utils import formataddr, formatdate, make_msgid, parseaddr

ANNA, BOB = "anna@example.org", "bob@example.org"


def text_of(msg) -> str:
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def html_of(msg) -> str:
    return msg.get_body(("html",)).get_content().replace("\r\n", "\n")


def reply_to(mail, steps: str, names: Mapping[str, str], *, quote: str = "header") -> bytes:
    """A reply to `mail` as a mail client writes it, from the address it went to (named by
    `names`): steps on top, the original quoted below (after an "On ... wrote:" line, or bare
    `>` lines, or not at all)."""
    sender = parseaddr(str(mail["To"]))[1]
    reply = EmailMessage()
    reply["From"] = formataddr((names.get(sender, "Somebody"), sender))
    reply["To"] = str(mail["Reply-To"])
    reply["Subject"] = "Re: " + str(mail["Subject"])
    reply["Date"] = formatdate(localtime=True)
    reply["Message-ID"] = make_msgid(domain="mail.example.org")
    reply["In-Reply-To"] = str(mail["Message-ID"])
    quoted = "\n".join(("> " + line).rstrip() for line in text_of(mail).splitlines())
    body = steps
    if quote == "header":
        body += f"\n\nOn {mail['Date']}, {mail['From']} wrote:\n{quoted}\n"
    elif quote == "bare":
        body += f"\n\n{quoted}\n"
    reply.set_content(body)
    return reply.as_bytes()


def create(client, names=("Anna", "Bob"), emails=(ANNA, BOB), first=0, time_limit=None) -> str:
    """A game of Babel created through the start page's form; its id."""
    data = {"game": "babel", "first": str(first), "option.sumerians": "top-run"}
    for i, (n, e) in enumerate(zip(names, emails)):
        data[f"name{i}"], data[f"email{i}"] = n, e
    if time_limit is not None:
        data["time_limit"] = str(time_limit)
    response = client.post("/games", data=data)
    assert response.status_code == 303, response.data
    return response.headers["Location"].split("/")[2]


def deliver(app, now: datetime | None = None):
    """Send the outbox's due mail (to the test's SMTP server)."""
    from pbem.mail.deliver import deliver_due
    with app.app_context():
        return deliver_due(now=now)
