"""A whole turn: pauses for another seat's ziggurat card, the refill, the end and the winners
(KSR 2c, 3, "Spielende"; docs/games/babylonia-rulings.md "Decisions owed by other players", "End").

Seat 0 is to move in a game of 2 unless told. c10's land is d10 c11 b10 b9; b2's is b1 b3
a3 a2; the city site f10 has land g10 g11 f11 e11. h9 and g9 lie next to nothing.
"""

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from babylonia_positions import answer, causes, position, rejected, submit
from pbem.games.babylonia import GAME
from pbem.games.babylonia.board import board
from pbem.games.base import Decision
from pbem.games.errors import GameError, NotationError, WrongDecision
from pbem.games.rng import Rng

THEIRS_C10 = "1F d10, 1F c11, 1F b10"       # seat 0's b9 surrounds c10; seat 1 has 3 against 1
MINE_B2 = "0F b1, 0F b3, 0F a3"              # seat 0's a2 surrounds b2, his
CITY_F10 = "0M g10, 0O g11, 1P f11"          # seat 0's e11 surrounds f10, his


# -- setup ---------------------------------------------------------------------------------

@pytest.mark.parametrize("players, sites", [(2, 18), (3, 26), (4, 32)])
def test_the_deal_puts_the_tile_mix_on_the_sites_of_the_areas_in_play(players, sites):
    state = GAME.start(11, {}, players)
    assert len(state.tiles) == sites and set(state.tiles) == set(board(players).sites)
    assert Counter(state.tiles.values()) == board(players).tiles
    assert all(board(players).hexes[h].area in {2: ("north", "center"), 3: ("center", "south"),
                                                4: ("north", "center", "south")}[players]
               for h in state.tiles)
    assert [state.stand_size(s) for s in range(players)] == [5] * players
    assert [len(x) for x in state.supplies] == [25] * players
    assert state.tokens == {} and state.scores == [0] * players and state.turn.index == 0


