"""A random legal walker through games of Babel, for property tests.

Two ways to choose: uniform (like the engine's random player) or greedy,
which builds, uses skills and halves far more often, so that destroys, robs,
jumps, owed discards and the end phase come up often.
"""

from pbem.games.babel.legal import legal_steps
from pbem.games.babel.notation import format_steps
from pbem.games.babel.rules import act, finish_turn
from pbem.games.babel.state import DRAW, deal
from pbem.games.babel.steps import (
    Build,
    Destroy,
    Discard,
    Emigrate,
    End,
    Halve,
    Jump,
    Migrate,
    Move,
    Pass,
    Rob,
    Settle,
    Switch,
)
from pbem.games.babel.turn import begin_turn
from pbem.games.rng import Rng

GREEDY = {Move: 2, Settle: 6, Build: 1000, Jump: 1000, Rob: 1000, Destroy: 100, Switch: 15,
          Emigrate: 4, Halve: 6, Migrate: 1, End: 8, Discard: 1}


def pick(state, options, rng, greedy):
    if not greedy:
        return rng.choice(options)
    weights = []
    for step in options:
        w = GREEDY[type(step)]
        if isinstance(step, Settle):
            row = state.mover.rows[state.mover.figure]
            if row and row[-1] == step.tribes[0]:
                w *= 6   # grow runs of three
        weights.append(w)
    return rng.weighted(options, weights)


def walk(seed, sumerians="top-run", first=None, greedy=True, events=None):
    """The live state after every change of a random legal game: each step, phase 3, each draw.

    Appends the game's events to `events` when given. Stops when the game is over or in a
    first-turn dead end (no legal step left, End included).
    """
    rng = Rng.derived(seed, "test-walk")
    state = deal(seed, first, sumerians)
    begin_turn(state)
    yield state
    steps = []
    while state.result is None:
        options = legal_steps(state)
        if not options:
            return
        step = pick(state, options, rng, greedy)
        seat = state.to_move
        if isinstance(step, End):
            if events is not None:
                events.append({"v": 1, "type": "turn", "seat": seat,
                               "steps": format_steps(steps or [Pass()])})
            steps = []
            finish_turn(state)
        else:
            act(state, step)
            if isinstance(step, Discard):
                if events is not None:
                    events.append({"v": 1, "type": "discard", "seat": seat,
                                   "cards": "".join(step.tribes)})
            else:
                steps.append(step)
                if state.result is not None and events is not None:
                    events.append({"v": 1, "type": "turn", "seat": seat,
                                   "steps": format_steps(steps)})
        yield state
        if state.result is None and state.phase == DRAW and not state.discards_due(state.to_move):
            begin_turn(state)
            yield state
