"""Position files (docs/games/babel-notation.md, "Position files").

Every field is checked, and a bad one is refused with a `PositionError` whose message starts
with the field's path. to_json / from_json round-trip. The documented example loads.
"""

import copy
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.games.babel import GAME, position
from pbem.games.babel.randomplay import play_random_game
from pbem.games.babel.state import Result
from pbem.games.errors import GameError, PositionError
from position_edits import DELETE, edit

#: The example of docs/games/babel-notation.md, verbatim (test_the_documented_example_is_this_one checks it).
EXAMPLE = """{
  "options": {"sumerians": "top-run"},
  "to_move": 0,
  "end_phase": false,
  "migrated": false,
  "players": [
    {
      "name": "Anna",
      "hand": "AHS",
      "figure": "H",
      "column": [2, 1],
      "first_turn": false,
      "rows":    {"H": "SSSSAPP", "S": "PP", "A": "HH", "M": "", "P": ""},
      "temples": {"H": [], "S": [], "A": [], "M": [], "P": []}
    },
    { "name": "Bob", "hand": "AAMMSPP", "figure": "A", "column": [], "first_turn": false,
      "rows": {"H": "PSAAM"}, "temples": {"H": [1,2,3,4,5,6], "A": [1,2,3]} }
  ],
  "tribe_supply": "SPAMHHSPAM",
  "discard": "",
  "temple_supply": [4, 5, 2],
  "pending_discard": null,
  "outcome": null
}"""

#: The notation's page, in this repository's documentation.
DESIGN = Path(__file__).resolve().parents[2] / "docs" / "games" / "babel-notation.md"


def example() -> dict:
    return json.loads(EXAMPLE)


def complete_position() -> dict:
    """A complete position (every card present) from the middle of a random game."""
    game = play_random_game(4242)
    state = GAME.replay(4242, {}, 2, game.first, game.events[:9])
    return position.to_json(position.Position(state, ["Ann", "Bob"], True))


COMPLETE = complete_position()


# -- the documented example ------------------------------------------------------------------------

def test_the_documented_example_is_this_one():
    text = DESIGN.read_text(encoding="utf-8")
    block = re.search(r"## Position files.*?```json\n(.*?)```", text, re.S).group(1)
    assert json.loads(block) == example()


def test_the_documented_example_loads():
    pos = position.loads(EXAMPLE)
    state = pos.state
    assert pos.names == ["Anna", "Bob"] and not pos.complete
    anna, bob = state.players
    assert state.to_move == 0 and state.phase == "actions" and state.sumerians == "top-run"
    assert anna.hand_letters() == "AHS" and anna.figure == "H" and anna.column == (2, 1)
    assert anna.rows == {"H": "SSSSAPP", "S": "PP", "A": "HH", "M": "", "P": ""}
    assert all(t == () for t in anna.temples.values())
    assert bob.hand_letters() == "AAMMPPS" and bob.figure == "A" and bob.column == ()
    # Missing rows and temples are empty.
    assert bob.rows == {"A": "", "H": "PSAAM", "M": "", "P": "", "S": ""}
    assert bob.temples == {"A": (1, 2, 3), "H": (1, 2, 3, 4, 5, 6), "M": (), "P": (), "S": ()}
    assert bob.score() == 9 and anna.score() == 0
    assert state.tribe_supply == "SPAMHHSPAM" and state.discard == ""
    assert state.temple_supply == (4, 5, 2) and state.temple_known == 0
    assert state.pending_discard is None and state.result is None
    assert not state.end_phase and not state.migrated
    assert not anna.first_turn and not bob.first_turn


def test_the_example_round_trips():
    pos = position.loads(EXAMPLE)
    again = position.from_json(position.to_json(pos))
    assert again.state == pos.state and again.names == pos.names
    assert position.loads(position.dumps(pos)).state == pos.state


def test_written_positions_spell_out_every_documented_field():
    data = position.to_json(position.loads(EXAMPLE))
    assert set(data) == {"options", "to_move", "end_phase", "migrated", "players", "tribe_supply",
                         "discard", "temple_supply", "pending_discard", "outcome", "phase", "seed"}
    for p in data["players"]:
        assert set(p) == {"name", "hand", "figure", "column", "first_turn", "rows", "temples"}
        assert set(p["rows"]) == set(p["temples"]) == set("AHMPS")
    assert data["phase"] == "actions" and data["seed"] == 0


# -- round trips -----------------------------------------------------------------------------------

