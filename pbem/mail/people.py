"""Players as people type them: `Anna <anna@example.org>`, or a name and an address."""

from __future__ import annotations

import re
from email.headerregistry import Address
from email.utils import getaddresses, parseaddr

from pbem.errors import BadInput
from pbem.games.phrases import phrase
from pbem.mail.compose import NAME_LIMIT, clean

_ADDRESS = re.compile(r"[^@\s<>()\[\],;:\"\\]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
                      r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*")


def email_address(text: str) -> str:
    """A checked, lower-cased mail address; BadInput names what is wrong."""
    addr = (text or "").strip()
    if len(addr) > 254 or not _ADDRESS.fullmatch(addr):
        raise BadInput(_not_an_address(addr))
    try:
        Address(addr_spec=addr)
    except (ValueError, IndexError):
        raise BadInput(_not_an_address(addr)) from None
    return addr.lower()


def _not_an_address(addr: str):
    return phrase("{address} is not a mail address (like anna@example.org).",
                  address=repr(addr[:80]))


def player_name(text: str) -> str:
    name = clean(text)
    if not name:
        raise BadInput(phrase("Every player needs a name."))
    if len((text or "").strip()) > NAME_LIMIT:
        raise BadInput(phrase("A name may have at most {most} characters.", most=NAME_LIMIT))
    return name


def parse_player(text: str) -> tuple[str, str]:
    """`Name <address>` (or a bare address, whose local part becomes the name)."""
    name, addr = parseaddr(text or "")
    # More than one address in it ("Anna\r\nBcc: evil@… <anna@…>"): parseaddr takes the first.
    if not addr or "<" in (text or "") and ">" not in text or len(getaddresses([text])) > 1:
        raise BadInput(phrase("{text}: write a player as Name <address>.",
                              text=repr((text or "")[:80])))
    addr = email_address(addr)
    return player_name(name or addr.split("@")[0]), addr
