"""Step 2 of a turn: surrounded cities and ziggurats (KSR 2; docs/games/babylonia-rulings.md, "A turn" 2).

Most tests use the site f10 (land g10 g11 f11 e11; rivers f9 e10, and e10
touches e9 in the north) and the ziggurat c10 (land d10 c11 b10 b9; rivers c9
d9), in a game of 2 with seat 0 to move. Hexes g9, h9, h11 lie next to neither.
"""

import pytest

from babylonia_positions import causes, points, position, rejected, submit
from pbem.games.babylonia import scoring
from pbem.games.babylonia.placing import is_free

F10_ALMOST = "0M g10, 0O g11, 1P f11"           # e11 is the last free land hex next to f10


# -- surrounded ------------------------------------------------------------------------

def test_surrounded_means_no_free_land_next_to_it_rivers_need_not_be_occupied():
    state = position(tiles={"f10": "city MP"}, tokens=F10_ALMOST)
    assert not scoring.surrounded(state, "f10")
    state.tokens.update(position(tokens="1F e11").tokens)
    assert scoring.surrounded(state, "f10")
    assert "f9" not in state.tokens and "e10" not in state.tokens


def test_tokens_of_any_player_surround():
    state = position(tokens="1F d10, 1F c11, 0F b10, 1F b9")
    assert scoring.surrounded(state, "c10")


def test_a_city_not_yet_surrounded_is_not_scored():
    state = submit(position(tiles={"f10": "city MP"}, tokens="0M g10, 1P f11"),
                   "farmer g11\nfarmer h9")
    assert state.tiles["f10"] == "city MP" and state.scores == [0, 0]


def test_nothing_surrounded_at_the_start_of_any_game():
    from pbem.games.babylonia import GAME
    for players in (2, 3, 4):
        for seed in range(5):
            assert scoring.newly_surrounded(GAME.start(seed, {}, players)) == []


# -- a city ---------------------------------------------------------------------------

def test_a_surrounded_city_nobles_then_majority_then_cities_in_front():
    state = submit(position(tiles={"f10": "city MP"}, tokens=F10_ALMOST), "farmer e11\nfarmer h9")
    # (a) seat 0: the merchant at g10 (2); the official shows no symbol of the city.
    #     seat 1: the priest at f11 (2).
    # (b) seat 0 has g10 g11 e11 next to it, seat 1 only f11: seat 0 takes the tile.
    # (c) seat 0 now has 1 city in front of him: 1 point.
    assert state.cities == [["city MP"], []]
    assert "f10" not in state.tiles and is_free(state, "f10")
    assert causes(state, 0) == [(2, "nobles for the city MP at f10"),
                                (1, "cities in front, after the city MP at f10")]
    assert causes(state, 1) == [(2, "nobles for the city MP at f10")]
    assert state.scores == [3, 2]


def test_the_emptied_city_hex_is_free_land_for_any_token():
    state = submit(position(tiles={"f10": "city MP"}, tokens=F10_ALMOST), "farmer e11\nfarmer h9")
    state = submit(state, "priest f10\nfarmer i10", seat=1)
    assert state.tokens["f10"].seat == 1 and not state.tokens["f10"].down


def test_every_player_scores_the_cities_in_front_of_him_when_a_tile_is_taken():
    state = position(tiles={"f10": "city P"}, tokens=F10_ALMOST,
                     cities=[["city S"], ["city M", "city S"]])
    state = submit(state, "farmer e11\nfarmer h9")
    # The city shows P: seat 1's priest scores 2; then seat 0 takes it (2 cities: 2 points)
    # and seat 1 scores his 2 cities as well.
    assert state.cities[0] == ["city S", "city P"]
    assert causes(state, 0) == [(2, "cities in front, after the city P at f10")]
    assert causes(state, 1) == [(2, "nobles for the city P at f10"),
                                (2, "cities in front, after the city P at f10")]


