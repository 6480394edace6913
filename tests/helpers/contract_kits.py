"""What the contract (tests/contract/test_contract.py) needs to know of each game beyond the
`pbem.games.base.Engine` interface: how to make "twins" (states, and events, that differ only in
what a seat may not know), a superset of the legal next steps to brute-force `legal_steps`
against, how its random games choose, and hand-made positions random play rarely reaches.

A registered game without a kit here fails the contract with a message saying so: a new game
gets the whole contract by registering, and writes its kit to say what it hides.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations, combinations_with_replacement
from typing import Any

import babel_twins
import babylonia_twins

from pbem.games.babel.cards import TRIBES
from pbem.games.babel.state import DRAW
from pbem.games.babylonia.cli import greedy_submission
from pbem.games.babylonia.notation import HEXES, WORDS
from pbem.games.babylonia.state import Token
from pbem.games.rng import Rng


def nothing_hidden(state: Any, seat: int | None, rng: Rng) -> Any:
    """A game without hidden information has no twin but the state itself."""
    return state.copy()


def event_unchanged(before: Any, event: dict, seat: int | None, rng: Rng) -> dict:
    """An event every seat may read in full."""
    return event


@dataclass(frozen=True)
class Kit:
    #: The option sets random games are played with.
    options: tuple[dict[str, str], ...]
    #: A superset of the legal next steps of `seat` in a (draft) state, in the notation.
    candidates: Callable[[Any, int], list[str]]
    #: A copy of the state with what `seat` (None: a spectator) may not know changed.
    twin: Callable[[Any, int | None, Rng], Any] = nothing_hidden
    #: The event with what `seat` may not read of it changed (given the state before it).
    twin_event: Callable[[Any, dict, int | None, Rng], dict] = event_unchanged
    #: How random games choose a decision; None: the engine's `random_submission`.
    player: Callable[[Any, int, Rng], str] | None = None
    #: (state, seat, submission): decision points random play rarely reaches.
    positions: Callable[[int], list[tuple[Any, int, str]]] = field(default=lambda seats: [])
    #: Steps that are a whole decision on their own and stand with no other (Babel's `pass`,
    #: an empty phase 2): nothing is listed after them.
    alone: tuple[str, ...] = ()
    #: Honest words on what the brute force leaves out.
    coverage: str = ""


# -- Babel ----------------------------------------------------------------------------------------

def babel_candidates(state: Any, seat: int) -> list[str]:
    """Every syntactically possible atomic step: single-card settles (a longer settle is a
    sequence of them, and `legal_steps` lists settling card by card), discards of the size due
    and one more or less (none due: 1 or 2); `pass` is the spelling of End for an empty draft."""
    steps = [f"move {t}" for t in TRIBES] + [f"settle {t}" for t in TRIBES]
    steps += [f"{verb} {column}" for verb in ("build", "jump") for column in ("mine", "theirs")]
    steps += [f"migrate {x} {y}" for x in TRIBES for y in TRIBES if x != y]
    steps += ["destroy", "rob", "switch"]
    steps += [f"{verb} {t}" for verb in ("emigrate", "halve") for t in TRIBES]
    due = state.discards_due(seat) if state.phase == DRAW else 0
    for n in sorted(({due - 1, due, due + 1} if due else {1, 2}) - {0}):
        steps += ["discard " + " ".join(c) for c in combinations_with_replacement(TRIBES, n)]
    return steps


BABEL = Kit(
    options=({"sumerians": "top-run"}, {"sumerians": "all"}),
    candidates=babel_candidates,
    twin=babel_twins.twin,
    alone=("pass",),
    coverage="multi-card settles (listed card by card) and `pass` (the End of an empty draft)",
)


# -- Babel Tower ----------------------------------------------------------------------------------

FACE_SETS = ["".join(c) for r in range(7) for c in combinations("UDNESW", r)]
TOWER_STEPS = [f"pick {t}" for t in range(5)] + [
    f"place {t} {corner} {faces or '-'}" for t in range(5) for corner in ("NW", "NE", "SE", "SW")
    for faces in FACE_SETS]

TOWER = Kit(
    options=({"draft": "pick"}, {"draft": "random"}),
    candidates=lambda state, seat: TOWER_STEPS,
    coverage="every step of the notation: pick 0-4, each cube on each corner with each face set",
)


# -- Babylonia ------------------------------------------------------------------------------------

BABYLONIA_STEPS = ([f"{kind} {hex}" for kind in WORDS.values() for hex in sorted(HEXES)]
                   + [f"score {hex}" for hex in sorted(HEXES)]
                   + [f"card {n}" for n in range(1, 10)] + ["extra"])


def two_ziggurats(seats: int) -> list[tuple[Any, int, str]]:
    """Seat 0's two tokens surround the ziggurat at l3 (4 players), won by seat 1, and the one
    at i7, won by seat 0: scoring l3 first pauses his turn for seat 1's card, and he names
    card 3 for i7 ahead, a secret until the turn resumes (tests/babylonia/test_views.py)."""
    from pbem.games.babylonia import GAME
    if seats != 4:
        return []
    state = GAME.start(1, {}, 4, 0)
    for hexes, seat in ((("l2", "m3", "m4", "l4"), 1), (("i6", "j6", "j7", "i8", "h7"), 0)):
        for hex in hexes:
            state.tokens[hex] = Token(seat, "F")
            state.supplies[seat] = state.supplies[seat].replace("F", "", 1)
    state.turn.index = 5
    return [(state, 0, "farmer k3\nfarmer h6\nscore l3\nscore i7\ncard 3")]


BABYLONIA = Kit(
    options=({"ziggurat_cards": "basic"}, {"ziggurat_cards": "advanced"}),
    candidates=lambda state, seat: BABYLONIA_STEPS,
    twin=babylonia_twins.twin,
    twin_event=babylonia_twins.twin_event,
    player=greedy_submission,
    positions=two_ziggurats,
    coverage="every step of the notation: each token on each hex, score on each hex, card 1-9, "
             "extra",
)


KITS: dict[str, Kit] = {"babel": BABEL, "babel-tower": TOWER, "babylonia": BABYLONIA}
