"""Reading and writing Babel's turn notation (docs/games/babel-notation.md).

The parser is forgiving about form (case, names, `;`, `,`, comments, lines
quoted in a mail reply) and knows nothing of legality: that is `rules.py`'s
business. It raises only `NotationError`, naming the 1-based step.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Iterable

from ..errors import NotationError
from ..phrases import Phrase, phrase, phrase_n
from ..text import split_steps
from .cards import TRIBES
from .steps import (
    MINE,
    THEIRS,
    Build,
    Choice,
    Destroy,
    Discard,
    Emigrate,
    Halve,
    Jump,
    Migrate,
    Move,
    Pass,
    Rob,
    Settle,
    Step,
    Switch,
)

MAX_TEXT = 20_000     # characters; a whole turn is rarely over 300
MAX_STEPS = 400

#: Each tribe's letter and names, in English, German (the printed edition's, with the dative
#: a sentence gives them: "settle 2 Perser bei den Hethitern") and Czech (plural and singular,
#: in the cases a Czech reply writes them: "Peršané", "Peršany", "Peršanů"), lower-case and
#: without diacritics: a word is looked up folded the same way (`fold`), so "Chetité",
#: "CHETITE" and "chetite" are one word.
_TRIBE_WORDS = {
    "A": ("a", "assyrians", "assyrian", "assyrer", "assyrern",
          "asyrane", "asyran", "asyranu", "asyrany", "asyranum"),
    "H": ("h", "hittites", "hittite", "hitites", "hitite", "hethiter", "hethitern",
          "chetite", "chetita", "chetitu", "chetity", "chetitum"),
    "M": ("m", "medes", "mede", "meder", "medern",
          "medove", "med", "medu", "medy", "medum"),
    "P": ("p", "persians", "persian", "perser", "persern",
          "persane", "persan", "persanu", "persany", "persanum"),
    "S": ("s", "sumerians", "sumerian", "sumerer", "sumerern",
          "sumerove", "sumer", "sumeru", "sumery", "sumerum"),
}
TRIBE_WORDS = {word: t for t, words in _TRIBE_WORDS.items() for word in words}


def fold(word: str) -> str:
    """A word as the tribe names are listed: lower-case, without diacritics."""
    decomposed = unicodedata.normalize("NFKD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))
COLUMN_WORDS = {"mine": MINE, "own": MINE, "theirs": THEIRS, "opp": THEIRS}

_LETTERS = re.compile(r"[ahmps]+")
_SPLIT_WORDS = re.compile(r"[\s,]+")


def not_a_tribe(word: str) -> Phrase:
    """The error of a word that names no tribe: each language lists its own names (the
    parser reads all three languages')."""
    return phrase("{word} is not a tribe; write A, H, M, P, S or a tribe's name (Assyrians, "
                  "Hittites, Medes, Persians, Sumerians).", word=repr(word))


def tribe(word: str) -> str:
    """One tribe from a letter or a name (English, German or Czech); raises NotationError."""
    t = TRIBE_WORDS.get(fold(word))
    if t is None:
        raise NotationError(not_a_tribe(word))
    return t


def _tribes(words: list[str]) -> tuple[str, ...]:
    """Tribes from names, letters, or runs of letters such as `SSA`."""
    out: list[str] = []
    for word in words:
        low = fold(word)
        if low in TRIBE_WORDS:
            out.append(TRIBE_WORDS[low])
        elif _LETTERS.fullmatch(low):
            out.extend(c.upper() for c in low)
        else:
            raise NotationError(not_a_tribe(word))
    return tuple(out)


MINE_OR_THEIRS = phrase("mine or theirs")
ONE_TRIBE = phrase("one tribe (A, H, M, P or S)")
TWO_TERRITORIES = phrase("two territories, from and to (e.g. migrate H S)")


def _column(keyword: str, words: list[str]) -> str:
    _arity(keyword, words, 1, MINE_OR_THEIRS)
    column = COLUMN_WORDS.get(words[0].lower())
    if column is None:
        raise NotationError(phrase("{word} is not a column; write mine or theirs.",
                                   word=repr(words[0])))
    return column


def _arity(keyword: str, words: list[str], n: int, what: Phrase) -> None:
    if len(words) != n:
        raise NotationError(phrase_n("{keyword} takes {what}; got {n} word(s) after it.",
                                     "{keyword} takes {what}; got {n} word(s) after it.",
                                     len(words), keyword=keyword, what=what))


def _one_tribe(keyword: str, words: list[str]) -> str:
    _arity(keyword, words, 1, ONE_TRIBE)
    return tribe(words[0])


def _some_tribes(keyword: str, words: list[str]) -> tuple[str, ...]:
    if not words:
        raise NotationError(phrase("{keyword} needs at least one tribe card, e.g. {keyword} S S.",
                                   keyword=keyword))
    return _tribes(words)


def _no_words(keyword: str, words: list[str]) -> None:
    if words:
        raise NotationError(phrase("{keyword} takes nothing after it; got {words}.",
                                   keyword=keyword, words=repr(" ".join(words))))


def _migrate(words: list[str]) -> Migrate:
    _arity("migrate", words, 2, TWO_TERRITORIES)
    return Migrate(tribe(words[0]), tribe(words[1]))


def _bare(keyword: str, step: Step) -> Callable[[list[str]], Step]:
    """The reader of a step that takes no words: `destroy`, `rob`, `switch`, `pass`."""
    def read(words: list[str]) -> Step:
        _no_words(keyword, words)
        return step
    return read


_READERS: dict[str, Callable[[list[str]], Step]] = {
    "move": lambda w: Move(_one_tribe("move", w)),
    "settle": lambda w: Settle(_some_tribes("settle", w)),
    "build": lambda w: Build(_column("build", w)),
    "migrate": _migrate,
    "destroy": _bare("destroy", Destroy()),
    "rob": _bare("rob", Rob()),
    "emigrate": lambda w: Emigrate(_one_tribe("emigrate", w)),
    "switch": _bare("switch", Switch()),
    "jump": lambda w: Jump(_column("jump", w)),
    "halve": lambda w: Halve(_one_tribe("halve", w)),
    "discard": lambda w: Discard(_some_tribes("discard", w)),
    "pass": _bare("pass", Pass()),
}
KEYWORDS = tuple(_READERS)


def split(text: str) -> list[str]:
    """The steps of a text as written: no blanks, comments or quoted lines."""
    return split_steps(text, MAX_TEXT, MAX_STEPS)


def read_step(piece: str) -> Step:
    words = _SPLIT_WORDS.split(piece.strip())
    words = [w for w in words if w]
    steps = ", ".join(KEYWORDS)     # notation, the same in every language
    if not words:   # only commas: the piece names no step
        raise NotationError(phrase("{word} is not a step; steps are {steps}.",
                                   word=repr(piece.strip()), steps=steps))
    keyword = words[0].lower()
    reader = _READERS.get(keyword)
    if reader is None:
        guess = difflib.get_close_matches(keyword, KEYWORDS, n=1)
        if guess:
            raise NotationError(phrase("{word} is not a step; did you mean {guess}? steps are "
                                       "{steps}.", word=repr(words[0]), guess=guess[0],
                                       steps=steps))
        raise NotationError(phrase("{word} is not a step; steps are {steps}.",
                                   word=repr(words[0]), steps=steps))
    return reader(words[1:])


def parse_steps(text: str) -> list[tuple[Step, str]]:
    """Each step with the text it was read from; raises NotationError at the failing step."""
    out = []
    for number, piece in enumerate(split(text), 1):
        try:
            out.append((read_step(piece), piece))
        except NotationError as error:
            raise error.at(number, piece) from None
    return out


def parse(text: str) -> list[Step]:
    return [step for step, _ in parse_steps(text)]


def format_steps(steps: Iterable[Choice]) -> str:
    """Canonical form: one step per line."""
    return "\n".join(str(s) for s in steps)


def one_line(steps: Iterable[Choice]) -> str:
    """The same, on one line (records, subjects)."""
    return "; ".join(str(s) for s in steps)


def canonical(text: str) -> str:
    return format_steps(parse(text))


__all__ = ["parse", "parse_steps", "format_steps", "one_line", "canonical", "split", "tribe",
           "TRIBES", "KEYWORDS"]
