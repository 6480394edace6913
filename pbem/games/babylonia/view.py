"""What one seat may see of a Babylonia state (None: a spectator).

Hidden from a seat: the other stands' tokens (their counts are shown), every
supply but its size, the kinds of the others' face-down river tokens, and the
cards the mover named for after a pause. Everything else is public.
"""

from __future__ import annotations

from typing import Any

from .cards import CARD_WORDS
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
        "causes": [[list(c) for c in x] for x in state.causes],
        "cities": [list(x) for x in state.cities],
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


def _hex(state: State, h, seat: int | None) -> dict:
    token = state.tokens.get(h.name)
    shown = None
    if token is not None:
        kind = "?" if token.down and token.seat != seat else token.kind
        shown = {"seat": token.seat, "kind": kind, "down": token.down}
    return {"name": h.name, "row": h.row, "col": h.col, "kind": h.kind, "area": h.area,
            "tile": state.tiles.get(h.name), "token": shown,
            "scored": h.name in state.scored}


def _stand(state: State, seat: int) -> dict[str, int]:
    return {WORDS[k]: n for k, n in zip(KINDS, state.stands[seat])}


def _turn(state: State, seat: int | None) -> dict | None:
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


def summary(state: State, seat: int) -> list[str]:
    """Lines for a mail (which names the scores itself): the stand, the cities and the cards."""
    stand = " ".join(k for k, n in zip(KINDS, state.stands[seat]) for _ in range(n))
    lines = [f"Your stand: {stand or 'empty'} ({len(state.supplies[seat])} tokens in your supply)"]
    for s in range(state.players):
        if state.cities[s] or state.cards[s]:
            lines.append(f"Seat {s + 1}: cities {len(state.cities[s])}, cards "
                         + (" ".join(map(str, state.cards[s])) or "none"))
    lines.append("Ziggurat cards available: " + (" ".join(map(str, state.available)) or "none"))
    return lines
