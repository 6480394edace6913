"""Where the tower's cubes are drawn: an isometric picture computed from a view (pure geometry).

The tower is seen from the south-east, above: each cube shows its up, south and east faces,
each with its bump (a stud) or hollow (a dent). The floors stand a little apart and so do
the four corners of a floor, so every floor reads on its own. The faces the picture cannot
show (north, west, down) are in each cube's title and in the floor plans beside it.

`drawing(view)` answers plain data (SVG points and transforms as strings) for the template
`templates/games/babel-tower/board.html`; nothing here knows Flask or the database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import cos, radians
from typing import Any

from ..errors import NotationError
from ..phrases import phrase
from ..text import split_steps
from .cubes import FLOORS, canonical
from .notation import Place, read_step
from .words import bumps_in_words, corner_name

SIZE = 30                   # a cube's edge, in SVG units
GAP = 0.14                  # between the corners of a floor, in cube edges
FLOOR_GAP = 0.32            # between floors
PAD = 6
_C = cos(radians(30)) * SIZE   # one step east moves right and down, one step south left and down
_H = 0.5 * SIZE
_V = SIZE
#: corner -> (column eastwards, row southwards)
PLACE = {"NW": (0, 0), "NE": (1, 0), "SW": (0, 1), "SE": (1, 1)}

Point = tuple[float, float, float]


def _project(p: Point) -> tuple[float, float]:
    x, y, z = p
    return (x - y) * _C, (x + y) * _H - z * _V


@dataclass(frozen=True)
class Box:
    """The drawing's extent: every projected point lies inside."""
    left: float
    top: float
    width: float
    height: float


def _extent(floors: int) -> Box:
    """The box around `floors` floors (the picture grows as the tower does)."""
    span = 2 + GAP
    corners = [(x, y, z) for x in (0, span) for y in (0, span)
               for z in (0, floors * (1 + FLOOR_GAP) - FLOOR_GAP)]
    xs, ys = zip(*(_project(p) for p in corners))
    return Box(min(xs) - PAD, min(ys) - PAD, max(xs) - min(xs) + 2 * PAD,
               max(ys) - min(ys) + 2 * PAD)



def _origin(floor: int, corner: str) -> Point:
    col, row = PLACE[corner]
    return col * (1 + GAP), row * (1 + GAP), floor * (1 + FLOOR_GAP)


def _faces(o: Point) -> dict[str, tuple[Point, Point, Point]]:
    """For each visible face: a corner of it and its two edges (as vectors)."""
    x, y, z = o
    return {
        "U": ((x, y, z + 1), (1, 0, 0), (0, 1, 0)),
        "S": ((x, y + 1, z + 1), (1, 0, 0), (0, 0, -1)),
        "E": ((x + 1, y + 1, z + 1), (0, -1, 0), (0, 0, -1)),
    }


def _add(p: Point, *vectors: tuple[float, Point]) -> Point:
    x, y, z = p
    for k, (a, b, c) in vectors:
        x, y, z = x + k * a, y + k * b, z + k * c
    return x, y, z


def _points(points: Sequence[Point]) -> str:
    return " ".join(f"{X:.1f},{Y:.1f}" for X, Y in map(_project, points))


def _face(start: Point, u: Point, v: Point) -> str:
    return _points([start, _add(start, (1, u)), _add(start, (1, u), (1, v)), _add(start, (1, v))])


def _mark(start: Point, u: Point, v: Point, radius: float = 0.26) -> str:
    """The transform taking a unit circle to the face's middle, flattened like the face."""
    cx, cy = _project(_add(start, (0.5, u), (0.5, v)))
    ux, uy = (a - b for a, b in zip(_project(_add(start, (radius, u))), _project(start)))
    vx, vy = (a - b for a, b in zip(_project(_add(start, (radius, v))), _project(start)))
    return f"matrix({ux:.2f} {uy:.2f} {vx:.2f} {vy:.2f} {cx:.1f} {cy:.1f})"


def last_placed(view: Mapping[str, Any], step: str | None) -> tuple[int, str] | None:
    """The (floor, corner) of the cube a `place T CORNER FACES` step put on the tower: floors are
    built from the bottom, so it is the highest cube at that corner of that type and those bumps
    (a later cube may stand above it: the step shown may be the opponent's, before one's own)."""
    try:
        pieces = split_steps(step or "")
        placed = read_step(pieces[-1]) if pieces else None
    except NotationError:
        return None
    if not isinstance(placed, Place):
        return None
    bumps = canonical(placed.bumps)
    for number in range(len(view["floors"]) - 1, -1, -1):
        cell = view["floors"][number].get(placed.corner)
        if cell and cell["cube"] == placed.cube and cell["bumps"] == bumps:
            return number, placed.corner
    return None


def drawing(view: Mapping[str, Any], last_step: str | None = None) -> dict[str, Any]:
    """The picture of the tower in `view` (the engine's view): its cubes back to front, bottom to
    top, with faces and marks; the free corners of the floor being built (to tap); `last_step`
    (notation) marks the cube it placed."""
    last = last_placed(view, last_step)
    cubes: list[dict[str, Any]] = []
    for number, floor in enumerate(view["floors"]):
        for corner in ("NW", "NE", "SW", "SE"):    # back to front: later ones hide earlier ones
            cell = floor.get(corner)
            if not cell:
                continue
            faces = []
            for face, (start, u, v) in _faces(_origin(number, corner)).items():
                faces.append({"face": face, "points": _face(start, u, v),
                              "bump": face in cell["bumps"], "mark": _mark(start, u, v)})
            cubes.append({"kind": "cube", "floor": number + 1, "corner": corner,
                          "cube": cell["cube"], "seat": cell["seat"], "faces": faces,
                          "last": last == (number, corner),
                          "title": phrase("floor {floor}, {corner}: a {cube}, {bumps}",
                                          floor=number + 1, corner=corner_name(corner), cube=cell["cube"],
                                          bumps=bumps_in_words(cell["bumps"]))})
    free: list[dict[str, Any]] = []
    building = view["floor"]
    if building < FLOORS and view.get("phase") != "over":
        for corner in ("NW", "NE", "SW", "SE"):
            if not view["floors"][building].get(corner):
                slot = _faces(_origin(building, corner))
                start, u, v = slot["U"]
                sides = [_face(*slot["S"]), _face(*slot["E"])]
                label = _project(_add(start, (0.5, u), (0.5, v)))
                free.append({"kind": "free", "floor": building + 1, "corner": corner,
                             "top": _face(start, u, v), "sides": sides,
                             "x": f"{label[0]:.1f}", "y": f"{label[1] + 4:.1f}"})
    shown = max([building + 1 if free else 1] + [c["floor"] for c in cubes])
    box = _extent(min(shown, FLOORS))
    return {"box": f"{box.left:.1f} {box.top:.1f} {box.width:.1f} {box.height:.1f}",
            "width": f"{box.width:.0f}", "height": f"{box.height:.0f}",
            "cubes": cubes, "free": free, "building": building + 1,
            "painted": sorted(cubes + free, key=_depth)}


def _depth(item: Mapping[str, Any]) -> tuple[int, int]:
    """Painting order: floor by floor upwards, and back (north-west) to front on each."""
    col, row = PLACE[item["corner"]]
    return item["floor"], col + row
