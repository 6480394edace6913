"""The tables. Games, seats and events are only ever inserted: a game is its log.
(The operator may delete a whole game nobody played in, or one that was aborted, with every
row about it: `operations.delete_game`.)

- `games`: what a game was created with (engine, options, secret seed).
- `seats`: who plays each seat (name, address; `bot`: the level of the computer that plays it,
  from the start or since its player left: the one column a game's play changes, in the same
  transaction as the `takeovers` row that says when and why).
- `seat_nonces`: every seat link ever issued; the newest per seat is the live one.
- `events`: the append-only log, keyed by (game_id, seq): the database refuses
  a second writer for the same point of the log.
- `mails`: the outbox, written in the same transaction as the event that
  causes the mail; only its delivery columns change.
- `inbound`: every mail reply ingested, so the same message applies once.
- `reminders`: the reminders sent for a decision, so each is sent once.
- `rate_events`: requests counted for rate limits (old rows are pruned).
- `snapshots`: every few events, the state the log folds to there, written with
  the event (a cache: a cold load restores the latest one and replays only the
  events after it; rows of another rules version are ignored).
- `proposals`: games asked for on the start page, waiting for their creator to
  confirm them from his mailbox; confirming turns one into a game of the same id.
- `suppressions`: addresses that asked never to be mailed again; no mail goes to them.
- `rate_locks`: one row per rate-limit key, locked while a request is counted, so
  concurrent requests for one key are counted one after the other.
- `quarantine`: incoming mails that could not be read, kept for the operator.
- `takeovers`: a player who left a game of three or four (resigned, ran out of time),
  and the point of its log from which a computer plays his seat (`seats.bot`).
- `address_settings`: an address's home link and choices (time zone, language, mail).
- `game_results`: each finished game's outcome, written with its last event.
- `rematches`: a new game of a finished one asked for, waiting for the others' yes.
- `messages`: a game's conversation, append-only (the operator may hide one: `hidden_at`);
  `message_marks`: the last message each seat's mails carried.
- `notes`: a player's private notes on a game.
- `clocks`: a game's time bank; `vacations`: an address's vacations (0010).
- `public_names`: the name a player chose to be shown by to strangers (0014).
- `ratings`: each player's rating per game, and `games.rated` (0015).
- `channels`, `notices`: the webhook and browsers an address chose beside mail, and each
  notice to one of them, written with its mail and sent once by the background work (0019).
- `challenges`, `challenge_seats`: open challenges and the seats taken in them (0016).
- `leagues`, `league_members`, `league_games`: slow tournaments by mail (`pbem.play.leagues`):
  a league as created, who asked to join or is in it, and the games it started (0017).
- `dues`: what is due when: one row per seat that owes a decision, with the moment the
  background work must look at it next (`pbem.policy.due`), rewritten at the commit of whatever
  moves that moment, so a worker's round reads what is due, not every running game (0013).

`owed` (on games for the start, on events for after each event) records the
seats that owe a decision then, as the engine said when the row was written: pages, the
home and `dues` find waiting players without replaying every game.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    false,
    or_,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column

from pbem.extensions import Model


def utcnow() -> datetime:
    return datetime.now(UTC)


class Game(Model):
    __tablename__ = "games"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    first: Mapped[int | None] = mapped_column(Integer)
    seats: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    time_limit_days: Mapped[int | None] = mapped_column(Integer)
    # Created rated: its result moves its players' ratings (`pbem.players.ratings`, 0015).
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    owed: Mapped[list | None] = mapped_column(JSON)
    #: The level of the computer that takes the seat of a player who leaves a game of 3 or 4.
    takeover: Mapped[str] = mapped_column(String(16), default="normal", server_default="normal")
    #: Whether its players' rest days stop their clocks (`pbem.policy.rest`; its creator may
    #: forbid them, as tournament rules do).
    rest_days: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())


class Seat(Model):
    __tablename__ = "seats"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    email: Mapped[str] = mapped_column(String(254), index=True)   # "": a computer from the start
    bot: Mapped[str | None] = mapped_column(String(16))   # the computer's level; None: a person
    # The language the seat's pages and mails speak (pbem.i18n.LANGUAGES).
    language: Mapped[str] = mapped_column(String(8), default="en", server_default="en")


class SeatNonce(Model):
    __tablename__ = "seat_nonces"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    seat: Mapped[int] = mapped_column(Integer)
    nonce: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    __table_args__ = (Index("ix_seat_nonces_game_seat", "game_id", "seat", "id"),)


class Event(Model):
    __tablename__ = "events"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seat: Mapped[int | None] = mapped_column(Integer)
    type: Mapped[str] = mapped_column(String(32))
    v: Mapped[int] = mapped_column(Integer, default=1)
    data: Mapped[dict] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    owed: Mapped[list | None] = mapped_column(JSON)


PENDING, SENT, FAILED = "pending", "sent", "failed"
#: Not sent, and never will be: its address asked never to be mailed again.
SUPPRESSED = "suppressed"
#: Undelivered: FAILED and SUPPRESSED mail, shown on the game's pages.
UNDELIVERED = (FAILED, SUPPRESSED)


def undelivered(status):
    """The condition on a status column (`Mail.status`) for mail that will not arrive: two
    comparisons rather than IN, which SQLAlchemy expands anew for every query (a page's)."""
    return or_(status == FAILED, status == SUPPRESSED)


class Mail(Model):
    __tablename__ = "mails"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id"))
    seat: Mapped[int | None] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(32))
    to_name: Mapped[str] = mapped_column(String(100))
    to_addr: Mapped[str] = mapped_column(String(254), index=True)
    from_name: Mapped[str] = mapped_column(String(300))
    subject: Mapped[str] = mapped_column(String(300))
    text: Mapped[str] = mapped_column(Text)
    html: Mapped[str] = mapped_column(Text)
    message_id: Mapped[str] = mapped_column(String(200), unique=True)
    in_reply_to: Mapped[str | None] = mapped_column(String(200))
    reply_to: Mapped[str | None] = mapped_column(String(320))
    status: Mapped[str] = mapped_column(String(16), default=PENDING)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str | None] = mapped_column(Text)
    __table_args__ = (Index("ix_mails_due", "status", "next_attempt_at"),
                      Index("ix_mails_status_id", "status", "id"),   # the next pending mail, in order
                      # a game's mail, and its undelivered mail counted on every page (0008)
                      Index("ix_mails_game_status", "game_id", "status"))


