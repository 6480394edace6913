"""Words the engines share in what they tell players (the server's are in pbem/views/words.py;
engines import nothing of the server). Each is a phrase (`phrases.py`): English as it always
was, said in the reader's language by the server."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .phrases import Phrase, phrase, phrase_n

#: The counted nouns engines tell players, each in every language's plural forms.
NOUNS: dict[str, Callable[[int], Phrase]] = {
    "card": lambda n: phrase_n("{n} card", "{n} cards", n),
    "discard": lambda n: phrase_n("{n} discard", "{n} discards", n),
}


def count(n: int, word: str, many: str | None = None) -> str:
    """A number with its noun: "1 discard", "3 discards" (`many`: an irregular plural). A noun
    of `NOUNS` is a phrase with the plural forms of each language; any other stays English."""
    if word in NOUNS and many is None:
        return NOUNS[word](n)
    return f"{n} {word if n == 1 else (many or word + 's')}"


def listing(items: Sequence[Any]) -> Any:
    """Names or phrases in a list, as one phrase: "Bob", "Bob and you", "Anna, Bob and you"
    (each language joins with its own "and")."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return phrase("{first} and {last}", first=items[0], last=items[1])
    return phrase("{first}, {rest}", first=items[0], rest=listing(items[1:]))
