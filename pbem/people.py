"""Players as people type them: `Anna <anna@example.org>`, or a name and an address."""

from __future__ import annotations

import re
from email.headerregistry import Address
from email.utils import getaddresses, parseaddr

from .errors import BadInput
from .mail.compose import NAME_LIMIT, clean

_ADDRESS = re.compile(r"[^@\s<>()\[\],;:\"\\]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
                      r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*")


def email_address(text: str) -> str:
    """A checked, lower-cased mail address; BadInput names what is wrong."""
    addr = (text or "").strip()
    if len(addr) > 254 or not _ADDRESS.fullmatch(addr):
        raise BadInput(f"{addr[:80]!r} is not a mail address (like anna@example.org).")
    try:
        Address(addr_spec=addr)
    except (ValueError, IndexError):
        raise BadInput(f"{addr[:80]!r} is not a mail address (like anna@example.org).") from None
    return addr.lower()


def player_name(text: str) -> str:
    name = clean(text)
    if not name:
        raise BadInput("Every player needs a name.")
    if len((text or "").strip()) > NAME_LIMIT:
        raise BadInput(f"A name may have at most {NAME_LIMIT} characters.")
    return name


def parse_player(text: str) -> tuple[str, str]:
    """`Name <address>` (or a bare address, whose local part becomes the name)."""
    name, addr = parseaddr(text or "")
    # More than one address in it ("Anna\r\nBcc: evil@… <anna@…>"): parseaddr takes the first.
    if not addr or "<" in (text or "") and ">" not in text or len(getaddresses([text])) > 1:
        raise BadInput(f"{(text or '')[:80]!r}: write a player as Name <address>.")
    addr = email_address(addr)
    return player_name(name or addr.split("@")[0]), addr
