"""Each ruling of docs/games/babel-rulings.md, on its legal and on its illegal side.

Positions are built small: only the cards that play a part. Anna (seat 0) is
to move in phase 2 unless a test says otherwise; Bob is seat 1. Illegal
submissions go through the server's own path (`GAME.decide`), which must name
the 1-based step, say what is wrong with the numbers, and change nothing.
"""

from collections import Counter

import pytest

from babel_positions import after, make, rejected, whole_turn  # tests/helpers
from pbem.games.babel import GAME
from pbem.games.babel.cards import TRIBES
from pbem.games.babel.rules import draw_temples
from pbem.games.babel.state import Result, deal, draw_tribes
from pbem.games.babel.turn import play_from_position
from pbem.games.errors import GameError, IllegalStep, WrongDecision

# -- helpers -------------------------------------------------------------------


def temples(total, skip=""):
    """Temples worth `total` points, A first, leaving out the territories in `skip`."""
    out, left = {}, total
    for t in TRIBES:
        if t in skip:
            continue
        top = min(6, left)
        if top:
            out[t] = list(range(1, top + 1))
        left -= top
    return out


def first_turn_text(state):
    hand = state.mover.hand_letters()
    return f"move {hand[0]}; settle {hand[1]}; build mine"


# -- setup -----------------------------------------------------------------------


def test_setup_five_cards_each_figures_on_the_quarry_a_starting_card_in_each_column():
    state = deal(7)
    assert [p.hand_size for p in state.players] == [5, 5]
    assert [p.figure for p in state.players] == [None, None]
    assert [p.column for p in state.players] == [(1,), (1,)]
    assert all(p.first_turn for p in state.players)
    assert all(p.score() == 0 and set(p.rows.values()) == {""} for p in state.players)
    assert state.discard == "" and state.phase == "draw"


def test_setup_43_in_the_temple_supply_and_50_in_the_tribe_supply_before_the_first_draw():
    state = deal(7)
    assert len(state.temple_supply) == 43
    assert Counter(state.temple_supply) == {1: 8, 2: 9, 3: 8, 4: 7, 5: 6, 6: 5}
    assert len(state.tribe_supply) == 50
    hands = "".join(p.hand_letters() for p in state.players)
    assert Counter(state.tribe_supply + hands) == {t: 12 for t in TRIBES}


def test_setup_first_player_named_or_drawn_by_the_seed():
    assert deal(7, first=0).to_move == 0
    assert deal(7, first=1).to_move == 1
    assert {deal(seed).to_move for seed in range(20)} == {0, 1}
    with pytest.raises(GameError):
        GAME.start(7, first=2)
    with pytest.raises(GameError):
        GAME.start(7, seats=3)


# -- phase 1: the draw -----------------------------------------------------------


def test_first_draw_of_three_on_each_players_first_turn():
    state = GAME.start(11)
    first, second = state.to_move, 1 - state.to_move
    assert state.players[first].hand_size == 8        # 5 dealt + 3 drawn
    assert state.players[second].hand_size == 5
    assert len(state.tribe_supply) == 47
    event = GAME.decide(state, first, first_turn_text(state))
    state = GAME.apply(state, event)
    assert state.to_move == second
    assert state.players[second].hand_size == 8       # his first turn starts with 3 too
    assert state.players[first].hand_size == 6
    assert len(state.tribe_supply) == 44


def test_draw_from_the_top_of_the_supply_without_touching_the_discard_pile():
    state = make(tribe_supply="PAHM", discard="SSS", phase="draw")
    assert draw_tribes(state) == "MHA"                # the top is last
    assert state.tribe_supply == "P" and state.discard == "SSS"
    assert state.mover.hand_letters() == "AHM"


def test_draw_of_exactly_the_last_three_cards_leaves_the_discard_pile_alone():
    state = make(tribe_supply="HAM", discard="SSS", phase="draw")
    assert draw_tribes(state) == "MAH"
    assert state.tribe_supply == "" and state.discard == "SSS"
    assert state.mover.hand_letters() == "AHM"


def test_draw_reshuffles_the_discard_pile_when_the_supply_runs_out():
    state = make(tribe_supply="A", discard="HHMMP", seed=5, phase="draw")
    drawn = draw_tribes(state)
    assert drawn[0] == "A" and len(drawn) == 3
    assert state.discard == ""
    assert Counter(drawn + state.tribe_supply) == Counter("AHHMMP")
    assert state.mover.hand_size == 3
    assert state.seed != 5                           # the next reshuffle is another one


