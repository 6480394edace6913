"""Replies as moves: the reply address of a turn mail, and the steps in a player's answer.

A turn mail's Reply-To is the server's reply address with a signed token
plus-addressed into its local part: `turns+<token>@host`. The token signs
(game, seat, seq) like a turn link, but compactly and in lower-case base32:
an address's local part may hold only 64 characters, and some mail servers
change its case. It is an HMAC-SHA256 (truncated to 80 bits) under
SECRET_KEY; the keys in SECRET_KEY_FALLBACKS still verify.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr
from functools import lru_cache
from html import unescape

from flask import current_app

MAC_BYTES = 10
_TOKEN = re.compile(r"\+([a-z2-7]+-[a-z2-7]+)@", re.IGNORECASE)
RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To")


@dataclass(frozen=True)
class ReplyToken:
    game_id: str
    seat: int
    seq: int


def _b32(data: bytes) -> str:
    return base64.b32encode(data).decode().rstrip("=").lower()


def _unb32(text: str) -> bytes:
    text = text.upper()
    return base64.b32decode(text + "=" * (-len(text) % 8))


def _mac(key: str, payload: bytes) -> bytes:
    return hmac.new(key.encode(), b"pbem-reply:" + payload, hashlib.sha256).digest()[:MAC_BYTES]


def _keys() -> list[str]:
    config = current_app.config
    return [config["SECRET_KEY"], *config.get("SECRET_KEY_FALLBACKS", [])]


def make_token(game_id: str, seat: int, seq: int) -> str:
    payload = f"{game_id}.{seat}.{seq}".encode()
    return f"{_b32(payload)}-{_b32(_mac(_keys()[0], payload))}"


def read_token(token: str) -> ReplyToken | None:
    """The (game, seat, seq) a token signs, or None when it is forged or malformed."""
    try:
        body, signature = token.lower().split("-")
        payload, mac = _unb32(body), _unb32(signature)
        game_id, seat, seq = payload.decode().split(".")
        ref = ReplyToken(game_id, int(seat), int(seq))
    except (ValueError, UnicodeDecodeError):
        return None
    if f"{_b32(payload)}-{_b32(mac)}" != token.lower():   # base32's spare last bits: one spelling only
        return None
    if not any(hmac.compare_digest(mac, _mac(key, payload)) for key in _keys()):
        return None
    return ref


def reply_address(game_id: str, seat: int, seq: int) -> str:
    """`local+token@domain` from REPLY_ADDRESS (by default the MAIL_FROM address)."""
    config = current_app.config
    local, domain = _reply_base(config.get("REPLY_ADDRESS"), config["MAIL_FROM"])
    return f"{local}+{make_token(game_id, seat, seq)}@{domain}"


@lru_cache(maxsize=16)
def _reply_base(reply_address: str | None, mail_from: str) -> tuple[str, str]:
    """The reply address's local part and domain, parsed once per configuration (every turn
    mail asks)."""
    local, _, domain = (reply_address or parseaddr(mail_from)[1]).partition("@")
    return local, domain


def find_token(msg: EmailMessage, recipients=()) -> str | None:
    """The plus-addressed token among the message's recipients (and the envelope's)."""
    addresses = list(recipients)
    for header in RECIPIENT_HEADERS:
        addresses += [addr for _, addr in getaddresses(msg.get_all(header, []))]
    for addr in addresses:
        found = _TOKEN.search(addr or "")
        if found:
            return found.group(1)
    return None


# -- the steps in an answer -------------------------------------------------

_QUOTE_HEADERS = [
    re.compile(r"^\s*On\b.*\bwrote:\s*$", re.IGNORECASE),
    re.compile(r"^\s*Am\b.*\bschrieb\b.*:\s*$", re.IGNORECASE),
    re.compile(r"^\s*Le\b.*\ba écrit\s*:\s*$", re.IGNORECASE),
    # Czech: "Dne 24. 11. 2026 v 10:00 Anna napsal(a):", Gmail's "... odesílatel Anna napsal:"
    re.compile(r"^\s*(Dne\b|.*\bodesílatel\b).*\bnapsal(a|\(a\))?\s*:\s*$", re.IGNORECASE),
    re.compile(r"^\s*-{2,}\s*(Original Message|Ursprüngliche Nachricht|Původní zpráva)\s*-{2,}",
               re.IGNORECASE),
    re.compile(r"^\s*_{10,}\s*$"),
    re.compile(r"^\s*(From|Von|De|Od):\s.*@", re.IGNORECASE),
]
_SIGNATURE = re.compile(r"^--\s*$")
_TAGS = re.compile(r"<(script|style)\b.*?</\1>|<[^>]+>", re.IGNORECASE | re.DOTALL)
# Tags that end a line. Others (a, b, span, font) sit inside one: a quote header such as
# `On ..., X &lt;<a href="mailto:...">...</a>&gt; wrote:` must stay on its line to be seen.
_BREAKS = re.compile(r"<(br|/?(p|div|blockquote|pre|hr|li|ul|ol|tr|table|h[1-6]))\b[^>]*>",
                     re.IGNORECASE)


def body_text(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    try:
        text = str(part.get_content())
    except (LookupError, ValueError):   # an unknown or broken charset
        raw = part.get_payload(decode=True)
        text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else ""
    if part.get_content_subtype() == "html":
        text = unescape(_TAGS.sub("", _BREAKS.sub("\n", text)))
    return text


def _quote_header(lines: list[str], i: int) -> int:
    """How many lines a quote header ("On ... wrote:") takes at line i: 0, 1 or 2 (wrapped)."""
    if any(q.match(lines[i]) for q in _QUOTE_HEADERS):
        return 1
    if i + 1 < len(lines) and any(q.match(lines[i] + " " + lines[i + 1]) for q in _QUOTE_HEADERS):
        return 2
    return 0


def reply_steps(msg: EmailMessage) -> str:
    """What the player wrote: the body above the quoted mail and above his signature.

    Lines quoted with `>` are left to the notation parser, which skips them.
    A quote header ("On ... wrote:") may be wrapped over two lines. A player who
    writes below the quote (bottom-posting) has nothing above it: then his
    lines between the quoted ones count, up to his signature.
    """
    lines = body_text(msg).replace("\u00a0", " ").replace("\r\n", "\n").split("\n")
    above, i = [], 0
    while i < len(lines) and not _SIGNATURE.match(lines[i]) and not _quote_header(lines, i):
        above.append(lines[i])
        i += 1
    if "\n".join(above).strip() or i == len(lines) or _SIGNATURE.match(lines[i]):
        return "\n".join(above).strip()
    below = []
    for line in lines[i + _quote_header(lines, i):]:
        if _SIGNATURE.match(line):
            break
        below.append(line)   # quoted lines (">") stay: the parser skips them
    return "\n".join(below).strip()