def test_the_first_player_is_drawn_unless_named():
    firsts = {GAME.start(seed, {}, 4).to_move for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert GAME.start(3, {}, 4, first=2).to_move == 2
    with pytest.raises(GameError):
        GAME.start(3, {}, 5)
    with pytest.raises(GameError):
        GAME.start(3, {}, 2, first=2)


def test_a_position_may_keep_dealt_tiles():
    dealt = GAME.start(7, {}, 2).tiles
    assert dealt["f10"] == "city MS" and dealt["g3"] == "field cities"
    state = position(keep=("f10", "a7", "b5", "g3"), tokens=CITY_F10)
    assert state.tiles == {h: dealt[h] for h in ("f10", "a7", "b5", "g3")}
    after = submit(state, "farmer e11\nfarmer h9")
    # The city shows M and S: the merchant and the official score, the priest does not.
    assert after.scores == [2 + 2 + 1, 0] and after.cities == [["city MS"], []]


# -- a pause for another seat's card -------------------------------------------------------

def test_the_turn_pauses_when_another_seat_wins_a_ziggurat():
    state = submit(position(tokens=THEIRS_C10), "farmer b9\nfarmer h9")
    assert state.card_due == 1 and state.to_move == 0 and state.turn.submitted
    assert GAME.to_act(state) == [
        Decision(1, "card", "choose a ziggurat card for the ziggurat won at c10")]
    # Nothing else moves before the card: no refill yet.
    assert state.stand_size(0) == 3


def test_the_owed_card_is_taken_then_the_turn_ends_by_itself():
    state = submit(position(tokens=THEIRS_C10), "farmer b9\nfarmer h9")
    state = answer(state, 1, "card 4")
    assert state.cards == [[], [4]] and 4 not in state.available
    assert state.card_due is None and state.to_move == 1 and state.turn.index == 3
    assert state.stand_size(0) == 5
    assert GAME.to_act(state) == [Decision(1, "turn", "play your turn")]


def test_only_the_seat_that_owes_may_answer_and_only_with_one_available_card():
    state = submit(position(tokens=THEIRS_C10), "farmer b9\nfarmer h9")
    with pytest.raises(WrongDecision):
        GAME.decide(state, 0, "card 4")
    with pytest.raises(WrongDecision) as info:
        GAME.apply(state, {"type": "turn", "seat": 0, "steps": "farmer g9\nfarmer g10"})
    assert str(info.value) == "seat 0 owes nothing now, not turn."
    with pytest.raises(GameError) as info:
        GAME.decide(state, 1, "card 9")
    assert "card 9 is not available; available: 1, 2, 3, 4, 5, 6, 7" in str(info.value)
    with pytest.raises(NotationError) as info:
        GAME.decide(state, 1, "farmer g9")
    assert str(info.value) == (
        "step 1 (farmer g9): answer with one step: card N, the ziggurat card you take.")
    with pytest.raises(NotationError):
        GAME.decide(state, 1, "card 3\ncard 4")


def test_the_rest_of_the_scoring_waits_for_the_card_then_resolves_by_itself():
    tokens = f"{THEIRS_C10}, {CITY_F10}"
    state = submit(position(tiles={"f10": "city MP"}, tokens=tokens),
                   "farmer b9\nfarmer e11\nscore c10\nscore f10")
    assert state.tiles["f10"] == "city MP" and state.cities == [[], []]
    state = answer(state, 1, "card 5")
    assert "f10" not in state.tiles and state.cities == [["city MP"], []]
    assert state.to_move == 1


def test_the_order_decides_whether_the_city_is_scored_before_the_pause():
    tokens = f"{THEIRS_C10}, {CITY_F10}"
    state = submit(position(tiles={"f10": "city MP"}, tokens=tokens, cards=[[], [7]],
                            cities=[[], ["city S"]]),
                   "farmer b9\nfarmer e11\nscore f10\nscore c10")
    assert state.cities == [["city MP"], ["city S"]] and state.card_due == 1
    # Seat 1 scored his city with card 7: 1 city, no bonus yet.
    assert (1, "cities in front, after the city MP at f10") in causes(state, 1)


def test_a_card_the_mover_names_for_his_own_ziggurat_after_a_pause_is_taken():
    tokens = f"{THEIRS_C10}, {MINE_B2}"
    state = submit(position(tokens=tokens), "farmer b9\nfarmer a2\nscore c10\nscore b2\ncard 3")
    assert state.card_due == 1 and state.cards == [[], []]
    state = answer(state, 1, "card 4")
    assert state.cards == [[3], [4]] and state.card_due is None and state.to_move == 1
    assert state.stand_size(0) == 7                 # card 3 counts at this turn's refill
    assert state.scored == {"b2", "c10"}


def test_when_the_other_took_the_named_card_first_the_mover_owes_a_card():
    tokens = f"{THEIRS_C10}, {MINE_B2}"
    state = submit(position(tokens=tokens), "farmer b9\nfarmer a2\nscore c10\nscore b2\ncard 3")
    state = answer(state, 1, "card 3")
    assert state.card_due == 0 and state.to_move == 0
    assert GAME.to_act(state) == [
        Decision(0, "card", "choose a ziggurat card for the ziggurat won at b2")]
    with pytest.raises(GameError):
        GAME.decide(state, 0, "card 3")
    state = answer(state, 0, "card 6")
    assert state.cards == [[6], [3]] and state.card_due is None and state.to_move == 1


def test_the_mover_must_name_a_card_for_each_of_his_wins_after_the_pause():
    tokens = f"{THEIRS_C10}, {MINE_B2}"
    assert rejected(position(tokens=tokens), "farmer b9\nfarmer a2\nscore c10\nscore b2") == (
        "the turn is not finished: name a card for each ziggurat of yours still to score (card N)")


def test_no_card_is_named_for_a_win_that_is_not_ahead():
    tokens = f"{THEIRS_C10}, {MINE_B2}"
    state = position(tokens=tokens)
    assert rejected(state, "farmer b9\nfarmer a2\nscore b2\ncard 3\nscore c10\ncard 4") == (
        "step 6 (card 4): no ziggurat of yours waits for a card")
    after = submit(state, "farmer b9\nfarmer a2\nscore b2\ncard 3\nscore c10")
    assert after.cards == [[3], []] and after.card_due == 1


def test_extra_survives_a_pause():
    state = submit(position(tokens=THEIRS_C10, cards=[[2], []]), "farmer b9\nfarmer h9\nextra")
    state = answer(state, 1, "card 1")
    assert state.to_move == 0 and state.used[0] == [2]
    assert state.scores[1] == 10


def test_a_draft_goes_on_past_a_pause():
    tokens = f"{THEIRS_C10}, {MINE_B2}"
    draft = GAME.draft(position(tokens=tokens), 0, "farmer b9\nfarmer a2\nscore c10")
    assert draft.error is None and not draft.done and draft.state.card_due == 1
    assert "score b2" in draft.todo


# -- the refill -----------------------------------------------------------------------------

def test_the_stand_refills_to_five_from_the_end_of_the_supply():
    state = submit(position(supplies=["FFFFFFFPM", "FFFF"]), "farmer g9\nfarmer h9")
    assert state.stands[0] == [0, 2, 2, 1] and state.supplies[0] == "FFFFFFF"


def test_the_refill_takes_what_the_supply_holds():
    state = submit(position(supplies=["P", "FFFF"]), "farmer g9\nfarmer h9")
    assert state.stand_size(0) == 4 and state.supplies[0] == "" and state.result is None


def test_only_the_mover_refills():
    state = submit(position(stands=["FFPMO", "FF"]), "farmer g9\nfarmer h9")
    assert state.stand_size(1) == 2


# -- the end --------------------------------------------------------------------------------

def test_the_game_ends_when_the_movers_stand_is_empty_after_refilling():
    state = position(stands=["FF", "FF"], supplies=["", ""], scores=[4, 6])
    state = submit(state, "farmer g9\nfarmer h9")
    assert state.result is not None and state.turn is None
    assert GAME.to_act(state) == []
    outcome = GAME.outcome(state)
    assert outcome.winner == 1 and outcome.winners == (1,) and outcome.reason == "end"


def test_an_empty_supply_alone_does_not_end_the_game():
    state = submit(position(stands=["FFF", "FF"], supplies=["", ""]), "farmer g9\nfarmer h9")
    assert state.result is None and state.stand_size(0) == 1
    assert GAME.outcome(state) is None


def test_the_game_ends_when_at_most_one_city_is_left_on_the_board():
    tiles = {"f10": "city MP", "a7": "city P"}
    state = submit(position(tiles=tiles, spare=False, tokens=CITY_F10), "farmer e11\nfarmer h9")
    assert state.result is not None
    assert GAME.outcome(state).winner == 0          # 3 points against 2


def test_two_cities_left_go_on():
    tiles = {"f10": "city MP", "a7": "city P", "b5": "city S"}
    state = submit(position(tiles=tiles, spare=False, tokens=CITY_F10), "farmer e11\nfarmer h9")
    assert state.result is None and state.to_move == 1


def test_fields_left_do_not_keep_the_game_going():
    tiles = {"f10": "city MP", "a7": "city P", "b5": "field 5", "h10": "field cities"}
    state = submit(position(tiles=tiles, spare=False, tokens=CITY_F10), "farmer e11\nfarmer h9")
    assert state.result is not None


def test_the_end_comes_before_extra():
    state = position(stands=["FF", "FF"], supplies=["", ""], cards=[[2], []])
    state = submit(state, "farmer g9\nfarmer h9\nextra")
    assert state.result is not None


def test_equal_points_the_player_with_more_cities_wins():
    state = position(stands=["FF", "FF"], supplies=["", ""], scores=[6, 6],
                     cities=[[], ["city P"]])
    outcome = GAME.outcome(submit(state, "farmer g9\nfarmer h9"))
    assert outcome.winner == 1 and outcome.winners == (1,)


def test_equal_points_and_cities_share_the_win():
    state = position(3, stands=["FF", "FF", "FF"], supplies=["", "", ""], scores=[6, 6, 3],
                     cities=[["city S"], ["city P"], ["city M", "city S"]])
    outcome = GAME.outcome(submit(state, "farmer g9\nfarmer h9"))
    assert outcome.winner is None and outcome.winners == (0, 1)
    assert "shared" in outcome.description


def test_after_the_end_nothing_more_is_played():
    state = submit(position(stands=["FF", "FF"], supplies=["", ""]), "farmer g9\nfarmer h9")
    with pytest.raises(WrongDecision):
        GAME.decide(state, 1, "farmer g10\nfarmer g11")
    with pytest.raises(WrongDecision):
        GAME.apply(state, {"type": "turn", "seat": 1, "steps": "farmer g10\nfarmer g11"})


# -- resign and timeout -----------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["resign", "timeout"])
def test_in_a_game_of_three_a_resigning_player_ends_it_the_others_are_ranked(kind):
    state = position(3, stands=["FF", "FF", "FF"], scores=[5, 9, 7])
    after = GAME.apply(state, {"type": kind, "seat": 1})
    outcome = GAME.outcome(after)
    assert outcome.winners == (2,) and outcome.winner == 2
    assert outcome.reason == ("resigned" if kind == "resign" else "timeout")
    assert GAME.to_act(after) == []


def test_a_resignation_ranks_the_others_by_points_then_cities():
    state = position(3, stands=["FF", "FF", "FF"], scores=[7, 9, 7],
                     cities=[["city S"], [], []])
    assert GAME.outcome(GAME.apply(state, {"type": "resign", "seat": 1})).winners == (0,)
    state = position(3, stands=["FF", "FF", "FF"], scores=[7, 9, 7])
    assert GAME.outcome(GAME.apply(state, {"type": "resign", "seat": 1})).winners == (0, 2)


def test_in_a_game_of_two_the_other_wins_a_resignation():
    state = position(scores=[0, 30])
    assert GAME.outcome(GAME.apply(state, {"type": "resign", "seat": 1})).winner == 0


def test_a_seat_owing_a_card_may_time_out():
    state = submit(position(3, tokens=THEIRS_C10, stands=["FFPMO"] * 3, scores=[1, 2, 3]),
                   "farmer b9\nfarmer h9")
    assert state.card_due == 1
    after = GAME.apply(state, {"type": "timeout", "seat": 1})
    assert GAME.outcome(after).winners == (2,) and after.card_due is None


def test_a_resignation_names_a_real_seat():
    with pytest.raises(WrongDecision):
        GAME.apply(position(), {"type": "resign", "seat": 2})


def test_the_mover_names_no_more_cards_than_are_left():
    """Fix: with one card left, seat 1 winning c10 first and seat 0 winning b2 and i7 after
    it, seat 0 names the one card (it may be gone by then) and his turn can end."""
    tokens = f"{THEIRS_C10}, {MINE_B2}, 0F i6, 0F j6, 0F j7, 0F i8, 0F h7"
    state = position(tokens=tokens, stands=["FFFFF", "FF"], available=[5])
    text = "farmer b9\nfarmer a2\nfarmer h6\nscore c10\nscore b2\nscore i7"
    assert rejected(state, text) == (
        "the turn is not finished: name a card for each ziggurat of yours still to score (card N)")
    assert rejected(state, text + "\ncard 5\ncard 5") == "step 8 (card 5): card 5 is already named"
    state = submit(state, text + "\ncard 5")
    state = answer(state, 1, "card 5")
    assert state.cards == [[], [5]] and state.available == []
    assert state.scored == {"b2", "c10", "i7"} and state.to_move == 1


def test_extra_does_not_come_between_a_won_ziggurat_and_its_card():
    state = position(tokens="0F d10, 0F c11, 1F b10", cards=[[2], []])
    assert rejected(state, "farmer b9\nfarmer h9\nextra\ncard 3") == (
        "step 3 (extra): first name your card for the ziggurat at c10")
    assert submit(state, "farmer b9\nfarmer h9\ncard 3\nextra").to_move == 0


# -- a property: whole random games ----------------------------------------------------------


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(2, 4), st.sampled_from(["basic", "advanced"]))
def test_property_random_games_keep_the_rules_invariants(seed, players, cards):
    state = GAME.start(seed, {"ziggurat_cards": cards}, players)
    deck = sorted(state.available)
    cities_dealt = sum(1 for t in state.tiles.values() if t.startswith("city"))
    rng = Rng(seed)
    while state.result is None:
        (decision,) = GAME.to_act(state)
        before = state
        text = GAME.random_submission(state, decision.seat, rng)
        state = GAME.apply(state, GAME.decide(state, decision.seat, text))
        for seat in range(players):
            on_board = sum(1 for t in state.tokens.values() if t.seat == seat)
            assert state.stand_size(seat) + len(state.supplies[seat]) + on_board == 30
            assert state.scores[seat] >= before.scores[seat]
            assert state.stand_size(seat) <= state.stand_limit(seat)
        assert all(t.down == state.board.is_river(h) for h, t in state.tokens.items())
        assert set(state.tiles) <= set(before.tiles)
        assert sorted(state.available + [c for h in state.cards for c in h]) == deck
        assert state.scored <= set(state.board.ziggurats)
        left = sum(1 for t in state.tiles.values() if t.startswith("city"))
        assert left + sum(len(c) for c in state.cities) <= cities_dealt
        if state.result is None and state.card_due is None:
            assert left >= 2
    mover = before.to_move
    left = sum(1 for t in state.tiles.values() if t.startswith("city"))
    assert state.stand_size(mover) == 0 or left <= 1
    best = max(state.scores)
    assert all(state.scores[w] == best for w in state.result.winners)


