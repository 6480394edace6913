"""Whole-turn players: `greedy`, and the search over whole-turn candidates.

A game whose turn is a sequence of steps (most of the installed games) cannot be played well by
choosing the first steps and drawing the rest: the search decides whole turns here. Each
game says, in its own module (pbem/games/<game>/evaluate.py, gathered in `models.py`),
- `value(state, seat)`: the seat's lead in the game's points and what promises more, from
  the rules;
- `turns(state, seat)`: the whole decisions worth considering (a beam over the steps,
  distinct end positions), best first by `value` after them;
- `reply(state, seat)`: the decision a quick greedy player makes (the search's playouts).

`greedy` plays the best of `turns` on one sample of what its seat cannot see. The search
(`search`) takes the best few of them and spends its playouts on those, by successive
halving over common samples: each playout samples the hidden information, submits the
candidate, lets every seat after it answer by `reply` for one round (the others' threats,
the draws that follow; with `Model.answers`, only the first few), and judges the position by
`value` (a finished game: its share; a game of more than two players may judge each rival
alone, `Model.chance`); every candidate still in is played out on the same samples, so they
are compared on equal luck, and the worse half drops out after each round. Each candidate starts with a few
virtual playouts at its own value, so little budget plays as `greedy`.

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
    through a logistic curve (`Model.scale`: the lead that makes about 73%).

    A game that judges rivals one by one (`Model.chance`) is worth the share of the other
    seats the seat finishes ahead of (a level place half: the leagues' score), a finished game
    by its places; with two players both ways are the same."""
    outcome = engine.outcome(state)
    if model.chance is not None:
        if outcome is None:
            return model.chance(state, seat)
        if outcome.winners:
            places = engine.places(state)
            mine = places[seat]
            return sum(1.0 if mine < p else 0.5 if mine == p else 0.0
                       for other, p in enumerate(places) if other != seat) / (len(places) - 1)
        return 0.5
    if outcome is not None:
        return share(outcome, seat, engine.seat_count(state))
    return 1 / (1 + math.exp(-model.value(state, seat) / model.scale))


def search(engine: Engine[Any], model: Model, state: Any, seat: int, budget: TurnBudget,
           rng: Rng, sees_all: bool = False) -> str:
    """The candidate whole decision that did best in the playouts.

    Successive halving over common samples: every candidate still in is played out on the
    same samples (the same hidden cards, the same draws after it), so candidates are
    compared on equal luck and a small budget tells them apart; after each round the worse
    half drops out. A candidate's own value after it counts as `PRIOR` playouts.

    `sees_all`: the samples are the real state (hidden cards as they are): the arena's upper
    bound, never offered in play."""
    sample = state.copy() if sees_all else engine.determinize(state, seat, rng)
    candidates = list(model.candidates(sample, seat)[:budget.candidates])
    playouts = round(budget.playouts * model.share.get(engine.seat_count(state), 1.0))
    if len(candidates) == 1 or playouts == 0:
        return candidates[0].text
    prior = [PRIOR * (reward(engine, model, c.state, seat) if model.chance is not None
                      else 1 / (1 + math.exp(-c.value / model.scale))) for c in candidates]
    totals = list(prior)
    played = [0] * len(candidates)
    alive = list(range(len(candidates)))
    rounds = max(1, math.ceil(math.log2(len(candidates))))
    started = time.thread_time()
    spent = 0
    samples = 0
    while len(alive) > 1 and spent < playouts:
        each = max(1, (playouts // rounds) // len(alive))
        seeds = [rng.next_u64() for _ in range(each)]
        samples += each
        for i in list(alive):
            for seed in seeds:
                result = playout(engine, model, state, seat, candidates[i].text, Rng(seed),
                                 sees_all)
                if result is None:          # never expected: the steps are the seat's own
                    alive.remove(i)
                    break
                totals[i] += result
                played[i] += 1
                spent += 1
                if time.thread_time() - started > budget.seconds:
                    break
            if time.thread_time() - started > budget.seconds:
                break
        if time.thread_time() - started > budget.seconds:
            break
        alive.sort(key=lambda i: -totals[i] / (PRIOR + played[i]))
        alive = alive[:max(1, (len(alive) + 1) // 2)]
    best = max(alive or range(len(candidates)),
               key=lambda i: (played[i], totals[i] / (PRIOR + played[i])))
    return candidates[best].text


def playout(engine: Engine[Any], model: Model, state: Any, seat: int, text: str,
            rng: Rng, sees_all: bool = False) -> float | None:
    """One sample: the candidate submitted, `model.rounds` rounds of greedy answers (every
    other seat answers, then from the second round on the seat itself and the others
    again), the reward before the seat's own next turn. With `model.answers` for this many
    seats, only the first that many other seats answer the candidate: a cheaper playout,
    judged earlier."""
    sample = state.copy() if sees_all else engine.determinize(state, seat, rng)
    try:
        engine.apply_in_place(sample, engine.decide(sample, seat, text))
    except GameError:
        return None
    ours = 0
    answered: set[int] = set()
    seats = engine.seat_count(sample)
    answers = model.answers.get(seats)
    # each seat owes a decision a round, some two (an owed card, discards): room for both
    # after the first round
    for _ in range(seats + (model.rounds - 1) * 2 * seats):
        owed = engine.to_act(sample)
        if not owed:
            break
        mover = owed[0].seat
        if answers is not None and mover != seat and ours == 0:
            if mover not in answered and len(answered) >= answers:
                break                   # a playout cut short: judge after the first answers
            answered.add(mover)
        if mover == seat:
            if ours + 1 >= model.rounds:
                break                   # judge before our own next decision
            if engine.decision_kind(sample, seat) == model.turn_kind:
                ours += 1
        engine.apply_in_place(sample, engine.decide(sample, mover, model.reply(sample, mover)))
    return reward(engine, model, sample, seat)