def test_draw_takes_what_there_is_when_supply_and_discard_pile_are_empty():
    state = make(tribe_supply="S", discard="", phase="draw")
    assert draw_tribes(state) == "S"
    assert state.mover.hand_letters() == "S"
    assert draw_tribes(state) == ""
    assert state.mover.hand_letters() == "S" and state.phase == "actions"


# -- move ------------------------------------------------------------------------


def test_move_discards_the_card_and_moves_the_figure_from_the_quarry():
    state = after(make(anna={"hand": "MM"}), "move M")
    assert state.mover.figure == "M" and state.discard == "M"
    assert state.mover.hand_letters() == "M"


def test_move_to_the_territory_where_the_figure_already_stands():
    state = after(make(anna={"hand": "MM", "figure": "M"}), "move M")
    assert state.mover.figure == "M" and state.discard == "M"
    assert state.mover.hand_letters() == "M"


def test_move_needs_a_card_of_that_tribe():
    assert rejected(make(anna={"hand": "MA"}), "move M; move M") == (
        "step 2 (move M): you hold no Medes card to move with.")


# -- settle ----------------------------------------------------------------------


def test_settle_keeps_the_order_given():
    state = after(make(anna={"hand": "APA", "figure": "S", "rows": {"S": "HH"}}), "settle A P A")
    assert state.mover.rows["S"] == "HHAPA"
    assert state.mover.hand_size == 0


def test_settle_not_from_the_quarry():
    assert rejected(make(anna={"hand": "AA"}), "settle A") == (
        "step 1 (settle A): your figure is still on the quarry; move to a territory before you "
        "settle.")


def test_settle_only_cards_held():
    state = make(anna={"hand": "SSA", "figure": "S"})
    assert after(state, "settle S S A").mover.rows["S"] == "SSA"
    assert rejected(state, "settle S S S") == (
        "step 1 (settle S S S): you hold 2 Sumerians cards but settle 3.")
    assert rejected(state, "settle A; settle A") == (
        "step 2 (settle A): you hold 0 Assyrians cards but settle 1.")


# -- build -----------------------------------------------------------------------


def test_build_exactly_one_level_above_the_temples_top():
    anna = {"figure": "H", "rows": {"H": "HHHH"}, "temples": {"H": [1, 2]}}
    assert after(make(anna={**anna, "column": [3]}), "build mine").mover.temples["H"] == (1, 2, 3)
    assert rejected(make(anna={**anna, "column": [4]}), "build mine") == (
        "step 1 (build mine): your temple in the Hittites territory is level 2, so it takes "
        "level 3 next; the top card of your column is level 4.")
    assert rejected(make(anna={**anna, "column": [2]}), "build mine") == (
        "step 1 (build mine): your temple in the Hittites territory is level 2, so it takes "
        "level 3 next; the top card of your column is level 2.")


def test_build_level_1_on_an_empty_site():
    anna = {"figure": "H", "rows": {"H": "HH"}}
    assert after(make(anna={**anna, "column": [1]}), "build mine").mover.temples["H"] == (1,)
    assert rejected(make(anna={**anna, "column": [2]}), "build mine") == (
        "step 1 (build mine): an empty site in the Hittites territory takes level 1 first; "
        "the top card of your column is level 2.")


def test_build_needs_at_least_as_many_tribe_cards_there_as_the_new_level():
    anna = {"figure": "H", "column": [3], "temples": {"H": [1, 2]}}
    assert after(make(anna={**anna, "rows": {"H": "HAM"}}), "build mine").mover.temples["H"][-1] == 3
    assert rejected(make(anna={**anna, "rows": {"H": "HA", "M": "MMMM"}}), "build mine") == (
        "step 1 (build mine): you need 3 tribe cards in the Hittites territory to build level 3; "
        "you have 2.")


def test_build_error_names_the_step_and_the_numbers():
    state = make(anna={"figure": "M", "rows": {"M": "SHA"}, "temples": {"M": [1]}, "column": [2]},
                 bob={"column": [4, 3]})
    assert rejected(state, "build mine; build theirs; build theirs") == (
        "step 3 (build theirs): you need 4 tribe cards in the Medes territory to build level 4; "
        "you have 3.")


def test_build_from_the_top_card_of_either_column_only():
    state = make(anna={"figure": "H", "rows": {"H": "HHH"}, "temples": {"H": [1]}, "column": [2, 3]},
                 bob={"column": [3, 2]})
    state = after(state, "build theirs")                 # Bob's top card, the 2
    assert state.mover.temples["H"] == (1, 2) and state.opponent.column == (3,)
    state = after(state, "build mine")                   # now Anna's top card, the 3
    assert state.mover.temples["H"] == (1, 2, 3) and state.mover.column == (2,)
    buried = make(anna={"figure": "H", "rows": {"H": "HHH"}, "temples": {"H": [1]}, "column": [2, 3]})
    assert rejected(buried, "build mine") == (
        "step 1 (build mine): your temple in the Hittites territory is level 1, so it takes "
        "level 2 next; the top card of your column is level 3.")


