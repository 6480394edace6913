"""Greedy playout policies: a decision drawn with weights that favour what scores, in place.

Uniformly random playouts of Babel mostly shuffle cards about; the search learns more per
playout when the players of its playouts build when they can. Each policy draws one whole
decision of whoever owes one, like `Engine.play_out`, but not uniformly. They are played
only inside the search's samples, so they may use the game's own modules.
"""

from __future__ import annotations

from ..games.babel import legal as babel_legal
from ..games.babel import rules as babel_rules
from ..games.babel import steps as babel_steps
from ..games.babel.state import DRAW
from ..games.babel.state import State as BabelState
from ..games.babel.turn import begin_turn
from ..games.babylonia.cli import _weight as greedy_weight
from ..games.babylonia.state import State as BabyloniaState
from ..games.base import StepOption
from ..games.rng import Rng

#: How much a Babel playout likes a step: temple levels first, then what prepares them.
BABEL_WEIGHTS: dict[type, int] = {
    babel_steps.Build: 400, babel_steps.Jump: 400, babel_steps.Rob: 400,
    babel_steps.Destroy: 40, babel_steps.Settle: 8, babel_steps.Move: 4,
    babel_steps.End: 5, babel_steps.Halve: 2, babel_steps.Switch: 3, babel_steps.Emigrate: 1,
    babel_steps.Migrate: 1,
}


#: The same by the first word of a step's notation ("" ends phase 2).
BABEL_WORDS = {"build": 400, "jump": 400, "rob": 400, "destroy": 40, "settle": 8, "move": 4,
               "": 5, "halve": 2, "switch": 3, "emigrate": 1, "migrate": 1}


def babel_worth(state: BabelState, seat: int) -> float:
    """What a Babel position is worth to a seat, in temple points: its points, then what
    builds the next ones (cards in hand, cards in its rows), a little each."""
    player = state.players[seat]
    rows = sum(len(row) for row in player.rows.values())
    return player.score() + 0.2 * player.hand_size + 0.25 * rows


def babel_weight(notation: str) -> int:
    return BABEL_WORDS.get(notation.partition(" ")[0], 1)


def babylonia_weight(state: BabyloniaState, option: StepOption) -> int:
    return greedy_weight(state, option)


def drawn(options: list[babel_steps.Choice], rng: Rng) -> babel_steps.Choice:
    weights = [BABEL_WEIGHTS.get(type(o), 1) for o in options]
    r = rng.below(sum(weights))
    for option, weight in zip(options, weights):
        if r < weight:
            return option
        r -= weight
    raise AssertionError("unreachable: r is below the sum of the weights")


def babel_move(state: BabelState, rng: Rng) -> None:
    """One Babel decision in place: the halving discards at random, or a weighted phase 2
    followed by phase 3 and the next draw. A first turn that runs into a dead end (its
    starting card unbuilt, nothing left to do) is thrown away and drawn anew, as
    `randomplay` does; after a few tries the uniformly random player finishes it."""
    if state.phase == DRAW:
        due = state.discards_due(state.to_move)
        babel_rules.act(state, rng.choice(babel_legal.discard_options(state.mover.hand, due)))
        begin_turn(state)
        return
    start = state.copy()
    for _ in range(4):
        while state.result is None:
            options = babel_legal.legal_steps(state)
            if not options:
                break
            step = drawn(options, rng)
            if isinstance(step, babel_steps.End):
                break
            babel_rules.act(state, step)
        else:
            return                  # the game ended in phase 2
        if options:
            babel_rules.finish_turn(state)
            begin_turn(state)
            return
        _restore(state, start)
    from ..games.babel.randomplay import random_move
    random_move(state, rng)


def _restore(state: BabelState, saved: BabelState) -> None:
    copy = saved.copy()
    for key in BabelState.__slots__:
        setattr(state, key, getattr(copy, key))
