"""A player's home link: opening it, and replacing a leaked one.

The home link signs (address, nonce) (`settings.home_nonce`); replacing it kills the old one
and mails the new one to the address (so a leaked home link is replaced from the leak too,
and only the owner gets the new one). What the home shows is `pbem.views.homeview`.
"""

from __future__ import annotations

from flask import current_app
from sqlalchemy import select

from pbem.errors import LinkReplaced, LinkTampered
from pbem.extensions import db
from pbem.games.phrases import phrase
from pbem.mail.compose import queue
from pbem.players import settings
from pbem.players.settings import Settings
from pbem.policy import limits, links
from pbem.store.models import Seat
from pbem.store.transaction import transaction


def open_home(token: str) -> Settings:
    """The address a home link opens, while its nonce is the live one; LinkTampered,
    LinkExpired or LinkReplaced otherwise."""
    payload = links.unsign(links.HOME, token, current_app.config["LINK_MAX_AGE_DAYS"] * 86400)
    if not (isinstance(payload, list) and len(payload) == 2
            and all(isinstance(x, str) for x in payload)):
        raise LinkTampered()
    address, nonce = payload
    found = settings.of(address)
    if found.home_nonce != nonce:
        raise LinkReplaced(phrase("This home link was replaced by a newer one, which was mailed "
                                  "to its address."), renew_path=None)
    return found


def replace_home(address: str) -> None:
    """A new home link for the address, mailed to it; the old one stops working at once
    (at most once in a while, like links)."""
    with transaction():
        limits.take(limits.LINKS_SEAT, f"home:{address}")
        fresh = settings.renew_home_nonce(address)
        name = db.session.scalar(select(Seat.name).where(Seat.email == address).limit(1))
        queue("home_link", name or address.split("@")[0], address, phrase("Your new home link"),
              {"home_url": settings.home_url(address, fresh.home_nonce), "replaced": True})
