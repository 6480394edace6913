"""Babylonia's evaluation for the bots (pbem/games/babylonia/evaluate.py): what a beam's node
keeps of its parent's judging (`Memo`) is exactly what judging it afresh gives."""

from __future__ import annotations

import pytest

from pbem.games import get
from pbem.games.babylonia import evaluate, legal, turn
from pbem.games.babylonia.notation import parse_one
from pbem.games.rng import Rng


def positions(players: int, seed: int, every: int = 3):
    """Every `every`-th position of a random game where a seat owes its tokens."""
    engine = get("babylonia")
    state = engine.start(seed, {}, players, None)
    rng = Rng.derived(seed, "positions")
    n = 0
    while not engine.is_over(state):
        seat = engine.to_act(state)[0].seat
        if n % every == 0 and state.card_due is None and engine.decision_kind(state, seat) == "turn":
            yield state, seat
        state = engine.apply(state, engine.decide(state, seat, engine.random_submission(state, seat, rng)))
        n += 1


def fresh_glances(state, seat: int, options) -> dict[tuple[str, str], float]:
    memo = evaluate.Memo()
    evaluate._plays(state, seat, options, 1000, memo)
    return flat(memo)


def flat(memo) -> dict[tuple[str, str], float]:
    return {(hex, word): change for hex, words in memo.plays.items()
            for word, change in words.items()}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_node_keeps_of_its_parents_judging_only_what_a_token_did_not_change(players):
    checked = 0
    for state, seat in positions(players, 40 + players):
        memo = evaluate.Memo()
        assert evaluate.value(state, seat, memo) == evaluate.value(state, seat)
        options = legal.legal_steps(state, seat)
        plays = evaluate._plays(state, seat, options, 1000, memo)
        assert flat(memo) == fresh_glances(state, seat, options)
        for option in plays[:8]:
            after = state.copy()
            turn.apply_step(after, seat, parse_one(option.notation))
            kept = memo.after(players, option.notation.partition(" ")[2])
            assert kept.sites and kept.plays           # something is kept: the test can fail
            assert evaluate.value(after, seat, kept) == evaluate.value(after, seat)
            later = legal.legal_steps(after, seat)
            assert ([o.notation for o in evaluate._plays(after, seat, later, 12, kept)]
                    == [o.notation for o in evaluate._plays(after, seat, later, 12)])
            fresh = fresh_glances(after, seat, later)
            assert {k: flat(kept)[k] for k in fresh} == fresh    # stale plays: no longer legal
            held = [len(c) for c in after.cities]
            assert all(kept.sites[m] == evaluate._site(after, m, held) for m in kept.sites)
            checked += 1
    assert checked > 20


def test_a_stale_memo_would_be_caught():
    """The check above can fail: a memo kept whole across a token near a site judges wrong."""
    for state, seat in positions(3, 7):
        memo = evaluate.Memo()
        evaluate.value(state, seat, memo)
        for option in evaluate._plays(state, seat, legal.legal_steps(state, seat), 12, memo):
            after = state.copy()
            turn.apply_step(after, seat, parse_one(option.notation))
            stale = evaluate.Memo(dict(memo.sites), dict(memo.glances), dict(memo.plays))
            if evaluate.value(after, seat, stale) != evaluate.value(after, seat):
                return
    raise AssertionError("a stale memo judged every position as a fresh one")


@pytest.mark.parametrize("players", [3, 4])
def test_the_memos_kept_between_calls_change_no_turn(players):
    """`turns` judges a position the same from a memo kept since an earlier call as afresh."""
    seen = []
    for state, seat in positions(players, 60 + players, every=5):
        evaluate._MEMOS.clear()
        fresh = [(t.text, t.value) for t in evaluate.turns(state, seat)]
        again = [(t.text, t.value) for t in evaluate.turns(state, seat)]    # the memo kept
        assert again == fresh
        seen.append(fresh)
    assert len(seen) > 5 and len(evaluate._MEMOS) >= 1
