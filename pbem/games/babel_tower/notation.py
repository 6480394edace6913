"""The notation of Babel Tower: `pick T` and `place T CORNER FACES` (docs/games/tower-rulings.md).

Forgiving about case, spaces and face order; canonical form orders faces
U D N E S W and writes `-` for none. A corner may be named in German or Czech too (`NO`, `SV`:
`words.CORNER_LETTERS`); the canonical form names it in English. Raises only NotationError.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import NotationError
from ..phrases import phrase
from ..text import split_steps
from .cubes import FACES, canonical
from .words import CORNER_LETTERS

#: A corner by any language's name of it ("NO" and "SV" are "NE").
CORNER_OF = {name: corner for names in CORNER_LETTERS.values() for corner, name in names.items()}


@dataclass(frozen=True, slots=True)
class Pick:
    cube: int

    def __str__(self) -> str:
        return f"pick {self.cube}"


@dataclass(frozen=True, slots=True)
class Place:
    cube: int
    corner: str
    bumps: frozenset[str]

    def __str__(self) -> str:
        return f"place {self.cube} {self.corner} {canonical(self.bumps)}"


def _cube(word: str) -> int:
    if word not in ("0", "1", "2", "3", "4"):
        raise NotationError(phrase("{word} is not a cube; cubes are 0, 1, 2, 3 and 4 (their bumps).",
                                   word=repr(word)))
    return int(word)


def _faces(word: str) -> frozenset[str]:
    if word == "-":
        return frozenset()
    bad = [f for f in word if f.upper() not in FACES or not f.isascii()]   # not "ſ", which upper() makes S
    faces = word.upper()
    if bad:
        raise NotationError(phrase("{face} is not a face; faces are U D N E S W, or - for none.",
                                   face=repr(bad[0])))
    if len(set(faces)) != len(faces):
        raise NotationError(phrase("{word} names a face twice.", word=repr(word)))
    return frozenset(faces)


def read_step(piece: str) -> Pick | Place:
    words = piece.split()
    keyword = words[0].lower()
    if keyword == "pick":
        if len(words) != 2:
            raise NotationError(phrase("pick takes one cube, e.g. {example}.", example="pick 3"))
        return Pick(_cube(words[1]))
    if keyword == "place":
        if len(words) != 4:
            raise NotationError(phrase("place takes a cube, a corner and its bump faces, e.g. {example}.",
                                      example="place 3 SW UNE"))
        corner = CORNER_OF.get(words[2].upper(), "")
        if not corner:
            raise NotationError(phrase("{word} is not a corner; corners are NW, NE, SE and SW.",
                                      word=repr(words[2])))
        return Place(_cube(words[1]), corner, _faces(words[3]))
    raise NotationError(phrase("{word} is not a step; steps are {pick} and {place}.",
                              word=repr(words[0]), pick="pick", place="place"))


def parse_steps(text: str) -> list[tuple[Pick | Place, str]]:
    out = []
    for number, piece in enumerate(split_steps(text, 20_000, 10), 1):
        try:
            out.append((read_step(piece), piece))
        except NotationError as error:
            raise error.at(number, piece) from None
    return out


def parse(text: str) -> list[Pick | Place]:
    return [step for step, _ in parse_steps(text)]
