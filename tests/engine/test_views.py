"""Views as a property (docs/games/babel-rulings.md, "Public and hidden information").

`view(state, seat)` holds exactly what that seat may know. Changing only what the seat may not
know (the opponent's hand, keeping its size; the order of the tribe supply; the order of the
unknown part of the temple supply; the seed) leaves its view byte-identical. Changing what it
may know (its own hand, a row, the known top of the temple supply, the order of the discard
pile, a hand's size) changes it. A spectator sees no hand at all.
"""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from babel_twins import (  # tests/helpers
    hide_all,
    redeal_hand,
    shuffle_tribe_supply,
    shuffle_unknown_temples,
    swap_hand_with_supply,
    swap_unknown_temples,
)
from babel_walk import walk  # tests/helpers
from pbem.games.babel import GAME
from pbem.games.babel.cards import TRIBES
from pbem.games.babel.state import DRAW
from pbem.games.babel.view import view
from pbem.games.rng import Rng

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- changes to a state ---------------------------------------------------------------------------

def seen(state, seat) -> str:
    return json.dumps(view(state, seat), sort_keys=True)


def check_hidden(state, rng):
    """Changing what a seat may not know leaves its view identical."""
    for seat in (0, 1):
        before = seen(state, seat)
        other = 1 - seat
        for change in (
            lambda s, other=other: swap_hand_with_supply(s, other, rng),
            lambda s, other=other: redeal_hand(s, other, rng),
            lambda s: shuffle_tribe_supply(s, rng),
            lambda s: shuffle_unknown_temples(s, rng),
            lambda s: swap_unknown_temples(s, rng),
            lambda s: setattr(s, "seed", rng.next_u64()),
            lambda s, seat=seat: hide_all(s, seat, rng),
        ):
            changed = state.copy()
            change(changed)
            assert seen(changed, seat) == before
            assert json.dumps(GAME.view(changed, seat), sort_keys=True) == before
    # A spectator knows neither hand.
    before = seen(state, None)
    changed = state.copy()
    hide_all(changed, 0, rng)
    redeal_hand(changed, 1, rng)
    swap_hand_with_supply(changed, 0, rng)
    assert seen(changed, None) == before


def check_known(state, rng) -> set:
    """Changing what a seat may know changes its view. Returns the kinds of change tried."""
    tried = set()
    for seat in (0, 1):
        before = seen(state, seat)
        changed = state.copy()
        if swap_hand_with_supply(changed, seat, rng):
            assert seen(changed, seat) != before, "own hand"
            tried.add("own hand")
        if state.players[1 - seat].hand_size and state.tribe_supply:
            changed = state.copy()
            opponent = changed.players[1 - seat]
            t = next(t for i, t in enumerate(TRIBES) if opponent.hand[i])
            opponent.hand[TRIBES.index(t)] -= 1
            changed.tribe_supply += t
            assert seen(changed, seat) != before, "the opponent's hand size"
            tried.add("hand size")
        for owner in (0, 1):
            for t in TRIBES:
                row = state.players[owner].rows[t]
                other = [j for j, c in enumerate(state.tribe_supply) if row and c != row[-1]]
                if other:
                    changed = state.copy()
                    j = other[0]
                    supply = list(changed.tribe_supply)
                    supply[j], top = row[-1], supply[j]
                    changed.players[owner].rows[t] = row[:-1] + top
                    changed.tribe_supply = "".join(supply)
                    assert seen(changed, seat) != before, f"row {t} of seat {owner}"
                    tried.add("row")
                    break
        known = state.temple_known
        if known:
            supply = list(state.temple_supply)
            top = len(supply) - 1
            others = [j for j in range(len(supply) - known) if supply[j] != supply[top]]
            if others:
                changed = state.copy()
                j = others[-1]
                supply[j], supply[top] = supply[top], supply[j]
                changed.temple_supply = tuple(supply)
                assert seen(changed, seat) != before, "the known top of the temple supply"
                tried.add("known temple card")
        discard = state.discard
        if len(set(discard)) > 1:
            changed = state.copy()
            changed.discard = "".join(rng.shuffled(discard))
            while changed.discard == discard:
                changed.discard = "".join(rng.shuffled(discard))
            assert seen(changed, seat) != before, "the order of the discard pile"
            tried.add("discard order")
    return tried


def check_what_is_shown(state):
    for seat in (0, 1, None):
        v = view(state, seat)
        json.dumps(v)   # plain JSON data
        for p in v["players"]:
            if p["seat"] == seat:
                assert p["hand"] == state.players[seat].hand_letters()
            else:
                assert p["hand"] is None
            assert p["hand_size"] == state.players[p["seat"]].hand_size
        assert v["tribe_supply"] == len(state.tribe_supply)
        assert v["temple_supply"] == len(state.temple_supply)
        known = state.temple_known
        assert v["temple_known"] == (list(state.temple_supply[-known:]) if known else [])
        assert v["discard"] == state.discard
        assert "seed" not in v
    spectator = view(state, None)
    assert all(p["hand"] is None for p in spectator["players"])
    assert spectator["seat"] is None


def sample(walks, every, start=0):
    for i in range(start, start + walks):
        seed = Rng(i).next_u64()
        for n, state in enumerate(walk(seed, ("top-run", "all")[i % 2], (None, 0, 1)[i % 3],
                                       greedy=i % 4 != 3)):
            if n % every == 0 or state.temple_known or state.phase == DRAW:
                yield i, state.copy()


def test_views_hide_exactly_what_each_seat_may_not_know():
    tried = set()
    states = 0
    for i, state in sample(walks=60, every=5):
        rng = Rng.derived(i, "views")
        check_what_is_shown(state)
        check_hidden(state, rng)
        tried |= check_known(state, rng)
        states += 1
        if state.temple_known:
            tried.add("state with known temple cards")
    assert states > 500
    assert tried == {"own hand", "hand size", "row", "known temple card", "discard order",
                     "state with known temple cards"}


@SETTINGS
@given(seed=SEEDS, sumerians=st.sampled_from(["top-run", "all"]), greedy=st.booleans(),
       stop=st.integers(min_value=0, max_value=250), salt=st.integers(min_value=0, max_value=2**32))
def test_views_at_a_random_point_of_a_random_game(seed, sumerians, greedy, stop, salt):
    state = None
    for n, state in enumerate(walk(seed, sumerians, None, greedy)):  # noqa: B007 - the last one is read after the loop
        if n == stop:
            break
    state = state.copy()
    rng = Rng(salt)
    check_what_is_shown(state)
    check_hidden(state, rng)
    check_known(state, rng)


def test_two_deals_that_differ_only_in_hidden_cards_look_the_same_to_each_seat():
    """Whole games: the same public history, different hidden hands and supplies."""
    for i in range(40):
        seed = Rng(900 + i).next_u64()
        state = GAME.start(seed, {}, 2, 0)
        rng = Rng(i)
        for seat in (0, 1):
            other = state.copy()
            hide_all(other, seat, rng)
            assert seen(other, seat) == seen(state, seat)
            # ... while the seat whose hand was dealt anew sees the difference.
            if other.players[1 - seat].hand != state.players[1 - seat].hand:
                assert seen(other, 1 - seat) != seen(state, 1 - seat)
