"""Positions along random games of every game and player count, for the bots' tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pbem.games import all_games
from pbem.games.base import Engine
from pbem.games.rng import Rng

#: (engine, players) for every game and every player count it allows.
TABLES = [(engine, players) for engine in all_games()
          for players in range(engine.min_seats, engine.max_seats + 1)]


def table_id(table: tuple[Engine[Any], int]) -> str:
    return f"{table[0].name}-{table[1]}"


def positions(engine: Engine[Any], players: int, seed: int, every: int = 1) -> Iterator[Any]:
    """Every `every`-th state of a random game (each still owing a decision)."""
    state = engine.start(seed, {}, players, None)
    rng = Rng.derived(seed, "positions")
    n = 0
    while not engine.is_over(state):
        if n % every == 0:
            yield state
        seat = engine.to_act(state)[0].seat
        state = engine.apply(state, engine.decide(state, seat, engine.random_submission(state, seat, rng)))
        n += 1
