"""What one seat may know of a game (docs/games/babel-rulings.md, "Public and hidden information").

Hidden: each hand from the other player, the order of the tribe supply, the
order of the temple supply except the cards on top whose identity became public
(put back by a destroy), and the seed. Public: everything else, including hand
sizes, discards due and the whole discard pile. A view is plain JSON-able data
built only from what the seat may know, so pages, mails and JSON built from it
cannot leak the rest.
"""

from __future__ import annotations

from typing import Any

from ..phrases import Phrase, phrase, phrase_n
from .cards import NAMES, TRIBES
from .state import State

OUTCOME_WORDS = {
    "fifteen-ten": phrase("reached 15 while the opponent had less than 10"),
    "twenty": phrase("reached 20 in the end phase"),
    "below-ten": phrase("the opponent fell below 10 in the end phase"),
    "supply-empty": phrase("the temple supply ran out"),
    "resigned": phrase("the opponent resigned"),
    "timeout": phrase("the opponent's time ran out"),
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



def ending(state: State, reader: int | None, names: list[str]) -> Phrase | None:
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
        return phrase_n("A draw: the temple supply ran out at {mine} to {theirs}, and both "
                        "players hold {n} tribe card",
                        "A draw: the temple supply ran out at {mine} to {theirs}, and both "
                        "players hold {n} tribe cards", hands[0],
                        mine=scores[me], theirs=scores[1 - me])
    w, lost = result.winner, 1 - result.winner
    why = _why(result.reason, w == reader, lost == reader, names[w], names[lost],
               (scores[w], scores[lost]), (hands[w], hands[lost]))
    if w == reader:
        return phrase("You win: {why}", why=why)
    return phrase("{winner} wins: {why}", winner=names[w], why=why)


def _why(reason: str, i_won: bool, i_lost: bool, winner: str, loser: str,
         scores: tuple[int, int], hands: tuple[int, int]) -> Phrase:
    """The reason of a won game, with "you" for the reader: one phrase for each reader
    (the winner, the loser, a spectator), as every language conjugates its verb for him."""
    won, lost = scores
    if reason == "fifteen-ten":
        if i_won:
            return phrase("you reached 15 points while {loser} had fewer than 10 ({won} to "
                          "{lost})", loser=loser, won=won, lost=lost)
        if i_lost:
            return phrase("{winner} reached 15 points while you had fewer than 10 ({won} to "
                          "{lost})", winner=winner, won=won, lost=lost)
        return phrase("{winner} reached 15 points while {loser} had fewer than 10 ({won} to "
                      "{lost})", winner=winner, loser=loser, won=won, lost=lost)
    if reason == "twenty":
        if i_won:
            return phrase("you reached 20 points in the end phase ({won} to {lost})",
                          won=won, lost=lost)
        return phrase("{winner} reached 20 points in the end phase ({won} to {lost})",
                      winner=winner, won=won, lost=lost)
    if reason == "below-ten":
        if i_lost:
            return phrase("you fell below 10 points in the end phase ({won} to {lost})",
                          won=won, lost=lost)
        return phrase("{loser} fell below 10 points in the end phase ({won} to {lost})",
                      loser=loser, won=won, lost=lost)
    if won != lost:
        if i_won:
            return phrase("the temple supply ran out, and you have more points ({won} to {lost})",
                          won=won, lost=lost)
        return phrase("the temple supply ran out, and {winner} has more points ({won} to "
                      "{lost})", winner=winner, won=won, lost=lost)
    more, fewer = hands
    if i_won:
        return phrase("the temple supply ran out at {won} to {lost}, and you hold more tribe "
                      "cards ({more} to {fewer})", won=won, lost=lost, more=more, fewer=fewer)
    return phrase("the temple supply ran out at {won} to {lost}, and {winner} holds more tribe "
                  "cards ({more} to {fewer})", winner=winner, won=won, lost=lost, more=more,
                  fewer=fewer)
