"""What one seat may know of a game (BABEL-RULINGS.md, "Public and hidden information").

Hidden: each hand from the other player, the order of the tribe supply, the
order of the temple supply except the cards on top whose identity became public
(put back by a destroy), and the seed. Public: everything else, including hand
sizes, discards due and the whole discard pile. A view is plain JSON-able data
built only from what the seat may know, so pages, mails and JSON built from it
cannot leak the rest.
"""

from __future__ import annotations

from .cards import NAMES, TRIBES
from .state import State

OUTCOME_WORDS = {
    "fifteen-ten": "reached 15 while the opponent had less than 10",
    "twenty": "reached 20 in the end phase",
    "below-ten": "the opponent fell below 10 in the end phase",
    "supply-empty": "the temple supply ran out",
    "resigned": "the opponent resigned",
    "timeout": "the opponent's time ran out",
}


def phase_of(state: State) -> str:
    return "over" if state.result is not None else state.phase


def outcome_json(state: State) -> dict | None:
    if state.result is None:
        return None
    return {"winner": state.result.winner, "reason": state.result.reason}


def player_view(state: State, seat: int, viewer: int | None) -> dict:
    p = state.players[seat]
    return {
        "seat": seat,
        "hand": p.hand_letters() if seat == viewer else None,
        "hand_size": p.hand_size,
        "owes": state.discards_due(seat),
        "figure": p.figure,
        "column": list(p.column),
        "reserved": p.first_turn,
        "rows": {t: p.rows[t] for t in TRIBES},
        "temples": {t: list(p.temples[t]) for t in TRIBES},
        "score": p.score(),
    }


def view(state: State, seat: int | None) -> dict:
    known = state.temple_known
    return {
        "game": "babel",
        "seat": seat,
        "to_move": state.to_move,
        "phase": phase_of(state),
        "end_phase": state.end_phase,
        "migrated": state.migrated,
        "sumerians": state.sumerians,
        "players": [player_view(state, s, seat) for s in range(2)],
        "tribe_supply": len(state.tribe_supply),
        "discard": state.discard,
        "temple_supply": len(state.temple_supply),
        "temple_known": list(state.temple_supply[len(state.temple_supply) - known:]) if known else [],
        "outcome": outcome_json(state),
        "territories": [{"letter": t, "name": NAMES[t]} for t in TRIBES],
    }
