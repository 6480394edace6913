"""The report of an engine's `bench` command, in one shape for every game, and its stopwatch:
the only clock anything under pbem/games reads (tests/contract/test_purity.py holds to it),
to time the engine from outside, never to decide anything in a game."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from . import INSTALLED, get
from .rng import SearchRng

if TYPE_CHECKING:
    from .base import Engine

P = ParamSpec("P")
T = TypeVar("T")


def timed(work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> tuple[T, float]:
    """What `work(*args, **kwargs)` gives, and how long it took, in seconds."""
    start = time.perf_counter()
    result = work(*args, **kwargs)
    return result, time.perf_counter() - start


def milliseconds(seconds: list[float]) -> dict[str, float]:
    """Mean and 95th percentile of some timings, in milliseconds."""
    p95 = sorted(seconds)[int(0.95 * (len(seconds) - 1))]
    return {"mean": round(statistics.mean(seconds) * 1000, 2), "p95": round(p95 * 1000, 2)}


def report(play_times: list[float], replay_times: list[float], events: int, steps: int,
           **about: object) -> dict[str, object]:
    """Random games per second, play and replay times, and the games' size; `about` names the
    game's settings (players, options), listed after the number of games."""
    games = len(play_times)
    return {
        "games": games,
        **about,
        "random_games_per_second": round(games / sum(play_times), 1),
        "random_game_ms": milliseconds(play_times),
        "replay_ms": milliseconds(replay_times),
        "events_per_game": round(events / games, 1),
        "steps_per_game": round(steps / games, 1),
        "python": sys.version.split()[0],
    }


def playouts(engine: Engine[Any], games: int, seed: int, seats: int,
             options: Mapping[str, str]) -> dict[str, object]:
    """Random playouts a second: from each dealt game to its end by `Engine.play_out`, as a
    search plays them (its draws from `SearchRng`; no log, no text; the deal not counted: a
    search starts from a sampled state), on one core, and the time of one."""
    times = []
    for i in range(games):
        state = engine.start(seed + i, options, seats, None)
        rng = SearchRng.derived(seed + i, "playout")
        start = time.perf_counter()
        while not engine.is_over(state):
            engine.play_out(state, rng)
        times.append(time.perf_counter() - start)
    return {"random_playouts_per_second": round(games / sum(times), 1),
            "random_playout_ms": milliseconds(times)}


def main(argv: list[str] | None = None) -> int:
    """`python -m pbem.games.bench playouts`: one game's random playouts a second alone, without
    the random games and replays of its `bench` (a short run). Run it under valgrind's
    cachegrind too: instruction counts repeat exactly where a shared machine's timings do not
    (with PYTHONHASHSEED fixed), and those of `--games 101` less those of `--games 1`, over
    100, are the instructions of one playout, its deal included."""
    parser = argparse.ArgumentParser(prog="python -m pbem.games.bench",
                                     description="Random playouts a second of one game.")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("playouts", help="random playouts a second, from dealt games")
    play.add_argument("--game", choices=sorted(INSTALLED), default="babel")
    play.add_argument("--games", type=int, default=300)
    play.add_argument("--seed", type=int, default=1)
    play.add_argument("--seats", type=int, default=None, help="default: the game's fewest")
    args = parser.parse_args(argv)
    engine = get(args.game)
    seats = args.seats or engine.min_seats
    report = {"game": engine.name, "seats": seats, "games": args.games,
              **playouts(engine, args.games, args.seed, seats, engine.normalize_options(None))}
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
