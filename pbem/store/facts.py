"""What a seat's page and a seat's mail need from the database beyond the game's log: rows
that change without an event (a seat link replaced, a computer taking the seat, a message
said, a vacation begun), so the replay cache cannot know them. Each is read fresh, in one
statement of scalar subqueries, so a page or a mail costs one round trip for all of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ScalarSelect, func, select

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


def _count(model, *where) -> ScalarSelect:
    return select(func.count()).select_from(model).where(*where).scalar_subquery()


def _live_nonce(game_id: str, seat: int) -> ScalarSelect:
    return (select(SeatNonce.nonce).where(SeatNonce.game_id == game_id, SeatNonce.seat == seat)
            .order_by(SeatNonce.id.desc()).limit(1).scalar_subquery())


def _seat_column(column, game_id: str, seat: int) -> ScalarSelect:
    return select(column).where(Seat.game_id == game_id, Seat.seat == seat).scalar_subquery()


def _messages_shown(game_id: str) -> ScalarSelect:
    return _count(Message, Message.game_id == game_id, Message.hidden_at.is_(None))


def _game_hooked(game_id: str) -> ScalarSelect:
    return _count(Channel, Channel.game_id == game_id)


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


def page_facts(game_id: str, seat: int, since: datetime) -> PageFacts:
    """What a seat's page needs beyond the log (vacations counted from `since`)."""
    players = select(Seat.email).where(Seat.game_id == game_id, Seat.email != "")
    statement = select(
        _live_nonce(game_id, seat),
        _count(Mail, Mail.game_id == game_id, undelivered(Mail.status)),
        _seat_column(Seat.bot, game_id, seat),
        _seat_column(Seat.language, game_id, seat),
        _count(Takeover, Takeover.game_id == game_id),
        _count(Clock, Clock.game_id == game_id),
        _messages_shown(game_id),
        _count(Note, Note.game_id == game_id, Note.seat == seat),
        _count(Vacation, Vacation.ends_at > since, Vacation.address.in_(players)),
        _count(Seat, Seat.game_id == game_id, Seat.seat != seat, Seat.bot.is_(None)),
        _game_hooked(game_id))
    return PageFacts(*reading.rows(statement, {})[0])


@dataclass(frozen=True)
class MailFacts:
    nonce: str | None   # the seat's live seat-link nonce
    said: int           # the game's messages shown
    games: int          # the address's games of this kind (this one too)
    channels: int       # the address's channels that are on (webhook, browsers)
    hooked: int         # the game's own webhook row (0 or 1), on or not


def mail_facts(game_id: str, seat: int, kind: str, address: str) -> MailFacts:
    """What a seat's mail needs beyond the log: read now, never kept (a seat link replaced in
    this transaction, a message said with the decision, are in the mail it writes)."""
    his_games = select(Seat.game_id).where(Seat.email == address)
    statement = select(
        _live_nonce(game_id, seat),
        _messages_shown(game_id),
        _count(Game, Game.kind == kind, Game.id.in_(his_games)),
        _count(Channel, Channel.address == address.strip().lower(), Channel.game_id.is_(None),
               Channel.off_at.is_(None)),
        _game_hooked(game_id))
    return MailFacts(*db.session.execute(statement).one())
