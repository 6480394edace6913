"""Games and their people in words, shared by pages and mails (and the JSON of the record).

Nothing here names a game: it reads only the `pbem.games.base` interface.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from pbem.games.phrases import Phrase, phrase, phrase_n


def listing(names: Iterable[object]) -> str:
    """Names (or phrases such as "you") as people list them: "Anna", "Anna and Bob", "Anna, Bob
    and Carl" — a phrase per shape, each name kept a phrase where it is one (a computer's "(bot
    from turn 12)"), so every language joins and says them its own way ("Anna und Bob")."""
    words = list(names)
    if len(words) < 2:
        return (words[0] if isinstance(words[0], str) else str(words[0])) if words else ""
    first = words[0]
    for word in words[1:-1]:
        first = phrase("{first}, {next}", first=first, next=word)
    return phrase("{first} and {last}", first=first, last=words[-1])


def match_title(names) -> str:
    """The players of a game as its title: "Anna vs Bob"; with more, "Anna, Bob and Carl"."""
    names = list(names)
    if len(names) == 2:
        return phrase("{first} vs {second}", first=names[0], second=names[1])
    return listing(names)


def winner_names(outcome, names) -> list[str]:
    """Who won: one name, several (a shared win), or none (a draw, or no result yet)."""
    return [names[s] for s in outcome.winners] if outcome is not None else []


#: The nouns counted in words, each with its plural forms for every language (`plural`).
COUNTED: dict[str, Callable[[int], Phrase]] = {
    "hour": lambda n: phrase_n("{n} hour", "{n} hours", n),
    "minute": lambda n: phrase_n("{n} minute", "{n} minutes", n),
    "day": lambda n: phrase_n("{n} day", "{n} days", n),
    "vacation day": lambda n: phrase_n("{n} vacation day", "{n} vacation days", n),
    "game": lambda n: phrase_n("{n} game", "{n} games", n),
}


def plural(count: float, word: str, many: str | None = None) -> str:
    """A count with its noun: "1 discard", "2 discards", "0 hours", "1.5 hours" (`many`: an
    irregular plural). The nouns of `COUNTED` are phrases, in each language's plural forms."""
    if word in COUNTED and many is None:
        if float(count).is_integer():
            return COUNTED[word](int(count))
        # A fraction ("1.5 hours") takes the form of 2 in every language here (Czech "1,5 hodiny").
        counted = COUNTED[word](2)
        return Phrase(counted.msgid, {"n": count}, counted.plural, 2)
    return f"{count:g} {word if count == 1 else (many or word + 's')}"


def hours_and_days(hours: int) -> str:
    """A wait in whole hours as people say it: "5 hours", "1 day", "2 days 1 hour"."""
    days, rest = divmod(max(0, hours), 24)
    if not days:
        return plural(rest, "hour")
    if not rest:
        return plural(days, "day")
    return phrase("{days} {hours}", days=plural(days, "day"), hours=plural(rest, "hour"))


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
