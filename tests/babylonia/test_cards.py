"""The nine ziggurat cards (KSR "Nutzung der Zikkurat-Karten"), and the `ziggurat_cards` option.

Seat 0 wins the ziggurat c10 by playing b9 next to d10 c11 (his) and b10 (seat 1's);
h9 lies next to nothing. The city site f10 has land g10 g11 f11 e11 and rivers f9 e10.
"""

import pytest

from babylonia_positions import causes, points, position, rejected, submit
from pbem.games.babylonia import GAME, scoring
from pbem.games.errors import GameError

C10_ALMOST = "0F d10, 0F c11, 1F b10"
WIN_C10 = "farmer b9\nfarmer h9"


# -- 1: 10 points at once, then turned over ------------------------------------------------

def test_card_1_scores_ten_at_once_and_is_turned_over():
    state = submit(position(tokens=C10_ALMOST), WIN_C10 + "\ncard 1")
    assert causes(state) == [(1, "token next to a ziggurat at b9"), (10, "ziggurat card 1")]
    assert state.cards[0] == [1] and state.used[0] == [1]
    assert not state.has(0, 1)
    assert 1 not in state.available


# -- 2: one more turn ------------------------------------------------------------------------

def test_card_2_extra_the_same_player_plays_again_and_the_card_is_used():
    state = position(cards=[[2], []])
    after = submit(state, "farmer g9\nfarmer h9\nextra")
    assert after.to_move == 0 and after.turn.index == 3
    assert after.used[0] == [2] and not after.has(0, 2)
    # The extra turn is a whole turn; then the other player.
    after = submit(after, "farmer g10\nfarmer g11")
    assert after.to_move == 1


def test_extra_without_card_2_is_refused():
    assert rejected(position(), "farmer g9\nfarmer h9\nextra") == (
        "step 3 (extra): extra needs ziggurat card 2, unused")
    assert rejected(position(cards=[[2], []], used=[[2], []]), "farmer g9\nfarmer h9\nextra") == (
        "step 3 (extra): extra needs ziggurat card 2, unused")


def test_extra_is_said_once():
    assert rejected(position(cards=[[2], []]), "farmer g9\nfarmer h9\nextra\nextra") == (
        "step 4 (extra): extra is said once")


def test_extra_comes_after_the_tokens():
    assert rejected(position(cards=[[2], []]), "farmer g9\nextra\nfarmer h9") == (
        "step 2 (extra): a turn plays exactly 2 tokens, or 3 or more farmers")


def test_card_2_won_in_this_turn_may_be_used_at_once():
    state = submit(position(tokens=C10_ALMOST), WIN_C10 + "\ncard 2\nextra")
    assert state.to_move == 0 and state.used[0] == [2]
    # ... but not before it is his: the card comes first ...
    assert rejected(position(tokens=C10_ALMOST), WIN_C10 + "\nextra\ncard 2") == (
        "step 3 (extra): first name your card for the ziggurat at c10")
    # ... and a card named for after another seat's pause is not his yet.
    state = position(tokens="1F d10, 1F c11, 1F b10, 0F b1, 0F b3, 0F a3")
    assert rejected(state, "farmer b9\nfarmer a2\nscore c10\nscore b2\ncard 2\nextra") == (
        "step 6 (extra): extra needs ziggurat card 2, unused")


def test_card_2_unused_stays_for_a_later_turn():
    state = submit(position(cards=[[2], []]), "farmer g9\nfarmer h9")
    assert state.to_move == 1 and state.has(0, 2)


# -- 3: a stand of 7 -------------------------------------------------------------------------

def test_card_3_the_stand_refills_to_seven():
    state = submit(position(cards=[[3], []]), "farmer g9\nfarmer h9")
    assert state.stand_size(0) == 7 and len(state.supplies[0]) == 6


def test_card_3_won_this_turn_already_counts_at_this_refill():
    state = submit(position(tokens=C10_ALMOST), WIN_C10 + "\ncard 3")
    assert state.stand_size(0) == 7


def test_without_card_3_the_stand_refills_to_five():
    assert submit(position(), "farmer g9\nfarmer h9").stand_size(0) == 5


# -- 4: three different nobles face up --------------------------------------------------------

def test_card_4_three_different_nobles():
    state = submit(position(cards=[[4], []]), "priest g9\nmerchant g10\nofficial h9")
    assert {h: t.kind for h, t in state.tokens.items()} == {"g9": "P", "g10": "M", "h9": "O"}
    assert not any(t.down for t in state.tokens.values())


def test_card_4_two_tokens_as_usual_are_still_fine():
    assert len(submit(position(cards=[[4], []]), "priest g9\nmerchant f9").tokens) == 2


def test_card_4_two_equal_nobles_are_refused():
    state = position(cards=[[4], []], stands=["PPMOF", "FF"])
    assert rejected(state, "priest g9\npriest g10\nmerchant h9") == (
        "step 3 (merchant h9): with card 4, the three nobles must all differ")


