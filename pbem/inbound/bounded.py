"""Reading an incoming message within bounds, so that no single message can stop ingest.

A message larger than INGEST_MAX_BYTES, nested deeper than MAX_DEPTH multipart levels, or of
more than MAX_PARTS parts is unreadable: it is quarantined, not parsed further (the email
package parses and walks nested parts recursively: a 58 KB message of 1,000 nested parts
raised RecursionError). What a player wrote is read from at most MAX_STEPS_TEXT characters.
"""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage, Message

from flask import current_app

MAX_DEPTH = 20
MAX_PARTS = 500
MAX_STEPS_TEXT = 20_000


class Unreadable(Exception):
    """A message that cannot be read within the bounds; its text says why."""


def max_bytes() -> int:
    return int(current_app.config["INGEST_MAX_BYTES"])


def parse(raw: bytes) -> EmailMessage:
    """The message, parsed; Unreadable when it is too large or too deeply nested."""
    if len(raw) > max_bytes():
        raise Unreadable(f"larger than {max_bytes()} bytes")
    try:
        msg = email.message_from_bytes(raw, policy=email.policy.default)
    except RecursionError:
        raise Unreadable("nested too deeply to read") from None
    _check_structure(msg)
    return msg


def _check_structure(msg: EmailMessage) -> None:
    """Count parts and nesting without recursion (walk() and get_body() recurse)."""
    stack: list[tuple[Message, int]] = [(msg, 1)]
    parts = 0
    while stack:
        part, depth = stack.pop()
        parts += 1
        if depth > MAX_DEPTH:
            raise Unreadable(f"nested more than {MAX_DEPTH} levels deep")
        if parts > MAX_PARTS:
            raise Unreadable(f"more than {MAX_PARTS} parts")
        payload = part.get_payload()
        if part.is_multipart() and isinstance(payload, list):
            stack.extend((child, depth + 1) for child in payload if isinstance(child, Message))


def capped(text: str, limit: int = MAX_STEPS_TEXT) -> str:
    """What a player wrote, at most `limit` characters of it (the rest would never be read)."""
    return text[:limit]
