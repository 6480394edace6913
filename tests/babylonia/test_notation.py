"""The Babylonia notation (docs/games/babylonia-rulings.md, "Notation"), read apart from legality."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from babylonia_positions import position, rejected
from pbem.games.babylonia import GAME
from pbem.games.babylonia.board import raw
from pbem.games.babylonia.notation import (
    Card,
    Extra,
    Play,
    Score,
    canonical,
    parse,
    parse_one,
    parse_steps,
)
from pbem.games.errors import NotationError


@pytest.mark.parametrize("text, kind", [
    ("farmer g7", "F"), ("priest g7", "P"), ("merchant g7", "M"), ("official g7", "O"),
    ("F g7", "F"), ("P g7", "P"), ("M g7", "M"), ("O g7", "O"),
    ("f g7", "F"), ("FARMER G7", "F"), ("Merchant G7", "M"), ("o G7", "O"),
])
def test_a_token_is_a_word_or_a_letter_in_any_case(text, kind):
    assert parse_one(text) == Play(kind, "g7")


def test_score_card_and_extra():
    assert parse_one("score i7") == Score("i7")
    assert parse_one("SCORE I7") == Score("i7")
    assert parse_one("card 4") == Card(4)
    assert parse_one("Card 9") == Card(9)
    assert parse_one("card 1") == Card(1)
    assert parse_one("extra") == Extra()
    assert parse_one("EXTRA") == Extra()


def test_steps_go_on_lines_or_between_semicolons_with_comments():
    text = "F g7 ; m h6\n# a comment\nscore i7  # the ziggurat\n> quoted g8\ncard 3\nextra"
    assert parse(text) == [Play("F", "g7"), Play("M", "h6"), Score("i7"), Card(3), Extra()]


def test_the_canonical_form_is_the_word_and_the_lower_case_hex():
    assert canonical("F G7; o h6\nSCORE I7; Card 3; EXTRA") == (
        "farmer g7\nofficial h6\nscore i7\ncard 3\nextra")
    assert str(Play("P", "a2")) == "priest a2"


@pytest.mark.parametrize("text, words", [
    ("farmer", "a step is a token and a hex"),
    ("farmer g7 h6", "a step is a token and a hex"),
    ("extra turn", "'extra' is not a step"),
    ("knight g7", "'knight' is not a step"),
    ("s g7", "'s' is not a step"),            # the data file's city letter is not a token
    ("farmer z9", "'z9' is not a hex of the board"),
    ("farmer g99", "'g99' is not a hex of the board"),
    ("score g", "'g' is not a hex of the board"),
    ("card 0", "'0' is not a ziggurat card"),
    ("card 10", "'10' is not a ziggurat card"),
    ("card x", "'x' is not a ziggurat card"),
    ("card ４", "is not a ziggurat card"),
])
def test_bad_steps_are_refused_with_their_number_and_text(text, words):
    with pytest.raises(NotationError) as info:
        parse("farmer g7\n" + text)
    assert info.value.step == 2
    assert str(info.value).startswith(f"step 2 ({text}): ")
    assert words in str(info.value)


def test_a_step_may_name_any_hex_of_the_board_legality_is_another_matter():
    # q7 is in the south: readable in any game, refused in play in a game of 2 (test_placing).
    assert parse_one("farmer q7") == Play("F", "q7")
    names = {h["name"] for h in raw()["hexes"]}
    assert len(names) == 175
    for name in names:
        assert parse_one(f"score {name}") == Score(name)


def test_the_server_refuses_bad_notation_with_the_step_and_changes_nothing():
    state = position()
    message = rejected(state, "farmer g8\nwizard h9")
    assert message.startswith("step 2 (wizard h9): 'wizard' is not a step")


def test_an_empty_turn_is_not_a_turn():
    state = position()
    assert "the turn is not finished: play your tokens" in rejected(state, "# nothing")


def test_parse_steps_keeps_the_text_as_written():
    assert parse_steps("F G7; card 3") == [(Play("F", "g7"), "F G7"), (Card(3), "card 3")]


def test_the_record_of_a_turn_is_canonical():
    state = position(stands=["FFPMO", "FFPMO"])
    event = GAME.decide(state, 0, "F G8 ; p H9")
    assert event["steps"] == "farmer g8\npriest h9"


def test_others_read_a_river_play_as_a_question_mark():
    state = position()
    event = GAME.decide(state, 0, "P f9; F g8")
    assert GAME.notation(event, 0) == "priest f9; farmer g8"
    assert GAME.notation(event, 1) == "? f9; farmer g8"
    assert GAME.notation(event, None) == "? f9; farmer g8"


WORD = st.sampled_from(["farmer", "priest", "merchant", "official", "F", "P", "M", "O", "score"])
HEX = st.sampled_from(sorted(h["name"] for h in raw()["hexes"]))


@given(st.lists(st.one_of(
    st.tuples(WORD, HEX).map(" ".join),
    st.integers(1, 9).map(lambda n: f"card {n}"),
    st.just("extra")), min_size=1, max_size=6), st.booleans())
def test_property_canonical_is_a_fixed_point_and_keeps_the_steps(steps, upper):
    text = "; ".join(s.upper() if upper else s for s in steps)
    once = canonical(text)
    assert canonical(once) == once
    assert parse(once) == parse(text)
