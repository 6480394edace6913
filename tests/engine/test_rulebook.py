"""The rulebook's own examples (German original, 2.2, 2.3 and 2.4), played through the notation.

Each example is a position file in positions/ and a turn in notation; the
tests check the table the rulebook describes after each part of the example.
(The long Anna/Bob example of phase 2 is in test_rulebook_example.py.)
"""

from pathlib import Path

import pytest

from pbem.games.babel import GAME, position
from pbem.games.babel.notation import parse_steps
from pbem.games.babel.turn import play_actions, play_from_position
from pbem.games.errors import GameError

POSITIONS = Path(__file__).parent / "positions"


def load(name):
    return position.loads((POSITIONS / name).read_text()).state


def actions(name, text):
    """Phase 2 only: the state after these steps from the named position."""
    state = load(name)
    play_actions(state, parse_steps(text))
    return state


def whole_turn(name, text):
    """Phase 2 and phase 3 (the command line's `play`)."""
    state = load(name)
    play_from_position(state, text)
    return state


def rejected(name, text):
    """The error of a submission the server refuses; the position is unchanged by it."""
    state = load(name)
    before = state.copy()
    with pytest.raises(GameError) as info:
        GAME.decide(state, state.to_move, text)
    assert state == before
    return str(info.value)


# -- 2.2 Ansiedeln: the settle example ---------------------------------------

SETTLE_TURN = "settle A P; move A; settle S S"


def test_settle_example_part_1_two_cards_onto_the_two_assyrians():
    anna = actions("settle.json", "settle A P").players[0]
    # "Jetzt liegen dort die Karten: Assyrer - Assyrer - Assyrer - Perser."
    assert anna.rows["S"] == "AAAP"
    assert anna.figure == "S"


def test_settle_example_part_2_move_to_the_assyrians_then_settle_two_sumerians():
    state = actions("settle.json", SETTLE_TURN)
    anna = state.players[0]
    assert anna.figure == "A"
    assert anna.rows["S"] == "AAAP"          # the Sumerians territory keeps its four cards
    assert anna.rows["A"] == "SS"
    assert state.discard == "A"              # the move's card
    assert anna.hand_size == 0


def test_settle_example_as_a_whole_turn_ends_with_phase_3():
    state = whole_turn("settle.json", SETTLE_TURN)
    anna = state.players[0]
    assert anna.column == (3, 4, 1)          # 4 and 1 drawn, the higher first
    assert state.to_move == 1 and state.phase == "draw"


def test_settle_example_cannot_settle_the_sumerians_twice_with_one_pair():
    assert rejected("settle.json", SETTLE_TURN + "; settle S") == (
        "step 4 (settle S): you hold 0 Sumerians cards but settle 1.")


# -- 2.3 Tempelbau: the build example -----------------------------------------

BUILD_TURN = """
move M          # the figure goes to the Medes territory: 4 tribe cards, temple level 1
build mine      # level 2 from his own column
build theirs    # level 3 from the opponent's column
build theirs    # level 4 from the opponent's column
settle A P      # 6 tribe cards now
build theirs    # level 5 from the opponent's column
build mine      # level 6 from his own column
"""


def test_build_example_levels_2_3_4_with_four_tribe_cards():
    state = actions("build.json", "move M; build mine; build theirs; build theirs")
    anna, bob = state.players
    assert anna.temples["M"] == (1, 2, 3, 4)
    assert anna.column == (6,)
    assert bob.column == (5,)


def test_build_example_level_5_needs_the_two_settled_cards():
    assert rejected("build.json", "move M; build mine; build theirs; build theirs; build theirs") == (
        "step 5 (build theirs): you need 5 tribe cards in the Medes territory to build level 5; "
        "you have 4.")


def test_build_example_levels_5_and_6_after_settling_two_more():
    state = actions("build.json", BUILD_TURN)
    anna, bob = state.players
    assert anna.rows["M"] == "SHAPAP"
    assert anna.temples["M"] == (1, 2, 3, 4, 5, 6)
    assert anna.column == () and bob.column == ()
    assert anna.score() == 6


def test_build_example_takes_only_the_top_card_of_a_column():
    # The 6 lies under the 2 in his own column: it cannot be taken before the 2.
    assert rejected("build.json", "move M; build mine; build theirs; build theirs; settle A P; "
                                  "build mine") == (
        "step 6 (build mine): your temple in the Medes territory is level 4, so it takes level 5 "
        "next; the top card of your column is level 6.")


def test_build_example_as_a_whole_turn():
    state = whole_turn("build.json", BUILD_TURN)
    anna = state.players[0]
    assert anna.column == (3, 2)             # phase 3 refills the emptied column
    assert state.temple_supply == (1,)
    assert state.result is None


# -- 2.4 Völkerwanderung: the migration example -------------------------------


# The text names the three cards moved (Sumerer, Sumerer, Hethiter) and the row they make
# (Perser - Sumerer - Sumerer - Sumerer - Hethiter), so the Persians row held P S before.


def test_migration_example_top_three_of_the_medes_onto_the_persians():
    state = actions("migration.json", "migrate M P")
    anna = state.players[0]
    assert anna.figure == "H"                       # wherever the figure stands
    assert anna.rows["P"] == "PSSSH"                # Perser - Sumerer - Sumerer - Sumerer - Hethiter
    assert anna.rows["M"] == "M"                    # one card left
    assert anna.temples["M"] == (1, 2, 3, 4)        # the temple stays


def test_migration_example_the_three_sumerians_threaten_a_switch():
    state = actions("migration.json", "migrate M P; move P; switch")
    anna, bob = state.players
    assert bob.rows["P"] == "MH"
    assert anna.rows["P"] == "PSSHAA"            # one Sumerians card spent, Bob's two Assyrians won


def test_migration_example_level_5_then_needs_5_cards_in_the_medes_territory():
    assert rejected("migration.json", "migrate M P; move M; build mine") == (
        "step 3 (build mine): you need 5 tribe cards in the Medes territory to build level 5; "
        "you have 1.")
    assert rejected("migration.json", "migrate M P; move M; settle A A A; build mine") == (
        "step 4 (build mine): you need 5 tribe cards in the Medes territory to build level 5; "
        "you have 4.")
    state = actions("migration.json", "migrate M P; move M; settle A A A A; build mine")
    assert state.players[0].temples["M"] == (1, 2, 3, 4, 5)


def test_migration_example_only_once_per_turn():
    assert rejected("migration.json", "migrate M P; migrate P M") == (
        "step 2 (migrate P M): you have already migrated this turn; migration is allowed once "
        "per turn.")
