"""The ladder: a round robin of bot levels in one game, and their Bradley–Terry ratings.

Every pair of levels plays a match (`arena.play`, `games` games each). Each match gives the
first level's score against the second; with K > 2 players (one seat against K - 1 of the
other level) a share s is turned into the score of one seat against one other,
s / (s + (1 - s) / (K - 1)), which is 1/2 for a share of 1/K: an approximation, said so in
docs/bots.md. The ratings are Bradley–Terry strengths fitted by the MM algorithm (Hunter
2004) on those scores, each pair with one virtual drawn game (so a level that lost every
game still has a finite rating), shown on the Elo scale (400 log10) with the first level
at 0, and 95% intervals from the fit's Fisher information.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .arena import Match, play

ELO = 400 / math.log(10)
Z95 = 1.959963984540054


@dataclass
class Ladder:
    game: str
    players: int
    levels: list[str]
    matches: list[Match] = field(default_factory=list)

    def scores(self) -> dict[tuple[str, str], tuple[float, int]]:
        """(a, b) -> (a's score as one seat against one other, games)."""
        out = {}
        for m in self.matches:
            n = len(m.scores)
            s = sum(m.scores) / n if n else 0.5
            if self.players > 2:
                s = s / (s + (1 - s) / (self.players - 1)) if s + (1 - s) > 0 else 0.5
            out[m.a, m.b] = (s * n, n)
        return out

    def ratings(self) -> list[dict[str, Any]]:
        return bradley_terry(self.levels, self.scores())

    def table(self) -> str:
        rows = [f"{self.game} ({self.players} players): ratings (Elo scale, "
                f"{self.levels[0]} = 0, 95% interval)"]
        for r in self.ratings():
            rows.append(f"  {r['level']:<8} {r['elo']:>6.0f}  [{r['low']:>6.0f}, {r['high']:>6.0f}]")
        rows.append("matches (first level's score, games, CPU s per decision of each):")
        for m in self.matches:
            rep = m.report()
            rows.append(f"  {m.a:>7} vs {m.b:<7} {rep['score_a']:.2f} of {rep['games']} "
                        f"(W {rep['wins_a']} L {rep['wins_b']} D {rep['draws']}; "
                        f"CI {rep['ci95'][0]:.2f}-{rep['ci95'][1]:.2f}) "
                        f"{rep['seconds_per_decision_a']:.3f}s / {rep['seconds_per_decision_b']:.3f}s")
        return "\n".join(rows)


def round_robin(game: str, levels: Sequence[str], games: int, seed: int, players: int | None,
                progress: Callable[[Match], None] | None = None) -> Ladder:
    ladder: Ladder | None = None
    for i, a in enumerate(levels):
        for b in levels[i + 1:]:
            match = play(game, a, b, games, seed, players)
            if ladder is None:
                ladder = Ladder(game, match.players, list(levels))
            ladder.matches.append(match)
            if progress is not None:
                progress(match)
    assert ladder is not None, "a ladder needs two levels"
    return ladder


def bradley_terry(levels: Sequence[str], scores: dict[tuple[str, str], tuple[float, int]],
                  rounds: int = 2_000) -> list[dict[str, Any]]:
    """Ratings by the MM algorithm; the first level anchored at 0."""
    k = len(levels)
    index = {level: i for i, level in enumerate(levels)}
    wins = [[0.0] * k for _ in range(k)]
    games = [[0.0] * k for _ in range(k)]
    for (a, b), (score, n) in scores.items():
        i, j = index[a], index[b]
        wins[i][j] += score + 0.5           # one virtual drawn game per pair
        wins[j][i] += n - score + 0.5
        games[i][j] += n + 1
        games[j][i] += n + 1
    gamma = [1.0] * k
    for _ in range(rounds):
        new = []
        for i in range(k):
            w = sum(wins[i])
            d = sum(games[i][j] / (gamma[i] + gamma[j]) for j in range(k) if j != i and games[i][j])
            new.append(w / d if d else gamma[i])
        gamma = [g / new[0] for g in new]
    theta = [math.log(g) for g in gamma]
    se = _standard_errors(theta, games)
    return [{"level": level, "elo": ELO * theta[i], "low": ELO * (theta[i] - Z95 * se[i]),
             "high": ELO * (theta[i] + Z95 * se[i])} for i, level in enumerate(levels)]


def _standard_errors(theta: list[float], games: list[list[float]]) -> list[float]:
    """From the inverse Fisher information with the first level fixed (its own error 0)."""
    k = len(theta)
    info = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(k):
            if i != j and games[i][j]:
                p = 1 / (1 + math.exp(theta[j] - theta[i]))
                v = games[i][j] * p * (1 - p)
                info[i][i] += v
                info[i][j] -= v
    sub = [row[1:] for row in info[1:]]
    inverse = _inverse(sub)
    return [0.0] + [math.sqrt(max(inverse[i][i], 0.0)) for i in range(k - 1)]


def _inverse(m: list[list[float]]) -> list[list[float]]:
    """Gauss–Jordan inverse of a small symmetric positive definite matrix."""
    n = len(m)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(m)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[pivot] = a[pivot], a[c]
        p = a[c][c]
        a[c] = [x / p for x in a[c]]
        for r in range(n):
            if r != c and a[r][c]:
                f = a[r][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    return [row[n:] for row in a]
