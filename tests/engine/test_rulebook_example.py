"""The rulebook's own phase-2 example (German original, "Ein Beispiel"), played from its position."""

import json
from pathlib import Path

from pbem.games.babel import position
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
