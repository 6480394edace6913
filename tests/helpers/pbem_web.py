"""Helpers the server's tests share: reading mails, creating games, delivering mail."""

from __future__ import annotations

from datetime import datetime

ANNA, BOB = "anna@example.org", "bob@example.org"


def text_of(msg) -> str:
    return msg.get_body(("plain",)).get_content().replace("\r\n", "\n")


def html_of(msg) -> str:
    return msg.get_body(("html",)).get_content().replace("\r\n", "\n")


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
