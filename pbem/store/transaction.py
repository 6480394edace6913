"""One use case, one transaction: everything a use case writes commits together, or nothing does.

The use cases (`pbem.play`, `pbem.players`, and the background work in `pbem.jobs`) write
inside `transaction()`; no other code commits (tests/contract/test_floors.py checks it). So
an event and the mails it causes, a mail reply and its effect, a counted request and its
refusal are committed together by construction, not by convention.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.engine import CursorResult, Result
from sqlalchemy.exc import IntegrityError

from pbem.errors import AlreadySubmitted
from pbem.extensions import db
from pbem.games.phrases import phrase


@contextmanager
def transaction() -> Iterator[None]:
    """Commit what the block wrote; roll it all back if the block (or the commit) fails.

    A unique key refused at the commit means another writer was first (the same point of a
    game's log, the same mail ingested twice): that is AlreadySubmitted.
    """
    try:
        yield
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise AlreadySubmitted(phrase("This turn was already submitted.")) from None
    except BaseException:
        db.session.rollback()
        raise


def changed(result: Result) -> int:
    """How many rows an UPDATE or DELETE changed (its cursor's row count)."""
    return result.rowcount if isinstance(result, CursorResult) else 0
