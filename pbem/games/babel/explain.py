"""Steps in plain words, for the confirmation before a submission and for mails.

Each step is described in the position where it is played ("build level 4 in
the Medes territory from your column"), so the words come from replaying the
draft on a copy.
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import NAMES
from .notation import parse_steps
from .rules import act, where
from .state import State
from .steps import (
    Build,
    Choice,
    Destroy,
    Discard,
    Emigrate,
    End,
    Halve,
    Jump,
    Migrate,
    Move,
    Pass,
    Rob,
    Settle,
    Switch,
)

COLUMN_WORDS = {"mine": "your column", "theirs": "your opponent's column"}


def _cards(tribes: Iterable[str]) -> str:
    counts: dict[str, int] = {}
    for t in tribes:
        counts[NAMES[t]] = counts.get(NAMES[t], 0) + 1
    return ", ".join(f"{n} {name}" for name, n in counts.items())


def words(state: State, step: Choice) -> str:
    """One step in words, in the position before it is played."""
    player = state.mover
    here = where(player.figure) if player.figure else "the quarry"
    top = player.temple_top(player.figure) if player.figure else 0
    match step:
        case Move(t):
            return f"move to the {NAMES[t]}"
        case Settle(tribes):
            return f"settle {_cards(tribes)} in {here}"
        case Build(column):
            return f"build level {top + 1} in {here} from {COLUMN_WORDS[column]}"
        case Jump(column):
            return f"jump to level {top + 2} in {here} from {COLUMN_WORDS[column]}"
        case Migrate(x, y):
            return f"migrate 3 cards from the {NAMES[x]} to the {NAMES[y]}"
        case Destroy():
            return f"destroy your opponent's temple in {here}"
        case Rob():
            return f"rob your opponent's top temple card in {here}"
        case Emigrate(t):
            return f"drive your opponent's {NAMES[t]} out of {here}"
        case Switch():
            return f"switch your opponent's top cards in {here} to your side"
        case Halve(t):
            return f"halve your opponent's hand with your {NAMES[t]}"
        case Discard(tribes):
            return f"discard {_cards(tribes)}"
        case Pass():
            return "play no action"
        case End():
            return "end the turn"
    raise TypeError(f"not a Babel step: {step!r}")


def explain(state: State, text: str) -> list[str]:
    """Each step of a submission in words; stops quietly at the first illegal step."""
    state = state.copy()
    out = []
    for step, _ in parse_steps(text):
        out.append(words(state, step))
        try:
            act(state, step)
        except ValueError:
            break
    return out