def test_a_tie_for_a_city_removes_the_tile_and_nobody_scores_city_points():
    state = position(tiles={"f10": "city MP"}, tokens="0M g10, 1P f11, 1F g11",
                     cities=[["city S"], ["city M"]])
    state = submit(state, "farmer e11\nfarmer h9")
    # 2 against 2: the tile leaves the game; the nobles still scored.
    assert "f10" not in state.tiles
    assert state.cities == [["city S"], ["city M"]]
    assert causes(state, 0) == [(2, "nobles for the city MP at f10")]
    assert causes(state, 1) == [(2, "nobles for the city MP at f10")]


def test_river_tokens_count_for_the_majority():
    state = position(tiles={"f10": "city MP"}, tokens="0M g10, 0F g11, 1P f11, 1F f9, 1O e10")
    state = submit(state, "farmer e11\nfarmer h9")
    # seat 0: g10 g11 e11 = 3; seat 1: f11 and the two face-down river tokens = 3: a tie.
    assert state.cities == [[], []]
    state = position(tiles={"f10": "city MP"}, tokens="0M g10, 1F g11, 1P f11, 1F f9")
    state = submit(state, "farmer e11\nfarmer h9")
    assert state.cities == [[], ["city MP"]]
    assert state.scores == [2, 2 + 1]


def test_only_the_tokens_right_next_to_the_city_count_for_the_majority():
    # Seat 1 has a long chain, but only f11 next to the city.
    state = position(tiles={"f10": "city P"}, tokens="0F g10, 1P f11, 1F g12, 1P h11, 1P h10, 1F g11")
    state = submit(state, "farmer e11\nfarmer h9")
    # Adjacent: seat 0 g10 e11 (2); seat 1 f11 g11 (2): a tie; the chain does not count.
    assert state.cities == [[], []]
    # Seat 1's priests h11 and h10 are joined through g11/g12: 3 priests, 6 points.
    assert causes(state, 1) == [(6, "nobles for the city P at f10")]


# -- (a) nobles and chains ------------------------------------------------------------------

def test_nobles_joined_through_farmers_score():
    # f10 <- g10 (farmer) <- h9 (farmer) <- i10 (priest); and h10 (priest) touches g10.
    state = position(tiles={"f10": "city P"},
                     tokens="0F g10, 0F h9, 0P i10, 0P h10, 1F g11, 1F f11")
    state = submit(state, "farmer e11\nfarmer d5")
    assert causes(state, 0)[:1] == [(4, "nobles for the city P at f10")]


def test_nobles_joined_through_face_down_river_tokens_score_but_face_down_nobles_do_not():
    # e10 is a river next to f10: seat 0's face-down priest there joins the priest at e9
    # (north land) to the city; the face-down priest itself never scores.
    state = position(tiles={"f10": "city P"}, tokens="0P e10, 0P e9, 1F g10, 1F g11, 1F f11")
    assert state.tokens["e10"].down
    state = submit(state, "farmer e11\nfarmer d5")
    assert causes(state, 0)[0] == (2, "nobles for the city P at f10")


def test_chains_of_other_players_tokens_do_not_join():
    # Seat 0's priest at h9 touches g10, which holds seat 1's farmer: no chain.
    state = position(tiles={"f10": "city P"}, tokens="1F g10, 0P h9, 1F g11, 0F f11")
    state = submit(state, "farmer e11\nfarmer d5")
    assert all("nobles" not in cause for _, cause in causes(state, 0))


def test_a_chain_broken_by_a_free_hex_does_not_join():
    state = position(tiles={"f10": "city P"}, tokens="0F g10, 0P i10, 1F g11, 1F f11")
    state = submit(state, "farmer e11\nfarmer d5")          # h9 is free: i10 is cut off
    assert all("nobles" not in cause for _, cause in causes(state, 0))


def test_nobles_whose_symbol_the_city_does_not_show_score_nothing():
    state = position(tiles={"f10": "city S"}, tokens="0M g10, 0P g11, 0O f11")
    state = submit(state, "farmer e11\nfarmer h9")
    # Only the official (the city's S) scores; then the tile and 1 city point.
    assert causes(state, 0) == [(2, "nobles for the city S at f10"),
                                (1, "cities in front, after the city S at f10")]


