"""The channels an address chose on its home beside mail (`Channel`): one webhook URL, and
any number of browsers' push subscriptions. Each notice it is mailed also goes to each of
them that is on (`pbem.mail.notices`); mail stays, whatever a channel does.

A webhook's secret is made here when its URL is set, shown on the home, and kept when the URL
changes (the player's receiver keeps checking with it); a new one on request."""

from __future__ import annotations

import base64
import binascii
import json
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select

from pbem.errors import BadInput
from pbem.extensions import db
from pbem.games.phrases import phrase
from pbem.policy import targets
from pbem.store.models import PUSH, WEBHOOK, Channel, Notice
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


def _key_bytes(value, size: int) -> bytes:
    """A subscription's key (base64url, RFC 8291) of `size` bytes; BadInput otherwise."""
    if not isinstance(value, str) or len(value) > 200:
        raise BadInput(phrase("This browser's subscription is not one a push service gives."))
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != size:
        raise BadInput(phrase("This browser's subscription is not one a push service gives."))
    return raw


def add_push(address: str, subscription: object) -> Channel:
    """A browser's push subscription (`PushSubscription.toJSON()`: endpoint, keys p256dh and
    auth) becomes a channel of the address; the same endpoint again replaces its keys."""
    keys = subscription.get("keys") if isinstance(subscription, dict) else None
    endpoint = subscription.get("endpoint") if isinstance(subscription, dict) else None
    if not isinstance(keys, dict) or not isinstance(endpoint, str):
        raise BadInput(phrase("This browser's subscription is not one a push service gives."))
    _key_bytes(keys.get("p256dh"), 65)   # an uncompressed P-256 point
    _key_bytes(keys.get("auth"), 16)
    try:
        endpoint = targets.checked_url(endpoint)
    except BadInput:
        raise BadInput(phrase("This browser's subscription is not one a push service gives.")) from None
    secret = json.dumps({"p256dh": keys["p256dh"], "auth": keys["auth"]})
    with transaction():
        channel = db.session.scalars(select(Channel).where(
            Channel.address == _key(address), Channel.kind == PUSH,
            Channel.target == endpoint)).first()
        if channel is None:
            channel = Channel(address=_key(address), kind=PUSH, target=endpoint, secret=secret,
                              failures=0)
            db.session.add(channel)
        channel.secret, channel.failures, channel.off_at = secret, 0, None
    return channel


def remove(address: str, channel_id: int) -> bool:
    """One of the address's channels no more (a browser it no longer wants notified)."""
    with transaction():
        channel = db.session.get(Channel, channel_id)
        if channel is None or channel.address != _key(address):
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
