"""The search player and `choose`: legal whole decisions, games finished, owed decisions
made, the same choice for the same seed, and nothing read that the seat may not know.

Budgets are tiny here (a few playouts): these tests are about behaviour, never strength or
speed (the arena measures those).
"""

from __future__ import annotations

import pytest

from bot_positions import TABLES, positions, table_id
from pbem.bots import BUDGETS, LEVELS, STEP_BUDGETS, UnknownLevel, choose
from pbem.bots.search import Budget, ismcts
from pbem.bots.turns import TurnBudget
from pbem.games import get
from pbem.games.babylonia.cli import walk
from pbem.games.rng import Rng

TINY = Budget(playouts=6, seconds=60.0)       # the cap far away: the count decides


def play_game(engine, players, seed, budget=TINY):
    """A whole game, every seat the search player; each decision goes through `decide`,
    which refuses anything illegal. Returns the kinds of the decisions made."""
    state = engine.start(seed, {}, players, None)
    kinds = []
    for n in range(2_000):
        owed = engine.to_act(state)
        if not owed:
            assert engine.outcome(state) is not None
            return kinds
        seat, kind = owed[0].seat, owed[0].kind
        text = ismcts(engine, state, seat, budget, Rng.derived(seed, f"test:{n}"))
        state = engine.apply(state, engine.decide(state, seat, text))
        kinds.append(kind)
    raise AssertionError(f"{engine.name} seed {seed}: no end after 2000 decisions")


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_the_search_player_finishes_every_game_it_starts_with_legal_decisions(table):
    engine, players = table
    budget = TINY if engine.name == "babel" else Budget(2, 60.0)
    kinds = play_game(engine, players, seed=players * 101, budget=budget)
    assert kinds


def test_babel_the_search_player_makes_the_halving_discards_it_owes():
    engine = get("babel")
    state = next(s for seed in range(50) for s in positions(engine, 2, seed)
                 if engine.to_act(s)[0].kind == "discard")
    seat = engine.to_act(state)[0].seat
    text = ismcts(engine, state, seat, TINY, Rng(1))
    assert engine.decide(state, seat, text)["type"] == "discard"


def test_babylonia_the_search_player_chooses_the_ziggurat_card_it_owes():
    engine = get("babylonia")
    state = next(s for seed in range(50) for _, s in walk(seed, 3, greedy=True)
                 if engine.to_act(s) and engine.to_act(s)[0].kind == "card")
    seat = engine.to_act(state)[0].seat
    text = ismcts(engine, state, seat, Budget(3, 60.0), Rng(1))
    assert engine.decide(state, seat, text)["type"] == "card"


def test_babel_tower_the_search_player_drafts():
    engine = get("babel-tower")
    state = engine.start(3, {"draft": "pick"}, 2, 0)
    assert engine.to_act(state)[0].kind == "pick"
    text = ismcts(engine, state, 0, TINY, Rng(1))
    assert engine.decide(state, 0, text)["type"] == "pick"


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_the_same_seed_gives_the_same_decision(table):
    engine, players = table
    state = next(s for i, s in enumerate(positions(engine, players, seed=5)) if i == 6)
    seat = engine.to_act(state)[0].seat
    assert ismcts(engine, state, seat, TINY, Rng(9)) == ismcts(engine, state, seat, TINY, Rng(9))


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_a_bot_reads_nothing_its_seat_may_not_know(table):
    """Two states its seat cannot tell apart (two samples of one position for that seat, so
    hands, supplies and face-down tokens differ): the same choice with the same seed."""
    engine, players = table
    for n, state in enumerate(positions(engine, players, seed=13, every=9)):
        if n >= 3:
            break
        seat = engine.to_act(state)[0].seat
        one = engine.determinize(state, seat, Rng(100 + n))
        other = engine.determinize(state, seat, Rng(200 + n))
        assert ismcts(engine, one, seat, TINY, Rng(n)) == ismcts(engine, other, seat, TINY, Rng(n))
        assert choose(engine, one, seat, "random", n) == choose(engine, other, seat, "random", n)


@pytest.mark.parametrize("game", ["babel-tower", "babel", "babylonia"])
def test_choose_keeps_the_seam_every_level_gives_a_legal_decision(monkeypatch, game):
    engine = get(game)
    state = engine.start(2, {}, 2, 1)
    assert set(BUDGETS) | {"random", "greedy"} == set(LEVELS) == set(STEP_BUDGETS) | {
        "random", "greedy"}
    for level in BUDGETS:      # the seam, not the levels' strength
        monkeypatch.setitem(BUDGETS, level, TurnBudget(candidates=2, playouts=2, seconds=60.0))
        monkeypatch.setitem(STEP_BUDGETS, level, TINY)
    for level in LEVELS:
        seat = engine.to_act(state)[0].seat
        text = choose(engine, state, seat, level, seed=4)
        engine.decide(state, seat, text)
    with pytest.raises(UnknownLevel, match="'grandmaster'"):
        choose(engine, state, 1, "grandmaster", seed=4)