def test_a_complete_position_round_trips():
    pos = position.from_json(COMPLETE)
    assert pos.complete
    assert position.to_json(pos) == COMPLETE


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**64 - 1),
       sumerians=st.sampled_from(["top-run", "all"]),
       cut=st.integers(min_value=0, max_value=30))
def test_positions_of_random_games_round_trip(seed, sumerians, cut):
    game = play_random_game(seed, sumerians)
    state = GAME.replay(seed, {"sumerians": sumerians}, 2, game.first, game.events[:cut])
    pos = position.Position(state, ["Ann", "Bob"], True)
    data = position.to_json(pos)
    assert json.loads(json.dumps(data)) == data
    back = position.from_json(data)
    assert back.state == state and back.names == ["Ann", "Bob"] and back.complete
    assert position.to_json(back) == data
    assert position.loads(position.dumps(pos)).state == state


def test_optional_fields_round_trip():
    data = example()
    data.update(phase="draw", seed=2**64 - 1, complete=False, end_phase=True, migrated=True,
                temple_known=2, pending_discard={"seat": 1, "count": 3},
                outcome={"winner": None, "reason": "supply-empty"},
                options={"sumerians": "all"})
    pos = position.from_json(data)
    state = pos.state
    assert state.phase == "draw" and state.seed == 2**64 - 1 and state.end_phase and state.migrated
    assert state.temple_known == 2 and state.pending_discard == (1, 3)
    assert state.result == Result(None, "supply-empty") and state.sumerians == "all"
    assert position.from_json(position.to_json(pos)).state == state


def test_names_default_to_player_numbers():
    data = example()
    del data["players"][0]["name"]
    data["players"][1]["name"] = ""
    assert position.from_json(data).names == ["Player 1", "Player 2"]


# -- checks, field by field -----------------------------------------------------------------------




