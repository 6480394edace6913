"""Babel Tower judged from the rules (TOWER-RULINGS.md), for the bots' `greedy` level.

A player who must place and cannot loses, so what counts is mobility: how many placements
each side would have, were it to move now. A finished game is worth far more than any
lead; a placement that leaves the other side without one wins at once. In the draft, cubes
that fit many ways (many shapes of bumps) are worth more than rigid ones.

`turns` lists every decision (a decision is one step here), best first by `value` after it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from . import rules
from .cubes import SHAPES, TYPES
from .notation import Pick, Place
from .state import DRAFT, Tower

DECIDED = 100.0


def _mobility(state: Tower, seat: int) -> int:
    """The placements `seat` would have now, were it to move."""
    if state.to_move != seat:
        state = state.copy()
        state.to_move = seat
    return sum(1 for _ in rules.placements(state, seat))


def _flexibility(state: Tower, seat: int) -> float:
    """A drafted hand's worth: each cube by the shapes it may take."""
    return sum(n * math.sqrt(len(SHAPES[t])) for t, n in zip(TYPES, state.hands[seat]))


def value(state: Tower, seat: int) -> float:
    result = state.result
    if result is not None:
        if result.winner is None:
            return 0.0
        return DECIDED if result.winner == seat else -DECIDED
    if state.phase == DRAFT:
        return 0.3 * (_flexibility(state, seat) - _flexibility(state, 1 - seat))
    mine, theirs = _mobility(state, seat), _mobility(state, 1 - seat)
    # few placements left is a danger, many a comfort: compare their square roots
    return 3.0 * (math.sqrt(mine + 1) - math.sqrt(theirs + 1))


@dataclass
class Turn:
    text: str
    state: Tower
    value: float


def turns(state: Tower, seat: int) -> list[Turn]:
    out = []
    if state.phase == DRAFT:
        for cube in TYPES:
            if state.pool[cube]:
                after = state.copy()
                rules.pick(after, cube)
                out.append(Turn(str(Pick(cube)), after, value(after, seat)))
    else:
        for cube, corner, bumps in list(rules.placements(state, seat)):
            after = state.copy()
            rules.place(after, cube, corner, bumps)
            out.append(Turn(str(Place(cube, corner, bumps)), after, value(after, seat)))
    out.sort(key=lambda t: -t.value)
    return out


def reply(state: Tower, seat: int) -> str:
    return turns(state, seat)[0].text


#: The lead that makes about 73% for the search (pbem/bots/models.py).
SCALE = 3.0
#: Every decision is one step, with quick playouts to the end: the search levels search step
#: by step (pbem/bots/search.py); this module serves `greedy`.
BY_STEPS = True
