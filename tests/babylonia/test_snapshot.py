"""Snapshots restore every state exactly: at each event of random games, in the middle of a
turn (a draft), while a turn pauses for someone's card, and once the game is over.

`GAME.snapshot(state)` is plain JSON data (it equals its own JSON round trip, as the database
stores it) sharing nothing with the state; `GAME.restore` of it, or of its JSON round trip,
equals the state; and the rest of a game replayed from a restored snapshot ends in the same
final state as the game itself.
"""

import json
from dataclasses import fields

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.games.babylonia import GAME
from pbem.games.babylonia.cli import walk
from pbem.games.babylonia.state import Result, State, Token, Turn
from pbem.games.rng import Rng


def stored(state):
    """A snapshot as the database gives it back."""
    return json.loads(json.dumps(GAME.snapshot(state)))


def check(state):
    data = GAME.snapshot(state)
    assert json.loads(json.dumps(data)) == data, "a snapshot is plain JSON data"
    assert GAME.restore(data) == state
    restored = GAME.restore(stored(state))
    assert restored == state and restored is not state
    assert GAME.snapshot(restored) == data


def game(seed, players, cards, greedy):
    """(events, states after each: the deal first, drafts of every turn)."""
    events, states, drafts, before = [], [], [], None
    for event, state in walk(seed, players, cards, greedy=greedy):
        if event is not None:
            events.append(event)
            if event["type"] == "turn":
                steps = event["steps"].splitlines()
                for k in range(1, len(steps) + 1):
                    drafts.append(GAME.draft(before, event["seat"], "\n".join(steps[:k])).state)
        states.append(state)
        before = state
    return events, states, drafts


GAMES = [(Rng(i).next_u64(), 2 + i % 3, ("basic", "advanced")[i // 3 % 2], i % 4 != 3)
         for i in range(18)]


@pytest.mark.parametrize("seed, players, cards, greedy", GAMES)
def test_every_state_of_a_random_game_survives_a_snapshot(seed, players, cards, greedy):
    events, states, drafts = game(seed, players, cards, greedy)
    for state in states + drafts:
        check(state)
    assert states[-1].result is not None
    # The rest of the game from a restored snapshot: every few events, and every pause.
    final = states[-1]
    for n, state in enumerate(states):
        if n % 5 == 0 or state.card_due is not None:
            current = GAME.restore(stored(state))
            for event in events[n:]:
                current = GAME.apply(current, event)
            assert current == final, f"replayed from the snapshot after event {n}"


def test_the_sample_holds_every_part_of_a_state():
    """Each field of the state and the turn is away from its default somewhere in the sample."""
    seen = set()
    for seed, players, cards, greedy in GAMES[:9]:
        _, states, drafts = game(seed, players, cards, greedy)
        for state in states + drafts:
            fresh = State(state.players)
            seen |= {k for k in State.__slots__ if getattr(state, k) != getattr(fresh, k)}
            if state.turn is not None:
                blank = Turn(state.turn.index)
                seen |= {"turn." + f.name for f in fields(Turn)
                         if getattr(state.turn, f.name) != getattr(blank, f.name)}
    expected = set(State.__slots__) | {"turn." + f.name for f in fields(Turn)} - {"turn.index"}
    missing = expected - seen - {"players", "turn.cards"}   # named cards: hand-made below
    assert not missing, missing


def test_a_turn_paused_with_named_cards_survives_a_snapshot():
    """Hand-made: a paused turn whose mover named a card ahead, face-down tokens, a result."""
    state = GAME.start(3, {"ziggurat_cards": "advanced"}, 4, 2)
    state.tokens["c2"] = Token(2, "P", down=True)
    state.turn.placed = [("P", "c2")]
    state.turn.closed, state.turn.submitted, state.turn.extra = True, True, True
    state.turn.candidates = state.turn.order = ["b2", "i7"]
    state.turn.cards = [state.available[0]]
    state.card_due, state.scored = 1, {"b2"}
    check(state)
    over = state.copy()
    over.turn, over.card_due = None, None
    over.result = Result((0, 3), "end")
    check(over)


def test_a_snapshot_shares_nothing_with_its_state():
    _, _, drafts = game(7, 3, "basic", True)
    state = next(s for s in drafts if s.turn.placed and s.causes[s.to_move])
    data = GAME.snapshot(state)
    before = json.dumps(data)
    changed = GAME.restore(data)
    changed.tiles.clear()
    changed.stands[0][0] += 1
    changed.causes[changed.to_move].append((1, "x"))
    changed.turn.placed.append(("F", "a1"))
    assert json.dumps(GAME.snapshot(state)) == before
    assert json.dumps(data) == before
    data["tiles"].clear()
    data["turn"]["placed"].clear()
    assert json.dumps(GAME.snapshot(state)) == before


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**64 - 1), players=st.sampled_from([2, 3, 4]),
       cards=st.sampled_from(["basic", "advanced"]), cut=st.integers(min_value=0, max_value=80))
def test_replaying_from_any_snapshot_gives_the_same_end(seed, players, cards, cut):
    events, states, _ = game(seed, players, cards, greedy=True)
    cut = min(cut, len(events))
    current = GAME.restore(stored(states[cut]))
    for event in events[cut:]:
        current = GAME.apply(current, event)
    assert current == states[-1]