def test_a_refused_step_after_the_tokens_leaves_the_draft_before_it():
    state = position(tiles={"f10": "city MP"}, tokens=CITY_F10)
    draft = GAME.draft(state, 0, "farmer e11\nfarmer h9\ncard 3")
    assert str(draft.error) == "step 3 (card 3): no ziggurat of yours waits for a card"
    # The city is not scored in the draft's state: the prefix has not ended step 1 yet.
    assert draft.state.tiles["f10"] == "city MP" and not draft.state.turn.closed
    assert draft.state.scores == [0, 0]


def test_an_abort_ends_the_game_with_no_winner_also_while_a_card_is_due():
    running = position(3, stands=["FF", "FF", "FF"], scores=[5, 9, 7])
    paused = submit(position(3, tokens=THEIRS_C10, stands=["FFPMO"] * 3, scores=[1, 2, 3]),
                    "farmer b9\nfarmer h9")
    assert paused.card_due == 1
    for state in (running, paused):
        over = GAME.apply(state, GAME.abort_event("two players left the club"))
        outcome = GAME.outcome(over)
        assert (outcome.winner, outcome.winners, outcome.reason, outcome.description) == \
            (None, (), "aborted", "the game was aborted")
        assert GAME.to_act(over) == [] and over.card_due is None and over.turn is None
        assert GAME.outcome(state) is None                      # the state is left unchanged
        assert GAME.restore(GAME.snapshot(over)) == over
        for seat in (0, 1, 2, None):
            view = GAME.view(over, seat)
            assert view["phase"] == "over" and view["outcome"] == {"winners": [], "reason": "aborted"}
            assert GAME.notation(GAME.abort_event("x"), seat) == "aborted"
        for seat in (0, 1, 2):
            assert GAME.legal_steps(over, seat) == [] and GAME.summary(over, seat)
            with pytest.raises(WrongDecision, match="the game is over"):
                GAME.decide(over, seat, "card 4")
        for event in (GAME.abort_event("again"), GAME.resign_event(0), GAME.timeout_event(1)):
            with pytest.raises(WrongDecision, match="the game is over; a .* event cannot follow"):
                GAME.apply(over, event)
    for event in ({"type": "abort", "seat": 0, "why": "x"}, {"type": "abort", "seat": None, "why": None}):
        with pytest.raises(WrongDecision, match="an abort is"):
            GAME.apply(running, event)