class Inbound(Model):
    __tablename__ = "inbound"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)   # sha256 of the Message-ID
    game_id: Mapped[str | None] = mapped_column(String(16))
    sender: Mapped[str] = mapped_column(String(254))
    result: Mapped[str] = mapped_column(String(32))
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Reminder(Model):
    __tablename__ = "reminders"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)   # "waiting" or "deadline"
    sent_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RateEvent(Model):
    __tablename__ = "rate_events"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(300))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    __table_args__ = (Index("ix_rate_events_key_at", "key", "at"),
                      Index("ix_rate_events_at", "at"))   # pruning old rows


class Snapshot(Model):
    __tablename__ = "snapshots"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    rules: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)   # rules_version
    state: Mapped[dict] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Proposal(Model):
    """A game asked for and not yet confirmed by its creator (the first player)."""
    __tablename__ = "proposals"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)   # the game's id, once confirmed
    kind: Mapped[str] = mapped_column(String(32))
    spec: Mapped[dict] = mapped_column(JSON)   # players, options, first, time limit
    creator: Mapped[str] = mapped_column(String(254), index=True)
    client: Mapped[str] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)


class Suppression(Model):
    __tablename__ = "suppressions"
    address: Mapped[str] = mapped_column(String(254), primary_key=True)
    # "unsubscribed" (by the address), "operator", or "spam report (abuse)" (a feedback loop's)
    reason: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RateLock(Model):
    __tablename__ = "rate_locks"
    key: Mapped[str] = mapped_column(String(300), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)