BAD = [
    # (path to change, new value, the field the message must name, words of the message)
    (["players", 0, "hand"], "AXS", "players[0].hand", "'X' is not a tribe"),
    (["players", 0, "hand"], "A S", "players[0].hand", "' ' is not a tribe"),
    (["players", 0, "hand"], "ß", "players[0].hand", "is not a tribe"),
    (["players", 0, "hand"], ["A"], "players[0].hand", "must be a string"),
    (["players", 0, "hand"], DELETE, "players[0].hand", "is missing"),
    (["players", 1, "rows", "H"], "PSQ", "players[1].rows.H", "'Q' is not a tribe"),
    (["players", 1, "rows", "X"], "PS", "players[1].rows.X", "is not a territory"),
    (["players", 1, "rows", "AH"], "PS", "players[1].rows.AH", "is not a territory"),
    (["players", 1, "rows", ""], "PS", "players[1].rows.", "is not a territory"),
    (["players", 1, "rows"], ["PS"], "players[1].rows", "must be an object"),
    (["tribe_supply"], "SPAM1", "tribe_supply", "'1' is not a tribe"),
    (["tribe_supply"], 5, "tribe_supply", "must be a string"),
    (["discard"], "z", "discard", "'z' is not a tribe"),
    (["players", 1, "temples", "H"], [1, 3, 3], "players[1].temples.H", "rise strictly"),
    (["players", 1, "temples", "A"], [3, 2, 1], "players[1].temples.A", "rise strictly"),
    (["players", 1, "temples", "A"], [1, 7], "players[1].temples.A[1]", "7 is not a temple level"),
    (["players", 1, "temples", "A"], [0], "players[1].temples.A[0]", "0 is not a temple level"),
    (["players", 1, "temples", "A"], ["1"], "players[1].temples.A[0]", "is not a temple level"),
    (["players", 1, "temples", "A"], [True], "players[1].temples.A[0]", "is not a temple level"),
    (["players", 1, "temples", "A"], 3, "players[1].temples.A", "must be a list"),
    (["players", 1, "temples", "Q"], [1], "players[1].temples.Q", "is not a territory"),
    (["players", 0, "column"], [2, 7], "players[0].column[1]", "7 is not a temple level"),
    (["players", 0, "column"], "21", "players[0].column", "must be a list"),
    (["temple_supply"], [4, 7, 2], "temple_supply[1]", "7 is not a temple level"),
    (["temple_supply"], [4.0], "temple_supply[0]", "is not a temple level"),
    (["players", 0, "figure"], "X", "players[0].figure", "must be a territory letter"),
    (["players", 0, "figure"], "AH", "players[0].figure", "must be a territory letter"),
    (["players", 0, "figure"], "", "players[0].figure", "must be a territory letter"),
    (["players", 0, "figure"], 1, "players[0].figure", "must be a territory letter"),
    (["players", 0, "first_turn"], "no", "players[0].first_turn", "must be true or false"),
    (["players", 0, "name"], 5, "players[0].name", "must be a string"),
    (["players", 0, "nickname"], "Annie", "players[0].nickname", "unknown field"),
    (["players", 0], "Anna", "players[0]", "must be an object"),
    (["to_move"], 2, "to_move", "must be 0 or 1"),
    (["to_move"], -1, "to_move", "must be 0 or 1"),
    (["to_move"], "0", "to_move", "must be 0 or 1"),
    (["to_move"], True, "to_move", "must be 0 or 1"),
    (["to_move"], 1.0, "to_move", "must be 0 or 1"),
    (["to_move"], None, "to_move", "must be 0 or 1"),
    (["to_move"], DELETE, "to_move", "is missing"),
    (["players"], DELETE, "players", "is missing"),
    (["players"], [], "players", "exactly two players"),
    (["players"], {"0": {}}, "players", "exactly two players"),
    (["colour"], "blue", "colour", "unknown field"),
    (["Players"], [], "Players", "unknown field"),
    (["end_phase"], 1, "end_phase", "must be true or false"),
    (["migrated"], "false", "migrated", "must be true or false"),
    (["complete"], "yes", "complete", "must be true or false"),
    (["phase"], "later", "phase", "must be actions or draw"),
    (["phase"], ["draw"], "phase", "must be actions or draw"),
    (["seed"], -1, "seed", "whole number"),
    (["seed"], 2**64, "seed", "whole number"),
    (["seed"], "7", "seed", "whole number"),
    (["temple_known"], 4, "temple_known", "whole number from 0 to 3"),
    (["temple_known"], -1, "temple_known", "whole number"),
    (["options"], "all", "options", "must be an object"),
    (["options", "sumerians"], "some", "options.sumerians", "must be top-run or all"),
    (["options", "variant"], "x", "options.variant", "unknown field"),
    (["pending_discard"], 3, "pending_discard", "must be null or"),
    (["pending_discard"], {"seat": 1}, "pending_discard", "must be null or"),
    (["pending_discard"], {"seat": 1, "count": 3, "x": 1}, "pending_discard", "must be null or"),
    (["pending_discard"], {"seat": 2, "count": 3}, "pending_discard.seat", "must be 0 or 1"),
    (["pending_discard"], {"seat": 1.0, "count": 3}, "pending_discard.seat", "must be 0 or 1"),
    (["pending_discard"], {"seat": 1, "count": 0}, "pending_discard.count", "from 1 to"),
    (["pending_discard"], {"seat": 1, "count": 8}, "pending_discard.count",
     "from 1 to the seat's 7"),
    (["pending_discard"], {"seat": 1, "count": "3"}, "pending_discard.count", "from 1 to"),
    (["pending_discard"], {"seat": 0, "count": 1}, "pending_discard.seat", "phase draw"),
    (["outcome"], "won", "outcome", "must be null or"),
    (["outcome"], {"winner": 0}, "outcome", "must be null or"),
    (["outcome"], {"winner": 0, "reason": "boredom"}, "outcome.reason", "'boredom' is not one of"),
    (["outcome"], {"winner": 2, "reason": "twenty"}, "outcome.winner", "must be 0 or 1"),
    (["outcome"], {"winner": 0.0, "reason": "twenty"}, "outcome.winner", "must be 0 or 1"),
    (["outcome"], {"winner": 1, "reason": "aborted"}, "outcome.winner", "an aborted game has no winner"),
]


@pytest.mark.parametrize("path, value, field, words", BAD,
                         ids=[f"{'.'.join(map(str, b[0]))}={b[1]!r}" for b in BAD])
def test_a_bad_field_is_refused_with_its_name(path, value, field, words):
    data = edit(example(), path, value)
    with pytest.raises(PositionError) as caught:
        position.from_json(data)
    message = str(caught.value)
    assert message.startswith(field + ": "), message
    assert words in message, message
    # The same through the text reader.
    with pytest.raises(PositionError):
        position.loads(json.dumps(data))


def test_a_position_that_is_not_an_object_is_refused():
    for data in ([], "position", 3, None):
        with pytest.raises(PositionError) as caught:
            position.from_json(data)
        assert str(caught.value).startswith("position: must be a JSON object")


@pytest.mark.parametrize("text", ["", "{", "{'to_move': 0}", "not json", '{"to_move": 0,}',
                                  "[1, 2"])
