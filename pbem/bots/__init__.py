"""Computer players: given what one seat may know, the decision a bot of some level submits.

The server's one way in is `choose`: the worker (a bot seat's turn) calls it and submits the
text it returns through `turns.submit`, exactly as a person's reply. No Flask, no database.

Levels: `random` plays a uniformly random legal decision; `easy`, `normal` and `strong` search
(`search.py`: ISMCTS over the steps of the decision owed) with more playouts each (`BUDGETS`).
Every level decides from what its seat may know only, and the same (state, seat, level, seed)
always gives the same decision, unless a level's time cap cuts a search short (a slow machine).
"""

from __future__ import annotations

from typing import Any

from ..games.base import Engine
from ..games.rng import SearchRng
from .search import Budget, ismcts

LEVELS = ("random", "easy", "normal", "strong")

#: Playouts per decision, and the time cap that guards a slow machine (seconds, one core).
BUDGETS = {
    "easy": Budget(playouts=40, seconds=1.0),
    "normal": Budget(playouts=250, seconds=2.5),
    "strong": Budget(playouts=1000, seconds=5.0),
}


class UnknownLevel(ValueError):
    """A bot level that is not one of LEVELS."""


def check_level(level: str) -> str:
    if level not in LEVELS:
        raise UnknownLevel(f"Unknown bot level {level!r}: choose one of {', '.join(LEVELS)}.")
    return level


def choose(engine: Engine[Any], state: Any, seat: int, level: str, seed: int) -> str:
    """The whole decision `seat` owes in `state`, as the notation text a person would submit."""
    check_level(level)
    rng = SearchRng.derived(seed, f"bot:{seat}")
    if level == "random":
        # A sample first, so that even the random bot reads nothing its seat may not know.
        return engine.random_submission(engine.determinize(state, seat, rng), seat, rng)
    return ismcts(engine, state, seat, BUDGETS[level], rng)
