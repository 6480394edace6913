"""What one seat may know of a game (BABEL-RULINGS.md, "Public and hidden information").

Hidden: each hand from the other player, the order of the tribe supply, the
order of the temple supply except the cards on top whose identity became public
(put back by a destroy), and the seed. Public: everything else, including hand
sizes, discards due and the whole discard pile. A view is plain JSON-able data
built only from what the seat may know, so pages, mails and JSON built from it
cannot leak the rest.
"""

from __future__ import annotations

from typing import Any

from .cards import NAMES, TRIBES, plural
from .state import State

OUTCOME_WORDS = {
    "fifteen-ten": "reached 15 while the opponent had less than 10",
    "twenty": "reached 20 in the end phase",
    "below-ten": "the opponent fell below 10 in the end phase",
    "supply-empty": "the temple supply ran out",
    "resigned": "the opponent resigned",
    "timeout": "the opponent's time ran out",
}


#: The endings on the board (the others: resigned, timeout, aborted).
ON_THE_BOARD = ("fifteen-ten", "twenty", "below-ten", "supply-empty")


def phase_of(state: State) -> str:
    return "over" if state.result is not None else state.phase


def outcome_json(state: State) -> dict[str, Any] | None:
    if state.result is None:
        return None
    return {"winner": state.result.winner, "reason": state.result.reason}


def player_view(state: State, seat: int, viewer: int | None) -> dict[str, Any]:
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


def view(state: State, seat: int | None) -> dict[str, Any]:
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



def ending(state: State, reader: int | None, names: list[str]) -> str | None:
    """Why a game ended on the board, written for `reader` (None: a spectator), with the
    scores and tie-breaks that decided it; None while it runs or when it ended off the board
    (resigned, timed out, aborted: the engine interface words those)."""
    result = state.result
    if result is None or result.reason not in ON_THE_BOARD:
        return None
    scores = state.scores()
    hands = [p.hand_size - state.discards_due(s) for s, p in enumerate(state.players)]
    if result.winner is None:
        me = reader if reader is not None else 0
        return (f"A draw: the temple supply ran out at {scores[me]} to {scores[1 - me]}, "
                f"and both players hold {plural(hands[0], 'tribe card')}")
    w, lost = result.winner, 1 - result.winner

    def who(seat: int) -> str:
        return "you" if seat == reader else names[seat]

    def verb(seat: int, you: str, other: str) -> str:
        return you if seat == reader else other

    at = f"({scores[w]} to {scores[lost]})"
    if result.reason == "fifteen-ten":
        why = f"{who(w)} reached 15 points while {who(lost)} had fewer than 10 {at}"
    elif result.reason == "twenty":
        why = f"{who(w)} reached 20 points in the end phase {at}"
    elif result.reason == "below-ten":
        why = f"{who(lost)} fell below 10 points in the end phase {at}"
    elif scores[w] != scores[lost]:
        why = f"the temple supply ran out, and {who(w)} {verb(w, 'have', 'has')} more points {at}"
    else:
        why = (f"the temple supply ran out at {scores[w]} to {scores[lost]}, and {who(w)} "
               f"{verb(w, 'hold', 'holds')} more tribe cards ({hands[w]} to {hands[lost]})")
    return f"{'You win' if w == reader else names[w] + ' wins'}: {why}"