def test_card_4_nobles_are_face_up_so_not_on_a_river():
    state = position(cards=[[4], []])
    assert rejected(state, "priest f9\nmerchant g10\nofficial h9") == (
        "step 3 (official h9): with card 4, the nobles are played face up, so not onto a river")
    assert rejected(state, "priest g9\nmerchant g10\nofficial f9") == (
        "step 3 (official f9): with card 4, the nobles are played face up, so not onto a river")


def test_card_4_exactly_three():
    state = position(cards=[[4], []], stands=["PMOPM", "FF"])
    assert rejected(state, "priest g9\nmerchant g10\nofficial h9\npriest h11") == (
        "step 4 (priest h11): with card 4, play exactly 3 different nobles")


def test_three_nobles_without_card_4_are_refused():
    assert rejected(position(), "priest g9\nmerchant g10\nofficial h9") == (
        "step 3 (official h9): only farmers can be played as 3 or more tokens")


# -- 5: one noble with three or more farmers -------------------------------------------------

def test_card_5_one_noble_with_three_farmers():
    state = position(cards=[[5], []], stands=["FFFPM", "FF"])
    after = submit(state, "farmer g9\npriest g10\nfarmer g11\nfarmer h9")
    assert sorted(t.kind for t in after.tokens.values()) == ["F", "F", "F", "P"]
    assert not after.tokens["g10"].down


def test_card_5_not_two_nobles():
    state = position(cards=[[5], []], stands=["FFFPM", "FF"])
    assert rejected(state, "farmer g9\npriest g10\nfarmer g11\nmerchant h9") == (
        "step 4 (merchant h9): with card 5, at most 1 noble goes with 3 or more farmers")


def test_card_5_the_noble_is_face_up_so_not_on_a_river():
    state = position(cards=[[5], []], stands=["FFFPM", "FF"])
    assert rejected(state, "farmer g9\nfarmer g10\nfarmer g11\npriest f9") == (
        "step 4 (priest f9): tokens played with 3 or more farmers may not go onto a river")


def test_card_5_still_needs_three_farmers():
    state = position(cards=[[5], []], stands=["FFFPM", "FF"])
    assert rejected(state, "farmer g9\npriest g10\nfarmer g11") == (
        "the turn is not finished: a turn plays exactly 2 tokens, or 3 or more farmers")


def test_without_card_5_no_noble_goes_with_three_farmers():
    state = position(stands=["FFFPM", "FF"])
    assert rejected(state, "farmer g9\nfarmer g10\nfarmer g11\npriest h9") == (
        "step 4 (priest h9): only farmers can be played as 3 or more tokens")


# -- 6: nobles onto fields ------------------------------------------------------------------

def test_card_6_a_noble_onto_a_field_without_a_token_next_to_it_scores_the_field():
    state = position(tiles={"f10": "field 7"}, cards=[[6], []])
    after = submit(state, "merchant f10\nfarmer h9")
    assert after.tokens["f10"].kind == "M" and "f10" not in after.tiles
    assert causes(after) == [(7, "field 7 at f10")]


def test_card_6_a_cities_field_for_a_noble():
    state = position(tiles={"f10": "field cities"}, cards=[[6], []], cities=[["city S"], ["city P"]])
    assert points(submit(state, "priest f10\nfarmer h9")) == 2


def test_card_6_does_not_free_a_farmer_from_the_neighbour_rule():
    state = position(tiles={"f10": "field 7"}, cards=[[6], []])
    assert rejected(state, "farmer f10\nfarmer h9") == (
        "step 1 (farmer f10): a farmer goes onto the field at f10 only next to another token of yours")


def test_card_6_a_noble_onto_a_field_with_one_of_three_farmers_needs_card_5_too():
    state = position(tiles={"f10": "field 5"}, cards=[[5, 6], []], stands=["FFFMP", "FF"])
    assert points(submit(state, "farmer g9\nfarmer g11\nmerchant f10\nfarmer h11")) == 5


# -- 7: one more point per two cities --------------------------------------------------------

F10_ALMOST = "0M g10, 0O g11, 1P f11"


@pytest.mark.parametrize("before, extra", [([], 0), (["city S"], 1), (["city S", "city M"], 1),
                                            (["city S", "city M", "city P"], 2)])
def test_card_7_one_more_point_per_two_cities_in_front(before, extra):
    state = position(tiles={"f10": "city MP"}, tokens=F10_ALMOST, cards=[[7], []],
                     cities=[before, []])
    after = submit(state, "farmer e11\nfarmer h9")
    held = len(before) + 1
    assert causes(after)[-1] == (held + extra, "cities in front, after the city MP at f10")


def test_card_7_counts_for_its_holder_when_another_takes_the_city():
    state = position(tiles={"f10": "city MP"}, tokens=F10_ALMOST, cards=[[], [7]],
                     cities=[[], ["city S", "city M"]])
    after = submit(state, "farmer e11\nfarmer h9")
    assert causes(after, 1)[-1] == (3, "cities in front, after the city MP at f10")