def test_build_from_an_empty_column_or_from_the_quarry():
    assert rejected(make(anna={"figure": "H", "rows": {"H": "H"}}, bob={"column": [2]}),
                    "build mine") == "step 1 (build mine): your column is empty."
    assert rejected(make(anna={"figure": "H", "rows": {"H": "H"}, "column": [1]}),
                    "build theirs") == "step 1 (build theirs): your opponent's column is empty."
    assert rejected(make(anna={"column": [1]}), "build mine") == (
        "step 1 (build mine): your figure is still on the quarry; move to a territory before "
        "you build.")


# -- migrate ---------------------------------------------------------------------


def test_migrate_moves_the_top_three_in_their_order():
    state = after(make(anna={"figure": "H", "rows": {"M": "AHMPS", "P": "S"}}), "migrate M P")
    assert state.mover.rows["M"] == "AH"
    assert state.mover.rows["P"] == "SMPS"
    assert state.migrated


def test_migrate_onto_an_empty_row_and_leaving_an_empty_row():
    state = after(make(anna={"figure": "H", "rows": {"M": "SSH"}}), "migrate M A")
    assert state.mover.rows["M"] == "" and state.mover.rows["A"] == "SSH"


def test_migrate_wherever_the_figure_stands():
    for figure in ("M", "P", "H"):
        state = after(make(anna={"figure": figure, "rows": {"M": "AAA"}}), "migrate M P")
        assert state.mover.rows["P"] == "AAA"


def test_migrate_from_a_row_of_fewer_than_three_is_illegal():
    assert rejected(make(anna={"figure": "M", "rows": {"M": "SH"}}), "migrate M P") == (
        "step 1 (migrate M P): migration moves exactly 3 cards; you have 2 in the Medes territory.")


def test_migrate_within_one_territory_is_illegal():
    assert rejected(make(anna={"figure": "M", "rows": {"M": "SHAP"}}), "migrate M M") == (
        "step 1 (migrate M M): migration moves cards to another territory; both are the Medes "
        "territory.")


def test_migrate_once_per_turn():
    state = make(anna={"figure": "M", "rows": {"M": "SSSHHH"}})
    assert rejected(state, "migrate M P; migrate M A") == (
        "step 2 (migrate M A): you have already migrated this turn; migration is allowed once per "
        "turn.")
    assert rejected(make(anna={"rows": {"M": "SSS"}}, migrated=True), "migrate M P").startswith(
        "step 1 (migrate M P): you have already migrated this turn")
    assert whole_turn(state, "migrate M P").migrated is False   # the next turn may migrate again


def test_temples_do_not_shrink_when_rows_shrink():
    state = after(make(anna={"figure": "H", "rows": {"M": "MMM"}, "temples": {"M": [1, 2, 3]}}),
                  "migrate M P")
    assert state.mover.rows["M"] == ""
    assert state.mover.temples["M"] == (1, 2, 3) and state.mover.score() == 3


# -- skills in general -----------------------------------------------------------


def test_skill_run_of_three_anywhere_in_the_own_row_where_the_figure_stands():
    state = make(anna={"figure": "H", "rows": {"H": "SSSAPH"}}, bob={"rows": {"H": "MM"}})
    state = after(state, "switch")
    assert state.mover.rows["H"] == "SSAPHMM"
    assert state.opponent.rows["H"] == ""


def test_skill_discards_one_card_of_the_run():
    state = after(make(anna={"figure": "A", "rows": {"A": "HAAAP"}}), "destroy")
    assert state.mover.rows["A"] == "HAAP" and state.discard == "A"


def test_skill_not_with_a_run_in_another_territory():
    state = make(anna={"figure": "M", "rows": {"H": "AAA", "M": "A"}}, bob={"rows": {"M": "AAA"}})
    assert rejected(state, "destroy") == (
        "step 1 (destroy): destroy needs three Assyrians cards in a row in the Medes territory; "
        "you have 1 in a row there.")


def test_skill_needs_three_consecutive_equal_cards():
    assert rejected(make(anna={"figure": "A", "rows": {"A": "AAHA"}}), "halve A") == (
        "step 1 (halve A): halve with Assyrians needs three Assyrians cards in a row in the "
        "Assyrians territory; you have 2 in a row there.")


