"""Properties of random legal play (hypothesis).

Random legal play from random seeds keeps every invariant of the game after every single step:
all 60 tribe cards and 45 temple cards exactly once, temples strictly rising, scores the sum of
temple tops, no negative hand, no owed discard above the hand. Every game ends. Replaying a
game's events gives its final state, and `GAME.apply` never changes the state it is given.

Two random players are used: the engine's own uniform one (`play_random_game`), and a greedy
walker below that builds, uses skills and halves far more often, so that destroys, robs,
jumps, owed discards and the end phase are reached often.
"""

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from babel_walk import walk  # tests/helpers
from pbem.games.babel import GAME, position
from pbem.games.babel.cards import CARDS_PER_TRIBE, MAX_LEVEL, TEMPLE_COUNTS, TRIBES
from pbem.games.babel.randomplay import MAX_TURNS, play_random_game
from pbem.games.babel.state import ACTIONS, DRAW
from pbem.games.errors import GameError

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
SUMERIANS = st.sampled_from(["top-run", "all"])
FIRST = st.sampled_from([None, 0, 1])
FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- the invariants ---------------------------------------------------------------------------

def check_invariants(state):
    tribes = Counter(state.tribe_supply + state.discard)
    levels = Counter(state.temple_supply)
    for seat, p in enumerate(state.players):
        assert len(p.hand) == 5 and all(n >= 0 for n in p.hand), f"seat {seat} hand {p.hand}"
        tribes.update(p.hand_letters())
        assert set(p.rows) == set(TRIBES) and set(p.temples) == set(TRIBES)
        for t in TRIBES:
            tribes.update(p.rows[t])
            temple = p.temples[t]
            assert all(1 <= level <= MAX_LEVEL for level in temple)
            assert all(a < b for a, b in zip(temple, temple[1:])), f"temple {t}: {temple}"
            levels.update(temple)
        levels.update(p.column)
        assert all(1 <= level <= MAX_LEVEL for level in p.column)
        assert p.figure is None or p.figure in TRIBES
        assert p.score() == sum(p.temples[t][-1] for t in TRIBES if p.temples[t])
    assert set(tribes) <= set(TRIBES)
    assert all(tribes[t] == CARDS_PER_TRIBE for t in TRIBES), f"tribe cards: {tribes}"
    assert dict(levels) == TEMPLE_COUNTS, f"temple cards: {levels}"
    assert state.scores() == [p.score() for p in state.players]
    assert 0 <= state.temple_known <= len(state.temple_supply)
    assert state.to_move in (0, 1)
    assert state.phase in (ACTIONS, DRAW)
    if state.pending_discard is not None:
        seat, owed = state.pending_discard
        assert seat in (0, 1)
        hand = state.players[seat].hand_size
        assert 1 <= owed <= hand, f"seat {seat} owes {owed} of {hand} cards"
    if state.phase == ACTIONS:
        assert not state.discards_due(state.to_move), "owed discards come before the draw"
    if state.result is not None:
        assert state.result.winner in (None, 0, 1)


@FAST
@given(seed=SEEDS, sumerians=SUMERIANS, first=FIRST, greedy=st.booleans())
def test_every_step_of_random_play_keeps_the_invariants(seed, sumerians, first, greedy):
    n = 0
    for state in walk(seed, sumerians, first, greedy):
        check_invariants(state)
        n += 1
    assert n > 1


@FAST
@given(seed=SEEDS, sumerians=SUMERIANS, first=FIRST)
def test_every_random_game_ends(seed, sumerians, first):
    game = play_random_game(seed, sumerians, first)
    assert game.state.result is not None
    turns = sum(e["type"] == "turn" for e in game.events)
    assert turns < MAX_TURNS
    check_invariants(game.state)
    if first is not None:
        assert game.first == first


@FAST
@given(seed=SEEDS, sumerians=SUMERIANS, first=FIRST)
def test_replaying_a_random_games_events_gives_its_final_state(seed, sumerians, first):
    game = play_random_game(seed, sumerians, first)
    replayed = GAME.replay(seed, {"sumerians": sumerians}, 2, first, game.events)
    assert replayed == game.state
    assert replayed == GAME.replay(seed, {"sumerians": sumerians}, 2, game.first, game.events)


def decision_points(seed, sumerians, first, greedy):
    """The walk's events, and its state whenever a decision is due (at the start, after events)."""
    events, states = [], []
    for state in walk(seed, sumerians, first, greedy, events):
        due = (state.result is not None or state.phase == ACTIONS
               or state.discards_due(state.to_move))
        if due and len(states) == len(events):
            states.append(state.copy())
    return events, states


@FAST
@given(seed=SEEDS, sumerians=SUMERIANS, first=FIRST, greedy=st.booleans())
def test_apply_never_changes_its_input_and_replays_the_walk(seed, sumerians, first, greedy):
    events, states = decision_points(seed, sumerians, first, greedy)
    assert len(states) == len(events) + 1
    state = GAME.start(seed, {"sumerians": sumerians}, 2, first)
    assert state == states[0]
    for i, event in enumerate(events, 1):
        before = state.copy()
        before_json = position.to_json(position.Position(before))
        after = GAME.apply(state, event)
        assert after is not state
        assert state == before, f"apply changed its input at event {i}"
        assert position.to_json(position.Position(state)) == before_json
        assert after == states[i], f"event {i} ({event}) applied differs from the walk"
        state = after
    check_invariants(state)
    assert GAME.replay(seed, {"sumerians": sumerians}, 2, first, events) == state


@FAST
@given(seed=SEEDS, sumerians=SUMERIANS)
def test_a_refused_event_leaves_the_state_alone(seed, sumerians):
    game = play_random_game(seed, sumerians)
    state = GAME.start(seed, {"sumerians": sumerians}, 2, game.first)
    for event in game.events[:6]:
        before = state.copy()
        with pytest.raises(GameError):   # an event of the seat not to move
            GAME.apply(state, dict(event, seat=1 - event["seat"]))
        assert state == before
        state = GAME.apply(state, event)
    over = game.state
    before = over.copy()
    with pytest.raises(GameError):   # nothing follows the end
        GAME.apply(over, GAME.resign_event(0))
    assert over == before


@FAST
@given(seed=SEEDS, sumerians=SUMERIANS, first=FIRST)
def test_positions_of_random_play_round_trip(seed, sumerians, first):
    for i, state in enumerate(walk(seed, sumerians, first)):
        if i % 7:
            continue
        pos = position.Position(state.copy(), ["Ann", "Bob"], True)
        data = position.to_json(pos)
        back = position.from_json(data)
        assert back.state == state
        assert back.names == ["Ann", "Bob"] and back.complete
        assert position.to_json(back) == data
        assert position.loads(position.dumps(pos)).state == state