def test_text_that_is_not_json_is_refused(text):
    with pytest.raises(PositionError) as caught:
        position.loads(text)
    assert str(caught.value).startswith("position: not valid JSON (")
    assert "line" in str(caught.value) and "column" in str(caught.value)


@pytest.mark.parametrize("text", ["[" * 100_000, '{"seed": ' + "1" * 5000 + "}", "1" * 5000])
def test_json_too_deep_or_with_too_long_numbers_is_refused(text):
    with pytest.raises(PositionError) as caught:
        position.loads(text)
    assert str(caught.value).startswith("position: not valid JSON (")


def test_lower_case_letters_are_read_as_tribes():
    data = example()
    data["players"][0].update(hand="ahs", figure="h", rows={"h": "sssSAPP"})
    state = position.from_json(data).state
    assert state.players[0].hand_letters() == "AHS" and state.players[0].figure == "H"
    assert state.players[0].rows["H"] == "SSSSAPP"


# -- card counts -----------------------------------------------------------------------------------

def test_too_many_cards_of_a_tribe_are_refused_even_in_a_partial_position():
    data = example()
    data["players"][0]["hand"] = "S" * 8   # with the other Sumerians in play: 16
    with pytest.raises(PositionError) as caught:
        position.from_json(data)
    assert str(caught.value) == "cards: 16 Sumerians cards are in play; the game has 12"


def test_too_many_temple_cards_of_a_level_are_refused_even_in_a_partial_position():
    data = example()
    data["players"][0]["temples"]["S"] = [6]
    data["players"][0]["temples"]["A"] = [6]
    data["players"][0]["temples"]["M"] = [6]
    data["temple_supply"] = [6, 6, 4]
    with pytest.raises(PositionError) as caught:
        position.from_json(data)
    assert str(caught.value) == "cards: 6 temple cards of level 6 are in play; the game has 5"


def test_a_partial_position_may_leave_cards_out():
    assert not position.from_json(example()).complete


def test_a_complete_position_must_hold_every_card():
    data = copy.deepcopy(COMPLETE)
    assert position.from_json(data).complete
    data["tribe_supply"] = data["tribe_supply"][:-1]
    with pytest.raises(PositionError) as caught:
        position.from_json(data)
    assert str(caught.value).startswith("cards: 11 ")
    assert str(caught.value).endswith("cards are in play; the game has 12")
    # Without "complete": true the same cards are a valid partial position.
    del data["complete"]
    assert not position.from_json(data).complete


def test_a_complete_position_must_hold_every_temple_card():
    data = copy.deepcopy(COMPLETE)
    data["temple_supply"] = data["temple_supply"][1:]
    with pytest.raises(PositionError) as caught:
        position.from_json(data)
    assert re.fullmatch(r"cards: \d+ temple cards of level \d are in play; the game has \d+",
                        str(caught.value))


def test_the_example_marked_complete_is_refused():
    data = example()
    data["complete"] = True
    with pytest.raises(PositionError) as caught:
        position.from_json(data)
    assert str(caught.value).startswith("cards: ")


# -- anything else is refused as a position error, never a crash -------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2**70, max_value=2**70)
    | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (st.lists(children, max_size=4)
                      | st.dictionaries(st.text(max_size=6), children, max_size=4)),
    max_leaves=12,
)


def field_paths(data, prefix=()):
    yield list(prefix)
    if isinstance(data, dict):
        for key, value in data.items():
            yield from field_paths(value, prefix + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from field_paths(value, prefix + (i,))


PATHS = [p for p in field_paths(json.loads(EXAMPLE)) if p] + [
    ["temple_known"], ["seed"], ["phase"], ["complete"], ["players", 0, "extra"]]


@settings(max_examples=400, deadline=None)
@given(where=st.sampled_from(PATHS), value=JSON)
def test_any_value_in_any_field_loads_or_is_refused_as_a_position_error(where, value):
    data = edit(example(), where, value)
    try:
        pos = position.from_json(data)
    except PositionError as error:
        assert isinstance(error, GameError)
        field, _, problem = str(error).partition(": ")
        assert field and problem, error   # "field.path: what is wrong"
        return
    # Whatever loads writes a valid position again.
    assert position.from_json(position.to_json(pos)).state == pos.state


@settings(max_examples=100, deadline=None)
@given(JSON)
def test_any_json_loads_or_is_refused_as_a_position_error(data):
    try:
        position.from_json(data)
    except PositionError:
        pass