class Quarantined(Model):
    """An incoming mail that could not be read: moved aside so that it stops nothing else."""
    __tablename__ = "quarantine"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reason: Mapped[str] = mapped_column(String(300))
    sender: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(String(300))
    size: Mapped[int] = mapped_column(Integer)
    raw: Mapped[bytes] = mapped_column(LargeBinary)   # the first QUARANTINE_KEEP bytes
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)


class Takeover(Model):
    """A player left a game of three or four and a computer plays his seat from `seq` on (the
    log's length then: the computer's first decision is event seq + 1)."""
    __tablename__ = "takeovers"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seq: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(16))   # "resigned" or "timeout"
    level: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AddressSettings(Model):
    """What one address chose on its home (`pbem.players.settings`): no row means the defaults.
    `home_nonce` is signed into the home link; a new one kills the old link."""
    __tablename__ = "address_settings"
    address: Mapped[str] = mapped_column(String(254), primary_key=True)   # lower-cased
    home_nonce: Mapped[str] = mapped_column(String(32), default="", server_default="")
    time_zone: Mapped[str] = mapped_column(String(64), default="UTC", server_default="UTC")
    language: Mapped[str] = mapped_column(String(16), default="en", server_default="en")
    mail_mode: Mapped[str] = mapped_column(String(16), default="each", server_default="each")
    confirm_replies: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    digest_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))   # the last digest
    # Rest days and quiet hours (`pbem.policy.rest`, 0020): weekdays "5,6" (0 Monday), and
    # local times "22:00" and "07:00" (both or neither).
    rest_days: Mapped[str] = mapped_column(String(20), default="", server_default="")
    quiet_from: Mapped[str | None] = mapped_column(String(5))
    quiet_until: Mapped[str | None] = mapped_column(String(5))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class GameResult(Model):
    """A finished game's outcome, written with the event that ends it (`store.append`), so
    that a home lists results without replaying every game."""
    __tablename__ = "game_results"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    winners: Mapped[list] = mapped_column(JSON)     # seats
    reason: Mapped[str] = mapped_column(String(32))
    description: Mapped[str] = mapped_column(Text)
    # The description as a phrase's data (pbem.games.phrases.to_data): said in each reader's
    # language; None for results written before it was kept.
    said: Mapped[dict | None] = mapped_column(JSON)
    # Seat by seat, where it finished (1: won; `Engine.places`); None before it was kept.
    places: Mapped[list | None] = mapped_column(JSON)
    # The players who had left the game, {seat: the turn a computer took his seat from}: a
    # seat here in `winners` (or any place) is the computer's result, never its player's
    # (his is that he left). None or {}: nobody left.
    left: Mapped[dict | None] = mapped_column(JSON)
    ended_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Rematch(Model):
    """A new game of a finished one's kind with its players, asked for by one of them; it
    starts (as game `id`) once every other person confirmed from his mailbox."""
    __tablename__ = "rematches"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)   # the new game's id
    source: Mapped[str] = mapped_column(ForeignKey("games.id"), unique=True)
    kind: Mapped[str] = mapped_column(String(32))
    spec: Mapped[dict] = mapped_column(JSON)
    asked_by: Mapped[int] = mapped_column(Integer)    # the seat (in the finished game) who asked
    confirmed: Mapped[list] = mapped_column(JSON)     # seats (of the finished game) that said yes
    started: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
class Message(Model):
    """A player's words in a game's conversation (`pbem.players.messages`)."""
    __tablename__ = "messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    seat: Mapped[int] = mapped_column(Integer)
    seq: Mapped[int] = mapped_column(Integer)   # the log's length when it was said
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    hidden_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))   # by the operator
    __table_args__ = (Index("ix_messages_game_id_id", "game_id", "id"),)


class MessageMark(Model):
    """The last message a seat's mails have carried: its next mail carries the later ones."""
    __tablename__ = "message_marks"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    message_id: Mapped[int] = mapped_column(Integer)


