"""The report of an engine's `bench` command, in one shape for every game."""

from __future__ import annotations

import statistics
import sys


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
