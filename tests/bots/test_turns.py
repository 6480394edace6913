"""The whole-turn players (`pbem.bots.turns`): every level submits whole decisions chosen on
purpose, throws no card away, reads nothing its seat may not know, and `greedy` is a level
of its own through `choose`.

Budgets are small here (a few playouts): behaviour, not strength (the arena measures that:
docs/bots.md).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot_positions import TABLES, positions, table_id
from pbem.bots import BUDGETS, LEVELS, STEP_BUDGETS, choose
from pbem.bots.models import model_for
from pbem.bots.search import Budget
from pbem.bots.turns import TurnBudget, playout
from pbem.games import get
from pbem.games.babel import legal, notation, rules
from pbem.games.babel.steps import Build, Jump, Move, Rob
from pbem.games.rng import Rng

SMALL = TurnBudget(candidates=4, playouts=6, seconds=60.0)     # the cap far away
SEARCHED = ("easy", "normal", "strong")


@pytest.fixture
def small(monkeypatch):
    for level in SEARCHED:
        monkeypatch.setitem(BUDGETS, level, SMALL)
        monkeypatch.setitem(STEP_BUDGETS, level, Budget(playouts=4, seconds=60.0))


def babel_turns(seeds: range, every: int = 2):
    """Babel positions where a turn (phase 2) is owed, from random games."""
    engine = get("babel")
    for seed in seeds:
        for state in positions(engine, 2, seed, every=every):
            if engine.to_act(state)[0].kind == "turn":
                yield state


def wasted(state, text: str) -> str | None:
    """What in a Babel turn throws a card away, or None: a move followed by another move or
    ending the turn, a move to where the figure stands, a step that changes nothing."""
    now = state.copy()
    steps = [step for step, _ in notation.parse_steps(text)] if text != "pass" else []
    for i, step in enumerate(steps):
        if isinstance(step, Move):
            if i + 1 == len(steps):
                return f"step {i + 1}: a move ends the turn"
            if isinstance(steps[i + 1], Move):
                return f"step {i + 1}: a move followed by a move"
            if now.mover.figure == step.tribe:
                return f"step {i + 1}: a move to where the figure stands"
        before = now.copy()
        rules.act(now, step)
        if now == before:
            return f"step {i + 1} ({step}) changes nothing"
    return None


@pytest.mark.parametrize("level", ["greedy", *SEARCHED])
def test_babel_no_level_throws_a_card_away(small, level):
    engine = get("babel")
    checked = 0
    for n, state in enumerate(babel_turns(range(12), every=3)):
        seat = state.to_move
        text = choose(engine, state, seat, level, seed=n)
        engine.decide(state, seat, text)
        assert wasted(state, text) is None, (level, n, text, wasted(state, text))
        checked += 1
    assert checked >= 40


def test_the_waste_check_can_fail():
    """The check above finds what it looks for (a move then a move; a trailing move)."""
    state = next(s for s in babel_turns(range(5)) if sum(1 for h in s.mover.hand if h) >= 2)
    held = [t for t, n in zip("AHMPS", state.mover.hand) if n]
    assert wasted(state, f"move {held[0]}\nmove {held[1]}") is not None
    assert "ends the turn" in wasted(state, f"move {held[0]}")


@pytest.mark.parametrize("level", ["greedy", "strong"])
def test_babel_a_level_builds_the_temple_level_it_can(small, level):
    """Where a temple level can be built at once (figure there, the level on a column, the
    row long enough), the turn takes a temple level (build, jump or rob)."""
    engine = get("babel")
    found = 0
    for n, state in enumerate(babel_turns(range(30))):
        if state.mover.first_turn or not any(isinstance(s, (Build, Jump))
                                              for s in legal.legal_steps(state)):
            continue
        text = choose(engine, state, state.to_move, level, seed=n)
        steps = [step for step, _ in notation.parse_steps(text)] if text != "pass" else []
        assert any(isinstance(s, (Build, Jump, Rob)) for s in steps), (n, text)
        found += 1
    assert found >= 5


@pytest.mark.parametrize("table", TABLES, ids=table_id)
@pytest.mark.parametrize("level", [lv for lv in LEVELS if lv != "random"])
def test_every_level_reads_nothing_its_seat_may_not_know(small, table, level):
    """Two states its seat cannot tell apart (two samples of one position for that seat, so
    hands, supplies and face-down tokens differ): the same decision with the same seed."""
    engine, players = table
    for n, state in enumerate(positions(engine, players, seed=13, every=9)):
        if n >= 3:
            break
        seat = engine.to_act(state)[0].seat
        one = engine.determinize(state, seat, Rng(100 + n))
        other = engine.determinize(state, seat, Rng(200 + n))
        assert choose(engine, one, seat, level, n) == choose(engine, other, seat, level, n)


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_greedy_finishes_every_game_with_legal_whole_decisions(table):
    engine, players = table
    state = engine.start(players * 7, {}, players, None)
    for n in range(2_000):
        owed = engine.to_act(state)
        if not owed:
            assert engine.outcome(state) is not None
            return
        seat = owed[0].seat
        state = engine.apply(state, engine.decide(state, seat, choose(engine, state, seat,
                                                                      "greedy", n)))
    raise AssertionError("no end after 2000 decisions")


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_the_search_levels_make_legal_decisions_along_a_game(small, table):
    """Each searched level on positions along a random game, owed decisions included."""
    engine, players = table
    for n, state in enumerate(positions(engine, players, seed=3, every=5)):
        if n >= 6:
            break
        seat = engine.to_act(state)[0].seat
        for level in SEARCHED:
            engine.decide(state, seat, choose(engine, state, seat, level, n))


def test_babel_the_owed_discards_are_chosen_by_what_is_left(small):
    engine = get("babel")
    state = next(s for seed in range(60) for s in positions(engine, 2, seed)
                 if engine.to_act(s)[0].kind == "discard")
    seat = state.to_move
    for level in ("greedy", "strong"):
        assert engine.decide(state, seat, choose(engine, state, seat, level, 1))["type"] == "discard"


def movers_in_a_playout(engine, state, **changed) -> list[int]:
    """The seats that played a whole turn in one playout of seat 0's first candidate, with the
    model's fields `changed`; the playout's result checked to be a reward."""
    model = model_for(engine)
    played: list[int] = []

    def reply(sample, seat):
        if engine.decision_kind(sample, seat) == "turn":
            played.append(seat)
        return model.reply(sample, seat)

    text = model.turns(engine.determinize(state, 0, Rng(1)), 0)[0].text
    result = playout(engine, replace(model, reply=reply, **changed), state, 0, text, Rng(2))
    assert result is not None and 0 <= result <= 1
    return played


@pytest.mark.parametrize("rounds, movers", [(1, [1]), (2, [1, 0, 1])])
def test_a_playout_answers_the_rounds_its_game_asks_for(rounds, movers):
    """One round: the other seat answers the candidate and the position is judged before our
    next turn; two rounds: our own next turn and the other's answer to it are played too."""
    engine = get("babel")
    state = next(s for s in babel_turns(range(3)) if s.to_move == 0 and not s.pending_discard)
    assert movers_in_a_playout(engine, state, rounds=rounds) == movers


