"""The tables. Games, seats and events are only ever inserted: a game is its log.

- `games`: what a game was created with (engine, options, secret seed).
- `seats`: who plays each seat (name, address).
- `seat_nonces`: every seat link ever issued; the newest per seat is the live one.
- `events`: the append-only log, keyed by (game_id, seq): the database refuses
  a second writer for the same point of the log.
- `mails`: the outbox, written in the same transaction as the event that
  causes the mail; only its delivery columns change.
"""

from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import JSON, BigInteger, DateTime, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from .extensions import db


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class Game(db.Model):
    __tablename__ = "games"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    first: Mapped[int | None] = mapped_column(Integer)
    seats: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Seat(db.Model):
    __tablename__ = "seats"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    email: Mapped[str] = mapped_column(String(254), index=True)


class SeatNonce(db.Model):
    __tablename__ = "seat_nonces"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    seat: Mapped[int] = mapped_column(Integer)
    nonce: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    __table_args__ = (Index("ix_seat_nonces_game_seat", "game_id", "seat", "id"),)


class Event(db.Model):
    __tablename__ = "events"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seat: Mapped[int | None] = mapped_column(Integer)
    type: Mapped[str] = mapped_column(String(32))
    v: Mapped[int] = mapped_column(Integer, default=1)
    data: Mapped[dict] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


PENDING, SENT, FAILED = "pending", "sent", "failed"


class Mail(db.Model):
    __tablename__ = "mails"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id"), index=True)
    seat: Mapped[int | None] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(32))
    to_name: Mapped[str] = mapped_column(String(100))
    to_addr: Mapped[str] = mapped_column(String(254), index=True)
    from_name: Mapped[str] = mapped_column(String(200))
    subject: Mapped[str] = mapped_column(String(300))
    text: Mapped[str] = mapped_column(Text)
    html: Mapped[str] = mapped_column(Text)
    message_id: Mapped[str] = mapped_column(String(200), unique=True)
    in_reply_to: Mapped[str | None] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(16), default=PENDING)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str | None] = mapped_column(Text)
    __table_args__ = (Index("ix_mails_due", "status", "next_attempt_at"),)
