"""Every legal next atomic step of a position, for the turn page's buttons and for bots.

Computed directly from the rules' conditions (no trial application), so it is
fast; tests/engine/test_legal.py proves it equal to trying every syntactically
possible step on many random positions. Settling is listed card by card; a
longer `settle` is a sequence of these. `pass` is the spelling of `End` for an
empty draft and is not listed.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from .cards import TRIBES
from .rules import starting_card_unbuilt
from .state import DRAW, State
from .steps import (COLUMNS, MINE, Build, Destroy, Discard, Emigrate, End, Halve, Jump, Migrate,
                    Move, Rob, Settle, Switch)

MOVES = [Move(t) for t in TRIBES]
SETTLES = [Settle((t,)) for t in TRIBES]
EMIGRATES = [Emigrate(t) for t in TRIBES]
HALVES = {t: Halve(t) for t in TRIBES}
BUILDS = {c: Build(c) for c in COLUMNS}
JUMPS = {c: Jump(c) for c in COLUMNS}
MIGRATES = {(x, y): Migrate(x, y) for x in TRIBES for y in TRIBES if x != y}
END = End()


def legal_steps(state: State) -> list:
    if state.result is not None:
        return []
    if state.phase == DRAW:
        due = state.discards_due(state.to_move)
        return discard_options(state.mover.hand, due) if due else []
    player, opponent = state.mover, state.opponent
    out: list = [] if starting_card_unbuilt(player) else [END]
    hand = player.hand
    out += [MOVES[i] for i in range(5) if hand[i]]
    figure = player.figure
    if figure is not None:
        out += [SETTLES[i] for i in range(5) if hand[i]]
        _site_steps(out, player, opponent, figure)
    if not state.migrated:
        rows = player.rows
        out += [MIGRATES[x, y] for x in TRIBES if len(rows[x]) >= 3 for y in TRIBES if y != x]
    return out


def _column_tops(player, opponent) -> list[tuple[str, int]]:
    tops = []
    if player.column:
        tops.append((MINE, player.column[-1]))
    if opponent.column and not opponent.first_turn:
        tops.append(("theirs", opponent.column[-1]))
    return tops


def _site_steps(out: list, player, opponent, figure: str) -> None:
    row = player.rows[figure]
    have = len(row)
    top = player.temple_top(figure)
    tops = _column_tops(player, opponent)
    out += [BUILDS[c] for c, level in tops if level == top + 1 and have >= level]
    runs = [t for t in TRIBES if t * 3 in row]
    if not runs:
        return
    if "A" in runs:
        out.append(Destroy())
    if "H" in runs:
        theirs = opponent.temples[figure]
        if theirs and top < theirs[-1] <= have:
            out.append(Rob())
    if "M" in runs:
        out += EMIGRATES
    if "S" in runs:
        out.append(Switch())
    if "P" in runs:
        out += [JUMPS[c] for c, level in tops if level == top + 2 and have >= level]
    out += [HALVES[t] for t in runs]


def discard_options(hand: list[int], due: int) -> list[Discard]:
    """Every choice of `due` cards from the hand, as multisets in canonical order."""
    return [Discard(combo) for combo in combinations_with_replacement(TRIBES, due)
            if all(combo.count(t) <= hand[i] for i, t in enumerate(TRIBES))]
