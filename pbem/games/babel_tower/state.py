"""The state of a game of Babel Tower: the pool, both supplies, the floors, whose turn.

Everything is public (docs/games/tower-rulings.md): the view is the state itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..rng import Rng
from .cubes import COUNTS, CUBES, FLOORS, TYPES

DRAFT, BUILD = "draft", "build"
PICK, RANDOM = "pick", "random"


@dataclass(frozen=True, slots=True)
class Placed:
    cube: int
    bumps: frozenset[str]
    seat: int


@dataclass(frozen=True, slots=True)
class Result:
    winner: int | None     # None: a draw (the tower is complete)
    reason: str            # complete, blocked, resigned, timeout


class Tower:
    __slots__ = ("pool", "hands", "floors", "to_move", "phase", "result", "picks")

    def __init__(self, pool: Iterable[int], hands: Iterable[Iterable[int]],
                 floors: Iterable[dict[str, Placed]] | None = None, to_move: int = 0,
                 phase: str = DRAFT, result: Result | None = None, picks: int = 0):
        self.pool: list[int] = list(pool)
        self.hands: list[list[int]] = [list(h) for h in hands]
        self.floors: list[dict[str, Placed]] = [dict(f) for f in floors] if floors else [
            {} for _ in range(FLOORS)]
        self.to_move: int = to_move
        self.phase: str = phase
        self.result: Result | None = result
        self.picks: int = picks

    def copy(self) -> Tower:
        return Tower(self.pool, self.hands, self.floors, self.to_move, self.phase, self.result,
                     self.picks)

    @property
    def floor(self) -> int:
        """The lowest floor that is not complete (FLOORS when the tower is)."""
        return next((i for i, f in enumerate(self.floors) if len(f) < 4), FLOORS)

    def placed(self) -> int:
        return sum(len(f) for f in self.floors)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tower) and all(
            getattr(self, k) == getattr(other, k) for k in Tower.__slots__)

    def __repr__(self) -> str:
        return f"Tower(to_move={self.to_move}, phase={self.phase}, floors={self.floors})"


def start(seed: int, draft: str, first: int | None) -> Tower:
    """A new game: an open draft (`first` picks first), or a random deal (`first` places first).

    The seed is drawn from even when `first` is named, so the rest of the deal does not depend on it.
    """
    rng = Rng(seed)
    drawn_first = rng.below(2)
    first = drawn_first if first is None else first
    if draft == PICK:
        return Tower([COUNTS[t] for t in TYPES], [[0] * 5, [0] * 5], to_move=first, phase=DRAFT)
    cubes = rng.shuffled([t for t in TYPES for _ in range(COUNTS[t])])
    hands = [[0] * 5, [0] * 5]
    for i, cube in enumerate(cubes):
        hands[i * 2 // CUBES][cube] += 1
    return Tower([0] * 5, hands, to_move=first, phase=BUILD)