def test_a_city_with_three_symbols_rewards_every_kind_of_noble():
    state = position(3, tiles={"f10": "city MSP"}, tokens="0M g10, 0P g11, 1O f11",
                      stands=["FFPMO"] * 3)
    state = submit(state, "farmer e11\nfarmer h9")
    assert causes(state, 0)[0] == (4, "nobles for the city MSP at f10")
    assert causes(state, 1) == [(2, "nobles for the city MSP at f10")]


def test_the_noble_that_surrounds_the_city_scores_too():
    state = position(tiles={"f10": "city P"}, tokens="1F g10, 0F g11, 0F f11")
    state = submit(state, "priest e11\nfarmer h9")
    assert causes(state, 0)[0] == (2, "nobles for the city P at f10")
    assert state.cities == [["city P"], []]


# -- a ziggurat ---------------------------------------------------------------------------

C10_ALMOST = "0F d10, 0F c11, 1F b10"           # b9 is the last free land hex next to c10


def test_the_majority_at_a_ziggurat_takes_a_card_of_his_choice():
    state = submit(position(tokens=C10_ALMOST), "farmer b9\nfarmer h9\ncard 3")
    assert state.cards[0] == [3] and 3 not in state.available
    assert "c10" in state.scored
    assert points(state) == 1          # b9 is next to c10: 1 ziggurat of his


def test_the_winner_must_name_a_card():
    assert rejected(position(tokens=C10_ALMOST), "farmer b9\nfarmer h9") == (
        "the turn is not finished: you won the ziggurat at c10: name your card (card N)")


def test_the_card_must_be_available():
    state = position(tokens=C10_ALMOST, cards=[[], [3]])
    assert rejected(state, "farmer b9\nfarmer h9\ncard 3") == (
        "step 3 (card 3): card 3 is not available; available: 1, 2, 4, 5, 6, 7")
    assert rejected(state, "farmer b9\nfarmer h9\ncard 8").startswith(
        "step 3 (card 8): card 8 is not available")


def test_one_card_per_ziggurat():
    assert rejected(position(tokens=C10_ALMOST), "farmer b9\nfarmer h9\ncard 3\ncard 4") == (
        "step 4 (card 4): no ziggurat of yours waits for a card")


def test_a_card_without_a_ziggurat_won_is_refused():
    assert rejected(position(), "farmer g9\nfarmer h9\ncard 3") == (
        "step 3 (card 3): no ziggurat of yours waits for a card")


def test_river_tokens_count_at_a_ziggurat():
    state = position(tokens="1F b10, 1F c9, 1F d9, 0F d10")
    assert scoring.majority(state, "c10") == 1
    state.tokens.update(position(tokens="0F c11, 0F b9").tokens)
    assert scoring.majority(state, "c10") is None       # 3 against 3


def test_a_tie_at_a_ziggurat_gives_no_card_and_it_is_scored_once():
    state = position(tokens="0F d10, 1F c11, 1F b10")
    state = submit(state, "farmer b9\nfarmer h9")
    assert state.cards == [[], []] and state.available == [1, 2, 3, 4, 5, 6, 7]
    assert state.scored == {"c10"}
    # Later tokens next to it (a river) make it no candidate again.
    state = submit(state, "farmer c9\nfarmer g9", seat=1)
    assert state.cards == [[], []] and state.to_move == 0
    assert rejected(position(tokens="0F d10, 1F c11, 1F b10, 0F b9", scored={"c10"}),
                    "farmer c9\nfarmer g9\nscore c10") == (
        "step 3 (score c10): nothing became surrounded this turn")


def test_a_ziggurat_won_when_no_card_is_left_gives_nothing():
    state = position(tokens=C10_ALMOST, available=[])
    state = submit(state, "farmer b9\nfarmer h9")
    assert state.cards == [[], []] and "c10" in state.scored
    assert rejected(position(tokens=C10_ALMOST, available=[]), "farmer b9\nfarmer h9\ncard 3") == (
        "step 3 (card 3): no ziggurat of yours waits for a card")


