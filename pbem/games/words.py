"""Words the engines share in what they tell players (the server's are in pbem/mail/words.py;
engines import nothing of the server)."""

from __future__ import annotations


def count(n: int, word: str, many: str | None = None) -> str:
    """A number with its noun: "1 discard", "3 discards" (`many`: an irregular plural)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"