class Note(Model):
    """A player's private notes on a game: seen by nobody else."""
    __tablename__ = "notes"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    text: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Clock(Model):
    """A game's time bank: `start_days` at first, `increment_days` added after each move, never
    more than `cap_days` (`pbem.policy.clocks`)."""
    __tablename__ = "clocks"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    start_days: Mapped[int] = mapped_column(Integer)
    increment_days: Mapped[int] = mapped_column(Integer)
    cap_days: Mapped[int] = mapped_column(Integer)


class Vacation(Model):
    """An address's vacation: its clocks stop from `starts_at` to `ends_at` (`pbem.policy.vacation`)."""
    __tablename__ = "vacations"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    address: Mapped[str] = mapped_column(String(254))
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ends_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    automatic: Mapped[bool] = mapped_column(Boolean, default=False)
    __table_args__ = (Index("ix_vacations_address_ends_at", "address", "ends_at"),)


class Due(Model):
    """When the background work must next look at a seat that owes a decision: a computer's
    decision is due at once, a person's at his next reminder or at his deadline
    (`pbem.policy.due`). A moment too early costs one look; none is ever too late."""
    __tablename__ = "dues"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    bot: Mapped[str | None] = mapped_column(String(16))   # the computer's level; None: a person
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    __table_args__ = (Index("ix_dues_due_at", "due_at"), Index("ix_dues_bot_due_at", "bot", "due_at"))


class PublicName(Model):
    """The name an address plays under in public (`pbem.players.public`): shown on challenges,
    ladders, leagues and its player page, where the address never is. `folded` (case-folded,
    accents kept) is unique, so "Anna" and "anna" cannot both exist."""
    __tablename__ = "public_names"
    address: Mapped[str] = mapped_column(String(254), primary_key=True)   # lower-cased
    name: Mapped[str] = mapped_column(String(40))
    folded: Mapped[str] = mapped_column(String(40), unique=True)
    changed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Rating(Model):
    """A player's rating in one game (`pbem.players.ratings`, OpenSkill's Plackett-Luce):
    `player` is a lower-cased address, or `computer:<level>` for a computer. Rebuilt from the
    finished rated games by `flask ratings rebuild`; kept up to date by each one's last event."""
    __tablename__ = "ratings"
    player: Mapped[str] = mapped_column(String(254), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)   # the engine's name
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    __table_args__ = (Index("ix_ratings_game_mu", "game", "mu"),)


#: A channel's kinds (`pbem.players.channels`): a signed JSON POST, a browser's push service.
WEBHOOK, PUSH = "webhook", "push"


class Channel(Model):
    """A way beside mail that an address chose on its home to hear of its notices: a webhook
    URL (`secret` signs each body) or a browser's push subscription. `failures` counts the
    deliveries that failed since the last one that arrived; `off_at`: turned off after too many
    (its `last_error` says why), until the player sets it again.

    A game's webhook (`game_id` set, `address` empty): one URL any of the game's players set
    for the group (`set_by`: which seat, `created_at`: when; shown to all of them), sent only
    the game's public facts (`pbem.mail.notices.for_game`)."""
    __tablename__ = "channels"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    address: Mapped[str] = mapped_column(String(254), index=True)   # lower-cased; "": a game's
    game_id: Mapped[str | None] = mapped_column(String(16), index=True, unique=True)   # one a game (0021)
    set_by: Mapped[int | None] = mapped_column(Integer)   # the seat that set a game's webhook
    kind: Mapped[str] = mapped_column(String(16))
    target: Mapped[str] = mapped_column(String(2000))   # the URL, or the push endpoint
    secret: Mapped[str] = mapped_column(String(200))    # the HMAC key, or the push keys (JSON)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    off_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    delivered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    failed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Notice(Model):
    """The channels' outbox: one notice (a turn, a deadline close, a game's end, a message) for
    one channel, written in the transaction that queues its mail (`mail_id`: the mail that
    is its fallback) and sent by the worker (`pbem.mail.channel_send`) like a mail."""
    __tablename__ = "notices"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    channel_id: Mapped[int] = mapped_column(ForeignKey("channels.id", ondelete="CASCADE"), index=True)
    # The mail it accompanies and its game (no foreign keys: deleting a game deletes its mail
    # and its notices, `operations.TABLES`, in either order).
    mail_id: Mapped[int | None] = mapped_column(Integer)
    game_id: Mapped[str | None] = mapped_column(String(16), index=True)
    kind: Mapped[str] = mapped_column(String(32))
    body: Mapped[dict] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default=PENDING)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str | None] = mapped_column(Text)
    __table_args__ = (Index("ix_notices_due", "status", "next_attempt_at"),)


