"""Random legal play: whole games for tests, benchmarks and the command line.

Each step is drawn uniformly from `legal_steps` (ending phase 2 among them)
with the project's seeded generator, so a game is fixed by its seed. The
players' choices use a stream derived from the seed, apart from the game's
own chance (deal, shuffles).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..base import EVENT_VERSION
from ..rng import Rng
from .legal import END, discard_options, legal_steps
from .notation import format_steps
from .rules import ACTION_RULES, TEMPLE_RULES, act, check_end, finish_turn, starting_card_unbuilt
from .state import DRAW, State, deal
from .steps import Pass, Step
from .turn import begin_turn

MAX_TURNS = 2_000   # a safety net far above any real game


@dataclass
class RandomGame:
    seed: int
    first: int
    sumerians: str
    state: State                          # the end
    events: list[dict[str, Any]] = field(default_factory=list)


def random_decision(state: State, rng: Rng) -> str:
    """The text of a random legal decision of the player to move (the state is unchanged)."""
    state = state.copy()
    if state.phase == DRAW:
        return str(rng.choice(legal_steps(state)))
    return format_steps(_random_actions(state, rng))


def _random_actions(state: State, rng: Rng) -> list[Step]:
    """Random legal steps of phase 2, applied in place, until End is drawn or the game ends.

    A first turn can run into a dead end (every card spent, the starting card
    unbuilt, so not even End is legal); such a draft is thrown away and drawn anew.
    Later turns can always end, so only a first turn keeps a copy to go back to.
    """
    start = state.copy() if starting_card_unbuilt(state.players[state.to_move]) else state
    while True:
        steps: list[Step] = []
        while state.result is None:
            options = legal_steps(state)
            if not options:
                break
            step = rng.choice(options)
            if step is END:     # not isinstance, for speed: legal_steps lists this one End
                return steps or [Pass()]
            # `act` without its checks, for speed: a listed step is a legal step of phase 2.
            rule = ACTION_RULES[type(step)]   # type: ignore[index]  # mypy: `is END` narrows nothing
            rule(state, step)
            if rule in TEMPLE_RULES:
                check_end(state)
            steps.append(step)   # type: ignore[arg-type]
        if state.result is not None:
            return steps
        _restore(state, start)


def _restore(state: State, saved: State) -> None:
    for key in State.__slots__:
        setattr(state, key, getattr(saved, key))
    state.players = [p.copy() for p in saved.players]


def random_move(state: State, rng: Rng) -> None:
    """The decision `random_decision` draws with `rng`, played in place with what follows it
    (the draw, or phase 3 and the next draw), as the event would: for fast playouts."""
    if state.phase == DRAW:     # the halving discards due: `discard_options`, as `legal_steps`
        act(state, rng.choice(discard_options(state.mover.hand, state.discards_due(state.to_move))))
        begin_turn(state)
        return
    _random_actions(state, rng)
    if state.result is None:
        finish_turn(state)
        begin_turn(state)


def play_random_game(seed: int, sumerians: str = "top-run", first: int | None = None) -> RandomGame:
    """A whole game of random legal steps, with its log of events."""
    state = deal(seed, first, sumerians)
    game = RandomGame(seed, state.to_move, sumerians, state)      # played on in place
    rng = Rng.derived(seed, "random-player")
    begin_turn(state)
    for _ in range(MAX_TURNS):
        if state.result is not None:
            break
        seat = state.to_move
        if state.phase == DRAW:   # halving discards due, then the draw
            step = rng.choice(discard_options(state.mover.hand, state.discards_due(seat)))
            act(state, step)
            begin_turn(state)
            game.events.append({"v": EVENT_VERSION, "type": "discard", "seat": seat,
                                "cards": "".join(step.tribes)})
            continue
        steps = _random_actions(state, rng)
        game.events.append({"v": EVENT_VERSION, "type": "turn", "seat": seat,
                            "steps": format_steps(steps)})
        if state.result is None:
            finish_turn(state)
            begin_turn(state)
    return game
