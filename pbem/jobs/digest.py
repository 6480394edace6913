"""The daily digest: one mail listing every game that waits for an address which asked for it
on its home (`settings.DIGEST`) instead of a mail for every turn.

Its turn mails are written to the outbox as usual, but HELD (never sent on their own). The
worker calls `run` every few minutes: an address with held mails whose last digest is at least
DIGEST_INTERVAL_HOURS old gets one digest, written in the transaction that marks those mails
DIGESTED, so a mail is either still held or covered by a digest in the outbox: none is lost.
The digest lists the games from the home (`pbem.views.homeview`), where it is his turn, most urgent
first, with turn links; when no game waits for him any more (he played from his page), the
held mails are marked and nothing is sent. Going back to a mail per turn releases held mails.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask import current_app
from sqlalchemy import exists, select, update

from pbem import i18n
from pbem.extensions import db
from pbem.games.phrases import phrase, phrase_n
from pbem.mail.compose import language_for, queue
from pbem.mail.notify import carry_talk
from pbem.players import messages, settings
from pbem.policy.deadlines import utc
from pbem.store.models import AddressSettings, Mail, utcnow
from pbem.store.transaction import changed, transaction
from pbem.views import homeview
from pbem.views.words import listing


def due(now: datetime) -> list[str]:
    """The addresses a digest is due for now."""
    every = timedelta(hours=current_app.config["DIGEST_INTERVAL_HOURS"])
    held = exists().where(Mail.to_addr == AddressSettings.address, Mail.status == settings.HELD)
    rows = db.session.execute(select(AddressSettings.address, AddressSettings.digest_at).where(
        AddressSettings.mail_mode == settings.DIGEST, held)).all()
    return [address for address, last in rows if last is None or now - utc(last) >= every]


def run(now: datetime | None = None) -> list[str]:
    """Send every digest that is due; the addresses mailed."""
    now = utc(now or utcnow())
    settings.release_stale()
    return [address for address in due(now) if send(address, now)]


def send(address: str, now: datetime | None = None) -> bool:
    """One digest for the address, covering its held mails; whether one was queued."""
    try:
        return _send(address, utc(now or datetime.now(UTC)))
    except _Raced:
        return False


def _send(address: str, now: datetime) -> bool:
    with transaction():
        row = db.session.scalars(select(AddressSettings).where(AddressSettings.address == address)
                                 .with_for_update()).first()
        every = timedelta(hours=current_app.config["DIGEST_INTERVAL_HOURS"])
        if row is None or (row.digest_at is not None and now - utc(row.digest_at) < every):
            return False   # another worker sent it a moment ago
        held = list(db.session.scalars(select(Mail.id).where(
            Mail.to_addr == address, Mail.status == settings.HELD).with_for_update()))
        if not held:
            return False
        covered = db.session.execute(update(Mail).where(Mail.id.in_(held), Mail.status == settings.HELD)
                                     .values(status=settings.DIGESTED)
                                     .execution_options(synchronize_session=False))
        if changed(covered) != len(held):   # another worker took some: leave it to him
            raise _Raced()
        row.digest_at = now
        with i18n.speaking(language_for(address, None, None)):   # its deadlines in his words
            listed = homeview.build(address, now)
        if not listed.yours:
            return False   # nothing waits for him any more: the held mails are out of date
        if len(listed.yours) == 1:
            what = phrase("Today: your turn in {game} with {others}", game=listed.yours[0].title,
                          others=listing(listed.yours[0].opponents))
        else:
            what = phrase_n("Today: {n} game waits for your turn",
                            "Today: {n} games wait for your turn", len(listed.yours))
        queue("digest", listed.yours[0].name, address, what,
              {"entries": listed.yours, "others": listed.others, "talk": _talk(listed.yours),
               "home_url": settings.home_url(address)})
    return True


def _talk(entries: list[homeview.Entry]) -> dict[str, list[dict]]:
    """The others' messages his held turn mails did not carry, by game; marked as mailed in
    the digest's transaction, so his next mail carries only later ones."""
    out = {}
    for e in entries:
        talk = carry_talk(e.game, e.seat, messages.of_game(e.game, e.players))
        if talk:
            out[e.game] = talk
    return out


class _Raced(Exception):
    """Another worker marked some of these held mails at the same moment (rolled back)."""
