"""What a seat's page and a seat's mail need from the database beyond the game's log: rows
that change without an event (a seat link replaced, a computer taking the seat, a message
said, a vacation begun), so the replay cache cannot know them. Each is read fresh, in one
statement of scalar subqueries, so a page or a mail costs one round trip for all of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import BindParameter, ScalarSelect, bindparam, func, select

from pbem.extensions import db
from pbem.store import reading
from pbem.store.models import (
    Channel,
    Clock,
    Game,
    Mail,
    Message,
    Note,
    Seat,
    SeatNonce,
    Takeover,
    Vacation,
    undelivered,
)

_GAME: BindParameter[str] = bindparam("game")
_SEAT: BindParameter[int] = bindparam("seat")
_SINCE: BindParameter[datetime] = bindparam("since")
_KIND: BindParameter[str] = bindparam("kind")
_ADDRESS: BindParameter[str] = bindparam("address")
_OWN: BindParameter[str] = bindparam("own")   # the address as its channels keep it (trimmed, lower case)


def _count(model, *where) -> ScalarSelect:
    return select(func.count()).select_from(model).where(*where).scalar_subquery()


#: The seat's live seat-link nonce.
_LIVE_NONCE = (select(SeatNonce.nonce).where(SeatNonce.game_id == _GAME, SeatNonce.seat == _SEAT)
               .order_by(SeatNonce.id.desc()).limit(1).scalar_subquery())
_MESSAGES_SHOWN = _count(Message, Message.game_id == _GAME, Message.hidden_at.is_(None))
_GAME_HOOKED = _count(Channel, Channel.game_id == _GAME)
#: The players' vacations that end after `since`.
_AWAY = _count(Vacation, Vacation.ends_at > _SINCE, Vacation.address.in_(
    select(Seat.email).where(Seat.game_id == _GAME, Seat.email != "")))


def _seat_column(column) -> ScalarSelect:
    return select(column).where(Seat.game_id == _GAME, Seat.seat == _SEAT).scalar_subquery()


@dataclass(frozen=True)
class PageFacts:
    nonce: str | None      # the seat's live seat-link nonce
    undelivered: int       # the game's mails that will not arrive
    bot: str | None        # the level of the computer that plays the seat now
    language: str | None   # the language the seat reads (None: a seat the game does not have)
    takeovers: int         # the game's seats taken over by a computer
    # Counts that spare the seat view a query each when they are 0 (the usual page):
    banked: int            # the game's time bank (0 or 1)
    said: int              # the game's messages shown
    noted: int             # the seat's notes (0 or 1)
    away: int              # the players' vacations since `since` (days used, away now)
    others: int            # the other seats people play now (none: nobody to talk to)
    hooked: int            # the game's webhook row (0 or 1: on, off or removed)


#: Built once (SQLAlchemy caches its compiled form): a page asks for it on every request.
_PAGE_FACTS = select(
    _LIVE_NONCE,
    _count(Mail, Mail.game_id == _GAME, undelivered(Mail.status)),
    _seat_column(Seat.bot),
    _seat_column(Seat.language),
    _count(Takeover, Takeover.game_id == _GAME),
    _count(Clock, Clock.game_id == _GAME),
    _MESSAGES_SHOWN,
    _count(Note, Note.game_id == _GAME, Note.seat == _SEAT),
    _AWAY,
    _count(Seat, Seat.game_id == _GAME, Seat.seat != _SEAT, Seat.bot.is_(None)),
    _GAME_HOOKED)


def page_facts(game_id: str, seat: int, since: datetime) -> PageFacts:
    """What a seat's page needs beyond the log (vacations counted from `since`)."""
    return PageFacts(*reading.rows(_PAGE_FACTS, {"game": game_id, "seat": seat,
                                                 "since": since})[0])


@dataclass(frozen=True)
class MailFacts:
    nonce: str | None   # the seat's live seat-link nonce
    said: int           # the game's messages shown
    games: int          # the address's games of this kind (this one too)
    channels: int       # the address's channels that are on (webhook, browsers)
    hooked: int         # the game's own webhook row (0 or 1), on or not
    away: int           # the players' vacations that have not ended (none: nobody is away)


_MAIL_FACTS = select(
    _LIVE_NONCE,
    _MESSAGES_SHOWN,
    _count(Game, Game.kind == _KIND, Game.id.in_(select(Seat.game_id)
                                                 .where(Seat.email == _ADDRESS))),
    _count(Channel, Channel.address == _OWN, Channel.game_id.is_(None),
           Channel.off_at.is_(None)),
    _GAME_HOOKED,
    _AWAY)


def mail_facts(game_id: str, seat: int, kind: str, address: str, now: datetime) -> MailFacts:
    """What a seat's mail needs beyond the log: read now, never kept (a seat link replaced in
    this transaction, a message said with the decision, are in the mail it writes)."""
    return MailFacts(*db.session.execute(_MAIL_FACTS, {
        "game": game_id, "seat": seat, "kind": kind, "address": address,
        "own": address.strip().lower(), "since": now}).one())
