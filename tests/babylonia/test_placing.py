"""Step 1 of a turn: playing tokens (KSR 1; docs/games/babylonia-rulings.md, "A turn" 1).

Positions are small, on the real board of 2 players unless told (north and
centre; ziggurats b2, i7, c10). Seat 0 is to move with the stand FFPMO and the
turn index 2 (past the first round) unless a test says otherwise.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from babylonia_positions import (
    board_tokens,
    causes,
    draft_error,
    points,
    position,
    rejected,
    submit,
)
from pbem.games.babylonia import GAME
from pbem.games.babylonia.notation import Play, parse
from pbem.games.babylonia.placing import is_free
from pbem.games.rng import Rng

WAYS = "a turn plays exactly 2 tokens, or 3 or more farmers"


# -- free hexes ------------------------------------------------------------------------

def test_two_tokens_onto_free_land_and_river():
    state = submit(position(), "farmer g9\npriest f9")
    assert board_tokens(state) == {"g9": "0F", "f9": "0p"}
    assert state.stands[0] == [3, 0, 1, 1]     # F M O left, two farmers drawn
    assert state.to_move == 1


def test_a_token_may_not_go_onto_a_city():
    state = position(tiles={"h10": "city MP"})
    assert rejected(state, "farmer g9\nfarmer h10") == (
        "step 2 (farmer h10): h10 holds a city; nothing may go onto it")


def test_a_token_may_not_go_onto_a_ziggurat():
    assert rejected(position(), "farmer i7\nfarmer g9") == "step 1 (farmer i7): i7 is a ziggurat"


def test_a_token_may_not_go_onto_a_token_of_anyone():
    state = position(tokens="1F g9, 0F h9")
    assert rejected(state, "farmer g9\nfarmer g10") == (
        "step 1 (farmer g9): g9 already holds a token")
    assert rejected(state, "farmer g10\nfarmer h9") == (
        "step 2 (farmer h9): h9 already holds a token")


def test_a_token_may_not_go_onto_a_hex_played_earlier_in_the_same_turn():
    assert rejected(position(), "farmer g9\npriest g9") == (
        "step 2 (priest g9): g9 already holds a token")


def test_hexes_outside_the_land_masses_in_play_are_refused():
    # Two players leave out the south, three the north; rivers are always in play.
    assert rejected(position(2), "farmer q7\nfarmer g9") == (
        "step 1 (farmer q7): q7 is not on the board in play")
    assert rejected(position(3), "farmer a3\nfarmer g9") == (
        "step 1 (farmer a3): a3 is not on the board in play")
    assert board_tokens(submit(position(3), "farmer q8\nfarmer c2")) == {"q8": "0F", "c2": "0f"}
    assert board_tokens(submit(position(4), "farmer q8\nfarmer a3")) == {"q8": "0F", "a3": "0F"}


def test_a_token_the_stand_does_not_hold_is_refused():
    state = position(stands=["FFPMM", "FFPMO"])
    assert rejected(state, "official g9\nfarmer g10") == (
        "step 1 (official g9): your stand holds no official")
    assert rejected(state, "priest g9\npriest g10") == (
        "step 2 (priest g10): your stand holds no priest")


# -- how many -------------------------------------------------------------------------

def test_exactly_two_tokens_of_any_kind():
    for text in ("priest g9\nmerchant g10", "official g9\nfarmer f9", "farmer g9\nfarmer g10"):
        assert len(submit(position(), text).tokens) == 2


def test_one_token_is_not_a_turn_when_the_stand_holds_more():
    assert rejected(position(), "priest g9") == f"the turn is not finished: {WAYS}"


def test_three_tokens_with_a_noble_are_refused():
    assert rejected(position(), "farmer g9\nfarmer g10\npriest g11") == (
        "step 3 (priest g11): only farmers can be played as 3 or more tokens")
    assert rejected(position(stands=["FFFPM", "FF"]), "priest g9\nfarmer g10\nfarmer g11") == (
        "step 3 (farmer g11): only farmers can be played as 3 or more tokens")


@pytest.mark.parametrize("n", [3, 4, 5])
def test_three_or_more_farmers(n):
    hexes = ["g9", "g10", "g11", "h9", "h11"][:n]
    state = submit(position(stands=["FFFFF", "FF"]), "\n".join(f"farmer {h}" for h in hexes))
    assert sorted(board_tokens(state)) == sorted(hexes)
    assert state.stands[0] == [5, 0, 0, 0] and len(state.supplies[0]) == 10 - n   # refilled


def test_three_farmers_need_three_farmers_on_the_stand():
    assert rejected(position(stands=["FFPMO", "FF"]), "farmer g9\nfarmer g10\nfarmer g11") == (
        "step 3 (farmer g11): your stand holds no farmer")


def test_three_or_more_farmers_none_on_a_river():
    state = position(stands=["FFFFF", "FF"])
    assert rejected(state, "farmer g9\nfarmer g10\nfarmer f9") == (
        "step 3 (farmer f9): tokens played with 3 or more farmers may not go onto a river")
    # A river farmer first reads as one of two tokens, until the third comes.
    assert rejected(state, "farmer f9\nfarmer g10\nfarmer g11") == (
        "step 3 (farmer g11): tokens played with 3 or more farmers may not go onto a river")
    # Two tokens, one of them on a river, are fine.
    assert board_tokens(submit(state, "farmer f9\nfarmer g10")) == {"f9": "0f", "g10": "0F"}


def test_fewer_than_two_only_when_the_stand_holds_fewer():
    state = position(stands=["P", "FF"], supplies=["", "FFF"])
    assert rejected(state, "# nothing") == "the turn is not finished: play your tokens first"
    after = submit(state, "priest g9")
    assert board_tokens(after) == {"g9": "0P"}
    # His stand is empty and his supply too: the game ends (see test_turn).
    assert after.result is not None


def test_the_turn_ends_only_with_a_whole_way_of_playing():
    state = position(stands=["FFFFF", "FF"])
    assert rejected(state, "farmer g9") == f"the turn is not finished: {WAYS}"
    # Two farmers are a whole way; three too; so is the choice of stopping at two.
    assert len(submit(state, "farmer g9\nfarmer g10").tokens) == 2


# -- the first round ---------------------------------------------------------------------

def test_first_round_the_first_player_plays_exactly_one_token():
    state = position(index=0)
    assert board_tokens(submit(state, "priest g9")) == {"g9": "0P"}
    assert rejected(state, "priest g9\nfarmer g10") == (
        "step 2 (farmer g10): in the first round the first player plays exactly 1 token")


def test_first_round_the_second_player_plays_exactly_two_tokens():
    state = position(index=1, to_move=1, stands=["FFFFF", "FFFFF"])
    assert len(submit(state, "farmer g9\nfarmer g10").tokens) == 2
    assert rejected(state, "farmer g9") == (
        "the turn is not finished: in the first round the second player plays exactly 2 tokens")
    assert rejected(state, "farmer g9\nfarmer g10\nfarmer g11") == (
        "step 3 (farmer g11): in the first round the second player plays exactly 2 tokens")


def test_first_round_the_third_player_plays_as_usual():
    state = position(3, index=2, to_move=2, stands=["FF", "FF", "FFFFF"])
    after = submit(state, "farmer g9\nfarmer g10\nfarmer g11")
    assert len(after.tokens) == 3 and after.to_move == 0


def test_a_real_game_opens_with_one_token_then_two():
    state = GAME.start(5, {}, 2, first=1)
    hexes = iter(["g9", "g10", "g11", "h9", "h11"])
    first = next(k for k, n in zip("FPMO", state.stands[1]) if n)
    state = submit(state, f"{first} {next(hexes)}")
    assert state.to_move == 0 and len(state.tokens) == 1
    assert state.stand_size(1) == 5
    kinds = [k for k, n in zip("FPMO", state.stands[0]) for _ in range(n)][:2]
    state = submit(state, "\n".join(f"{k} {next(hexes)}" for k in kinds))
    assert state.to_move == 1 and len(state.tokens) == 3 and state.turn.index == 2


# -- rivers ---------------------------------------------------------------------------

def test_a_token_on_a_river_lies_face_down_and_only_its_owner_sees_its_kind():
    state = submit(position(), "merchant f9\nfarmer g9")
    assert state.tokens["f9"].down and not state.tokens["g9"].down
    seen = {seat: {h["name"]: h["token"] for h in GAME.view(state, seat)["hexes"]}
            for seat in (0, 1, None)}
    assert seen[0]["f9"] == {"seat": 0, "kind": "M", "down": True}
    assert seen[1]["f9"] == {"seat": 0, "kind": "?", "down": True}
    assert seen[None]["f9"]["kind"] == "?"
    assert seen[1]["g9"] == {"seat": 0, "kind": "F", "down": False}


# -- ziggurats ----------------------------------------------------------------------------

def test_a_token_next_to_a_ziggurat_scores_one_per_ziggurat_with_a_token_of_his():
    state = submit(position(), "farmer b1\nfarmer g9")
    assert points(state) == 1
    assert causes(state) == [(1, "token next to a ziggurat at b1")]


def test_ziggurat_points_count_every_ziggurat_of_his_after_the_placement():
    # He already has tokens next to i7 and c10; a token next to b2 makes three.
    state = position(tokens="0F h6, 0F d10, 1F a2")
    state = submit(state, "farmer b1\nfarmer g9")
    assert points(state) == 3
    # The other player's token next to b2 did not score for him.
    assert points(state, 1) == 0


def test_each_token_next_to_a_ziggurat_scores_counted_after_it_is_placed():
    state = submit(position(), "farmer a3\nfarmer i6")
    # a3: b2 only -> 1; i6: b2 and i7 -> 2.
    assert causes(state) == [(1, "token next to a ziggurat at a3"),
                             (2, "token next to a ziggurat at i6")]
    assert points(state) == 3


def test_a_second_token_next_to_the_same_ziggurat_scores_again():
    state = submit(position(tokens="0F a2"), "farmer a3\nfarmer b3")
    assert points(state) == 2


def test_a_token_next_to_no_ziggurat_scores_nothing_even_with_tokens_at_ziggurats():
    state = submit(position(tokens="0F h6, 0F d10"), "farmer g9\nfarmer g10")
    assert points(state) == 0 and causes(state) == []


def test_a_river_token_next_to_a_ziggurat_scores_too():
    state = submit(position(), "priest c3\nfarmer g9")
    assert points(state) == 1 and state.tokens["c3"].down


def test_a_ziggurat_outside_the_game_gives_nothing():
    # Three players leave out the north, and with it the ziggurat b2; c2 is a river next to it.
    state = submit(position(3, stands=["FFPMO"] * 3), "farmer c2\nfarmer g9")
    assert points(state) == 0


def test_a_scored_ziggurat_is_still_in_play_for_the_points():
    state = position(tokens="0F b1, 1F a2, 0F a3, 1F b3", scored={"b2"})
    state = submit(state, "farmer c3\nfarmer g9")
    assert points(state) == 1


# -- fields -------------------------------------------------------------------------------

@pytest.mark.parametrize("value", [5, 6, 7])
def test_a_farmer_onto_a_numbered_field_next_to_his_token_scores_its_number(value):
    state = position(tiles={"f10": f"field {value}"}, tokens="0P g10")
    state = submit(state, "farmer f10\nfarmer h9")
    assert "f10" not in state.tiles
    assert board_tokens(state)["f10"] == "0F"
    assert points(state) == value
    assert causes(state) == [(value, f"field {value} at f10")]


def test_a_cities_field_scores_the_cities_in_front_of_all_players():
    state = position(tiles={"f10": "field cities"}, tokens="0P g10",
                     cities=[["city P"], ["city M", "city SP"]])
    state = submit(state, "farmer f10\nfarmer h9")
    assert points(state) == 3
    assert causes(state) == [(3, "field cities at f10")]


def test_a_cities_field_with_no_city_in_front_of_anyone_scores_nothing():
    state = submit(position(tiles={"f10": "field cities"}, tokens="0P g10"),
                   "farmer f10\nfarmer h9")
    assert points(state) == 0 and "f10" not in state.tiles


def test_a_farmer_onto_a_field_needs_another_token_of_his_next_to_it():
    state = position(tiles={"f10": "field 5"}, tokens="1F g10, 0F g9")
    assert rejected(state, "farmer f10\nfarmer h9") == (
        "step 1 (farmer f10): a farmer goes onto the field at f10 only next to another token of yours")


def test_a_face_down_river_token_of_his_is_a_neighbour_for_a_field():
    state = position(tiles={"f10": "field 7"}, tokens="0P e10")
    assert points(submit(state, "farmer f10\nfarmer h9")) == 7


def test_a_token_played_earlier_in_the_same_turn_is_a_neighbour_for_a_field():
    state = position(tiles={"f10": "field 6"})
    after = submit(state, "priest g11\nfarmer f10")
    assert points(after) == 6
    assert rejected(state, "farmer f10\npriest g11") == (
        "step 1 (farmer f10): a farmer goes onto the field at f10 only next to another token of yours")


def test_a_field_may_be_taken_by_one_of_three_farmers():
    state = position(tiles={"f10": "field 5"}, stands=["FFFFF", "FF"])
    assert points(submit(state, "farmer g10\nfarmer f10\nfarmer h9")) == 5


def test_a_noble_onto_a_field_is_refused_without_card_6():
    state = position(tiles={"f10": "field 5"}, tokens="0F g10")
    assert rejected(state, "farmer h9\nmerchant f10") == (
        "step 2 (merchant f10): a noble cannot go onto a field without card 6")


# -- a property ---------------------------------------------------------------------------

@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(2, 4), st.integers(1, 6))
def test_property_random_legal_turns_only_play_onto_free_hexes_or_fields(seed, players, turns):
    state = GAME.start(seed, {}, players)
    rng = Rng(seed)
    for _ in range(turns):
        if state.result is not None or state.card_due is not None:
            break
        seat = state.to_move
        text = GAME.random_submission(state, seat, rng)
        before = state
        state = submit(state, text, seat)
        for step in parse(text):
            if isinstance(step, Play):
                tile = before.tiles.get(step.hex)
                assert is_free(before, step.hex) or (tile or "").startswith("field"), step
                assert state.tokens[step.hex].seat == seat
                assert state.tokens[step.hex].down == state.board.is_river(step.hex)


# -- drafts -------------------------------------------------------------------------------

def test_a_draft_stops_at_the_first_illegal_step_and_names_it():
    state = position()
    assert draft_error(state, "farmer g9\nfarmer i7\nfarmer h9") == "step 2 (farmer i7): i7 is a ziggurat"
    draft = GAME.draft(state, 0, "farmer g9\nfarmer i7")
    assert draft.steps == ["farmer g9"] and not draft.done
    assert board_tokens(draft.state) == {"g9": "0F"}
    assert state.tokens == {}


def test_a_draft_says_what_is_left_to_do():
    draft = GAME.draft(position(), 0, "farmer g9")
    assert draft.error is None and not draft.done and draft.todo == WAYS
    draft = GAME.draft(position(), 0, "farmer g9\nfarmer g10")
    assert draft.done and draft.todo is None
