"""Small numbers typed by people: digits only, and few of them.

`int()` accepts "²" and "٣" (other scripts' digits), and refuses more than 4,300 digits
with a ValueError that no caller expects (a 500): a number we ask for has a few digits.
"""

from __future__ import annotations

MAX_DIGITS = 9


def small_int(text: str, max_digits: int = MAX_DIGITS) -> int | None:
    """The number `text` spells in ASCII digits, or None (not a number, or too long)."""
    text = (text or "").strip()
    if not text or len(text) > max_digits or not (text.isascii() and text.isdigit()):
        return None
    return int(text)
