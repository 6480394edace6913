"""What the search players ask of Babylonia (`Engine.step_weight`, `worth`).

Whole games are long and slow to play out, so the search's playouts stop after two rounds
and the position is judged by the score race; turns its tree leaves unfinished are
completed by the weights of the greedy player (`weight`: fields, and closing in on cities
and ziggurats), the CLI's `--greedy` player too.
"""

from __future__ import annotations

import math

from ..base import StepOption
from .state import State

#: Points of lead over the best other seat that make about 73% (what a game is won by).
SCALE = 6.0


def weight(state: State, option: StepOption) -> int:
    """How much the greedy player likes a step: fields, and closing in on cities and ziggurats."""
    if option.ends:
        return 4
    head, _, hex = option.notation.partition(" ")
    if head in ("score", "card", "extra"):
        return 5
    b = state.board
    if hex in state.tiles:
        return 40
    value = 1
    for n in b.neighbours[hex]:
        if ((b.hexes[n].kind == "ziggurat" and n not in state.scored)
                or state.tiles.get(n, "").startswith("city")):
            value += 8
            free = [m for m in b.neighbours[n] if b.hexes[m].kind == "land"
                    and m not in state.tokens and m not in state.tiles]
            if free == [hex]:
                value += 60       # this token surrounds it
    return value


def worth(state: State, seat: int) -> float:
    scores = state.scores
    lead = scores[seat] - max(s for i, s in enumerate(scores) if i != seat)
    return 1 / (1 + math.exp(-lead / SCALE))
