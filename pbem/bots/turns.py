"""Whole-turn players: `greedy`, and the search over whole-turn candidates.

A game whose turn is a sequence of steps (Babel, Babylonia) cannot be played well by
choosing the first steps and drawing the rest: the search decides whole turns here. Each
game says, in its own module (pbem/games/<game>/evaluate.py, gathered in `models.py`),
- `value(state, seat)`: the seat's lead in the game's points and what promises more, from
  the rules;
- `turns(state, seat)`: the whole decisions worth considering (a beam over the steps,
  distinct end positions), best first by `value` after them;
- `reply(state, seat)`: the decision a quick greedy player makes (the search's playouts).

`greedy` plays the best of `turns` on one sample of what its seat cannot see. The search
(`search`) takes the best few of them and spends its playouts on those, flat UCB1 over the
candidates: each playout samples the hidden information anew, submits the candidate, lets
every seat after it answer by `reply` for one round (the others' threats, the draws that
follow), and judges the position by `value` (a finished game: its share). Each candidate
starts with a few virtual playouts at its own value, so little budget plays as `greedy`.

Everything is computed from samples (`Engine.determinize`), which depend only on what the
seat sees and the generator: the bot reads nothing its seat may not know. The search stops
at its playout count; its CPU-time cap (`time.thread_time`, this thread's) is a safety net
only, so a busy machine makes it slower, not weaker.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from ..games.base import Engine
from ..games.errors import GameError
from ..games.rng import Rng
from .models import Model
from .plans import share

#: UCB1's exploration constant for rewards in [0, 1].
EXPLORATION = 0.5
#: Virtual playouts each candidate starts with, at its own value.
PRIOR = 2


@dataclass(frozen=True)
class TurnBudget:
    """How hard a level searches: candidates kept, playouts spent on them, and a CPU-time cap
    (seconds of this thread) that guards a slow machine only."""
    candidates: int
    playouts: int
    seconds: float


def greedy(engine: Engine[Any], model: Model, state: Any, seat: int, rng: Rng) -> str:
    """The best whole decision by the game's evaluation after it, no search."""
    sample = engine.determinize(state, seat, rng)
    return model.turns(sample, seat)[0].text


def reward(engine: Engine[Any], model: Model, state: Any, seat: int) -> float:
    """A position's worth to the seat in [0, 1]: a finished game its share, else its lead
    through a logistic curve (`Model.scale`: the lead that makes about 73%)."""
    outcome = engine.outcome(state)
    if outcome is not None:
        return share(outcome, seat, engine.seat_count(state))
    return 1 / (1 + math.exp(-model.value(state, seat) / model.scale))


def search(engine: Engine[Any], model: Model, state: Any, seat: int, budget: TurnBudget,
           rng: Rng) -> str:
    """The candidate whole decision that did best in the playouts (most visited)."""
    sample = engine.determinize(state, seat, rng)
    candidates = model.turns(sample, seat)[:budget.candidates]
    if len(candidates) == 1 or budget.playouts == 0:
        return candidates[0].text
    texts = [c.text for c in candidates]
    visits = [float(PRIOR)] * len(texts)
    totals = [PRIOR / (1 + math.exp(-c.value / model.scale)) for c in candidates]
    refused = [False] * len(texts)
    started = time.thread_time()
    for n in range(budget.playouts):
        if n and time.thread_time() - started > budget.seconds:
            break
        logn = math.log(sum(visits))
        pick = max((i for i in range(len(texts)) if not refused[i]),
                   key=lambda i: totals[i] / visits[i]
                   + EXPLORATION * math.sqrt(logn / visits[i]))
        result = playout(engine, model, state, seat, texts[pick], rng)
        if result is None:
            refused[pick] = True        # never expected: the steps are the seat's own
            continue
        visits[pick] += 1
        totals[pick] += result
    best = max((i for i in range(len(texts)) if not refused[i]),
               key=lambda i: (visits[i], totals[i] / visits[i]), default=0)
    return texts[best]


def playout(engine: Engine[Any], model: Model, state: Any, seat: int, text: str,
            rng: Rng) -> float | None:
    """One sample: the candidate submitted, a round of greedy answers, the reward."""
    sample = engine.determinize(state, seat, rng)
    try:
        engine.apply_in_place(sample, engine.decide(sample, seat, text))
    except GameError:
        return None
    seats = engine.seat_count(sample)
    for _ in range(model.rounds * seats):
        owed = engine.to_act(sample)
        if not owed:
            break
        mover = owed[0].seat
        if mover == seat:
            break                       # the round is over: judge before our own next decision
        engine.apply_in_place(sample, engine.decide(sample, mover, model.reply(sample, mover)))
    return reward(engine, model, sample, seat)