# -- the scoring order ----------------------------------------------------------------------

BOTH = {"tiles": {"f10": "city P"}, "tokens": F10_ALMOST + ", " + C10_ALMOST, "cities": [["city S"], []]}


def test_several_surrounded_the_mover_names_the_order():
    state = submit(position(**BOTH), "farmer e11\nfarmer b9\nscore f10\nscore c10\ncard 7")
    assert state.cities[0] == ["city S", "city P"] and state.cards[0] == [7]
    # The city came first: 2 cities, 2 points, no card 7 yet.
    assert (2, "cities in front, after the city P at f10") in causes(state, 0)


def test_the_order_decides_what_a_card_already_does():
    state = submit(position(**BOTH), "farmer e11\nfarmer b9\nscore c10\ncard 7\nscore f10")
    # Card 7 taken first: 2 cities and 1 more for every two of them.
    assert (3, "cities in front, after the city P at f10") in causes(state, 0)


def test_the_order_must_name_everything_that_became_surrounded():
    state = position(**BOTH)
    assert rejected(state, "farmer e11\nfarmer b9") == (
        "the turn is not finished: say the order in which to score: score c10, score f10")
    assert rejected(state, "farmer e11\nfarmer b9\nscore f10") == (
        "the turn is not finished: say the order in which to score: score c10")


def test_a_hex_is_named_once_in_the_order():
    assert rejected(position(**BOTH), "farmer e11\nfarmer b9\nscore f10\nscore f10") == (
        "step 4 (score f10): f10 is already in the scoring order")


def test_only_what_became_surrounded_is_named():
    assert rejected(position(**BOTH), "farmer e11\nfarmer b9\nscore i7") == (
        "step 3 (score i7): nothing at i7 became surrounded this turn")
    assert rejected(position(), "farmer g9\nfarmer h9\nscore f10") == (
        "step 3 (score f10): nothing became surrounded this turn")


def test_the_card_comes_right_after_the_score_step_of_a_ziggurat_he_wins():
    assert rejected(position(**BOTH), "farmer e11\nfarmer b9\nscore c10\nscore f10\ncard 7") == (
        "step 4 (score f10): first name your card for the ziggurat at c10")


def test_score_steps_come_after_the_tokens():
    assert rejected(position(**BOTH), "farmer e11\nscore f10\nfarmer b9") == (
        "step 2 (score f10): a turn plays exactly 2 tokens, or 3 or more farmers")
    assert rejected(position(**BOTH), "farmer e11\nfarmer b9\nscore f10\nfarmer h9") == (
        "step 4 (farmer h9): tokens are played before scoring, cards and extra")


def test_a_single_candidate_is_scored_without_a_score_step():
    state = position(tiles={"f10": "city P"}, tokens=F10_ALMOST)
    assert submit(state, "farmer e11\nfarmer h9").cities[0] == ["city P"]
    assert rejected(state, "farmer e11\nfarmer h9\nscore f10") == (
        "step 3 (score f10): only f10 became surrounded: it is scored without a score step")


@pytest.mark.parametrize("order", [("f10", "g11"), ("g11", "f10")])
def test_the_set_to_score_is_fixed_when_the_tokens_are_down(order):
    """Decision: every city/ziggurat surrounded in step 1 is scored, even when an earlier
    scoring freed a hex next to it. On the printed board no two sites touch (and no site
    touches a ziggurat), so this is a made-up position: a second city on g11, next to f10."""
    state = position(tiles={"f10": "city P", "g11": "city P"},
                     tokens="0F g10, 0F f11, 0P h10, 1F h11, 1F g12")
    state = submit(state, f"farmer e11\nfarmer h9\nscore {order[0]}\nscore {order[1]}")
    # The first scored leaves a free hex next to the second; the second is scored all the same.
    assert "f10" not in state.tiles and "g11" not in state.tiles
    assert state.cities == [["city P", "city P"], []]
    # Each city: the priest at h10 (2, joined through g10), then 1 and 2 cities in front.
    assert state.scores == [2 + 1 + 2 + 2, 0]
