"""The arena: two bot levels play each other, for measuring strength.

Game i starts from seed `seed + i`. With two players level A takes seat i % 2 and B the
other; with K > 2, A takes seat i % K and B every other seat. A's score per game is its share
(`plans.share`: a win 1, a win shared by k seats 1/k, a draw 1/K); the report gives A's wins,
B's wins (some B seat alone or with others wins and A does not), draws (the rest: no winner,
or A shares the win), A's mean score with a 95% Wilson interval, and the mean seconds per
decision of each side (CPU seconds of the thinking thread: `time.thread_time`).

With more than two players the win share's fair value is 1/K, and the report adds A's score
as the leagues count it (pbem/views/standings.py): the share of the B seats A finished ahead
of, a shared place half (fair value 0.5), with the pairs A finished ahead of, behind and
level with (`pair_*`), and its Wilson interval over the games (the pairs of one game are not
independent). With two players both scores are the same. Every
decision of game i, number n, is chosen with its own seed, so a match is fixed by its
arguments (up to the levels' CPU-time caps).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from ..games import INSTALLED, UnknownGame, get
from ..games.base import Engine
from ..games.rng import SearchRng
from . import BUDGETS, LEVELS, STEP_BUDGETS, choose
from .models import model_for
from .plans import MAX_DECISIONS, share
from .search import ismcts
from .turns import search

#: The upper bound: `strong`'s search on the real state, hidden cards and all. Arena only:
#: never offered in play (`LEVELS` does not hold it).
ORACLE = "oracle"
ARENA_LEVELS = (*LEVELS, ORACLE)

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


class ArenaError(ValueError):
    """Arguments the arena cannot play: the message names the argument and what it may be."""


@dataclass
class Match:
    game: str
    a: str
    b: str
    players: int
    seed: int
    scores: list[float] = field(default_factory=list)      # A's share, game by game
    wins_a: int = 0
    wins_b: int = 0
    draws: int = 0
    seconds: dict[str, list[float]] = field(default_factory=lambda: {"a": [], "b": []})
    #: A's score against the B seats one by one (the leagues' points), game by game
    pair_scores: list[float] = field(default_factory=list)
    pair_wins: int = 0          # B seats A finished ahead of, over all games
    pair_losses: int = 0        # ... behind
    pair_draws: int = 0         # ... level with

    def report(self) -> dict[str, Any]:
        n = len(self.scores)
        score = sum(self.scores) / n if n else 0.0
        lo, hi = wilson(score, n)
        pair = sum(self.pair_scores) / n if n else 0.0
        plo, phi = wilson(pair, n)
        return {"game": self.game, "a": self.a, "b": self.b, "games": n,
                "wins_a": self.wins_a, "wins_b": self.wins_b, "draws": self.draws,
                "score_a": round(score, 4), "ci95": [round(lo, 4), round(hi, 4)],
                "pair_wins_a": self.pair_wins, "pair_losses_a": self.pair_losses,
                "pair_draws_a": self.pair_draws, "pair_score_a": round(pair, 4),
                "pair_ci95": [round(plo, 4), round(phi, 4)],
                "seconds_per_decision_a": _mean(self.seconds["a"]),
                "seconds_per_decision_b": _mean(self.seconds["b"])}


def _mean(xs: list[float]) -> float:
    return round(sum(xs) / len(xs), 4) if xs else 0.0


def wilson(p: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion p seen over n games ((0, 1) for none)."""
    if n == 0:
        return 0.0, 1.0
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def engine_for(game: str) -> Engine[Any]:
    try:
        return get(game)
    except UnknownGame:
        raise ArenaError(f"unknown game {game!r}: choose one of {', '.join(INSTALLED)}") from None


def check(game: str, a: str, b: str, games: int, players: int | None) -> tuple[Engine[Any], int]:
    """The engine and the number of players, or the ArenaError naming the bad argument."""
    engine = engine_for(game)
    for name, level in (("--a", a), ("--b", b)):
        if level not in ARENA_LEVELS:
            raise ArenaError(f"unknown level {level!r} for {name}: choose one of "
                             f"{', '.join(ARENA_LEVELS)}")
    if games < 1:
        raise ArenaError(f"--games must be at least 1, not {games}")
    seats = engine.min_seats if players is None else players
    if not engine.min_seats <= seats <= engine.max_seats:
        span = (str(engine.min_seats) if engine.min_seats == engine.max_seats
                else f"{engine.min_seats} to {engine.max_seats}")
        raise ArenaError(f"--players {seats} is out of range: {engine.title} is played by {span}")
    return engine, seats


def play(game: str, a: str, b: str, games: int, seed: int, players: int | None = None,
         progress: Any = None) -> Match:
    """Play the match; `progress(i, match)` is called after each game when given."""
    engine, seats = check(game, a, b, games, players)
    match = Match(game, a, b, seats, seed)
    for i in range(games):
        a_seat = i % seats
        state = _one_game(engine, match, seed + i, seats, a_seat)
        outcome = engine.outcome(state)
        # an aborted game (the safety net) leaves every seat level
        places = engine.places(state) if outcome and outcome.winners else [1] * seats
        _count_pairs(match, places, a_seat)
        match.scores.append(share(outcome, a_seat, seats) if outcome else 1 / seats)
        winners = outcome.winners if outcome else ()
        if winners == (a_seat,):
            match.wins_a += 1
        elif winners and a_seat not in winners:
            match.wins_b += 1
        else:
            match.draws += 1
        if progress is not None:
            progress(i, match)
    return match


def _count_pairs(match: Match, places: list[int], a_seat: int) -> None:
    """A's place against each B seat's: ahead 1, level ½, behind 0 (the leagues' points)."""
    mine, score = places[a_seat], 0.0
    for other, place in enumerate(places):
        if other == a_seat:
            continue
        if mine < place:
            match.pair_wins += 1
            score += 1
        elif mine > place:
            match.pair_losses += 1
        else:
            match.pair_draws += 1
            score += 0.5
    match.pair_scores.append(score / (len(places) - 1))


def decide(engine: Engine[Any], state: Any, seat: int, level: str, seed: int) -> str:
    """A level's decision (`bots.choose`), or the oracle's, which reads the real state."""
    if level != ORACLE:
        return choose(engine, state, seat, level, seed)
    rng = SearchRng.derived(seed, f"bot:{seat}")
    model = model_for(engine)
    if model.by_steps:          # a game with nothing hidden: `strong` itself
        return ismcts(engine, state, seat, STEP_BUDGETS["strong"], rng)
    return search(engine, model, state, seat, BUDGETS["strong"], rng, sees_all=True)


def _one_game(engine: Engine[Any], match: Match, seed: int, seats: int, a_seat: int) -> Any:
    """The game played out: its last state."""
    state = engine.start(seed, {}, seats, None)
    for n in range(MAX_DECISIONS):
        owed = engine.to_act(state)
        if not owed:
            return state
        seat = owed[0].seat
        side = "a" if seat == a_seat else "b"
        level = match.a if side == "a" else match.b
        started = time.thread_time()      # CPU seconds: a busy machine slows, not weakens
        text = decide(engine, state, seat, level, seed * 1_000_003 + n)
        match.seconds[side].append(time.thread_time() - started)
        state = engine.apply(state, engine.decide(state, seat, text))
    return engine.apply(state, engine.abort_event("the arena's safety net: too many decisions"))