def test_skill_from_the_quarry_is_illegal():
    assert rejected(make(anna={"rows": {"A": "AAA"}}), "destroy") == (
        "step 1 (destroy): your figure is still on the quarry; move to a territory before you "
        "destroy.")


def test_skill_run_of_four_can_be_used_twice():
    state = make(anna={"figure": "A", "rows": {"A": "AAAA"}}, bob={"hand": "SSSSSSSS"})
    assert after(state, "halve A; halve A").mover.rows["A"] == "AA"
    assert rejected(state, "halve A; halve A; halve A") == (
        "step 3 (halve A): halve with Assyrians needs three Assyrians cards in a row in the "
        "Assyrians territory; you have 2 in a row there.")


# -- destroy ---------------------------------------------------------------------


def test_destroy_puts_the_temple_on_the_supply_lowest_on_top():
    state = make(anna={"figure": "A", "rows": {"A": "AAA"}}, bob={"temples": {"A": [1, 2, 3]}})
    state = after(state, "destroy")
    assert state.opponent.temples["A"] == ()
    assert state.temple_supply == (2, 3, 4, 5, 3, 2, 1)
    assert state.temple_known == 3
    assert GAME.view(state, 1)["temple_known"] == [3, 2, 1]   # both players know these cards
    state = whole_turn(make(anna={"figure": "A", "rows": {"A": "AAA"}},
                            bob={"temples": {"A": [1, 2, 3]}}), "destroy")
    assert state.players[0].column == (2, 1)                  # the next draw is the 1 and the 2


def test_destroy_without_an_opposing_temple_is_legal_and_does_nothing_else():
    state = make(anna={"figure": "A", "rows": {"A": "AAA"}}, bob={"temples": {"H": [1, 2]}})
    done = after(state, "destroy")
    assert done.temple_supply == state.temple_supply and done.temple_known == 0
    assert done.opponent.temples["H"] == (1, 2)
    assert done.mover.rows["A"] == "AA" and done.discard == "A"


# -- rob -------------------------------------------------------------------------


def test_rob_onto_an_empty_own_site():
    state = make(anna={"figure": "H", "rows": {"H": "HHH"}}, bob={"temples": {"H": [1, 2, 3]}})
    state = after(state, "rob")
    assert state.mover.temples["H"] == (3,) and state.opponent.temples["H"] == (1, 2)


def test_rob_may_skip_levels():
    state = make(anna={"figure": "H", "rows": {"H": "HHHAA"}, "temples": {"H": [1]}},
                 bob={"temples": {"H": [2, 3, 4, 5]}})
    state = after(state, "rob")
    assert state.mover.temples["H"] == (1, 5) and state.opponent.temples["H"] == (2, 3, 4)


def test_rob_counts_the_row_before_the_hittites_card_is_discarded_exactly_at_the_limit():
    state = make(anna={"figure": "H", "rows": {"H": "HHH"}, "temples": {"H": [1, 2]}},
                 bob={"temples": {"H": [1, 2, 3]}})
    state = after(state, "rob")
    assert state.mover.temples["H"] == (1, 2, 3)
    assert state.mover.rows["H"] == "HH"                     # 2 cards now under a level 3


def test_rob_one_card_short_is_illegal():
    state = make(anna={"figure": "H", "rows": {"H": "HHH"}}, bob={"temples": {"H": [1, 2, 3, 4]}})
    assert rejected(state, "rob") == (
        "step 1 (rob): you need 4 tribe cards in the Hittites territory to hold the robbed level 4; "
        "you have 3, the Hittites card you discard included.")


def test_rob_only_a_level_higher_than_the_own_top():
    anna = {"figure": "H", "rows": {"H": "HHHHHH"}, "temples": {"H": [1, 2, 3]}}
    assert rejected(make(anna=anna, bob={"temples": {"H": [2, 3]}}), "rob") == (
        "step 1 (rob): you can rob only a level higher than your own temple in the Hittites "
        "territory (level 3); their top card is level 3.")
    assert rejected(make(anna=anna, bob={"temples": {"H": [2]}}), "rob").endswith(
        "(level 3); their top card is level 2.")
    assert after(make(anna=anna, bob={"temples": {"H": [4]}}), "rob").mover.temples["H"] == (1, 2, 3, 4)


# -- emigrate --------------------------------------------------------------------


def test_emigrate_discards_all_opposing_cards_of_the_named_tribe_wherever_they_lie():
    state = make(anna={"figure": "M", "rows": {"M": "MMM"}}, bob={"rows": {"M": "APAPA", "A": "AA"}})
    state = after(state, "emigrate A")
    assert state.opponent.rows["M"] == "PP"
    assert state.opponent.rows["A"] == "AA"                  # only this territory
    assert state.discard == "MAAA"


