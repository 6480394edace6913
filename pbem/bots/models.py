"""What the whole-turn players (`turns.py`) ask of each game: its evaluation, its candidate
whole decisions and its quick greedy answer, each written in the game's own module
(pbem/games/<game>/evaluate.py). A game whose every decision is one step (Babel Tower) is
searched step by step (`search.py`, `Model.by_steps`); its model serves `greedy`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..games.base import Engine


class Candidate(Protocol):
    """A whole decision: the text submitting it, and its value by the game's evaluation."""
    @property
    def text(self) -> str: ...
    value: float


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
    #: rounds of greedy answers a playout plays before it judges
    rounds: int = 1
    #: the share of a level's playouts this game affords, by the number of players (slower
    #: playouts: fewer), so that each level keeps to its CPU time by its count
    share: Mapping[int, float] = field(default_factory=dict)
    #: the search levels search step by step (`search.py`): a game whose every decision is
    #: one step, with quick playouts to the end (Babel Tower)
    by_steps: bool = False


def _babel() -> Model:
    from ..games.babel import evaluate
    return Model(evaluate.value, evaluate.turns, evaluate.reply, scale=2.0)


def _babylonia() -> Model:
    from ..games.babylonia import evaluate
    return Model(evaluate.value, evaluate.turns, evaluate.reply, scale=6.0,
                 share={2: 0.6, 3: 0.3, 4: 0.12})


def _babel_tower() -> Model:
    from ..games.babel_tower import evaluate
    return Model(evaluate.value, evaluate.turns, evaluate.reply, scale=3.0, by_steps=True)


FACTORIES: dict[str, Callable[[], Model]] = {
    "babel": _babel, "babylonia": _babylonia, "babel-tower": _babel_tower}
_MODELS: dict[str, Model] = {}


def model_for(engine: Engine[Any]) -> Model:
    """The game's model (every installed game has one)."""
    model = _MODELS.get(engine.name)
    if model is None:
        model = _MODELS[engine.name] = FACTORIES[engine.name]()
    return model
