"""No dead end among a Babylonia turn's offered plays (issue 26): a play after which no token
can complete the turn's way is left out. Only a nearly full board has such a play (with two
bare land hexes free every play can be completed, `legal._plays_that_end`); the contract's
random walks (tests/contract) cover the rest."""

from __future__ import annotations

from babylonia_positions import position  # tests/helpers
from pbem.games.babylonia import GAME
from pbem.games.babylonia.state import Token, playable


def nearly_full(stand: str):
    """Every hex filled by the opponent but g6 (bare land) and the field at g7 beside it; the
    seat to move has no token on the board."""
    state = position(tiles={"g7": "field 5"}, stands=[stand, "FFPMO"])
    taken = set(state.tiles) | {"g6", "g7"}
    for hex, _river in playable(2):
        if hex not in taken:
            state.tokens[hex] = Token(1, "F")
    return state


def offered(state) -> list[str]:
    return [o.notation for o in GAME.legal_steps(state, 0)]


def test_a_play_that_leaves_no_place_for_the_second_token_is_not_offered():
    """A farmer onto g6 leaves the priest nowhere (a noble goes onto no field without card 6);
    the priest onto g6 lets the farmer onto the field beside it. Both apply."""
    state = nearly_full("FP")
    assert sorted(offered(state)) == ["priest g6"]
    for play in ("farmer g6", "priest g6"):
        assert GAME.draft(state, 0, play).error is None
    dead = GAME.draft(state, 0, "farmer g6")
    assert offered(dead.state) == [] and not dead.done
    assert GAME.take_back(state, 0, dead) == (1, "Take back step 1 (farmer g6): after it the turn "
                                                 "cannot be finished.")
    alive = GAME.draft(state, 0, "priest g6")
    assert offered(alive.state) == ["farmer g7"]
    steps = ["priest g6", "farmer g7"]        # then the scoring order, as offered
    while not any(o.ends for o in GAME.legal_steps(GAME.draft(state, 0, "\n".join(steps)).state, 0)):
        steps.append(offered(GAME.draft(state, 0, "\n".join(steps)).state)[0])
    GAME.decide(state, 0, "\n".join(steps))
