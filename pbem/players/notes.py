"""A player's private notes on a game: one text per seat, seen by nobody else.

They are shown on the seat's own pages and in its JSON only (never to another seat, in a mail
or in the record), and kept after the game ends. Saving replaces the text; empty clears it.
"""

from __future__ import annotations

import unicodedata

from flask import current_app

from pbem.errors import BadInput
from pbem.extensions import db
from pbem.games.phrases import phrase
from pbem.store import gamelog
from pbem.store.models import Note, utcnow
from pbem.store.transaction import transaction


def of_seat(game_id: str, seat: int) -> str:
    note = db.session.get(Note, (game_id, seat))
    return note.text if note is not None else ""


def save(game_id: str, seat: int, text: str) -> str:
    """Replace the seat's notes (line breaks and tabs kept, other control characters and lone
    surrogates dropped: a database refuses NUL or cannot encode them);
    BadInput past NOTES_MAX_CHARS."""
    gamelog.still_his(game_id, seat)
    text = "".join(ch for ch in (text or "").replace("\r\n", "\n")
                   if ch in "\n\t" or unicodedata.category(ch) not in ("Cc", "Cs")).strip()
    cap = int(current_app.config["NOTES_MAX_CHARS"])
    if len(text) > cap:
        raise BadInput(phrase("Your notes are {length} characters long; they may have at most "
                              "{cap}.", length=len(text), cap=cap))
    with transaction():
        note = db.session.get(Note, (game_id, seat))
        if note is None:
            db.session.add(Note(game_id=game_id, seat=seat, text=text, updated_at=utcnow()))
        else:
            note.text, note.updated_at = text, utcnow()
    return text
