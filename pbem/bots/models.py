"""What the whole-turn players (`turns.py`) ask of each game: its evaluation, its candidate
whole decisions and its quick greedy answer, each written in the game's own module
(pbem/games/<game>/evaluate.py: `value`, `turns`, `reply`, `SCALE`, and `PLAYOUT_SHARE` and
`BY_STEPS` where they apply). A game whose every decision is one step is searched step by
step (`search.py`, `Model.by_steps`); its model serves `greedy`."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..games.base import Engine


class Candidate(Protocol):
    """A whole decision: the text submitting it, and its value by the game's evaluation."""
    @property
    def text(self) -> str: ...
    value: float
    state: Any          # the position after it


@dataclass(frozen=True)
class Model:
    #: the seat's lead in the game's points (and what promises more of them)
    value: Callable[[Any, int], float]
    #: the whole decisions worth considering for a seat that owes one, best first
    turns: Callable[[Any, int], Sequence[Candidate]]
    #: the decision a quick greedy player submits (the search's playouts)
    reply: Callable[[Any, int], str]
    #: the lead that makes about 73% (a logistic curve turns leads into rewards)
    scale: float
    #: rounds of greedy answers a playout plays before it judges: 1, the others answer the
    #: candidate; 2, then the seat's own next turn (`reply`) and the others' answers again
    rounds: int = 1
    #: the decision kind that is a seat's turn (`Engine.decision_kind`), for counting rounds
    turn_kind: str = "turn"
    #: the share of a level's playouts this game affords, by the number of players (slower
    #: playouts: fewer), so that each level keeps to its CPU time by its count
    share: Mapping[int, float] = field(default_factory=dict)
    #: the search levels search step by step (`search.py`): a game whose every decision is
    #: one step, with quick playouts to the end
    by_steps: bool = False
    #: the search's candidates, when they come from a wider look than `greedy`'s (`turns`)
    wide: Callable[[Any, int], Sequence[Candidate]] | None = None
    #: a position's worth to the seat in [0, 1] against its rivals one by one, for games of
    #: more than two players (the leagues' score: the share of the others it finishes ahead
    #: of); None: the lead over the best other seat through the logistic curve
    chance: Callable[[Any, int], float] | None = None
    #: the most other seats that answer the candidate in a playout's first round, by the
    #: number of players (absent: every one): a playout cut short is cheaper, so more of
    #: them fit a level's CPU time
    answers: Mapping[int, int] = field(default_factory=dict)

    def candidates(self, state: Any, seat: int) -> Sequence[Candidate]:
        """The whole decisions the search levels compare, best first."""
        return (self.wide or self.turns)(state, seat)


_MODELS: dict[str, Model] = {}


def _evaluation(engine: Engine[Any]) -> Any:
    """The module `evaluate` of the engine's own package (pbem/games/<game>/evaluate.py): found
    by where the engine lives, so that this layer names no game."""
    package = type(engine).__module__.rsplit(".", 1)[0]
    return importlib.import_module(f"{package}.evaluate")


def model_for(engine: Engine[Any]) -> Model:
    """The game's model (every installed game has one)."""
    model = _MODELS.get(engine.name)
    if model is None:
        game = _evaluation(engine)
        model = _MODELS[engine.name] = Model(
            game.value, game.turns, game.reply, scale=game.SCALE,
            rounds=getattr(game, "ROUNDS", 1), wide=getattr(game, "wide_turns", None),
            share=getattr(game, "PLAYOUT_SHARE", {}), by_steps=getattr(game, "BY_STEPS", False),
            chance=getattr(game, "chance", None), answers=getattr(game, "ANSWERS", {}))
    return model
