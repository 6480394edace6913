"""What one seat may see of a Babylonia state (None: a spectator).

Hidden from a seat: the other stands' tokens (their counts are shown), every
supply but its size, the kinds of the others' face-down river tokens, and the
cards the mover named for after a pause. Everything else is public.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .board import Hex
from .cards import CARD_WORDS
from .legal import legal_steps
from .mailboard import lines
from .notation import WORDS
from .state import KINDS, State


def view(state: State, seat: int | None) -> dict[str, Any]:
    b = state.board
    return {
        "game": "babylonia",
        "seat": seat,
        "players": state.players,
        "to_move": state.to_move,
        "owed": state.card_due,
        "phase": "over" if state.result else ("card" if state.card_due is not None else "turn"),
        "hexes": [_hex(state, h, seat) for h in b.hexes.values()],
        "stands": [_stand(state, s) if s == seat else None for s in range(state.players)],
        "stand_sizes": [state.stand_size(s) for s in range(state.players)],
        "supply_sizes": [len(x) for x in state.supplies],
        "scores": list(state.scores),
        "causes": [[[points, shown_tile(cause)] for points, cause in x] for x in state.causes],
        "cities": [[shown_tile(c) for c in x] for x in state.cities],
        "cards": [list(x) for x in state.cards],
        "used": [list(x) for x in state.used],
        "available": list(state.available),
        "card_words": {str(c): CARD_WORDS[c] for c in sorted(set(state.available).union(
            *state.cards))},
        "cities_on_board": len(state.city_hexes()),
        "turn": _turn(state, seat),
        "outcome": (None if state.result is None else
                    {"winners": list(state.result.winners), "reason": state.result.reason}),
    }


def _hex(state: State, h: Hex, seat: int | None) -> dict[str, Any]:
    token = state.tokens.get(h.name)
    shown = None
    if token is not None:
        kind = "?" if token.down and token.seat != seat else token.kind
        shown = {"seat": token.seat, "kind": kind, "down": token.down}
    return {"name": h.name, "row": h.row, "col": h.col, "kind": h.kind, "area": h.area,
            "tile": shown_tile(state.tiles.get(h.name)), "token": shown,
            "scored": h.name in state.scored}


_CITY = re.compile(r"\bcity ([MPS]+)\b")


def shown_tile(text: str | None) -> str | None:
    """A city tile (or a sentence naming one) as players read it: its officials marked `O`,
    like the official tokens (the board's data, after the printed tiles, writes `S`)."""
    if text is None:
        return None
    return _CITY.sub(lambda m: "city " + m.group(1).replace("S", "O"), text)


def _stand(state: State, seat: int) -> dict[str, int]:
    return {WORDS[k]: n for k, n in zip(KINDS, state.stands[seat])}


def _turn(state: State, seat: int | None) -> dict[str, Any] | None:
    turn = state.turn
    if turn is None:
        return None
    mine = seat == state.to_move
    river = state.board.is_river
    return {
        "index": turn.index,
        "placed": [[kind if mine or not river(h) else "?", h] for kind, h in turn.placed],
        "closed": turn.closed,
        "candidates": list(turn.candidates),
        "order": list(turn.order),
        "resolved": turn.resolved,
        "waiting": turn.waiting,
        "named": list(turn.cards) if mine else None,
        "extra": turn.extra,
    }


def summary(state: State, seat: int, names: Sequence[str] = ()) -> list[str]:
    """The text board of a mail (`mailboard`): players, stand, cities and ziggurats with the
    tokens around them, and where the seat's tokens may go now (or the cards it may take)."""
    return lines(state, seat, names, view(state, seat), legal_steps(state, seat))
