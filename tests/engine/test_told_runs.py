"""A turn told as a person would tell it (issue 31): consecutive builds onto one temple from
one column are one run, "built levels 3–5 there from your opponent's column", in all three
languages; builds apart (a settle, a move or another column between) stay apart. In
Babylonia the tokens of a kind go together: "placed 3 farmers on a4, f3 and g4". The turns
are a computer's (the easy bot's, recorded from two games) and a person's: the words are the
same for both, as they come from the log."""

from __future__ import annotations

import pytest

from babylonia_positions import position
from pbem import i18n
from pbem.games.babel import GAME
from pbem.games.babylonia import GAME as BABYLONIA
from pbem.games.phrases import say

# Two games of the easy computer against itself, seeds 1 and 2, up to a long turn of builds.
GAME_1 = [
    (1, "move A\nsettle S\nbuild mine\nsettle H\nmove M\nsettle A\nsettle P\nsettle P"),
    (0, "move A\nsettle M\nbuild mine\nmove A"),
    (1, "build mine\nmove M\nsettle M\nmove H\nsettle H"),
    (0, "move A\nsettle H\nbuild theirs\nsettle P\nbuild mine\nsettle S\nbuild mine\nsettle P\n"
        "build theirs\nmove M\nsettle H"),
    (1, "settle M"),
    (0, "settle A\nbuild theirs\nbuild theirs\nsettle S\nsettle P\nmove H\nmigrate A M"),
    (1, "settle S\nbuild theirs"),
    (0, "settle H\nsettle H\nsettle M\nmigrate H A"),
    (1, "build theirs\nsettle A"),
    (0, "move S\nmigrate M P\nmove H\nmove A"),
    (1, "settle H\nmigrate M S\nsettle P\nmove S\nbuild theirs\nsettle A"),
    (0, "settle H\nhalve H\nsettle M\nmigrate A H\nsettle P"),
    (1, "discard SS"),
    (1, "build theirs\nbuild theirs\nbuild mine\nsettle S\nbuild theirs\nsettle A\nsettle M\n"
        "build mine\nmove H\nmove S\nmove A\nbuild theirs"),
]
GAME_2 = [
    (0, "move S\nsettle H\nbuild mine"),
    (1, "move M\nmove M\nsettle H\nbuild mine\nsettle H\nsettle A\nsettle M"),
    (0, "move M\nsettle H\nbuild theirs\nmove A\nsettle H"),
    (1, "settle P\nbuild mine\nbuild theirs\nmove A"),
    (0, "move H\nmove S\nmove M\nmove S\nsettle S\nbuild theirs\nsettle S\nmigrate S P"),
    (1, "migrate M A"),
    (0, "migrate P H\nsettle S\nsettle S\nsettle P\nsettle S\nsettle S"),
    (1, "build theirs\nmove M\nsettle M\nmigrate A M\nbuild theirs\nbuild mine\nbuild mine\nmove A"),
    (0, "settle H\nbuild theirs\nbuild theirs\nbuild theirs\nsettle M"),
]


def before_last(seed: int, turns: list[tuple[int, str]]):
    """The game before its last turn, and that turn's event."""
    state = GAME.start(seed)
    events = []
    for seat, text in turns:
        if text.startswith("discard "):
            events.append({"v": 1, "type": "discard", "seat": seat, "cards": text.split()[1]})
        else:
            events.append(GAME.decide(state, seat, text))
        if len(events) < len(turns):
            state = GAME.apply(state, events[-1])
    return state, events[-1]


def said(value, language: str) -> str:
    cat = i18n.catalogue(language)
    return say(value, cat.gettext, cat.ngettext)


def test_three_builds_in_a_row_are_one_run_in_each_language():
    state, event = before_last(2, GAME_2)
    told = GAME.recount(state, event, 1).words      # Bob reads Anna's (the computer's) turn
    assert told == ("settled 1 Hittites in the Sumerians territory, built levels 3–5 there from "
                    "your column and settled 1 Medes there")
    assert "baute die Baustufen 3–5 dort aus deinem Lager" in said(told, "de")
    assert "stavba pater 3–5 tam z vaší zásobárny" in said(told, "cs")
    assert "built" not in said(told, "de") + said(told, "cs")