def test_emigrate_an_absent_tribe_is_legal_and_takes_nothing():
    state = make(anna={"figure": "M", "rows": {"M": "MMM"}}, bob={"rows": {"M": "APAPA"}})
    state = after(state, "emigrate S")
    assert state.opponent.rows["M"] == "APAPA" and state.discard == "M"
    assert state.mover.rows["M"] == "MM"


# -- switch ----------------------------------------------------------------------


def test_switch_takes_the_top_run_only_by_default():
    state = make(anna={"figure": "S", "rows": {"S": "SSS"}}, bob={"rows": {"S": "AASAA"}})
    state = after(state, "switch")
    assert state.opponent.rows["S"] == "AAS"
    assert state.mover.rows["S"] == "SSAA"
    assert state.discard == "S"


def test_switch_a_single_top_card():
    state = make(anna={"figure": "S", "rows": {"S": "SSSH"}}, bob={"rows": {"S": "MMMP"}})
    state = after(state, "switch")
    assert state.opponent.rows["S"] == "MMM" and state.mover.rows["S"] == "SSHP"


def test_switch_under_sumerians_all_takes_every_card_of_the_top_cards_tribe():
    state = make(anna={"figure": "S", "rows": {"S": "SSS"}}, bob={"rows": {"S": "AHAPA"}},
                 options={"sumerians": "all"})
    state = after(state, "switch")
    assert state.opponent.rows["S"] == "HP"
    assert state.mover.rows["S"] == "SSAAA"


# -- jump ------------------------------------------------------------------------


def test_jump_builds_exactly_two_levels_above_the_top():
    anna = {"figure": "P", "rows": {"P": "PPP"}, "temples": {"P": [1]}}
    assert after(make(anna={**anna, "column": [3]}), "jump mine").mover.temples["P"] == (1, 3)
    assert rejected(make(anna={**anna, "column": [2]}), "jump mine") == (
        "step 1 (jump mine): a jump on your temple in the Persians territory (level 1) builds "
        "level 3; the top card of your column is level 2.")
    assert rejected(make(anna={**anna, "column": [4]}), "jump mine").endswith(
        "builds level 3; the top card of your column is level 4.")


def test_jump_level_2_on_an_empty_site():
    state = after(make(anna={"figure": "P", "rows": {"P": "PPP"}, "column": [2]}), "jump mine")
    assert state.mover.temples["P"] == (2,) and state.mover.rows["P"] == "PP"


def test_jump_from_the_opponents_column():
    state = make(anna={"figure": "P", "rows": {"P": "PPP"}, "temples": {"P": [1]}},
                 bob={"column": [3]})
    state = after(state, "jump theirs")
    assert state.mover.temples["P"] == (1, 3) and state.opponent.column == ()


def test_jump_counts_the_row_before_the_persians_card_is_discarded():
    anna = {"figure": "P", "temples": {"P": [1, 2]}, "column": [4]}
    state = after(make(anna={**anna, "rows": {"P": "PPPA"}}), "jump mine")
    assert state.mover.temples["P"] == (1, 2, 4) and state.mover.rows["P"] == "PPA"
    assert rejected(make(anna={**anna, "rows": {"P": "PPP"}}), "jump mine") == (
        "step 1 (jump mine): you need 4 tribe cards in the Persians territory to jump to level 4; "
        "you have 3, the Persians card you discard included.")


# -- halve -----------------------------------------------------------------------


def test_halve_rounds_in_favour_of_the_opponent():
    state = make(anna={"figure": "P", "rows": {"P": "PPP"}}, bob={"hand": "AAHHM"})
    assert after(state, "halve P").pending_discard == (1, 2)       # 5 cards -> 3


def test_halving_twice_7_to_4_to_2_owes_5():
    state = make(anna={"figure": "P", "rows": {"P": "PPPP"}}, bob={"hand": "AAMMSPH"})
    assert after(state, "halve P").pending_discard == (1, 3)
    assert after(state, "halve P; halve P").pending_discard == (1, 5)


def halved():
    """Anna has halved Bob's 7 cards twice: he owes 5 at the start of his next turn."""
    state = make(anna={"figure": "P", "rows": {"P": "PPPP"}}, bob={"hand": "AAMMSPH"},
                 tribe_supply="SSHMPAH")
    return GAME.apply(state, GAME.decide(state, 0, "halve P; halve P"))


