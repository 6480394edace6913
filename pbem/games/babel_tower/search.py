"""Searching for a complete tower: which 24 placements fill all six floors?

A depth-first search over the cubes still free, corner by corner in the order
NW, NE, SE, SW (each touches one already placed, as the ground floor asks).
Used by the tests (a complete tower exists under the rulings) and to set up
a game that ends in a draw.
"""

from __future__ import annotations

from .cubes import CORNERS, COUNTS, SHAPES, TYPES
from .rules import violation
from .state import BUILD, Placed, Tower


def complete_tower(prefer: tuple[int, ...] = (4, 3, 2, 1, 0)) -> list[tuple[int, str, frozenset[str]]] | None:
    """The placements of one complete tower, in building order (None if none exists)."""
    left = dict(COUNTS)
    state = Tower([0] * 5, [[0] * 5, [0] * 5], phase=BUILD)
    order = [t for t in prefer if t in TYPES]
    path: list[tuple[int, str, frozenset[str]]] = []

    def fill() -> bool:
        floor_no = state.floor
        if floor_no == len(state.floors):
            return True
        corner = next(c for c in CORNERS if c not in state.floors[floor_no])
        for cube in order:
            if not left[cube]:
                continue
            for bumps in SHAPES[cube]:
                if violation(state, cube, corner, bumps) is None:
                    state.floors[floor_no][corner] = Placed(cube, bumps, len(path) % 2)
                    left[cube] -= 1
                    path.append((cube, corner, bumps))
                    if fill():
                        return True
                    path.pop()
                    left[cube] += 1
                    del state.floors[floor_no][corner]
        return False

    return path if fill() else None
