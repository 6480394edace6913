"""Steps in plain words, for the confirmation before a submission and for mails.

Each step is described in the position where it is played ("build level 4 in
the Medes territory from your column"), so the words come from replaying the
draft on a copy.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

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


# -- a turn told to a reader ------------------------------------------------------------------

class _Teller:
    """Words for the steps of one seat's turn, written for `reader` (the mover, his opponent,
    or a spectator: None), in the past tense after the mover's name."""

    def __init__(self, mover: int, reader: int | None):
        self.mover, self.reader = mover, reader

    def whose(self, seat: int) -> str:
        """A seat's belongings as the reader says it: "your", "their" (the mover's, read by
        another: players' names say nothing of who they are), "your opponent's"."""
        if seat == self.reader:
            return "your"
        if seat == self.mover:
            return "their"
        return "your opponent's" if self.reader == self.mover else "their opponent's"

    def column(self, column: str) -> str:
        return f"{self.whose(self.mover if column == 'mine' else 1 - self.mover)} column"


def recount(state: State, steps: str, reader: int | None) -> tuple[list[str], dict[str, Any]]:
    """A turn's steps in words from the reader's side, and what they changed on the board:
    {"territories": [the figure's new places], "temples": [[seat, letter]], "rows": [[seat,
    letter]], "columns": [seats whose column gave a card], "hands": [seats halved]}."""
    state = state.copy()
    tell = _Teller(state.to_move, reader)
    mover, other = state.to_move, 1 - state.to_move
    marks: dict[str, list[Any]] = {"territories": [], "temples": [], "rows": [], "columns": [],
                              "hands": []}
    out: list[str] = []
    said = None      # the territory the last phrase named: "there" after it
    settled: list[str] = []    # the cards of the settle steps just before, and where
    settled_here = ""

    def mark(kind: str, value: object) -> None:
        if value not in marks[kind]:
            marks[kind].append(value)

    for step, _ in parse_steps(text_or_pass(steps)):
        figure = state.mover.figure
        here = "there" if figure and figure == said else (
            f"in the {NAMES[figure]} territory" if figure else "in the quarry")
        top = state.mover.temple_top(figure) if figure else 0
        phrase = None
        match step:
            case Move(t):
                phrase, said = f"moved to the {NAMES[t]}", t
                mark("territories", t)
            case Settle(tribes):
                cards = list(tribes)
                if settled:                # one after another: "settled 3 Persians there"
                    out.pop()
                    cards, here = settled + cards, settled_here
                phrase = f"settled {_cards(cards)} {here}"
                settled, settled_here = cards, here
                mark("rows", [mover, figure])
            case Build(column):
                phrase = f"built level {top + 1} {here} from {tell.column(column)}"
                mark("temples", [mover, figure])
                mark("columns", mover if column == "mine" else other)
            case Jump(column):
                phrase = f"jumped to level {top + 2} {here} from {tell.column(column)}"
                mark("temples", [mover, figure])
                mark("rows", [mover, figure])
                mark("columns", mover if column == "mine" else other)
            case Migrate(x, y):
                phrase = f"migrated 3 cards from the {NAMES[x]} to the {NAMES[y]}"
                mark("rows", [mover, x])
                mark("rows", [mover, y])
            case Destroy():
                phrase = f"destroyed {tell.whose(other)} temple {here}"
                mark("temples", [other, figure])
            case Rob():
                phrase = f"robbed {tell.whose(other)} top temple card {here}"
                mark("temples", [other, figure])
                mark("temples", [mover, figure])
            case Emigrate(t):
                away = "of there" if here == "there" else f"of {where(figure or '')}"
                phrase = f"drove {tell.whose(other)} {NAMES[t]} out {away}"
                mark("rows", [other, figure])
            case Switch():
                phrase = (f"switched {tell.whose(other)} top cards {here} to "
                          f"{tell.whose(mover)} side")
                mark("rows", [other, figure])
                mark("rows", [mover, figure])
            case Halve(t):
                phrase = f"halved {tell.whose(other)} hand with {tell.whose(mover)} {NAMES[t]}"
                mark("hands", other)
            case Pass():
                phrase = "played no action"
            case Discard(tribes):
                phrase = f"discarded {_cards(tribes)}"
        if not isinstance(step, Settle):
            settled = []
        if isinstance(step, (Migrate, Halve, Pass, Discard)):
            said = None          # these name no place, or others: "there" is the figure's again
        elif figure and not isinstance(step, Move):
            said = figure
        if phrase:
            out.append(phrase)
        try:
            act(state, step)
        except ValueError:
            break
    return out, {kind: marked for kind, marked in marks.items() if marked}


def text_or_pass(steps: str) -> str:
    """A turn with no step at all is recorded as "" or "pass": both read as playing nothing."""
    return steps if steps.strip() else "pass"