class Challenge(Model):
    """An open challenge (`pbem.play.challenges`): a game offered to strangers, its seats taken
    by whoever accepts and confirms from his mailbox; the game (of the same id) starts when they
    are full. `status`: unconfirmed (waiting for its poster's mail), open, started, withdrawn.
    `taken` counts the seats taken, the poster's included: the last seat goes to the one update
    that finds it free (0016)."""
    __tablename__ = "challenges"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)   # the game's id, once started
    kind: Mapped[str] = mapped_column(String(32))
    seats: Mapped[int] = mapped_column(Integer)
    taken: Mapped[int] = mapped_column(Integer, default=1)
    # options, time_limit_days, bank, language: the game as offered
    terms: Mapped[dict] = mapped_column(JSON)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    lowest: Mapped[int | None] = mapped_column(Integer, nullable=True)    # rating range
    highest: Mapped[int | None] = mapped_column(Integer, nullable=True)
    on_time: Mapped[int | None] = mapped_column(Integer, nullable=True)   # least percent
    days: Mapped[int] = mapped_column(Integer)
    poster: Mapped[str] = mapped_column(String(254), index=True)   # never shown in public
    poster_name: Mapped[str] = mapped_column(String(100))
    client: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(12), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True,
                                                        index=True)


class ChallengeSeat(Model):
    """A seat of a challenge taken by a player who accepted and confirmed it (not its poster)."""
    __tablename__ = "challenge_seats"
    challenge_id: Mapped[str] = mapped_column(String(16), ForeignKey("challenges.id"),
                                              primary_key=True)
    address: Mapped[str] = mapped_column(String(254), primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    language: Mapped[str | None] = mapped_column(String(8), nullable=True)
    position: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
class League(Model):
    """A slow tournament by mail (`pbem.play.leagues`): a game, a size, a clock, a start date.
    `status`: proposed (its creator has not confirmed it), open (players join), running (its
    games are played), finished, cancelled. `creator` is an address (never shown), None when
    the operator made it."""
    __tablename__ = "leagues"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    kind: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict] = mapped_column(JSON)
    least: Mapped[int] = mapped_column(Integer)     # players it needs to start
    most: Mapped[int] = mapped_column(Integer)      # players it takes
    clock: Mapped[str] = mapped_column(String(32))  # as `pbem.policy.clocks.parse` reads it
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    min_on_time: Mapped[int | None] = mapped_column(Integer)   # percent; None: anybody
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(String(16))
    creator: Mapped[str | None] = mapped_column(String(254))
    client: Mapped[str] = mapped_column(String(64), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_leagues_status_starts", "status", "starts_at"),)


class LeagueMember(Model):
    """An address in a league (`joined`), or one that asked to join and was mailed a one-use
    link (`ticket`, signed into it): confirming spends it."""
    __tablename__ = "league_members"
    league_id: Mapped[str] = mapped_column(ForeignKey("leagues.id"), primary_key=True)
    address: Mapped[str] = mapped_column(String(254), primary_key=True)   # lower-cased
    ticket: Mapped[str] = mapped_column(String(32))
    joined: Mapped[bool] = mapped_column(Boolean, default=False)
    asked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    joined_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_league_members_address", "address"),)


class LeagueGame(Model):
    """A game a league started, and which of its groups (a game for three or more) or pairings
    it is."""
    __tablename__ = "league_games"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    league_id: Mapped[str] = mapped_column(ForeignKey("leagues.id"), index=True)
    # Seat by seat, the member's address (the game's seats say the same; kept here so the
    # standings need no join through seats a computer may have taken over).
    players: Mapped[list] = mapped_column(JSON)