def test_owed_discards_come_first_in_the_owing_players_next_turn_before_his_draw():
    state = halved()
    assert state.to_move == 1 and state.phase == "draw"
    assert state.players[1].hand_size == 7                 # not drawn yet
    assert state.tribe_supply == "SSHMPAH"
    assert [(d.seat, d.kind) for d in GAME.to_act(state)] == [(1, "discard")]
    event = GAME.decide(state, 1, "discard A A M M S")
    assert event["cards"] == "AAMMS"
    state = GAME.apply(state, event)
    assert state.pending_discard is None
    assert state.players[1].hand_letters() == "AHHPP"      # P H kept, then H, A, P drawn
    assert state.tribe_supply == "SSHM"
    assert state.discard.endswith("AAMMS")
    assert state.phase == "actions"


def test_owed_discards_must_be_the_right_number_of_cards_held():
    state = halved()
    assert rejected(state, "discard A A M M", seat=1) == (
        "step 1 (discard A A M M): you owe 5 cards from halvings; you discard 4.")
    assert rejected(state, "discard H H A A S", seat=1) == (
        "step 1 (discard H H A A S): you hold 1 Hittites card but discard 2.")


def test_owed_discards_before_anything_else():
    state = halved()
    assert rejected(state, "move A", seat=1) == (
        "step 1 (move A): you owe 5 discards from halvings; your turn starts with discard, "
        "before you draw.")
    with pytest.raises(WrongDecision):
        GAME.apply(state, {"type": "turn", "seat": 1, "steps": "pass"})
    position_state = state.copy()
    with pytest.raises(IllegalStep) as info:
        play_from_position(position_state, "pass")
    assert str(info.value) == ("step 1 (pass): you owe 5 discards from halvings; your turn starts "
                               "with discard, before you draw.")


def test_discard_is_no_action_of_phase_2():
    state = make(anna={"hand": "AA"})
    assert rejected(state, "discard A") == (
        "step 1 (discard A): discards answer halvings only at the start of your turn, before you "
        "draw; you have drawn already.")


# -- phase 3 ---------------------------------------------------------------------


def test_phase_3_higher_card_first_so_the_lower_ends_on_top():
    state = whole_turn(make(anna={"column": [6]}, temple_supply=[4, 2, 5]), "pass")
    assert state.players[0].column == (6, 5, 2)
    assert state.temple_supply == (4,)


def test_phase_3_with_one_card_left_draws_it():
    state = whole_turn(make(anna={"column": [6]}, temple_supply=[4]), "pass")
    assert state.players[0].column == (6, 4)
    assert state.temple_supply == ()


def test_phase_3_with_an_empty_supply_draws_nothing():
    state = make(anna={"column": [6]}, temple_supply=[])
    assert draw_temples(state) == ()
    assert state.mover.column == (6,)


# -- the first turn --------------------------------------------------------------


def test_first_turn_the_opponents_reserved_column_cannot_be_taken():
    anna = {"figure": "H", "rows": {"H": "HHH"}, "temples": {"H": [1]}}
    reserved = make(anna=anna, bob={"column": [2], "first_turn": True})
    assert rejected(reserved, "build theirs") == (
        "step 1 (build theirs): your opponent's column holds his starting card, reserved for him "
        "until he has played his first turn.")
    played = make(anna=anna, bob={"column": [2], "first_turn": False})
    assert after(played, "build theirs").mover.temples["H"] == (1, 2)


def test_first_turn_the_reserved_column_cannot_be_jumped_from_either():
    anna = {"figure": "P", "rows": {"P": "PPP"}}
    assert rejected(make(anna=anna, bob={"column": [2], "first_turn": True}), "jump theirs") == (
        "step 1 (jump theirs): your opponent's column holds his starting card, reserved for him "
        "until he has played his first turn.")


def test_first_turn_of_a_new_game_cannot_build_from_the_second_players_column():
    state = GAME.start(11)
    hand = state.mover.hand_letters()
    assert rejected(state, f"move {hand[0]}; settle {hand[1]}; build theirs") == (
        "step 3 (build theirs): your opponent's column holds his starting card, reserved for him "
        "until he has played his first turn.")
    assert "build theirs" not in [o.notation for o in GAME.legal_steps(state, state.to_move)]


def test_first_turn_must_build_the_starting_card():
    state = make(anna={"hand": "AHM", "column": [1], "first_turn": True})
    assert rejected(state, "move A; settle H") == (
        "step 2 (settle H): in your first turn you must build your starting level-1 card; it is "
        "still in your column.")
    assert rejected(state, "pass") == (
        "step 1 (pass): in your first turn you must build your starting level-1 card; it is still "
        "in your column.")
    done = whole_turn(state, "move A; settle H; build mine")
    assert done.players[0].temples["A"] == (1,)
    assert done.players[0].column == (5, 4)                 # phase 3; the starting card is gone
    assert done.players[0].first_turn is False


