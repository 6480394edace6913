"""A complete tower exists (docs/games/tower-rulings.md: "checked by exhaustive search"), and building it
in a real game ends in a draw."""

from __future__ import annotations

from collections import Counter

import pytest
from tower_kit import COUNTS, fits, invariants, oracle, the_tower, tower_game

from pbem.games.babel_tower import GAME
from pbem.games.babel_tower.cubes import SHAPES, canonical
from pbem.games.babel_tower.search import complete_tower
from pbem.games.babel_tower.state import BUILD, Placed, Tower


def test_the_search_finds_a_complete_tower():
    path = complete_tower()
    assert path is not None and len(path) == 24
    assert Counter(kind for kind, _, _ in path) == Counter({t: n for t, n in enumerate(COUNTS)})
    state = Tower([0] * 5, [COUNTS, COUNTS], phase=BUILD)
    for i, (kind, corner, bumps) in enumerate(path):
        assert bumps in SHAPES[kind]
        assert state.floor == i // 4                                  # floor by floor
        assert fits(state, kind, corner, set(bumps)), (i, kind, corner, bumps)   # by the rulings
        state.floors[state.floor][corner] = Placed(kind, bumps, i % 2)
    assert state.floor == 6
    assert sum(len(bumps) for _, _, bumps in path) == 44
    # The 44 bumps fill the 44 inner joints: none faces up from the sixth floor.
    assert not any("U" in p.bumps for p in state.floors[5].values())


@pytest.mark.parametrize("prefer", [(0, 1, 2, 3, 4), (2, 4, 0, 3, 1)])
def test_other_search_orders_find_towers_too(prefer):
    path = complete_tower(prefer)
    assert path is not None and len(path) == 24
    assert Counter(kind for kind, _, _ in path) == Counter({t: n for t, n in enumerate(COUNTS)})


@pytest.mark.parametrize("first", [0, 1])
def test_building_the_tower_in_a_game_is_a_draw(first):
    steps = tower_game(first)
    assert len(steps) == 48
    state = GAME.start(99, {"draft": "pick"}, 2, first)
    events = []
    for seat, text in steps:
        assert [d.seat for d in GAME.to_act(state)] == [seat]
        offered = {o.notation for o in GAME.legal_steps(state, seat)}
        assert offered == oracle(state, seat) and text in offered
        event = GAME.decide(state, seat, text)
        state = GAME.apply(state, event)
        events.append(event)
        invariants(state)
    # The last picker placed first.
    assert events[24]["seat"] == events[23]["seat"] == 1 - first
    outcome = GAME.outcome(state)
    assert (outcome.winner, outcome.reason) == (None, "complete")
    assert GAME.to_act(state) == [] and GAME.scores(state) == [12, 12]
    assert GAME.replay(99, {"draft": "pick"}, 2, first, events) == state
    placed = [(p.cube, c, canonical(p.bumps)) for f in state.floors for c, p in f.items()]
    assert placed == [(k, c, canonical(b)) for k, c, b in the_tower()]
