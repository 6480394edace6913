"""Games and their people in words, shared by pages and mails (and the JSON of the record).

Nothing here names a game: it reads only the `pbem.games.base` interface.
"""

from __future__ import annotations

from collections.abc import Iterable


def listing(names: Iterable[object]) -> str:
    """Names as people list them: "Anna", "Anna and Bob", "Anna, Bob and Carl"."""
    words = [str(n) for n in names]
    if len(words) <= 2:
        return " and ".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def match_title(names) -> str:
    """The players of a game as its title: "Anna vs Bob"; with more, "Anna, Bob and Carl"."""
    names = [str(n) for n in names]
    return " vs ".join(names) if len(names) == 2 else listing(names)


def winner_names(outcome, names) -> list[str]:
    """Who won: one name, several (a shared win), or none (a draw, or no result yet)."""
    return [names[s] for s in outcome.winners] if outcome is not None else []
