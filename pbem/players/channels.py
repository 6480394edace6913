"""The channels an address chose on its home beside mail (`Channel`): one webhook URL, and
any number of browsers' push subscriptions. Each notice it is mailed also goes to each of
them that is on (`pbem.mail.notices`); mail stays, whatever a channel does.

A webhook's secret is made here when its URL is set, shown on the home, and kept when the URL
changes (the player's receiver keeps checking with it); a new one on request.

A game may have one webhook too (`game_hook`), for the channel its group reads (Discord,
Slack): any player of the running game sets, renews or removes it from his seat page, every
player sees it there with who set it and when (its secret too), and it is sent only what
anybody may know of the game (`pbem.mail.notices.for_game`): never a link to a seat. Removing
it keeps its row, turned off, so the others see who removed it."""

from __future__ import annotations

import base64
import binascii
import json
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select

from pbem.errors import AlreadySubmitted, BadInput
from pbem.extensions import db
from pbem.games.phrases import phrase
from pbem.policy import targets
from pbem.policy.deadlines import utc
from pbem.store import gamelog
from pbem.store.models import PUSH, WEBHOOK, Channel, Notice, utcnow
from pbem.store.transaction import transaction


def _key(address: str) -> str:
    return address.strip().lower()


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def webhook_of(address: str) -> Channel | None:
    return db.session.scalars(select(Channel).where(
        Channel.address == _key(address), Channel.kind == WEBHOOK,
        Channel.game_id.is_(None))).first()


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
        Channel.address == _key(address), Channel.game_id.is_(None),
        Channel.off_at.is_(None)).order_by(Channel.id)))


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
                Channel.address == _key(address), Channel.game_id.is_(None)).order_by(Channel.id))]


# -- a game's webhook ---------------------------------------------------------------------

def game_hook(game_id: str) -> Channel | None:
    """The game's webhook row: on, turned off after failures, or removed (no `target`)."""
    return db.session.scalars(select(Channel).where(Channel.game_id == game_id)).first()


def live_game_hook(game_id: str) -> Channel | None:
    """The game's webhook when it is on: where its public notices go."""
    hook = game_hook(game_id)
    return hook if hook is not None and hook.off_at is None and hook.target else None


def _may_change(game_id: str, seat: int, setting: bool) -> None:
    """Only a person seated in the game (not one whose seat a computer took) changes its
    webhook; setting one needs the game to be running (removing it does not)."""
    gamelog.still_his(game_id, seat)
    if not gamelog.address_of(game_id, seat):
        raise BadInput(phrase("A computer plays this seat: it sets no webhook."))
    if setting and gamelog.load(game_id).over:
        raise BadInput(phrase("The game is over: its webhook can no longer be set."))


def set_game_hook(game_id: str, seat: int, url: str | None = None, new_key: bool = False) -> Channel:
    """The game's webhook is `url` from now on, set by `seat` now (on again if it was off or
    removed; its secret kept unless `new_key`, or made when it had none); `url` None: a new
    secret only. BadInput, with nothing written, for a URL the server will not call, a seat
    that is not a person's, or a game that is over."""
    checked = targets.checked_url(url) if url is not None else None
    _may_change(game_id, seat, setting=True)
    try:
        return _set_game_hook(game_id, seat, checked, new_key)
    except AlreadySubmitted:   # another player made the game's row first: change that one
        return _set_game_hook(game_id, seat, checked, new_key)


def _set_game_hook(game_id: str, seat: int, checked: str | None, new_key: bool) -> Channel:
    with transaction():
        hook = game_hook(game_id)
        if hook is None:
            if checked is None:
                raise BadInput(phrase("This game has no webhook."))
            hook = Channel(address="", game_id=game_id, kind=WEBHOOK, target=checked,
                           secret=new_secret(), failures=0)
            db.session.add(hook)
        elif checked is None and not hook.target:
            raise BadInput(phrase("This game has no webhook."))
        if checked is not None:
            hook.target, hook.failures, hook.off_at, hook.last_error = checked, 0, None, None
        if new_key:
            hook.secret = new_secret()
        hook.set_by, hook.created_at = seat, utcnow()
    return hook


def remove_game_hook(game_id: str, seat: int) -> bool:
    """No webhook for the game any more (its notices not yet sent go with it); the row stays,
    without its URL, to say who removed it and when. Whether there was one."""
    _may_change(game_id, seat, setting=False)
    with transaction():
        hook = game_hook(game_id)
        if hook is None or not hook.target:
            return False
        db.session.execute(delete(Notice).where(Notice.channel_id == hook.id))
        hook.target, hook.off_at, hook.set_by, hook.last_error = "", utcnow(), seat, None
        hook.created_at = hook.off_at
    return True


@dataclass(frozen=True)
class GameHook:
    """A game's webhook as its players see it on their seat pages: where it posts, who set
    (or removed) it and when, its secret, and how its last notice went."""
    target: str                # "": removed
    secret: str | None
    set_by: int | None         # the seat that set or removed it
    set_at: datetime
    on: bool
    delivered_at: datetime | None
    failed_at: datetime | None
    last_error: str | None
    failures: int

    def to_json(self) -> dict:
        return {"target": self.target or None, "secret": self.secret if self.target else None,
                "set_by": self.set_by, "set_at": self.set_at.isoformat(timespec="seconds"),
                "on": self.on, "removed": not self.target,
                "delivered_at": (self.delivered_at.isoformat(timespec="seconds")
                                 if self.delivered_at else None),
                "failed_at": self.failed_at.isoformat(timespec="seconds") if self.failed_at else None,
                "last_error": self.last_error, "failures": self.failures}


def game_hook_shown(game_id: str) -> GameHook | None:
    hook = game_hook(game_id)
    if hook is None:
        return None
    return GameHook(hook.target, hook.secret if hook.target else None, hook.set_by,
                    utc(hook.created_at), hook.off_at is None and bool(hook.target),
                    utc(hook.delivered_at) if hook.delivered_at else None,
                    utc(hook.failed_at) if hook.failed_at else None, hook.last_error,
                    hook.failures)