def test_a_long_computer_turn_groups_only_builds_in_a_row_from_one_column():
    state, event = before_last(1, GAME_1)
    told = GAME.recount(state, event, 0).words
    assert told == (
        "built levels 2–3 in the Sumerians territory from your column, built level 4 there "
        "from their column, settled 1 Sumerians there, built level 5 there from your column, "
        "settled 1 Assyrians, 1 Medes there, built level 6 there from their column, moved to "
        "the Hittites, moved to the Sumerians, moved to the Assyrians and built level 2 there "
        "from your column")
    for language in ("de", "cs"):
        assert "built" not in said(told, language)


@pytest.mark.parametrize("reader", [0, 1, None])
def test_a_persons_turn_reads_as_the_computers(reader):
    """The same steps submitted by a person are the same event, told in the same words."""
    state, event = before_last(2, GAME_2)
    person = GAME.decide(state, 0, "settle H\nbuild theirs\nbuild theirs\nbuild theirs\nsettle M")
    assert GAME.recount(state, person, reader).words == GAME.recount(state, event, reader).words
    assert "levels 3–5" in GAME.recount(state, person, reader).words


# -- Babylonia: the tokens of a kind together ------------------------------------------------

BABYLONIA_4 = [     # the easy computer against itself, seed 4, up to its first turn of 3 farmers
    "merchant j8", "merchant h11\nmerchant h9", "farmer d8\npriest h8", "merchant a11\nfarmer d7",
    "official d10\npriest b10", "farmer i11\npriest d9", "official b4\npriest i3",
    "farmer e9\nmerchant j11", "official e4\nofficial g11", "priest j6\npriest e7",
    "farmer g10\npriest h7", "official b9\nfarmer i10", "official c3\nfarmer f6",
    "priest a5\nmerchant i8", "farmer e10\nmerchant g5", "farmer a4\nfarmer f3\nfarmer g4",
]


def babylonia_turns(upto: int):
    """Seed 4's game before turn `upto` (counted from 0), and that turn's event."""
    state = BABYLONIA.start(4, None, 2, 0)
    for text in BABYLONIA_4[:upto]:
        state = BABYLONIA.apply(state, BABYLONIA.decide(state, state.to_move, text))
    return state, BABYLONIA.decide(state, state.to_move, BABYLONIA_4[upto])


def test_a_computers_three_farmers_are_told_together_in_each_language():
    state, event = babylonia_turns(15)
    told = BABYLONIA.recount(state, event, 0).words
    assert told == "placed 3 farmers on a4, f3 and g4, gaining 4 points"
    assert said(told, "de") == "setzte 3 Bauern auf a4, f3 und g4 und bekam 4 Punkte"
    assert said(told, "cs") == "položení 3 rolníků na a4, f3 a g4 za 4 body"


def test_two_tokens_of_a_kind_together_and_of_two_kinds_apart():
    state, event = babylonia_turns(8)            # "official e4\nofficial g11"
    assert BABYLONIA.recount(state, event, 1).words.startswith("placed 2 officials on e4 and g11")
    assert said(BABYLONIA.recount(state, event, 1).words, "cs").startswith(
        "položení 2 úředníků na e4 a g11")
    state, event = babylonia_turns(10)           # "farmer g10\npriest h7"
    assert BABYLONIA.recount(state, event, 1).words.startswith(
        "placed a farmer on g10 and a priest on h7")


def test_face_down_tokens_are_counted_for_the_others_and_named_for_their_owner():
    state = position(stands=["FPMMO", "FFPMO"])
    event = BABYLONIA.decide(state, 0, "farmer c3\npriest c4")        # two river hexes
    told = BABYLONIA.recount(state, event, 1).words      # (c3 is next to the ziggurat at b2)
    assert told == "placed 2 face-down tokens on c3 and c4, gaining 1 point"
    assert said(told, "de").startswith("setzte 2 verdeckte Spielsteine auf c3 und c4")
    assert said(told, "cs").startswith("položení 2 žetonů lícem dolů na c3 a c4")
    assert BABYLONIA.recount(state, event, 0).words.startswith(
        "placed a farmer on c3 and a priest on c4")
