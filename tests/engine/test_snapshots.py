"""Snapshots (position files) restore every state exactly, mid-turn included."""

import json

from babel_walk import walk
from pbem.games.babel import GAME
from pbem.games.rng import Rng


def test_every_state_of_random_games_survives_a_snapshot():
    count = 0
    for i in range(40):
        seed = Rng(i).next_u64()
        for state in walk(seed, ("top-run", "all")[i % 2], (None, 0, 1)[i % 3], greedy=i % 2 == 0):
            data = json.loads(json.dumps(GAME.snapshot(state)))   # as the database stores it
            assert GAME.restore(data) == state
            count += 1
    assert count > 2000
