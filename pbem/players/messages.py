"""A game's conversation: short messages between its players.

A player says something with his turn (inside the turn service's transaction: `turns.submit`
with `message=`) or on its own (`say`). Messages are stored append-only; the operator may hide
one (`hide`: its `hidden_at` is set, the text stays for the record of what was said). They are
plain text: every template escapes them, mails carry them as text.

Who sees them: every player of the game on his page and in his JSON, and in the next mail he
gets (`unmailed` and `mark_mailed`: the seat's mark moves past what a mail carried); the public
record only once the game is over.

Caps: MESSAGE_MAX_CHARS characters a message; MESSAGES_PER_SEAT_PER_HOUR a seat, counted in the
database like every limit (`limits.MESSAGES_SEAT`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime

from flask import current_app
from sqlalchemy import case, select, update
from sqlalchemy.dialects import postgresql, sqlite

from pbem.errors import BadInput, NotFound
from pbem.extensions import db
from pbem.games.phrases import phrase
from pbem.policy import limits
from pbem.policy.deadlines import utc
from pbem.store import gamelog
from pbem.store.models import Inbound, Message, MessageMark, utcnow
from pbem.store.transaction import changed, transaction


class MessageTooLong(BadInput):
    title = phrase("Message too long")


@dataclass(frozen=True)
class Said:
    """A message as players see it."""
    id: int
    seat: int
    name: str
    text: str
    at: datetime
    hidden: bool = False   # hidden by the operator (only his page lists it)

    def to_json(self) -> dict:
        return {"id": self.id, "seat": self.seat, "name": self.name, "text": self.text,
                "at": self.at.strftime("%Y-%m-%d %H:%M UTC")}


def cleaned(text: str | None) -> str:
    """The message as stored: control, bidirectional and invisible characters dropped (but
    line breaks kept), at most two blank lines in a row, trimmed; BadInput past the cap."""
    kept = []
    for ch in (text or "").replace("\r\n", "\n").replace("\r", "\n"):
        if ch == "\n" or unicodedata.category(ch) not in ("Cc", "Cf", "Co", "Cs", "Zl", "Zp"):
            kept.append(ch)
    lines = [line.rstrip() for line in "".join(kept).split("\n")]
    while "\n\n\n\n" in (joined := "\n".join(lines)):
        lines = joined.replace("\n\n\n\n", "\n\n\n").split("\n")
    text = "\n".join(lines).strip()
    cap = int(current_app.config["MESSAGE_MAX_CHARS"])
    if len(text) > cap:
        raise MessageTooLong(phrase("Your message is {length} characters long; a message may "
                                    "have at most {cap}.", length=len(text), cap=cap))
    return text


_SAY = re.compile(r"^say(?::\s*|\s+|$)", re.IGNORECASE)   # "say hi", "Say: hi"


def from_reply(text: str) -> tuple[str, str]:
    """A mail reply's steps and its message, apart: every line that starts with `say ` is the
    message (its lines joined), every other line is for the steps. So no message can be taken
    for a step, nor a step for a message. A quoted line ("> say ...") is a quoted line: the
    steps' parser skips it."""
    steps, said = [], []
    for line in text.split("\n"):
        found = _SAY.match(line.strip())
        if found:
            said.append(line.strip()[found.end():])
        else:
            steps.append(line)
    return "\n".join(steps).strip(), "\n".join(said).strip()


def add(game_id: str, seat: int, seq: int, text: str) -> Message | None:
    """Write a cleaned message in the caller's transaction, counted against the seat's limit
    (RateLimited past it); None when there is nothing to say."""
    text = cleaned(text)
    if not text:
        return None
    limits.take(limits.MESSAGES_SEAT, f"{game_id}:{seat}")
    message = Message(game_id=game_id, seat=seat, seq=seq, text=text, created_at=utcnow())
    db.session.add(message)
    db.session.flush()
    return message


def say(game_id: str, seat: int, text: str, receipt: Inbound | None = None) -> Message:
    """A message on its own (not with a turn): from the page, the JSON API or a mail reply
    (`receipt`: its record, written with it so that the same mail says it once). A player may
    speak while the game runs and after it ("good game")."""
    gamelog.still_his(game_id, seat)
    if not cleaned(text):
        raise BadInput(phrase("Your message is empty."))
    loaded = gamelog.load(game_id)
    with transaction():
        message = add(game_id, seat, loaded.seq, text)
        if receipt is not None:
            db.session.add(receipt)
    assert message is not None
    return message


def of_game(game_id: str, names: list[str] | tuple[str, ...], hidden: bool = False) -> list[Said]:
    """The game's messages in the order said (without those the operator hid, unless asked)."""
    query = select(Message).where(Message.game_id == game_id).order_by(Message.id)
    if not hidden:
        query = query.where(Message.hidden_at.is_(None))
    return [Said(m.id, m.seat, names[m.seat] if 0 <= m.seat < len(names) else "?", m.text,
                 utc(m.created_at), m.hidden_at is not None) for m in db.session.scalars(query)]


def unmailed(game_id: str, seat: int, said: list[Said]) -> list[Said]:
    """The messages the seat's mails have not carried yet."""
    if not said:
        return []   # (nothing said: no need to ask where its mails got to)
    after = db.session.scalar(select(MessageMark.message_id).where(
        MessageMark.game_id == game_id, MessageMark.seat == seat)) or 0
    return [s for s in said if s.id > after]


def mark_mailed(game_id: str, seat: int, said: list[Said]) -> None:
    """The seat's next mail carries only messages after these (in the mail's transaction)."""
    if not said:
        return
    last = max(s.id for s in said)
    # An upsert that only moves forward: two transactions mailing the seat at once (a turn,
    # the worker's vacation notice) neither fail on the first row nor move it back.
    insert = postgresql.insert if db.engine.dialect.name == "postgresql" else sqlite.insert
    new = insert(MessageMark).values(game_id=game_id, seat=seat, message_id=last)
    db.session.execute(new.on_conflict_do_update(
        index_elements=["game_id", "seat"],
        set_={"message_id": case((MessageMark.message_id > new.excluded.message_id,
                                  MessageMark.message_id), else_=new.excluded.message_id)}))


def hide(message_id: int, game_id: str | None = None) -> Message:
    """The operator hides a message from every page, mail and the record (kept in the table);
    `game_id`: the game it must belong to (his page's)."""
    with transaction():
        hidden = db.session.execute(update(Message).where(
            Message.id == message_id, Message.hidden_at.is_(None)).values(hidden_at=utcnow()))
        message = db.session.get(Message, message_id)
        if message is None or game_id is not None and message.game_id != game_id:
            raise NotFound(phrase("There is no message #{id} in game {game}.", id=message_id,
                                  game=game_id) if game_id else
                           phrase("There is no message #{id}.", id=message_id))
        if not changed(hidden):
            raise BadInput(phrase("Message #{id} is hidden already.", id=message_id))
    return message

