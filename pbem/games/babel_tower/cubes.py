"""The cubes of Babel Tower (cuboro) and the tower's geometry (docs/games/tower-rulings.md).

A cube shows a bump or a hollow on each of its six faces: `U` up, `D` down,
`N`, `E`, `S`, `W`. A cube may be turned any way, so a placed cube is its type
and the set of faces that carry its bumps. The tower is six floors of a 2x2
square, corners `NW`, `NE`, `SE`, `SW`.
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from itertools import combinations

from ..phrases import phrase, phrase_n

FACES = "UDNESW"
OPPOSITE = {"U": "D", "D": "U", "N": "S", "S": "N", "E": "W", "W": "E"}
TYPES = (0, 1, 2, 3, 4)
COUNTS = {0: 6, 1: 6, 2: 2, 3: 6, 4: 4}          # 24 cubes, 44 bumps
CUBES = sum(COUNTS.values())
BUMPS = sum(t * n for t, n in COUNTS.items())
FLOORS = 6
CORNERS = ("NW", "NE", "SE", "SW")
OUTER = {c: frozenset(c) for c in CORNERS}       # NW: N and W are outside
#: corner -> {side neighbour: the face that looks at it}
SIDES = {
    "NW": {"NE": "E", "SW": "S"},
    "NE": {"NW": "W", "SE": "S"},
    "SE": {"NE": "N", "SW": "W"},
    "SW": {"NW": "N", "SE": "E"},
}


def canonical(faces: Container[str]) -> str:
    """Faces in the order U D N E S W ('-' for none)."""
    return "".join(f for f in FACES if f in faces) or "-"


def _no_two_opposite(faces: Iterable[str]) -> bool:
    return all(OPPOSITE[a] != b for a, b in combinations(faces, 2))


def _shapes(t: int) -> list[frozenset[str]]:
    """Every set of bump faces a cube of type t can show, turned any way."""
    if t == 4:   # four bumps: the two hollows share an edge
        return [frozenset(FACES) - set(h) for h in combinations(FACES, 2) if _no_two_opposite(h)]
    return [frozenset(s) for s in combinations(FACES, t) if _no_two_opposite(s)]


#: type -> every orientation, as bump face sets (1, 6, 12, 8, 12 of them)
SHAPES = {t: _shapes(t) for t in TYPES}


def shape_error(t: int, bumps: frozenset[str]) -> str | None:
    """Why these bump faces are not a type-t cube (None when they are), without a full stop."""
    if len(bumps) != t:
        return phrase_n("a {n} has {n} bump, not {got}", "a {n} has {n} bumps, not {got}", t,
                        got=len(bumps))
    if bumps not in SHAPES[t]:
        faces = frozenset(FACES) - bumps if t == 4 else bumps
        a, b = next((a, b) for a, b in combinations(canonical(faces), 2) if OPPOSITE[a] == b)
        return SHAPE_RULES[t](a, b)
    return None


#: type -> the rule of its shape, naming the two faces that break it.
SHAPE_RULES = {
    2: lambda a, b: phrase("a 2's bumps sit on two faces that share an edge; {a} and {b} are "
                           "opposite", a=a, b=b),
    3: lambda a, b: phrase("a 3's bumps sit on three faces around one corner; {a} and {b} are "
                           "opposite", a=a, b=b),
    4: lambda a, b: phrase("a 4's two hollows sit on faces that share an edge; {a} and {b} are "
                           "opposite", a=a, b=b),
}
