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


def plural(count: float, word: str, many: str | None = None) -> str:
    """A count with its noun: "1 discard", "2 discards", "0 hours", "1.5 hours" (`many`: an
    irregular plural)."""
    return f"{count:g} {word if count == 1 else (many or word + 's')}"


def hours_and_days(hours: int) -> str:
    """A wait in whole hours as people say it: "5 hours", "1 day", "2 days 1 hour"."""
    days, rest = divmod(max(0, hours), 24)
    if not days:
        return plural(rest, "hour")
    return plural(days, "day") + (f" {plural(rest, 'hour')}" if rest else "")


def step_lines(notation: str, width: int = 76) -> list[str]:
    """A turn in notation ("move A; settle P; ...") in lines of at most `width` characters,
    broken only between steps, so that no step is cut in two."""
    lines: list[str] = []
    for step in notation.split("; "):
        if lines and len(lines[-1]) + 2 + len(step) < width:
            lines[-1] += "; " + step
        else:
            if lines:
                lines[-1] += ";"
            lines.append(step)
    return lines
