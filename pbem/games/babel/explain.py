"""Steps in plain words, for the confirmation before a submission and for mails.

Each step is described in the position where it is played ("build level 4 in
the Medes territory from your column"), so the words come from replaying the
draft on a copy.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..phrases import Phrase, phrase
from .cards import NAMES
from .notation import parse_steps
from .rules import (
    FROM_TRIBE,
    IN_TERRITORY,
    OUT_OF_TERRITORY,
    TO_TRIBE,
    act,
    commas,
    tribe_count,
)
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

#: "from your column": where a step building a temple takes the card from.
COLUMN_WORDS = {"mine": phrase("from your column"), "theirs": phrase("from your opponent's column")}
IN_THE_QUARRY = phrase("in the quarry")
#: "out of the quarry" (a step with the figure still on the quarry: it will be illegal).
OUT_OF_THE_QUARRY = phrase("of the quarry")


def _cards(tribes: Iterable[str]) -> Phrase:
    """"2 Persians, 1 Medes": how many of each tribe, in the order first written."""
    counts: dict[str, int] = {}
    for t in tribes:
        counts[t] = counts.get(t, 0) + 1
    return commas([tribe_count(n, t) for t, n in counts.items()])


def words(state: State, step: Choice) -> Phrase:
    """One step in words, in the position before it is played."""
    player = state.mover
    here = IN_TERRITORY[player.figure] if player.figure else IN_THE_QUARRY
    top = player.temple_top(player.figure) if player.figure else 0
    match step:
        case Move(t):
            return phrase("move {to}", to=TO_TRIBE[t])
        case Settle(tribes):
            return phrase("settle {cards} {place}", cards=_cards(tribes), place=here)
        case Build(column):
            return phrase("build level {level} {place} {source}", level=top + 1, place=here,
                          source=COLUMN_WORDS[column])
        case Jump(column):
            return phrase("jump to level {level} {place} {source}", level=top + 2, place=here,
                          source=COLUMN_WORDS[column])
        case Migrate(x, y):
            return phrase("migrate 3 cards {source} {target}", source=FROM_TRIBE[x],
                          target=TO_TRIBE[y])
        case Destroy():
            return phrase("destroy your opponent's temple {place}", place=here)
        case Rob():
            return phrase("rob your opponent's top temple card {place}", place=here)
        case Emigrate(t):
            away = OUT_OF_TERRITORY[player.figure] if player.figure else OUT_OF_THE_QUARRY
            return phrase("drive your opponent's {tribe} out {away}", tribe=NAMES[t], away=away)
        case Switch():
            return phrase("switch your opponent's top cards {place} to your side", place=here)
        case Halve(t):
            return phrase("halve your opponent's hand with your {tribe}", tribe=NAMES[t])
        case Discard(tribes):
            return phrase("discard {cards}", cards=_cards(tribes))
        case Pass():
            return phrase("play no action")
        case End():
            return phrase("end the turn")
    raise TypeError(f"not a Babel step: {step!r}")


def explain(state: State, text: str) -> list[str]:
    """Each step of a submission in words; stops quietly at the first illegal step."""
    state = state.copy()
    out: list[str] = []
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
    or a spectator: None), in the past tense after the mover's name.

    Whose things a step touches depends on who reads: the mover reads "your opponent's
    temple", his opponent "your temple", a spectator "their opponent's temple" (players'
    names say nothing of who they are). Each such sentence is a phrase of its own for each
    reader, so every language declines "your" with its noun."""

    def __init__(self, mover: int, reader: int | None):
        self.mover, self.reader = mover, reader
        self.side = "mover" if reader == mover else "spectator" if reader is None else "other"

    def column(self, column: str) -> Phrase:
        """"from your column": the column a temple card came from (`mine`: the mover's)."""
        if self.side == "mover":
            return phrase("from your column") if column == "mine" else \
                phrase("from your opponent's column")
        if self.side == "other":
            return phrase("from their column") if column == "mine" else phrase("from your column")
        return phrase("from their column") if column == "mine" else \
            phrase("from their opponent's column")

    def destroyed(self, here: Phrase) -> Phrase:
        if self.side == "mover":
            return phrase("destroyed your opponent's temple {place}", place=here)
        if self.side == "other":
            return phrase("destroyed your temple {place}", place=here)
        return phrase("destroyed their opponent's temple {place}", place=here)

    def robbed(self, here: Phrase) -> Phrase:
        if self.side == "mover":
            return phrase("robbed your opponent's top temple card {place}", place=here)
        if self.side == "other":
            return phrase("robbed your top temple card {place}", place=here)
        return phrase("robbed their opponent's top temple card {place}", place=here)

    def drove(self, tribe: Phrase, away: Phrase) -> Phrase:
        if self.side == "mover":
            return phrase("drove your opponent's {tribe} out {away}", tribe=tribe, away=away)
        if self.side == "other":
            return phrase("drove your {tribe} out {away}", tribe=tribe, away=away)
        return phrase("drove their opponent's {tribe} out {away}", tribe=tribe, away=away)

    def switched(self, here: Phrase) -> Phrase:
        if self.side == "mover":
            return phrase("switched your opponent's top cards {place} to your side", place=here)
        if self.side == "other":
            return phrase("switched your top cards {place} to their side", place=here)
        return phrase("switched their opponent's top cards {place} to their side", place=here)

    def halved(self, tribe: Phrase) -> Phrase:
        if self.side == "mover":
            return phrase("halved your opponent's hand with your {tribe}", tribe=tribe)
        if self.side == "other":
            return phrase("halved your hand with their {tribe}", tribe=tribe)
        return phrase("halved their opponent's hand with their {tribe}", tribe=tribe)


