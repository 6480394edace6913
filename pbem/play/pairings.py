"""Who plays whom in a league (`pbem.play.leagues`): pure functions of the members' order.

- Two-player games: a **round robin**, every pairing once. Player i and player j (i < j) meet
  with i first when i + j is odd, j first when it is even: every player is first in half his
  games, give or take one (`firsts`; tests/web/test_leagues.py checks it for 2 to 12 players).
- Games for more than two: **groups of 3 or 4**, one game each. The members come strongest first (their
  rating); g = ceil(n / 4) groups are dealt like cards, snaking (1 2 2 1 1 2 ...), so each group
  gets a strong and a weak player and sizes differ by one at most. Five players cannot split
  into groups of 3-4: they play five games of four instead, each sitting one out, so every
  pair meets three times and every player plays four games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def round_robin(members: Sequence[T]) -> list[tuple[T, T]]:
    """Every pairing once, (first, second)."""
    pairs = []
    for i in range(len(members)):
        for j in range(i + 1, len(members)):
            first, second = (i, j) if (i + j) % 2 else (j, i)
            pairs.append((members[first], members[second]))
    return pairs


def firsts(pairs: Sequence[tuple[T, T]]) -> dict[T, tuple[int, int]]:
    """{player: (games he is first in, games he is second in)}."""
    counted: dict[T, tuple[int, int]] = {}
    for first, second in pairs:
        a, b = counted.get(first, (0, 0)), counted.get(second, (0, 0))
        counted[first], counted[second] = (a[0] + 1, a[1]), (b[0], b[1] + 1)
    return counted


def groups(members: Sequence[T]) -> list[list[T]]:
    """The tables of a game for more than two, strongest first within each; fewer than 3
    members: none."""
    n = len(members)
    if n < 3:
        return []
    if n == 5:   # five games of four, each member sitting out one, seats turned round
        tables = []
        for out in range(5):
            others = [m for k, m in enumerate(members) if k != out]
            turn = out % 4
            tables.append(others[turn:] + others[:turn])
        return tables
    count = -(-n // 4)
    dealt: list[list[T]] = [[] for _ in range(count)]
    for k, member in enumerate(members):
        lap, place = divmod(k, count)
        dealt[place if lap % 2 == 0 else count - 1 - place].append(member)
    return dealt
