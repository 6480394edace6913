"""Decisions told to a reader (`Engine.recount`) and endings that explain themselves
(`Engine.ending`), for the three games: the words each seat reads, tie-breaks spelled out."""

from __future__ import annotations

import re

import pytest

from babel_positions import make
from pbem.games import get
from pbem.games.babel import GAME as BABEL
from pbem.games.babel.state import Result as BabelResult
from pbem.games.babel_tower import GAME as TOWER
from pbem.games.babel_tower.state import Result as TowerResult
from pbem.games.babylonia import GAME as BABYLONIA
from pbem.games.babylonia.state import Result as BabyloniaResult
from pbem.games.rng import Rng

NAMES = ["Anna", "Bob", "Carl"]


# -- Babel ---------------------------------------------------------------------------------

def bobs_turn():
    """Bob to move: he goes to the Hittites, settles two Persians beside his one card there
    and builds level 3 onto his temple of 2 from Anna's column."""
    state = make(anna={"column": [4, 3]},
                 bob={"hand": "HPP", "rows": {"H": "A"}, "temples": {"H": [1, 2]}, "column": [5]},
                 to_move=1)
    return state, {"v": 1, "type": "turn", "seat": 1, "steps": "move H\nsettle P P\nbuild theirs"}


def test_a_babel_turn_in_words_from_each_side():
    state, event = bobs_turn()
    assert BABEL.recount(state, event, 0).words == (
        "moved to the Hittites, settled 2 Persians there and built level 3 there "
        "from your column")
    assert BABEL.recount(state, event, 1).words == (
        "moved to the Hittites, settled 2 Persians there and built level 3 there "
        "from your opponent's column")
    assert BABEL.recount(state, event, None).words.endswith("from their opponent's column")


def test_a_babel_turn_marks_what_it_changed():
    state, event = bobs_turn()
    assert BABEL.recount(state, event, 0).marks == {
        "territories": ["H"], "rows": [[1, "H"]], "temples": [[1, "H"]], "columns": [0]}


def test_babel_skills_read_from_the_victims_side():
    state = make(anna={"hand": "", "rows": {"M": "SS"}, "temples": {"M": [1, 2]}},
                 bob={"figure": "M", "rows": {"M": "MMMHHH"}, "temples": {"M": [1]}},
                 to_move=1)
    event = {"v": 1, "type": "turn", "seat": 1, "steps": "emigrate S\nrob"}
    BABEL.apply(state, event)              # (a legal turn)
    told = BABEL.recount(state, event, 0)
    assert told.words == ("drove your Sumerians out of the Medes territory and robbed your "
                          "top temple card there")
    assert told.marks == {"rows": [[0, "M"]], "temples": [[0, "M"], [1, "M"]]}
    assert BABEL.recount(state, event, 1).words == (
        "drove your opponent's Sumerians out of the Medes territory and robbed your "
        "opponent's top temple card there")


def ended(state, seat, reason, winner):
    state = state.copy()
    state.result = BabelResult(winner, reason)
    return BABEL.ending(state, seat, NAMES[:2])


def test_babel_endings_say_why_from_each_side():
    state = make(anna={"hand": "AAAA", "temples": {"A": [1, 2], "H": [1, 2, 3]}},
                 bob={"hand": "HH", "temples": {"M": [1, 2, 3, 4], "S": [1]}})
    scores = state.scores()
    assert scores[0] == scores[1]          # equal points: the hands decide
    assert ended(state, 0, "supply-empty", 0) == (
        f"You win: the temple supply ran out at {scores[0]} to {scores[1]}, and you hold more "
        "tribe cards (4 to 2)")
    assert ended(state, 1, "supply-empty", 0) == (
        f"Anna wins: the temple supply ran out at {scores[0]} to {scores[1]}, and Anna holds "
        "more tribe cards (4 to 2)")
    assert ended(state, 1, "supply-empty", None).startswith(
        "A draw: the temple supply ran out at")
    assert ended(state, 1, "twenty", 1).startswith("You win: you reached 20 points")
    assert ended(state, 0, "fifteen-ten", 1).startswith(
        "Bob wins: Bob reached 15 points while you had fewer than 10")
    assert ended(state, 0, "below-ten", 1).startswith(
        "Bob wins: you fell below 10 points in the end phase")
    assert ended(state, 0, "resigned", 1) == "Bob wins: you resigned"
    assert ended(state, 1, "resigned", 1) == "You win: Anna resigned"
    assert ended(state, 1, "timeout", 0) == "Anna wins: your time ran out"
    assert ended(state, None, "timeout", 0) == "Anna wins: Bob's time ran out"


# -- Babylonia ----------------------------------------------------------------------------

def babylonia_game(seed: int, players: int = 3):
    state, rng = BABYLONIA.start(seed, None, players), Rng(seed)
    while not BABYLONIA.is_over(state):
        seat = BABYLONIA.to_act(state)[0].seat
        state = BABYLONIA.apply(state, BABYLONIA.decide(
            state, seat, BABYLONIA.random_submission(state, seat, rng)))
    return state


