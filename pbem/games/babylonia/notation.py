"""The Babylonia turn notation (docs/games/babylonia-rulings.md, "Notation"), read apart from legality.

    farmer g7 | priest g7 | merchant g7 | official g7   (or F g7, P g7, M g7, O g7)
    Bauer g7 ... (B g7, P g7, H g7, Be g7) | rolník g7 ... (R g7, K g7, Ob g7, Ú g7)
    score g7        the scoring order, when several became surrounded
    card 4          take ziggurat card 4
    extra           use card 2: one more turn after this one

Words and letters are read in any case and in all three languages (`LETTERS`), so a
German or Czech player writes his own; the canonical form is the English word and the
lower-case hex. `?` stands for a face-down token's kind where it is hidden.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import NotationError
from ..phrases import phrase
from ..text import split_steps
from .board import raw

WORDS = {"F": "farmer", "P": "priest", "M": "merchant", "O": "official"}

#: Each token's letter in each language: the initial of the printed editions' word (German
#: Bauer, Priester, Händler, Beamter; Czech rolník, kněz, obchodník, úředník). The parser reads
#: every language's, so no letter may name two kinds in any two: where initials clash (Bauer
#: and Beamter; obchodník and the English official's O) the second takes two letters, Be and
#: Ob. The catalogues say `LETTER` the same way (tests/babylonia/test_letters.py).
LETTERS = {
    "en": {"F": "F", "P": "P", "M": "M", "O": "O"},
    "de": {"F": "B", "P": "P", "M": "H", "O": "Be"},
    "cs": {"F": "R", "P": "K", "M": "Ob", "O": "Ú"},
}
#: The letters as phrases, said in the reader's language (the board, the mails, the key).
LETTER = {"F": phrase("F"), "P": phrase("P"), "M": phrase("M"), "O": phrase("O")}
#: The words a player may write for a token, in each language (with the German accusative and
#: the Czech words also without their accents, as a keyboard without them writes them).
_SPELLINGS = {
    "F": ("farmer", "bauer", "bauern", "rolník", "rolnik"),
    "P": ("priest", "priester", "kněz", "knez"),
    "M": ("merchant", "händler", "haendler", "handler", "obchodník", "obchodnik"),
    "O": ("official", "beamter", "beamten", "úředník", "urednik", "u"),
}
KIND_OF = {**{w: k for k, words in _SPELLINGS.items() for w in words},
           **{letters[k].lower(): k for letters in LETTERS.values() for k in letters}}
HEXES = frozenset(h["name"] for h in raw()["hexes"])


@dataclass(frozen=True)
class Play:
    kind: str      # F P M O
    hex: str

    def __str__(self) -> str:
        return f"{WORDS[self.kind]} {self.hex}"


@dataclass(frozen=True)
class Score:
    hex: str

    def __str__(self) -> str:
        return f"score {self.hex}"


@dataclass(frozen=True)
class Card:
    number: int

    def __str__(self) -> str:
        return f"card {self.number}"


@dataclass(frozen=True)
class Extra:
    def __str__(self) -> str:
        return "extra"


Step = Play | Score | Card | Extra


def parse_one(text: str, number: int = 1) -> Step:
    words = text.lower().split()
    if words == ["extra"]:
        return Extra()
    if len(words) != 2:
        raise NotationError(phrase("a step is a token and a hex (farmer g7), score HEX, card N or "
                                   "extra."),
                            number, text)
    head, arg = words
    if head == "card":
        # Read as one digit after leading zeros: int() of a 5000-digit string raises ValueError.
        digits = arg.lstrip("0")
        if not (arg.isascii() and arg.isdigit()) or len(digits) != 1 or digits == "0":
            raise NotationError(phrase("{arg} is not a ziggurat card; cards are numbered 1 to 9.",
                                       arg=repr(arg)), number, text)
        return Card(int(digits))
    if head != "score" and head not in KIND_OF:
        raise NotationError(phrase("{head} is not a step; write farmer, priest, merchant, "
                                   "official (F, P, M, O), score, card or extra.", head=repr(head)),
                            number, text)
    if arg not in HEXES:
        raise NotationError(phrase("{arg} is not a hex of the board (a1 to q13).", arg=repr(arg)),
                            number, text)
    return Score(arg) if head == "score" else Play(KIND_OF[head], arg)


def parse_steps(text: str) -> list[tuple[Step, str]]:
    """Each step with the text it was read from, in order."""
    return [(parse_one(piece, n), piece) for n, piece in enumerate(split_steps(text), 1)]


def parse(text: str) -> list[Step]:
    return [step for step, _ in parse_steps(text)]


def canonical(text: str) -> str:
    return "\n".join(str(step) for step in parse(text))
