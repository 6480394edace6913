"""The rulebook's own phase-2 example (German original, "Ein Beispiel"), played from its position."""

import io
import json
from pathlib import Path

from pbem.games.babel import GAME, position
from pbem.games.babel.cli import main
from pbem.games.babel.turn import play_from_position

POSITIONS = Path(__file__).parent / "positions"

ANNA_TURN = """
switch          # take Bob's Medes card
migrate H S     # Persians, Persians, Medes to the Sumerians
switch          # take both of Bob's Assyrians
destroy         # Bob's level-6 temple goes back on the supply
move A
settle H
rob             # Bob's level 3 in the Assyrians territory
move S
halve P
halve P
"""


def load(name):
    return position.loads((POSITIONS / name).read_text())


def test_anna_bob_example_ends_as_the_rulebook_says():
    pos = load("anna_bob.json")
    state = pos.state.copy()
    play_from_position(state, ANNA_TURN)
    anna, bob = state.players
    # Bob's level-6 temple in the Hittites territory lies on the supply, lowest on top,
    # after the two cards Anna drew in phase 3 (the 1 and the 2).
    assert bob.temples["H"] == ()
    assert state.temple_supply == (4, 5, 2, 6, 5, 4, 3)
    # Anna holds level 3 in the Assyrians territory; Bob keeps 1, 2 there.
    assert anna.temples["A"] == (3,)
    assert bob.temples["A"] == (1, 2)
    # Bob owes 5 discards: 7 -> 4 -> 2.
    assert state.pending_discard == (1, 5)
    # Anna's phase 3 drew the 1 and the 2 and placed the 2 first, so the 1 is on top.
    assert anna.column == (2, 1, 2, 1)
    assert anna.rows == {"H": "SSAA", "S": "PPM", "A": "HH", "M": "", "P": ""}
    assert bob.rows["H"] == "PS"
    assert state.to_move == 1 and state.phase == "draw"


ANNA_DISCARDS = "SSAAHSPP"   # switch S, switch S, destroy A, move A, rob H, move S, halve P, halve P


def test_anna_bob_example_through_the_command_lines_play():
    """`play` prints the position after the turn: discard pile, Bob's hand, the next turn's start."""
    out = io.StringIO()
    code = main(["play", "--position", str(POSITIONS / "anna_bob.json"), "--turn", ANNA_TURN], out)
    assert code == 0
    after = json.loads(out.getvalue())
    anna, bob = after["players"]
    assert after["discard"] == ANNA_DISCARDS
    assert bob["hand"] == "AAMMPPS" and len(bob["hand"]) == 7   # halvings are discarded later
    assert after["pending_discard"] == {"seat": 1, "count": 5}
    assert after["to_move"] == 1 and after["phase"] == "draw"
    assert after["migrated"] is False and after["outcome"] is None
    assert after["tribe_supply"] == "SPAMHHSPAM"                # Bob has not drawn yet
    assert anna["hand"] == "" and anna["figure"] == "S"
    assert anna["column"] == [2, 1, 2, 1]
    assert anna["temples"]["A"] == [3] and bob["temples"]["A"] == [1, 2]
    assert bob["temples"]["H"] == [] and bob["rows"]["H"] == "PS"
    assert after["temple_supply"] == [4, 5, 2, 6, 5, 4, 3]
    assert after["temple_known"] == 4                           # the 6, 5, 4, 3 Bob lost


def test_anna_bob_example_bob_discards_five_then_draws_three():
    state = load("anna_bob.json").state.copy()
    play_from_position(state, ANNA_TURN)
    bob = state.players[1]
    play_from_position(state, "discard A A M M S\npass")
    # 7 -> 2 cards, then the top three of the supply (M, A, P: the top is last).
    assert bob.hand_letters() == "AMPPP"
    assert state.tribe_supply == "SPAMHHS"
    assert state.discard == ANNA_DISCARDS + "AAMMS"
    assert state.pending_discard is None
    assert state.to_move == 0


def test_anna_bob_example_as_the_server_records_it():
    state = load("anna_bob.json").state
    before = state.copy()
    event = GAME.decide(state, 0, ANNA_TURN)
    assert state == before
    assert event["steps"].splitlines() == [
        "switch", "migrate H S", "switch", "destroy", "move A", "settle H", "rob", "move S",
        "halve P", "halve P"]
    after = GAME.apply(state, event)
    assert after.pending_discard == (1, 5)
    assert [d.kind for d in GAME.to_act(after)] == ["discard"]
    assert after.players[1].hand_size == 7
