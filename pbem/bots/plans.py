"""How the search plays a sample on after its decision, and what the end is worth, game by game.

A `GamePlan` has two parts: `playout` (decisions in place until the game ends, or until its
cut-off), and `reward` (what the position is worth to a seat, in [0, 1]). The default plays
every decision at random to the end (`Engine.play_out`) and pays a win 1, a draw or a shared
win its share. Babylonia's games are long and slow to play out at random, so its playouts
stop after two rounds and the position is judged by the score race (`ScoreRace`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..games.base import Engine, Outcome, StepOption
from ..games.rng import Rng
from . import policies

#: A safety net far above any real game's length (Babylonia with four: about 60 decisions).
MAX_DECISIONS = 2_000


def share(outcome: Outcome, seat: int, seats: int) -> float:
    """A seat's part of a result: a win 1, a win shared by k seats 1/k, a draw 1/seats."""
    if outcome.winners:
        return 1 / len(outcome.winners) if seat in outcome.winners else 0.0
    return 1 / seats


@dataclass(frozen=True)
class GamePlan:
    """Playouts to the end, random decisions, a win worth 1."""
    #: rounds played after the searched decision, a decision per seat each (None: to the end).
    rounds: int | None = None
    #: how the search completes a decision its tree leaves unfinished: True, end it as soon
    #: as it may; False, go on by the weights (`draw`), ending among the other steps.
    end_at_once: bool = False
    #: the share of a level's playouts this game affords (its playouts are slower), so that
    #: `strong` keeps within about 5 seconds a decision on one core by its playout count.
    playouts: float = 1.0

    def playout(self, engine: Engine[Any], state: Any, rng: Rng) -> None:
        limit = MAX_DECISIONS if self.rounds is None else self.rounds * engine.seat_count(state)
        for _ in range(limit):
            if engine.is_over(state):
                return
            self.move(engine, state, rng)

    def move(self, engine: Engine[Any], state: Any, rng: Rng) -> None:
        """One decision of whoever owes one, in place."""
        engine.play_out(state, rng)

    def draw(self, state: Any, options: list[StepOption], rng: Rng) -> StepOption:
        """A next step of a decision the tree leaves unfinished (`state`: the draft so far),
        each drawn as likely as its `weight`."""
        weights = [self.weight(state, o) for o in options]
        r = rng.below(sum(weights))
        for option, weight in zip(options, weights):
            if r < weight:
                return option
            r -= weight
        raise AssertionError("unreachable: r is below the sum of the weights")

    def weight(self, state: Any, option: StepOption) -> int:
        """Uniform: ending, when allowed, as likely as any one step."""
        return 1

    def reward(self, engine: Engine[Any], state: Any, seat: int) -> float:
        outcome = engine.outcome(state)
        if outcome is not None:
            return share(outcome, seat, engine.seat_count(state))
        return self.judge(engine, state, seat)

    def judge(self, engine: Engine[Any], state: Any, seat: int) -> float:
        """A position the playout stopped in (only with `rounds`): even, unless told better."""
        return 1 / engine.seat_count(state)


@dataclass(frozen=True)
class ScoreRace(GamePlan):
    """Cut-off positions judged by the lead over the best other seat, through a logistic
    curve: `scale` points of lead make about 73% (the points a game is won by)."""
    scale: float = 6.0

    def judge(self, engine: Engine[Any], state: Any, seat: int) -> float:
        scores = engine.scores(state)
        lead = scores[seat] - max(s for i, s in enumerate(scores) if i != seat)
        return 1 / (1 + math.exp(-lead / self.scale))


@dataclass(frozen=True)
class BabelPlan(GamePlan):
    """Playouts by the greedy Babel player (`policies.babel_move`), cut after `rounds` and
    judged by `policies.babel_worth` (temple points first, then cards in hand and in rows):
    whole random games of Babel are long enough that one decision's mark drowns in them."""
    scale: float = 2.0

    def move(self, engine: Engine[Any], state: Any, rng: Rng) -> None:
        policies.babel_move(state, rng)

    def weight(self, state: Any, option: StepOption) -> int:
        return policies.babel_weight(option.notation)

    def judge(self, engine: Engine[Any], state: Any, seat: int) -> float:
        lead = policies.babel_worth(state, seat) - policies.babel_worth(state, 1 - seat)
        return 1 / (1 + math.exp(-lead / self.scale))


@dataclass(frozen=True)
class BabyloniaPlan(ScoreRace):
    """Unfinished turns completed by the weights of the CLI's greedy player (fields, and
    closing in on cities and ziggurats)."""

    def weight(self, state: Any, option: StepOption) -> int:
        return policies.babylonia_weight(state, option)


#: The game's name -> its plan (a game not named here gets the default).
PLANS: dict[str, GamePlan] = {
    "babel": BabelPlan(rounds=3),
    "babel-tower": GamePlan(playouts=0.8),
    "babylonia": BabyloniaPlan(rounds=2, playouts=0.5),
}


def plan_for(engine: Engine[Any]) -> GamePlan:
    return PLANS.get(engine.name, GamePlan())
