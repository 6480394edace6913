"""Engine.determinize: a sample of the hidden information that the seat cannot tell apart.

For every game and player count, at positions along random games: the sample's view for
the seat is exactly the original's (so nothing public changed, and nothing the seat sees);
the sample depends on the view and the generator only (two states differing only in what
is hidden give the same sample for the same generator); and on small hand-made cases every
possible hidden arrangement comes up.
"""

from __future__ import annotations

from itertools import permutations

import pytest

from bot_positions import TABLES, positions, table_id
from pbem.games.babel import GAME as BABEL
from pbem.games.babel.state import hand_counts
from pbem.games.babylonia import GAME as BABYLONIA
from pbem.games.babylonia.state import KIND_INDEX, Token
from pbem.games.rng import Rng


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_a_sample_looks_the_same_to_the_seat_and_to_everyone_else_nothing_public_changes(table):
    engine, players = table
    for n, state in enumerate(positions(engine, players, seed=7, every=4)):
        before = engine.snapshot(state)
        for seat in range(players):
            sample = engine.determinize(state, seat, Rng(n * 10 + seat))
            assert engine.view(sample, seat) == engine.view(state, seat)
            # What nobody sees is no public part: the spectator's view is unchanged too.
            assert engine.view(sample, None) == engine.view(state, None)
            assert engine.to_act(sample) == engine.to_act(state)
        assert engine.snapshot(state) == before, "determinize changed its input"


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_a_sample_depends_on_the_view_and_the_generator_only(table):
    engine, players = table
    for n, state in enumerate(positions(engine, players, seed=11, every=5)):
        seat = n % players
        one = engine.determinize(state, seat, Rng(1))
        other = engine.determinize(state, seat, Rng(2))     # the same view, other secrets
        assert engine.determinize(one, seat, Rng(3)) == engine.determinize(other, seat, Rng(3))


def test_babel_every_split_of_the_unseen_cards_and_every_order_of_the_unknown_temples_comes_up():
    state = BABEL.start(1, {}, 2, 0)
    seat, other = 0, 1
    state.players[other].hand = hand_counts("AH")
    state.tribe_supply = "MS"
    state.temple_supply, state.temple_known = (1, 2, 3), 1      # 3 on top, known to both
    seen = set()
    for k in range(600):
        sample = BABEL.determinize(state, seat, Rng(k))
        assert sample.players[seat].hand == state.players[seat].hand
        assert sample.temple_supply[-1] == 3
        seen.add((sample.players[other].hand_letters(), sample.tribe_supply,
                  sample.temple_supply))
    hands = {"".join(sorted(h)) for h in ("AH", "AM", "AS", "HM", "HS", "MS")}
    expected = {(hand, "".join(order), temples)
                for hand in hands
                for order in permutations(sorted(set("AHMS") - set(hand)))
                for temples in ((1, 2, 3), (2, 1, 3))}
    assert set(seen) == expected


def test_babylonia_every_arrangement_of_another_seats_unseen_tokens_comes_up():
    state = BABYLONIA.start(1, {}, 2, 0)
    seat, other = 0, 1
    state.supplies[seat] = ""
    state.supplies[other] = "FP"
    state.stands[other] = [0, 0, 0, 0]
    state.stands[other][KIND_INDEX["M"]] = 1
    river = next(h for h in sorted(state.board.hexes) if state.board.is_river(h))
    state.tokens[river] = Token(other, "O", down=True)
    seen = set()
    for k in range(500):
        sample = BABYLONIA.determinize(state, seat, Rng(k))
        stand = "".join(kind for kind, n in zip("FPMO", sample.stands[other]) for _ in range(n))
        seen.add((sample.tokens[river].kind, stand, sample.supplies[other]))
        if k % 100 == 0:
            assert BABYLONIA.view(sample, seat) == BABYLONIA.view(state, seat)
    expected = {(p[0], p[1], p[2] + p[3]) for p in permutations("FPMO")}
    assert seen == expected
