"""Where a hex map's hexes are drawn: SVG coordinates from doubled (row, col) coordinates.

A board's geometry never changes during a game (only what lies on it), so it is computed
once per map in this process, not per hex on every page: a template doing this arithmetic
for a hundred hexes spent more time on it than on drawing them (benchmarks/cost.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

SIZE = 20            # a hex's outer radius
ROW_HEIGHT = 17.3205   # half a hex's height: doubled rows are this far apart
COLUMN_WIDTH = 30      # 1.5 sizes: flat-topped hexes interlock
PAD = 3
WIDE = 400           # a map wider than this is drawn full width on a phone (class "wide")


@dataclass(frozen=True)
class Layout:
    width: str                          # the SVG's viewBox size, rounded to 0.1
    height: str
    wide: bool
    at: Mapping[str, tuple[str, str]]   # hex name -> its centre (x, y), rounded to 0.1


def hex_layout(hexes: Sequence[Mapping]) -> Layout:
    """The layout of a map given as a view's hexes (each with `name`, `row`, `col`)."""
    return _layout(tuple((h["name"], h["row"], h["col"]) for h in hexes))


@lru_cache(maxsize=16)
def _layout(cells: tuple[tuple[str, int, int], ...]) -> Layout:
    c0 = min(col for _, _, col in cells)
    r0 = min(row for _, row, _ in cells)
    width = (max(col for _, _, col in cells) - c0) * COLUMN_WIDTH + 2 * SIZE + 2 * PAD
    height = (max(row for _, row, _ in cells) - r0) * ROW_HEIGHT + 2 * ROW_HEIGHT + 2 * PAD
    at = {name: (_round(PAD + SIZE + (col - c0) * COLUMN_WIDTH),
                 _round(PAD + ROW_HEIGHT + (row - r0) * ROW_HEIGHT))
          for name, row, col in cells}
    return Layout(_round(width), _round(height), width > WIDE, at)


def _round(value: float) -> str:
    """As Jinja's `round(1)` printed it: one decimal, always."""
    return str(round(value, 1))
