"""Reading and writing Babel's turn notation (BABEL-NOTATION.md).

The parser is forgiving about form (case, names, `;`, `,`, comments, lines
quoted in a mail reply) and knows nothing of legality: that is `rules.py`'s
business. It raises only `NotationError`, naming the 1-based step.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable

from ..errors import NotationError
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

_TRIBE_WORDS = {
    "A": ("a", "assyrians", "assyrian", "assyrer"),
    "H": ("h", "hittites", "hittite", "hitites", "hitite", "hethiter"),
    "M": ("m", "medes", "mede", "meder"),
    "P": ("p", "persians", "persian", "perser"),
    "S": ("s", "sumerians", "sumerian", "sumerer"),
}
TRIBE_WORDS = {word: t for t, words in _TRIBE_WORDS.items() for word in words}
COLUMN_WORDS = {"mine": MINE, "own": MINE, "theirs": THEIRS, "opp": THEIRS}

_LETTERS = re.compile(r"[ahmps]+")
_SPLIT_WORDS = re.compile(r"[\s,]+")

TRIBE_HINT = "write A, H, M, P, S or a tribe's name"


def tribe(word: str) -> str:
    """One tribe from a letter or a name; raises NotationError."""
    t = TRIBE_WORDS.get(word.lower())
    if t is None:
        raise NotationError(f"{word!r} is not a tribe; {TRIBE_HINT}.")
    return t


def _tribes(words: list[str]) -> tuple[str, ...]:
    """Tribes from names, letters, or runs of letters such as `SSA`."""
    out: list[str] = []
    for word in words:
        low = word.lower()
        if low in TRIBE_WORDS:
            out.append(TRIBE_WORDS[low])
        elif _LETTERS.fullmatch(low):
            out.extend(c.upper() for c in low)
        else:
            raise NotationError(f"{word!r} is not a tribe; {TRIBE_HINT}.")
    return tuple(out)


def _column(keyword: str, words: list[str]) -> str:
    _arity(keyword, words, 1, "mine or theirs")
    column = COLUMN_WORDS.get(words[0].lower())
    if column is None:
        raise NotationError(f"{words[0]!r} is not a column; write mine or theirs.")
    return column


def _arity(keyword: str, words: list[str], n: int, what: str) -> None:
    if len(words) != n:
        raise NotationError(f"{keyword} takes {what}; got {len(words)} word(s) after it.")


def _one_tribe(keyword: str, words: list[str]) -> str:
    _arity(keyword, words, 1, "one tribe (A, H, M, P or S)")
    return tribe(words[0])


def _some_tribes(keyword: str, words: list[str]) -> tuple[str, ...]:
    if not words:
        raise NotationError(f"{keyword} needs at least one tribe card, e.g. {keyword} S S.")
    return _tribes(words)


def _no_words(keyword: str, words: list[str]) -> None:
    if words:
        raise NotationError(f"{keyword} takes nothing after it; got {' '.join(words)!r}.")


def _migrate(words: list[str]) -> Migrate:
    _arity("migrate", words, 2, "two territories, from and to (e.g. migrate H S)")
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
    if not words:   # only commas: the piece names no step
        raise NotationError(f"{piece.strip()!r} is not a step; steps are {', '.join(KEYWORDS)}.")
    keyword = words[0].lower()
    reader = _READERS.get(keyword)
    if reader is None:
        guess = difflib.get_close_matches(keyword, KEYWORDS, n=1)
        hint = f"did you mean {guess[0]}? " if guess else ""
        raise NotationError(f"{words[0]!r} is not a step; {hint}steps are {', '.join(KEYWORDS)}.")
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
