"""The nine ziggurat cards, in words (the summary's "Nutzung der Zikkurat-Karten"), and the
other words the engine's sentences share: the tokens, the tiles, lists.

Every word is a phrase (`pbem.games.phrases`): the English the command line prints, which
the server says in its reader's language.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..phrases import Phrase, phrase
from .notation import LETTER

CARD_WORDS = {
    1: phrase("10 points at once"),
    2: phrase("once, one more turn after one of yours"),
    3: phrase("a stand of 7 tokens"),
    4: phrase("3 different nobles face up instead of 2 tokens"),
    5: phrase("1 noble face up with 3 or more farmers"),
    6: phrase("nobles onto fields, without a token of yours next to them"),
    7: phrase("1 more point per two cities in front of you, when cities score"),
    8: phrase("free central land joins your chains"),
    9: phrase("free river hexes join your chains"),
}

def tile_name(tile: str) -> Phrase:
    """A location tile as the engine names it ("city M P", "field 5", "field cities"): the
    value is notation; the word and the nobles' letters are said in the reader's language."""
    what, value = tile.split(" ", 1)
    if what == "city":
        return phrase("city {letters}", letters=city_letters(value))
    if value == "cities":
        return phrase("field cities")
    return phrase("field {value}", value=value)


def letters(kinds: Iterable[str]) -> str:
    """Tokens' letters apart by spaces ("F F P"), each said in the reader's language (a Czech
    merchant is "Ob": the letters cannot run together); "" for none."""
    return joined([piece for number, kind in enumerate(kinds)
                   for piece in ((" ", LETTER[kind]) if number else (LETTER[kind],))])


def city_letters(nobles: str) -> str:
    """A city's nobles as letters ("MP" -> "M P"; the board's data writes the official `S`)."""
    return letters("O" if noble == "S" else noble for noble in nobles)


def listing(items: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`: a list in words, each item said in its language."""
    if len(items) <= 1:
        return items[0] if items else ""
    return phrase("{items} and {last}", items=commas(items[:-1]), last=items[-1])


def commas(items: list[str]) -> str:
    """`a, b, c`: items joined by commas, each kept as a phrase."""
    joined = items[0]
    for item in items[1:]:
        joined = phrase("{items}, {item}", items=joined, item=item)
    return joined


def joined(parts: list[str]) -> str:
    """Pieces of one line put together as they are (the mail board's lines: an indent, a
    title, items), each kept as a phrase; plain text stays plain."""
    if not any(isinstance(p, Phrase) for p in parts):
        return "".join(parts)
    line = parts[0]
    for part in parts[1:]:
        line = phrase("{text}{more}", text=line, more=part)
    return line