def test_card_7_gives_nothing_on_a_tie():
    state = position(tiles={"f10": "city MP"}, tokens="0M g10, 1P f11, 1F g11", cards=[[7], []],
                     cities=[["city S", "city M"], []])
    after = submit(state, "farmer e11\nfarmer h9")
    assert all("cities in front" not in c for _, c in causes(after))


# -- 8 and 9: free hexes join chains -------------------------------------------------------

# f10 <- g10 (his farmer) <- h9 (free central land) <- i10 (his priest)
CENTRAL = {"tiles": {"f10": "city P"}, "tokens": "0F g10, 0P i10, 1F g11, 1F f11"}
# f10 <- e10 (a free river) <- e9 (his priest, north land)
RIVER = {"tiles": {"f10": "city P"}, "tokens": "0P e9, 0F g10, 1F g11, 1F f11"}


def nobles(state, seat=0):
    return sum(p for p, c in causes(state, seat) if c.startswith("nobles"))


def test_card_8_free_central_land_joins_his_chains():
    assert nobles(submit(position(**CENTRAL), "farmer e11\nfarmer d5")) == 0
    assert nobles(submit(position(**CENTRAL, cards=[[8], []]), "farmer e11\nfarmer d5")) == 2


def test_card_8_only_central_land_not_rivers_nor_the_north():
    assert nobles(submit(position(**RIVER, cards=[[8], []]), "farmer e11\nfarmer d5")) == 0
    # f10 <- e10 (his river token) <- e9 (free, north) <- d8 (his priest): the north does not join
    state = position(tiles={"f10": "city P"}, tokens="0F e10, 0P d8, 0F g10, 1F g11, 1F f11",
                     cards=[[8], []])
    assert nobles(submit(state, "farmer e11\nfarmer d5")) == 0


def test_card_8_joins_only_its_holder():
    state = position(tiles={"f10": "city P"}, tokens="1F g10, 1P i10, 0F g11, 0F f11",
                     cards=[[8], []])
    assert nobles(submit(state, "farmer e11\nfarmer d5"), 1) == 0


def test_card_8_a_hex_with_a_tile_or_another_token_is_not_free():
    state = position(tiles={"f10": "city P", "h9": "field 5"}, tokens="1F g9, 0F i10",
                     cards=[[8], []])
    assert scoring.joins(state, 0, "h8") and scoring.joins(state, 0, "i10")
    assert not scoring.joins(state, 0, "h9")         # a field
    assert not scoring.joins(state, 0, "g9")         # seat 1's token
    assert not scoring.joins(state, 0, "i7")         # a ziggurat
    assert not scoring.joins(state, 1, "h8")         # only for the card's holder


def test_card_9_free_river_hexes_join_his_chains():
    assert nobles(submit(position(**RIVER), "farmer e11\nfarmer d5")) == 0
    assert nobles(submit(position(**RIVER, cards=[[9], []]), "farmer e11\nfarmer d5")) == 2
    # ... but not free land.
    assert nobles(submit(position(**CENTRAL, cards=[[9], []]), "farmer e11\nfarmer d5")) == 0


def test_card_9_a_river_holding_another_players_token_does_not_join():
    # f9 and e10 are the rivers next to f10; both hold seat 1's tokens.
    state = position(**{**RIVER, "tokens": RIVER["tokens"] + ", 1F e10, 1F f9"}, cards=[[9], []])
    assert nobles(submit(state, "farmer e11\nfarmer d5")) == 0


# -- the option --------------------------------------------------------------------------------

def test_basic_cards_are_1_to_7():
    assert GAME.start(3, {}, 2).available == [1, 2, 3, 4, 5, 6, 7]
    assert GAME.start(3, {"ziggurat_cards": "basic"}, 4).available == [1, 2, 3, 4, 5, 6, 7]


def test_advanced_cards_are_7_of_9_from_the_seed():
    decks = {seed: GAME.start(seed, {"ziggurat_cards": "advanced"}, 2).available
             for seed in range(30)}
    assert all(len(d) == 7 and set(d) <= set(range(1, 10)) and d == sorted(d)
               for d in decks.values())
    assert decks[4] == GAME.start(4, {"ziggurat_cards": "Advanced"}, 2).available
    assert len({tuple(d) for d in decks.values()}) > 3
    assert any(8 in d for d in decks.values()) and any(9 in d for d in decks.values())


def test_advanced_cards_8_and_9_can_be_taken():
    state = position(tokens=C10_ALMOST, available=[1, 2, 3, 4, 5, 8, 9])
    state = submit(state, WIN_C10 + "\ncard 9")
    assert state.cards[0] == [9] and state.available == [1, 2, 3, 4, 5, 8]


def test_an_unknown_card_option_is_refused():
    with pytest.raises(GameError) as info:
        GAME.start(3, {"ziggurat_cards": "all"}, 2)
    assert "ziggurat_cards" in str(info.value) and "basic, advanced" in str(info.value)
