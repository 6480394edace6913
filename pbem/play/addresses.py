"""The use cases of a player's address and links: mail his links, replace leaked ones, correct a
seat's address, and stop mailing an address that asked so.

Asking for links never invalidates anything: anybody can type anybody's address, so asking
only mails the player his current links. Replacing links (when they leaked) kills the old
seat link; the player confirms it from his own mailbox. Each use case owns its transaction.
"""

from __future__ import annotations

from sqlalchemy import delete, select

from pbem import i18n
from pbem.errors import LinkReplaced, LinkTampered, NotFound, ServerError
from pbem.extensions import db
from pbem.games.phrases import phrase
from pbem.mail import notify
from pbem.mail.people import email_address
from pbem.players import settings
from pbem.policy import limits, links
from pbem.store import gamelog
from pbem.store.models import Seat, Suppression, utcnow
from pbem.store.transaction import changed, transaction
from pbem.views import homeview

UNSUBSCRIBED, BY_OPERATOR = "unsubscribed", "operator"


def mail_links(address: str, client: str) -> None:
    """Mail an address its current links to every running game it plays (counted per client;
    at most one such mail per address in a while, and the same answer whether it plays or not)."""
    with transaction():
        limits.take(limits.LINKS_CLIENT, client)
        if limits.allow(limits.LINKS_ADDRESS, address):
            # Its deadlines written as the mail speaks (the address's language), not the asker's.
            with i18n.speaking(settings.language_of(address)):
                listed = homeview.build(address)
                running = [homeview.links_entry(e) for e in listed.yours + listed.others]
            if listed.games:   # where it is his turn first (the home's order), and his home
                notify.seat_links(address, running, settings.home_url(address), listed.games[0].name)


def mail_seat_links(game_id: str, seat: int) -> None:
    """Mail one seat its current links (from an expired or replaced link), at most once in a while."""
    loaded = _seat(game_id, seat)
    with transaction():
        limits.take(limits.LINKS_SEAT, f"{game_id}.{seat}")
        notify.current_links(loaded, seat)


class Suppressed(ServerError):
    """The operator mails a seat whose address asked never to be mailed: it would be dropped."""
    status, title = 409, "Suppressed"


def resend(game_id: str, seat: int) -> None:
    """The operator mails a seat again, now: the turn mail, when it owes a decision (one held
    for a digest or dropped for a suppressed address), else its current links."""
    loaded = _seat(game_id, seat)
    address = gamelog.address_of(game_id, seat)
    if address and suppressed(address):
        raise Suppressed(f"{address} asked never to be mailed: clear it from the suppression list "
                         "first, then mail again.")
    with transaction():
        _mail_seat(loaded, seat)


def _mail_seat(loaded: gamelog.Loaded, seat: int) -> None:
    """What the seat needs to play: its turn mail, when it owes a decision; else its links."""
    if loaded.decision_of(seat) is not None and not loaded.over:
        notify.turn_again(loaded, seat)
    else:
        notify.current_links(loaded, seat)


def ask_to_replace(game_id: str, seat: int) -> None:
    """Mail the seat's own address a link that replaces its links (at most once in a while)."""
    loaded = _seat(game_id, seat)
    nonce = gamelog.current_nonce(game_id, seat)
    with transaction():
        limits.take(limits.LINKS_SEAT, f"{game_id}.{seat}")
        notify.replace_links(loaded, seat, links.url_of(links.REPLACE, [game_id, seat, nonce]))


def replace_links(token: str) -> gamelog.Loaded:
    """The player confirmed from his mailbox: his seat gets a new link, the old one dies, and
    the new links are mailed to him. A replacement link works once."""
    payload = links.unsign(links.REPLACE, token, REPLACE_MAX_AGE)
    if not (isinstance(payload, list) and len(payload) == 3 and isinstance(payload[0], str)
            and isinstance(payload[1], int)):
        raise LinkTampered()
    game_id, seat, nonce = payload
    loaded = _seat(game_id, seat)
    with transaction():
        limits.lock(f"seat-links:{game_id}.{seat}")   # two clicks of one link: one replacement
        if gamelog.current_nonce(game_id, seat) != nonce:
            raise LinkReplaced(phrase("These links were replaced already; the new ones are in "
                                      "your mailbox."), renew_path=None)
        gamelog.reissue_nonce(game_id, seat)
        notify.links_replaced(loaded, seat)
    return loaded


REPLACE_MAX_AGE = 2 * 86400


def set_address(game_id: str, seat: int, address: str) -> None:
    """The operator corrects a seat's address (a typo at creation). Every link mailed to the old
    address dies at once, its turn links too (the old address may belong to somebody else): the
    seat gets a new nonce. The new address gets the mail it never had: the invitation (the game
    as it sees it, the decline link, its links) while it may still decline, else its turn mail
    when it owes a decision, else its links."""
    address = email_address(address)
    loaded = _seat(game_id, seat)
    with transaction():
        row = db.session.get(Seat, (game_id, seat))
        if row is None:
            raise NotFound(phrase("Game {game} has no seat {seat}.", game=game_id, seat=seat))
        row.email = address
        gamelog.reissue_nonce(game_id, seat)
        db.session.flush()
        if not loaded.over and not loaded.has_decided(seat):
            notify.invitation(loaded, seat)
        else:
            _mail_seat(loaded, seat)


def _seat(game_id: str, seat: int) -> gamelog.Loaded:
    loaded = gamelog.load(game_id)
    if not 0 <= seat < len(loaded.seats):
        raise NotFound(phrase("Game {game} has no seat {seat}.", game=game_id, seat=seat))
    return loaded


# -- never mail me again -------------------------------------------------------------------

def suppress(address: str, reason: str = UNSUBSCRIBED) -> None:
    """No mail goes to this address any more (queued mail included): it is dropped at delivery."""
    with transaction():
        if db.session.get(Suppression, address) is None:
            db.session.add(Suppression(address=address, reason=reason, created_at=utcnow()))


def unsuppress(address: str) -> bool:
    """Mail this address again (the player, or the operator); False when it was not suppressed."""
    if "\x00" in address:   # no address holds one (and PostgreSQL refuses it in a query)
        return False
    with transaction():
        gone = db.session.execute(delete(Suppression).where(Suppression.address == address))
    return bool(changed(gone))


def suppressed(address: str) -> bool:
    return db.session.scalar(select(Suppression.address).where(Suppression.address == address)) is not None


def suppressions() -> list[Suppression]:
    return list(db.session.scalars(select(Suppression).order_by(Suppression.created_at)))