def test_babylonia_the_search_judges_rivals_one_by_one():
    """With two players the search's reward is the old one (the lead through the logistic
    curve); with more, the mean of the races with each rival (the leagues' score): a seat
    behind the leader but ahead of the rest is not judged lost."""
    from math import exp

    from pbem.bots.turns import reward
    from pbem.games.babylonia import evaluate
    engine = get("babylonia")
    model = model_for(engine)
    two = next(iter(positions(engine, 2, 3, every=6)))
    for seat in (0, 1):
        old = 1 / (1 + exp(-evaluate.value(two, seat) / evaluate.SCALE))
        assert reward(engine, model, two, seat) == pytest.approx(old)
    three = next(iter(positions(engine, 3, 3, every=6))).copy()
    three.scores = [10, 20, 0]
    worth = [s + p for s, p in zip(three.scores, evaluate._potential(three))]

    def race(a: int, b: int) -> float:
        return 1 / (1 + exp(-(worth[a] - worth[b]) / evaluate.SCALE))
    assert evaluate.chance(three, 0) == pytest.approx((race(0, 1) + race(0, 2)) / 2)
    assert reward(engine, model, three, 0) == evaluate.chance(three, 0)
    assert worth[2] < worth[0] < worth[1]    # the start: the same promises for every seat
    lead = 1 / (1 + exp(-evaluate.value(three, 0) / evaluate.SCALE))
    assert lead < 0.2 < evaluate.chance(three, 0)      # second of three: not judged lost
    assert evaluate.chance(three, 2) < evaluate.chance(three, 0) < evaluate.chance(three, 1)


@pytest.mark.parametrize("answers, movers", [({}, [1, 2, 3]), ({4: 1}, [1]), ({4: 2}, [1, 2])])
def test_a_playout_cut_short_judges_after_the_first_answers(answers, movers):
    """Babylonia with four players: every other seat answers the candidate, or only the
    first few (`Model.answers`), so that more playouts fit a level's CPU time."""
    engine = get("babylonia")
    state = next(s for s in positions(engine, 4, 5)
                 if engine.to_act(s)[0].seat == 0 and engine.decision_kind(s, 0) == "turn"
                 and s.card_due is None)
    assert movers_in_a_playout(engine, state, answers=answers) == movers
