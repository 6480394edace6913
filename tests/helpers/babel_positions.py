"""Small Babel positions for rule tests, and playing steps on them."""

import pytest

from pbem.games.babel import GAME, position
from pbem.games.babel.notation import parse_steps
from pbem.games.babel.turn import play_actions, play_from_position
from pbem.games.errors import GameError


def make(anna=None, bob=None, **top):
    """A position: Anna to move in phase 2, neither in his first turn, unless told otherwise."""
    players = [
        {"name": "Anna", "hand": "", "first_turn": False, **(anna or {})},
        {"name": "Bob", "hand": "", "first_turn": False, **(bob or {})},
    ]
    obj = {"to_move": 0, "players": players, "tribe_supply": "HMPSA", "temple_supply": [2, 3, 4, 5]}
    obj.update(top)
    return position.from_json(obj).state


def after(state, text):
    """Phase 2 only, on a copy."""
    state = state.copy()
    play_actions(state, parse_steps(text))
    return state


def whole_turn(state, text):
    """Phase 2, phase 3 and the end checks, on a copy (the command line's `play`)."""
    state = state.copy()
    play_from_position(state, text)
    return state


def rejected(state, text, seat=None, error=GameError):
    """The message of a submission the server refuses; the state is left as it was."""
    seat = state.to_move if seat is None else seat
    before = state.copy()
    with pytest.raises(error) as info:
        GAME.decide(state, seat, text)
    assert state == before
    with pytest.raises(error):
        GAME.apply(state, {"type": "turn", "seat": seat, "steps": text})
    assert state == before
    return str(info.value)