# -- the end of the game ---------------------------------------------------------


def ending(anna_points, bob_points, **top):
    """Anna stands in the Sumerians territory with 6 cards and a level-6 card to build
    on her level-5 temple there (+1), or three Assyrians to destroy Bob's temple there."""
    return make(anna={"hand": "AS", "figure": "S", "column": [6], "rows": {"S": "AAAPPP"},
                      "temples": {**temples(anna_points - 5, skip="S"), "S": [1, 2, 3, 4, 5]}},
                bob={"hand": "HH", "temples": temples(bob_points)}, **top)


def test_reaching_15_with_the_opponent_below_10_wins_at_once():
    state = after(ending(14, 9), "build mine")
    assert state.result == Result(0, "fifteen-ten")


def test_steps_after_the_ending_action_are_rejected():
    state = ending(14, 9)
    assert rejected(state, "build mine; settle A") == (
        "step 2 (settle A): the game ended after step 1; nothing may follow it.")
    done = whole_turn(state, "build mine")
    assert done.result == Result(0, "fifteen-ten")
    assert done.players[0].column == ()                     # no phase 3 after the end


def test_reaching_15_with_the_opponent_at_10_starts_the_end_phase():
    state = whole_turn(ending(14, 10), "build mine")
    assert state.result is None and state.end_phase


def test_the_end_phase_never_ends_again():
    state = make(anna={"figure": "A", "rows": {"A": "AAA"}, "temples": temples(14)},
                 bob={"temples": {**temples(10, skip="A"), "A": [1, 2, 3, 4, 5, 6]}}, end_phase=True)
    assert state.scores() == [14, 16]
    state = whole_turn(state, "destroy")
    assert state.scores() == [14, 10]
    assert state.end_phase and state.result is None


def test_in_the_end_phase_20_wins():
    assert after(ending(19, 12, end_phase=True), "build mine").result == Result(0, "twenty")
    assert after(ending(18, 12, end_phase=True), "build mine").result is None


def test_in_the_end_phase_below_10_loses():
    state = make(anna={"figure": "A", "rows": {"A": "AAA"}, "temples": temples(12)},
                 bob={"temples": {**temples(9, skip="A"), "A": [1, 2, 3]}}, end_phase=True)
    assert state.scores() == [12, 12]
    assert after(state, "destroy").result == Result(0, "below-ten")


def test_below_10_outside_the_end_phase_ends_nothing():
    state = make(anna={"figure": "A", "rows": {"A": "AAA"}, "temples": temples(8)},
                 bob={"temples": {**temples(9, skip="A"), "A": [1, 2, 3]}})
    state = whole_turn(state, "destroy")
    assert state.scores() == [8, 9] and state.result is None


def test_the_15_10_check_comes_before_the_end_phase_checks():
    # Anna robs a 6 onto her empty site: 14 -> 20 in one action.
    def robbing(bob_temples):
        return make(anna={"figure": "H", "rows": {"H": "HHHAAA"}, "temples": temples(14, skip="H")},
                    bob={"temples": {**bob_temples, "H": [5, 6]}})
    assert after(robbing({}), "rob").result == Result(0, "fifteen-ten")       # Bob 6 -> 5
    state = after(robbing({"S": [1, 2, 3, 4, 5, 6], "P": [1, 2, 3, 4]}), "rob")
    assert state.scores() == [20, 15]
    assert state.result == Result(0, "twenty") and state.end_phase          # end phase, then 20


def supply_runs_out(anna, bob, text="pass"):
    state = make(anna={"column": [1], **anna}, bob=bob, temple_supply=[2])
    return whole_turn(state, text)


def test_supply_empty_after_phase_3_higher_score_wins():
    assert supply_runs_out({"temples": temples(12)}, {"temples": temples(11), "hand": "SSSSS"}
                           ).result == Result(0, "supply-empty")
    assert supply_runs_out({"temples": temples(11), "hand": "SSSSS"}, {"temples": temples(12)}
                           ).result == Result(1, "supply-empty")


def test_supply_empty_equal_scores_more_hand_cards_wins():
    assert supply_runs_out({"temples": temples(8), "hand": "AAA"}, {"temples": temples(8), "hand": "SS"}
                           ).result == Result(0, "supply-empty")
    assert supply_runs_out({"temples": temples(8), "hand": "A"}, {"temples": temples(8), "hand": "SS"}
                           ).result == Result(1, "supply-empty")


def test_supply_empty_equal_scores_and_hands_is_a_draw():
    assert supply_runs_out({"temples": temples(8), "hand": "AA"}, {"temples": temples(8), "hand": "SS"}
                           ).result == Result(None, "supply-empty")


