"""How the search plays a sample on after its decision, and what the end is worth.

Generic: each game says what it knows through the engine (`Engine.playout_move`,
`playout_rounds`, `step_weight`, `worth`, `playout_share`: pbem/games/base.py), so the bots
name no game. A playout plays the game's playout decisions until the game ends, or until its
rounds are up; an ended game pays a win 1 and a draw or shared win its share, a stopped one
what the game's `worth` says.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..games.base import Engine, Outcome, StepOption
from ..games.rng import Rng

#: A safety net far above any real game's length (the longest run to about 60 decisions).
MAX_DECISIONS = 2_000


def share(outcome: Outcome, seat: int, seats: int) -> float:
    """A seat's part of a result: a win 1, a win shared by k seats 1/k, a draw 1/seats."""
    if outcome.winners:
        return 1 / len(outcome.winners) if seat in outcome.winners else 0.0
    return 1 / seats


@dataclass(frozen=True)
class GamePlan:
    """The search's playouts and rewards for one engine."""
    engine: Engine[Any]
    #: how the search completes a decision its tree leaves unfinished: False, by the game's
    #: step weights (ending drawn among the other steps); True, ending as soon as it may.
    end_at_once: bool = False

    @property
    def playouts(self) -> float:
        return self.engine.playout_share

    def playout(self, state: Any, rng: Rng) -> None:
        engine = self.engine
        rounds = engine.playout_rounds
        limit = MAX_DECISIONS if rounds is None else rounds * engine.seat_count(state)
        for _ in range(limit):
            if engine.is_over(state):
                return
            engine.playout_move(state, rng)

    def draw(self, state: Any, options: list[StepOption], rng: Rng) -> StepOption:
        """A next step of a decision the tree leaves unfinished (`state`: the draft so far),
        each drawn as likely as the game's `step_weight`."""
        return rng.weighted(options, [self.engine.step_weight(state, o) for o in options])

    def reward(self, state: Any, seat: int) -> float:
        outcome = self.engine.outcome(state)
        if outcome is not None:
            return share(outcome, seat, self.engine.seat_count(state))
        return self.engine.worth(state, seat)


def plan_for(engine: Engine[Any]) -> GamePlan:
    return GamePlan(engine)
