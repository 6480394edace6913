"""Computer players: given what one seat may know, the decision a bot of some level submits.

The server's one way in is `choose`: the worker (a bot seat's turn) calls it and submits the
text it returns through `turns.submit`, exactly as a person's reply. No Flask, no database.
"""

from __future__ import annotations

from typing import Any

from ..games.base import Engine
from ..games.rng import Rng

LEVELS = ("random", "easy", "normal", "strong")


class UnknownLevel(ValueError):
    """A bot level that is not one of LEVELS."""


def check_level(level: str) -> str:
    if level not in LEVELS:
        raise UnknownLevel(f"Unknown bot level {level!r}: choose one of {', '.join(LEVELS)}.")
    return level


def choose(engine: Engine[Any], state: Any, seat: int, level: str, seed: int) -> str:
    """The whole decision `seat` owes in `state`, as the notation text a person would submit.
    Only `random` so far: the search levels come with the search player."""
    check_level(level)
    return engine.random_submission(state, seat, Rng.derived(seed, f"bot:{seat}"))
