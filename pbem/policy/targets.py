"""Where the server may send a player's notices: a webhook URL is http(s) and, in production,
never an address of this machine or of a private network (a player must not make the server
call its own admin ports or its neighbours: SSRF). `WEBHOOK_ALLOW_PRIVATE` (tests, a server
on a private network) lifts the second rule.

The names are resolved when the URL is set and again before each delivery (a name may change
its addresses after it was checked), and a webhook is then called at the address that was
checked (`checked_address`), never by a second lookup: a name that answers a public address to
the check and a private one to the connection (DNS rebinding) reaches nothing private."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from flask import current_app

from pbem.errors import BadInput
from pbem.games.phrases import phrase

MAX_URL = 2000


def checked_url(url: str) -> str:
    """The URL as it will be called; BadInput says what is wrong with it."""
    url = url.strip()
    parts = urlsplit(url)
    if len(url) > MAX_URL or parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadInput(phrase("A webhook is an http:// or https:// address."))
    try:
        parts.port   # noqa: B018 (a port that is not a number raises here)
    except ValueError:
        raise BadInput(phrase("A webhook is an http:// or https:// address.")) from None
    refuse_private(parts.hostname)
    return url


def addresses(host: str) -> list[str]:
    """The host's addresses, as the system's resolver gives them (an empty list: not found)."""
    try:
        found = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return []
    return list(dict.fromkeys(str(info[4][0]) for info in found))


def refuse_private(host: str) -> None:
    """BadInput when the host is (or resolves to) an address of this machine or of a private
    network, unless the settings allow that; also when it does not resolve."""
    checked_address(host)


def checked_address(host: str) -> str:
    """The address to call the host at, from one lookup whose every answer was checked;
    BadInput as `refuse_private` says."""
    found = addresses(host)
    if not found:
        raise BadInput(phrase("The webhook's host {host} is not found.", host=host))
    if current_app.config.get("WEBHOOK_ALLOW_PRIVATE"):
        return found[0]
    for address in found:
        ip = ipaddress.ip_address(str(address).split("%")[0])
        if not ip.is_global or ip.is_multicast:
            raise BadInput(phrase("The webhook's host {host} is a private address; notices go "
                                  "only to public ones.", host=host))
    return found[0]