def test_babylonia_says_which_stand_ran_empty_or_how_few_cities_were_left():
    state = babylonia_game(0)
    empty = [s for s in range(3) if state.stand_size(s) == 0]
    cities = len(state.city_hexes())
    ending = BABYLONIA.ending(state, empty[0], NAMES) if empty else ""
    if empty:
        assert f"your stand ran empty, with {cities} cit" in ending
    else:
        assert f"only {cities} cit" in BABYLONIA.ending(state, 0, NAMES)
    for seat in range(3):
        ending = BABYLONIA.ending(state, seat, NAMES)
        winner = state.result.winners[0]
        assert ending.startswith("You win: " if seat == winner else f"{NAMES[winner]} wins: ")
        assert f"Points: {'you' if seat == winner else NAMES[winner]} {state.scores[winner]}" \
            in ending


def test_babylonia_tie_breaks_are_spelled_out():
    state = babylonia_game(1).copy()
    state.scores = [30, 30, 12]
    state.cities = [["city PM", "city S"], ["city M"], []]
    state.result = BabyloniaResult((0,), "end")
    assert "; equal points (30), and you have more cities (2 to 1)" in \
        BABYLONIA.ending(state, 0, NAMES)
    assert "; equal points (30), and Anna has more cities (2 to 1)" in \
        BABYLONIA.ending(state, 1, NAMES)
    state.cities = [["city PM"], ["city M"], []]
    state.result = BabyloniaResult((0, 1), "end")
    ending = BABYLONIA.ending(state, 1, NAMES)
    assert ending.startswith("Anna and you share the win: ")
    assert ending.endswith("; equal points (30) and equal cities in front (1)")


def test_babylonia_turns_keep_the_river_secret_in_words():
    state, rng = BABYLONIA.start(3, None, 2), Rng(3)
    for _ in range(30):
        seat = BABYLONIA.to_act(state)[0].seat
        event = BABYLONIA.decide(state, seat, BABYLONIA.random_submission(state, seat, rng))
        other = 1 - seat
        if event["type"] == "turn":
            told = BABYLONIA.recount(state, event, other)
            own = BABYLONIA.recount(state, event, seat)
            for line in event["steps"].split("\n"):
                word, _, hex = line.partition(" ")
                if word in ("farmer", "priest", "merchant", "official"):
                    assert hex in told.marks["hexes"]
                    if state.board.is_river(hex):    # (tokens of a kind are told together)
                        hexes = r"([a-q]\d+(, | and ))*"
                        assert re.search(rf"face-down tokens? on {hexes}{hex}\b", told.words)
                        assert re.search(rf"{word}s? on {hexes}{hex}\b", own.words)
        state = BABYLONIA.apply(state, event)
        if BABYLONIA.is_over(state):
            break


# -- Babel Tower ------------------------------------------------------------------------------

def test_tower_picks_and_placements_in_words_and_the_cube_placed_marked():
    state, rng = TOWER.start(2, None, 2, 0), Rng(2)
    seen = set()
    while not TOWER.is_over(state):
        seat = TOWER.to_act(state)[0].seat
        event = TOWER.decide(state, seat, TOWER.random_submission(state, seat, rng))
        told = TOWER.recount(state, event, 1 - seat)
        after = TOWER.apply(state, event)
        if event["type"] == "pick":
            assert told.words == f"picked a {event['step'].split()[1]}" and not told.marks
            seen.add("pick")
        else:
            cube, corner = event["step"].split()[1:3]
            mark = told.marks["placed"]
            assert told.words.startswith(f"placed a {cube} at {corner} on floor "
                                         f"{mark['floor'] + 1}")
            assert after.floors[mark["floor"]][corner].cube == int(cube)
            assert corner not in state.floors[mark["floor"]]
            seen.add("place")
        state = after
    assert seen == {"pick", "place"}


@pytest.mark.parametrize("reason, winner, seat, words", [
    ("complete", None, 0, "A draw: the tower is complete, all 24 cubes placed"),
    ("blocked", 0, 0, "You win: Bob could not place any of their cubes"),
    ("blocked", 0, 1, "Anna wins: you could not place any of your cubes"),
    ("resigned", 1, 0, "Bob wins: you resigned"),
])
def test_tower_endings(reason, winner, seat, words):
    state = TOWER.start(2, None, 2, 0)
    state.result = TowerResult(winner, reason)
    assert TOWER.ending(state, seat, NAMES[:2]) == words


def test_every_game_tells_its_decisions():
    for name in ("babel", "babylonia", "babel-tower"):
        engine = get(name)
        state, rng = engine.start(4, None, 2, 0), Rng(4)
        seat = engine.to_act(state)[0].seat
        event = engine.decide(state, seat, engine.random_submission(state, seat, rng))
        assert engine.recount(state, event, 1 - seat).words


def test_settling_one_card_after_another_is_told_as_one_settling():
    state = make(anna={"hand": "PPPA", "figure": "A"})
    event = {"v": 1, "type": "turn", "seat": 0, "steps": "settle P\nsettle P\nsettle P\nsettle A"}
    assert BABEL.recount(state, event, 1).words == (
        "settled 3 Persians, 1 Assyrians in the Assyrians territory")
    event = {"v": 1, "type": "turn", "seat": 0, "steps": "move P\nsettle P\nsettle P"}
    assert BABEL.recount(state, event, 1).words == "moved to the Persians and settled 2 Persians there"
