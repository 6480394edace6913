"""The channels an address chose on its home beside mail (`Channel`): one webhook URL, and
any number of browsers' push subscriptions. Each notice it is mailed also goes to each of
them that is on (`pbem.mail.notices`); mail stays, whatever a channel does.

A webhook's secret is made here when its URL is set, shown on the home, and kept when the URL
changes (the player's receiver keeps checking with it); a new one on request."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select

from pbem.extensions import db
from pbem.policy import targets
from pbem.store.models import WEBHOOK, Channel, Notice
from pbem.store.transaction import transaction


def _key(address: str) -> str:
    return address.strip().lower()


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def webhook_of(address: str) -> Channel | None:
    return db.session.scalars(select(Channel).where(
        Channel.address == _key(address), Channel.kind == WEBHOOK)).first()


def set_webhook(address: str, url: str, new_key: bool = False) -> Channel:
    """The address's webhook is `url` from now on (on again if it was turned off); BadInput,
    with nothing written, for a URL the server will not call."""
    url = targets.checked_url(url)
    with transaction():
        channel = webhook_of(address)
        if channel is None:
            channel = Channel(address=_key(address), kind=WEBHOOK, target=url, secret=new_secret(),
                              failures=0)
            db.session.add(channel)
        channel.target, channel.failures, channel.off_at = url, 0, None
        if new_key:
            channel.secret = new_secret()
    return channel


def remove_webhook(address: str) -> bool:
    """No webhook any more (its notices not yet sent go with it); whether there was one."""
    with transaction():
        channel = webhook_of(address)
        if channel is None:
            return False
        db.session.execute(delete(Notice).where(Notice.channel_id == channel.id))
        db.session.execute(delete(Channel).where(Channel.id == channel.id))
    return True


def live(address: str) -> list[Channel]:
    """The address's channels that are on: those a notice goes to."""
    return list(db.session.scalars(select(Channel).where(
        Channel.address == _key(address), Channel.off_at.is_(None)).order_by(Channel.id)))


@dataclass(frozen=True)
class Shown:
    """A channel as the home shows it: what it is, and how its last notice went."""
    id: int
    kind: str
    target: str
    secret: str | None         # a webhook's, shown to its owner; never a browser's keys
    on: bool
    delivered_at: datetime | None
    failed_at: datetime | None
    last_error: str | None
    failures: int


def shown(address: str) -> list[Shown]:
    return [Shown(c.id, c.kind, c.target, c.secret if c.kind == WEBHOOK else None,
                  c.off_at is None, c.delivered_at, c.failed_at, c.last_error, c.failures)
            for c in db.session.scalars(select(Channel).where(
                Channel.address == _key(address)).order_by(Channel.id))]
