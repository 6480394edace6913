"""Points the rulings (docs/games/babel-rulings.md) leave open, as the engine settles them.

Each is marked "Decision:" in the engine's docstrings (rules.py, turn.py,
state.py, randomplay.py); these tests pin the choice, on both sides.
"""

from collections import Counter

import pytest

from babel_positions import after, make, rejected  # tests/helpers
from pbem.games.babel import GAME
from pbem.games.babel.legal import legal_steps
from pbem.games.babel.state import draw_tribes
from pbem.games.babel.steps import Rob, Switch
from pbem.games.babel.turn import play_from_position

# -- a skill with two runs of the same tribe in one row ---------------------------


def test_two_runs_of_one_tribe_the_skill_card_comes_from_the_topmost_run():
    state = make(anna={"figure": "S", "rows": {"S": "SSSASSS"}}, bob={"hand": "AAAA"})
    assert after(state, "halve S").mover.rows["S"] == "SSSASS"


def test_two_runs_the_topmost_run_even_when_the_lower_one_is_longer():
    state = make(anna={"figure": "A", "rows": {"A": "AAAAHAAA"}})
    state = after(state, "destroy")
    assert state.mover.rows["A"] == "AAAAHAA"
    # The lower run still holds three: the skill can be used again, now from it.
    assert after(state, "destroy").mover.rows["A"] == "AAAHAA"


# -- switch against an empty opposing row -----------------------------------------


def test_switch_against_an_empty_opposing_row_is_legal_and_takes_nothing():
    state = make(anna={"figure": "S", "rows": {"S": "HSSS"}}, bob={"rows": {"H": "AA"}})
    assert Switch() in legal_steps(state)
    done = after(state, "switch")
    assert done.mover.rows["S"] == "HSS" and done.discard == "S"
    assert done.opponent.rows == state.opponent.rows


# -- halving a hand of 0 or 1 card -------------------------------------------------


@pytest.mark.parametrize("hand, owed", [("", None), ("M", None), ("MM", (1, 1)), ("MMM", (1, 1))])
def test_halving_a_hand_of_0_or_1_card_is_legal_and_owes_nothing(hand, owed):
    state = make(anna={"figure": "P", "rows": {"P": "PPP"}}, bob={"hand": hand})
    done = after(state, "halve P")
    assert done.pending_discard == owed
    assert done.mover.rows["P"] == "PP"


def test_halving_a_single_card_leaves_no_discard_for_the_next_turn():
    state = make(anna={"figure": "P", "rows": {"P": "PPP"}}, bob={"hand": "M"})
    state = GAME.apply(state, GAME.decide(state, 0, "halve P"))
    assert [(d.seat, d.kind) for d in GAME.to_act(state)] == [(1, "turn")]
    assert state.players[1].hand_size == 4                 # he drew at once


# -- pass stands alone ---------------------------------------------------------------


def test_pass_alone_is_an_empty_phase_2():
    state = make(anna={"hand": "AA"})
    done = GAME.apply(state, GAME.decide(state, 0, "pass"))
    assert done.players[0].hand_letters() == "AA" and done.to_move == 1


def test_pass_with_other_steps_is_illegal():
    state = make(anna={"hand": "AA"})
    message = "pass means an empty phase 2 and cannot stand with other steps."
    assert rejected(state, "move A; pass") == f"step 2 (pass): {message}"
    assert rejected(state, "pass; move A") == f"step 1 (pass): {message}"
    assert rejected(state, "pass; pass") == f"step 1 (pass): {message}"


# -- a first-turn draft with no way out --------------------------------------------


def test_first_turn_dead_end_nothing_is_legal():
    state = GAME.start(11)
    seat = state.to_move
    spend_all = "\n".join(f"move {t}" for t in state.mover.hand_letters())
    draft = GAME.draft(state, seat, spend_all)
    assert draft.error is None and not draft.done       # every step applies, but
    assert "starting level-1 card" in draft.todo        # the starting card is still there
    assert draft.state.mover.hand_size == 0
    assert legal_steps(draft.state) == []
    assert GAME.legal_steps(draft.state, seat) == []
    assert rejected(state, spend_all) == (
        f"step 8 (move {state.mover.hand_letters()[-1]}): in your first turn you must build your "
        "starting level-1 card; it is still in your column.")


def test_first_turn_one_card_short_of_a_dead_end_can_still_build():
    state = make(anna={"hand": "AH", "column": [1], "first_turn": True})
    state = after(state, "move A")
    assert [str(s) for s in legal_steps(state)] == ["move H", "settle H"]
    state = after(state, "settle H")
    assert [str(s) for s in legal_steps(state)] == ["build mine"]
    assert legal_steps(after(make(anna={"hand": "AH", "column": [1], "first_turn": True}),
                             "move A; move H")) == []


# -- rob with no opposing temple ---------------------------------------------------


def test_rob_with_no_opposing_temple_is_illegal():
    state = make(anna={"figure": "H", "rows": {"H": "HHHH"}}, bob={"temples": {"A": [1, 2]}})
    assert Rob() not in legal_steps(state)
    assert rejected(state, "rob") == (
        "step 1 (rob): your opponent has no temple in the Hittites territory to rob.")


# -- when the discard pile is reshuffled -------------------------------------------


def test_reshuffle_waits_until_a_card_must_be_drawn():
    state = make(anna={"hand": ""}, tribe_supply="AHM", discard="PP", phase="draw", seed=3)
    play_from_position(state, "move A")       # draws the last three cards, discards one more
    assert state.tribe_supply == "" and state.discard == "PPA"
    assert state.to_move == 1
    drawn = draw_tribes(state)                 # Bob's draw shuffles all three in
    assert Counter(drawn) == Counter("PPA")
    assert state.discard == "" and state.tribe_supply == ""
