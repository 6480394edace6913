"""What the search players ask of Babel (`Engine.playout_move`, `step_weight`, `worth`).

Uniformly random playouts of Babel mostly shuffle cards about, and whole games are long
enough that one decision's mark drowns in them. So the search's playouts are played by a
greedy player (temple levels first, then settling), stopped after three rounds, and the
position judged by points, then cards in hand and in rows.
"""

from __future__ import annotations

import math

from ..rng import Rng
from . import legal, rules, steps
from .state import DRAW, State
from .turn import begin_turn

#: How much a playout likes a step: temple levels first, then what prepares them.
WEIGHTS: dict[type, int] = {
    steps.Build: 400, steps.Jump: 400, steps.Rob: 400, steps.Destroy: 40, steps.Settle: 8,
    steps.Move: 4, steps.End: 5, steps.Halve: 2, steps.Switch: 3, steps.Emigrate: 1,
    steps.Migrate: 1,
}
#: The same by the first word of a step's notation ("" ends phase 2).
WORDS = {"build": 400, "jump": 400, "rob": 400, "destroy": 40, "settle": 8, "move": 4,
         "": 5, "halve": 2, "switch": 3, "emigrate": 1, "migrate": 1}
#: Points of lead (in `worth_of` terms) that make about 73%.
SCALE = 2.0


def weight(notation: str) -> int:
    return WORDS.get(notation.partition(" ")[0], 1)


def worth_of(state: State, seat: int) -> float:
    """A position's worth to a seat in temple points: its points, then what builds the next
    ones (cards in hand, cards in its rows), a little each."""
    player = state.players[seat]
    rows = sum(len(row) for row in player.rows.values())
    return player.score() + 0.2 * player.hand_size + 0.25 * rows


def worth(state: State, seat: int) -> float:
    lead = worth_of(state, seat) - worth_of(state, 1 - seat)
    return 1 / (1 + math.exp(-lead / SCALE))


def drawn(options: list[steps.Choice], rng: Rng) -> steps.Choice:
    return rng.weighted(options, [WEIGHTS.get(type(o), 1) for o in options])


def greedy_move(state: State, rng: Rng) -> None:
    """One decision in place: the halving discards at random, or a weighted phase 2 followed
    by phase 3 and the next draw. A first turn that runs into a dead end (its starting card
    unbuilt, nothing left to do) is thrown away and drawn anew, as `randomplay` does; after a
    few tries the uniformly random player finishes it."""
    if state.phase == DRAW:
        due = state.discards_due(state.to_move)
        rules.act(state, rng.choice(legal.discard_options(state.mover.hand, due)))
        begin_turn(state)
        return
    start = state.copy()
    for _ in range(4):
        while state.result is None:
            options = legal.legal_steps(state)
            if not options:
                break
            step = drawn(options, rng)
            if isinstance(step, steps.End):
                break
            rules.act(state, step)
        else:
            return                  # the game ended in phase 2
        if options:
            rules.finish_turn(state)
            begin_turn(state)
            return
        _restore(state, start)
    from .randomplay import random_move
    random_move(state, rng)


def _restore(state: State, saved: State) -> None:
    copy = saved.copy()
    for key in State.__slots__:
        setattr(state, key, getattr(copy, key))
