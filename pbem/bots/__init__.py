"""Computer players: given what one seat may know, the decision a bot of some level submits.

The server's one way in is `choose`: the worker (a bot seat's turn) calls it and submits the
text it returns through `turns.submit`, exactly as a person's reply. No Flask, no database.

Levels: `random` plays a uniformly random legal decision; `greedy` the best whole decision by
the game's evaluation after it, no search (`turns.greedy`); `easy`, `normal` and `strong` search
over the best whole decisions with playouts (`turns.search`), more candidates and playouts each
(`BUDGETS`). A game whose every decision is one step is searched step by step
(`search.py`, ISMCTS over the steps of the decision owed; `STEP_BUDGETS`).
Every level decides from what its seat may know only, and the same (state, seat, level, seed)
always gives the same decision, unless a level's CPU-time cap cuts a search short (a slow
machine).
"""

from __future__ import annotations

from typing import Any

from ..games.base import Engine
from ..games.rng import SearchRng
from . import turns
from .models import model_for
from .search import Budget, ismcts

#: From the weakest to the strongest (as the arena's ladder measures them: docs/bots.md).
LEVELS = ("random", "easy", "greedy", "normal", "strong")

#: Candidates, playouts per decision, and the CPU-time cap that guards a slow machine
#: (seconds of the thinking thread).
BUDGETS = {
    "easy": turns.TurnBudget(candidates=3, playouts=6, seconds=0.3),
    "normal": turns.TurnBudget(candidates=6, playouts=30, seconds=0.3),
    "strong": turns.TurnBudget(candidates=10, playouts=120, seconds=1.0),
}
#: The step-by-step search's playouts for a game without a whole-turn model.
STEP_BUDGETS = {
    "easy": Budget(playouts=40, seconds=0.3),
    "normal": Budget(playouts=250, seconds=0.3),
    "strong": Budget(playouts=1000, seconds=1.0),
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
    model = model_for(engine)
    if level == "greedy":
        return turns.greedy(engine, model, state, seat, rng)
    if model.by_steps:
        return ismcts(engine, state, seat, STEP_BUDGETS[level], rng)
    return turns.search(engine, model, state, seat, BUDGETS[level], rng)