THERE = phrase("there")
OF_THERE = phrase("of there")


def recount(state: State, steps: str, reader: int | None) -> tuple[list[Phrase], dict[str, Any]]:
    """A turn's steps in words from the reader's side, and what they changed on the board:
    {"territories": [the figure's new places], "temples": [[seat, letter]], "rows": [[seat,
    letter]], "columns": [seats whose column gave a card], "hands": [seats halved]}."""
    state = state.copy()
    tell = _Teller(state.to_move, reader)
    mover, other = state.to_move, 1 - state.to_move
    marks: dict[str, list[Any]] = {"territories": [], "temples": [], "rows": [], "columns": [],
                              "hands": []}
    out: list[Phrase] = []
    said = None      # the territory the last phrase named: "there" after it
    settled: list[str] = []    # the cards of the settle steps just before, and where
    settled_here: Phrase = THERE
    built: tuple[str, int, Phrase] | None = None   # the builds just before: column, first level, where

    def mark(kind: str, value: object) -> None:
        if value not in marks[kind]:
            marks[kind].append(value)

    for step, _ in parse_steps(text_or_pass(steps)):
        figure = state.mover.figure
        here = THERE if figure and figure == said else (
            IN_TERRITORY[figure] if figure else IN_THE_QUARRY)
        top = state.mover.temple_top(figure) if figure else 0
        told: Phrase | None = None
        match step:
            case Move(t):
                told, said = phrase("moved {to}", to=TO_TRIBE[t]), t
                mark("territories", t)
            case Settle(tribes):
                cards = list(tribes)
                if settled:                # one after another: "settled 3 Persians there"
                    out.pop()
                    cards, here = settled + cards, settled_here
                told = phrase("settled {cards} {place}", cards=_cards(cards), place=here)
                settled, settled_here = cards, here
                mark("rows", [mover, figure])
            case Build(column):
                if built and built[0] == column:     # one after another: "built levels 3–5"
                    out.pop()
                    told = phrase("built levels {first}–{last} {place} {source}", first=built[1],
                                  last=top + 1, place=built[2], source=tell.column(column))
                else:
                    built = (column, top + 1, here)
                    told = phrase("built level {level} {place} {source}", level=top + 1,
                                  place=here, source=tell.column(column))
                mark("temples", [mover, figure])
                mark("columns", mover if column == "mine" else other)
            case Jump(column):
                told = phrase("jumped to level {level} {place} {source}", level=top + 2,
                              place=here, source=tell.column(column))
                mark("temples", [mover, figure])
                mark("rows", [mover, figure])
                mark("columns", mover if column == "mine" else other)
            case Migrate(x, y):
                told = phrase("migrated 3 cards {source} {target}", source=FROM_TRIBE[x],
                              target=TO_TRIBE[y])
                mark("rows", [mover, x])
                mark("rows", [mover, y])
            case Destroy():
                told = tell.destroyed(here)
                mark("temples", [other, figure])
            case Rob():
                told = tell.robbed(here)
                mark("temples", [other, figure])
                mark("temples", [mover, figure])
            case Emigrate(t):
                away = OF_THERE if here is THERE else (
                    OUT_OF_TERRITORY[figure] if figure else OUT_OF_THE_QUARRY)
                told = tell.drove(NAMES[t], away)
                mark("rows", [other, figure])
            case Switch():
                told = tell.switched(here)
                mark("rows", [other, figure])
                mark("rows", [mover, figure])
            case Halve(t):
                told = tell.halved(NAMES[t])
                mark("hands", other)
            case Pass():
                told = phrase("played no action")
            case Discard(tribes):
                told = phrase("discarded {cards}", cards=_cards(tribes))
        if not isinstance(step, Settle):
            settled = []
        if not isinstance(step, Build):
            built = None
        if isinstance(step, (Migrate, Halve, Pass, Discard)):
            said = None          # these name no place, or others: "there" is the figure's again
        elif figure and not isinstance(step, Move):
            said = figure
        if told:
            out.append(told)
        try:
            act(state, step)
        except ValueError:
            break
    return out, {kind: marked for kind, marked in marks.items() if marked}


def text_or_pass(steps: str) -> str:
    """A turn with no step at all is recorded as "" or "pass": both read as playing nothing."""
    return steps if steps.strip() else "pass"