def test_supply_empty_hand_count_subtracts_owed_discards():
    anna = {"temples": temples(8), "figure": "P", "rows": {"P": "PPP"}}
    # Bob holds 6 but owes 3: 3 cards count against Anna's 4 (Anna wins), or her 3 (a draw).
    state = supply_runs_out({**anna, "hand": "AAAA"}, {"temples": temples(8), "hand": "SSSSSS"},
                            "halve P")
    assert state.pending_discard == (1, 3)
    assert state.result == Result(0, "supply-empty")
    state = supply_runs_out({**anna, "hand": "AAA"}, {"temples": temples(8), "hand": "SSSSSS"},
                            "halve P")
    assert state.result == Result(None, "supply-empty")


def test_supply_not_empty_after_phase_3_goes_on():
    state = make(anna={"column": [1]}, temple_supply=[2, 2, 3])
    assert whole_turn(state, "pass").result is None


# -- resignation -----------------------------------------------------------------


def test_resignation_by_either_seat_at_any_time():
    state = GAME.start(11)
    before = state.copy()
    mover = state.to_move
    assert GAME.apply(state, {"type": "resign", "seat": mover}).result == Result(1 - mover, "resigned")
    assert GAME.apply(state, {"type": "resign", "seat": 1 - mover}).result == Result(mover, "resigned")
    assert state == before
    assert GAME.outcome(GAME.apply(state, GAME.resign_event(0))).winner == 1


def test_resignation_refused_after_the_end_and_from_a_seat_not_in_the_game():
    state = GAME.start(11)
    over = GAME.apply(state, {"type": "resign", "seat": 0})
    with pytest.raises(WrongDecision):
        GAME.apply(over, {"type": "resign", "seat": 1})
    with pytest.raises(WrongDecision):
        GAME.decide(over, over.to_move, "pass")
    for seat in (2, -1, None):
        with pytest.raises(WrongDecision):
            GAME.apply(state, {"type": "resign", "seat": seat})


# -- abort (a generic event: pbem/games/base.py) ------------------------------------------

def aborted_at(state):
    """`state` aborted, checked as every seat and a spectator see it."""
    before = state.copy()
    over = GAME.apply(state, GAME.abort_event("Bob's address bounces"))
    assert state == before
    outcome = GAME.outcome(over)
    assert (outcome.winner, outcome.winners, outcome.reason, outcome.description) == \
        (None, (), "aborted", "the game was aborted")
    assert over.result == Result(None, "aborted") and GAME.to_act(over) == []
    for seat in (0, 1):
        assert GAME.legal_steps(over, seat) == []
        assert GAME.view(over, seat)["outcome"] == {"winner": None, "reason": "aborted"}
        assert GAME.view(over, seat)["phase"] == "over"
        assert GAME.summary(over, seat)
        with pytest.raises(WrongDecision, match="the game is over"):
            GAME.decide(over, seat, "pass")
        assert GAME.draft(over, seat, "pass").error is not None
    assert GAME.restore(GAME.snapshot(over)) == over
    return over


def test_an_abort_ends_the_game_with_no_winner_at_any_point():
    start = GAME.start(11)
    aborted_at(start)
    # Mid-game, and with halving discards due (Bob owes them before his draw).
    state = make(anna={"figure": "P", "rows": {"P": "PPP"}}, bob={"hand": "AAHHMMSS"})
    halved = GAME.apply(state, GAME.decide(state, 0, "halve P"))
    assert halved.pending_discard == (1, 4) and GAME.to_act(halved)[0].kind == "discard"
    aborted_at(halved)
    assert GAME.notation(GAME.abort_event("why"), 0) == "aborted"
    assert GAME.notation(GAME.abort_event("why"), None) == "aborted"
    assert GAME.abort_event("no players left") == {
        "v": 1, "type": "abort", "seat": None, "why": "no players left"}


def test_an_abort_is_refused_after_the_end_and_when_malformed():
    state = GAME.start(11)
    over = aborted_at(state)
    resigned = GAME.apply(state, GAME.resign_event(0))
    for ended in (over, resigned):
        for event in (GAME.abort_event("again"), GAME.resign_event(1), GAME.timeout_event(0)):
            with pytest.raises(WrongDecision, match="the game is over; a .* event cannot follow"):
                GAME.apply(ended, event)
    for event in ({"type": "abort", "seat": 0, "why": "x"}, {"type": "abort", "seat": None},
                  {"type": "abort", "seat": None, "why": 7}):
        with pytest.raises(WrongDecision, match="an abort is"):
            GAME.apply(state, event)
