"""A turn told as a person would tell it (issue 31): consecutive builds onto one temple from
one column are one run, "built levels 3–5 there from your opponent's column", in all three
languages; builds apart (a settle, a move or another column between) stay apart. The turns
are a computer's (the easy bot's, recorded from two games) and a person's: the words are the
same for both, as they come from the log."""

from __future__ import annotations

import pytest

from pbem import i18n
from pbem.games.babel import GAME
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
    assert "postavil patra 3–5 tam z vaší zásobárny" in said(told, "cs")
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
