"""Public names: the name an address plays under where strangers see it (its player page, the
ladders, challenges, leagues). The address itself is shown to nobody but its owner (his home)
and the operator; every public page and JSON names a player by this name only.

- An address without a public name plays as before: unrated and invisible.
- A name is cleaned like a seat's name (one line, no control or invisible characters), then
  must be 2-40 characters of letters, digits, spaces and `. _ -`; it may not look like an
  address (no `@`) nor hold a `/` (it is a path: `/p/<name>`).
- Names are unique case-insensitively (`folded`: case-folded, accents kept), so "Anna" and
  "anna" cannot both exist; changing only the case of one's own name is allowed.
- A name may change at most once every CHANGE_DAYS days; the first choice is free.
- Bad input: BadInput naming what is wrong, nothing written.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select

from pbem.errors import AlreadySubmitted, BadInput
from pbem.extensions import db
from pbem.games.phrases import phrase
from pbem.store.models import PublicName, utcnow
from pbem.store.transaction import transaction

SHORTEST, LONGEST = 2, 40
#: Days between two changes of one address's public name.
CHANGE_DAYS = 30
# Letters and digits of any script, marks (accents as combining characters), spaces and a few
# joiners; what a name is read as, never markup or a path.
_ALLOWED = re.compile(r"[\w .\-]+")
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]+")
_INVISIBLE = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\u00ad]+")


def folded(name: str) -> str:
    """The form two names are compared in: "Anna" and "ANNA" fold alike, "Anňa" does not."""
    return unicodedata.normalize("NFC", name).casefold()


def cleaned(text: str | None) -> str:
    """A public name as stored; BadInput says why it cannot be one. Cleaned like a seat's
    name (`pbem.mail.compose.clean`: no control or invisible characters), spaces collapsed."""
    name = _CONTROL.sub(" ", _INVISIBLE.sub("", unicodedata.normalize("NFC", text or "")))
    name = " ".join(name.split())
    if len(name) < SHORTEST:
        raise BadInput(phrase("A public name needs at least {least} characters.", least=SHORTEST))
    if len(name) > LONGEST:
        raise BadInput(phrase("A public name may have at most {most} characters.", most=LONGEST))
    if "@" in name:
        raise BadInput(phrase("A public name may not look like a mail address (no @)."))
    if not _ALLOWED.fullmatch(name) or not any(ch.isalnum() for ch in name):
        raise BadInput(phrase("A public name is made of letters, digits, spaces and . _ - only."))
    return name


def name_of(address: str | None) -> str | None:
    """The public name of an address, or None (it plays unrated and invisible)."""
    if not address:
        return None
    return db.session.scalar(select(PublicName.name)
                             .where(PublicName.address == address.strip().lower()))


def names_of(addresses) -> dict[str, str]:
    """{address: public name} of those addresses that have one (lower-cased keys): one query."""
    wanted = {a.strip().lower() for a in addresses if a}
    if not wanted:
        return {}
    rows = db.session.execute(select(PublicName.address, PublicName.name)
                              .where(PublicName.address.in_(sorted(wanted))))
    return {address: name for address, name in rows}


def address_of(name: str | None) -> str | None:
    """The address behind a public name (case-insensitive), or None. Never shown in public:
    the server uses it to find the player's games."""
    if not name:
        return None
    return db.session.scalar(select(PublicName.address)
                             .where(PublicName.folded == folded(" ".join(name.split()))))


def next_change(address: str, now: datetime | None = None) -> datetime | None:
    """When the address may next change its name; None: now (or it has none yet)."""
    return _next_change(db.session.get(PublicName, address.strip().lower()), now)


def on_home(address: str, now: datetime | None = None) -> tuple[str | None, datetime | None]:
    """The address's public name and when it may next change (`next_change`): one query."""
    row = db.session.get(PublicName, address.strip().lower())
    return (row.name if row is not None else None), _next_change(row, now)


def _next_change(row: PublicName | None, now: datetime | None) -> datetime | None:
    if row is None:
        return None
    changed = row.changed_at if row.changed_at.tzinfo else row.changed_at.replace(tzinfo=UTC)
    allowed = changed + timedelta(days=CHANGE_DAYS)
    return allowed if allowed > (now or utcnow()) else None


def choose(address: str, text: str, now: datetime | None = None) -> str:
    """Give an address a public name, or change it; the name as stored. BadInput (nothing
    written): a bad name, one another address holds, or a change within CHANGE_DAYS days."""
    address, name = address.strip().lower(), cleaned(text)
    try:
        return _choose(address, name, now or utcnow())
    except AlreadySubmitted:   # the unique key: another address took it at the same moment
        raise BadInput(phrase("The public name {name} is taken; choose another.", name=name)) from None


def _choose(address: str, name: str, now: datetime) -> str:
    with transaction():
        row = db.session.get(PublicName, address, with_for_update=True)
        if row is not None and row.name == name:
            return name
        holder = db.session.scalar(select(PublicName.address)
                                   .where(PublicName.folded == folded(name)))
        if holder is not None and holder != address:
            raise BadInput(phrase("The public name {name} is taken; choose another.", name=name))
        if row is None:
            db.session.add(PublicName(address=address, name=name, folded=folded(name),
                                      changed_at=now))
            return name
        if holder != address and (allowed := next_change(address, now)) is not None:
            raise BadInput(phrase("A public name may change once in {days} days; yours may "
                                  "change again on {date}.", days=CHANGE_DAYS,
                                  date=allowed.date().isoformat()))
        # Only the case changed (the same folded name): no wait, it is still the same name.
        if holder != address:
            row.changed_at = now
        row.name, row.folded = name, folded(name)
    return name


def count() -> int:
    return db.session.scalar(select(func.count()).select_from(PublicName)) or 0
