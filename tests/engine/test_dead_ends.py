"""No dead end in a Babel turn (issue 26): a page offers only steps after which the turn can
still end, and a typed draft that cannot end says which step to take back.

The one thing that can stop a turn from ending is the first-turn duty (BABEL-RULINGS.md, "First
turn"): the starting level-1 card must be built. `legal.can_finish` decides by rule whether it
still can be; here it is held against an exhaustive search of every sequence of legal steps,
and every draft reached by offered steps (to a bounded depth, every one of them) is shown to
end. The testers' turn: the second player's first turn of seed 132, seat 0 first.
"""

from __future__ import annotations

import time

import pytest

from pbem import i18n
from pbem.games.babel import GAME, legal
from pbem.games.babel.rules import starting_card_unbuilt
from pbem.games.babel.state import State
from pbem.games.babel.steps import End
from pbem.games.rng import Rng

#: The testers' first turn of the second player, every step clicked from the offered ones.
TESTERS = ["move S", "settle P", "build theirs", "settle A", "settle H", "settle M", "settle M",
           "settle M", "emigrate A", "settle H", "migrate S A"]


def second_players_first_turn() -> State:
    """Seed 132, seat 0 first: seat 0 builds its starting card from the Assyrians and draws
    3 and 1 (the 1 on top: seat 1 may build it), and seat 1 holds A H H M M M P S."""
    state = GAME.start(132, {}, 2, 0)
    return GAME.apply(state, GAME.decide(state, 0, "move A\nsettle A\nbuild mine"))


def offered(state: State, steps: list[str]) -> list[str]:
    draft = GAME.draft(state, 1, "\n".join(steps))
    assert draft.error is None, (steps, draft.error)
    return [o.notation for o in GAME.legal_steps(draft.state, 1)]


def test_the_testers_turn_is_the_one_seen():
    state = second_players_first_turn()
    assert state.to_move == 1 and state.players[1].first_turn
    assert "".join(sorted(state.players[1].hand_letters())) == "AHHMMMPS"
    assert state.players[0].column == (3, 1) and state.players[1].column == (1,)


def test_the_testers_dead_end_is_no_longer_offered():
    """After step 9 one H card is left and the figure stands by the own level 1 in the
    Sumerians: settling it there would leave no card to move with. It is not offered; moving to
    the Hittites (then migrating 3 cards there) is, and it ends."""
    state = second_players_first_turn()
    for k, step in enumerate(TESTERS[:9]):
        assert step in offered(state, TESTERS[:k]), (k, step)
    after_nine = offered(state, TESTERS[:9])
    assert "settle H" not in after_nine and "" not in after_nine
    assert set(after_nine) == {"move H", "migrate S H"}
    for step in after_nine:
        steps = TESTERS[:9] + [step]
        while "" not in offered(state, steps):      # on by the first offered step, to the end
            steps.append(offered(state, steps)[0])
        GAME.decide(state, 1, "\n".join(steps))


def test_the_typed_dead_end_says_which_step_to_take_back():
    """Typed as notation, the whole turn applies but cannot end: step 10 is to be taken back
    (after step 9 it still could), in the reader's language."""
    state = second_players_first_turn()
    draft = GAME.draft(state, 1, "\n".join(TESTERS))
    assert draft.error is None and not draft.done and draft.todo
    number, why = GAME.take_back(state, 1, draft)
    assert number == 10
    assert why == "Take back step 10 (settle H): after it the turn cannot be finished."
    with i18n.speaking("de"):
        assert i18n.say(why).startswith("Nimm Schritt 10 (settle H) zurück")
    with i18n.speaking("cs"):
        assert "krok 10 (settle H)" in i18n.say(why)
    assert GAME.take_back(state, 1, GAME.draft(state, 1, "\n".join(TESTERS[:9]))) is None


# -- the rule against a search -----------------------------------------------------------------

def key(state: State) -> tuple:
    """Everything of a state a rest of phase 2 depends on."""
    return (state.migrated, state.result, state.pending_discard,
            *((tuple(p.hand), p.figure, p.column, tuple(p.rows.values()),
               tuple(p.temples.values())) for p in state.players))


def completable(state: State, seen: dict[tuple, bool]) -> bool:
    """Whether some sequence of legal steps (all of them, not only the offered ones) reaches a
    state where phase 2 may end: an exhaustive search, remembered by state."""
    if state.result is not None or not starting_card_unbuilt(state.mover):
        return True
    k = key(state)
    if k not in seen:
        seen[k] = False         # (no step returns to a state: each spends something)
        seen[k] = any(isinstance(step, End) or completable(legal.after(state, step), seen)
                      for step in legal.legal_steps(state))
    return seen[k]


def first_turns(seeds: range) -> list[State]:
    """The first turn of each seat in games of these seeds (the first player's from the deal,
    the second's after a random first turn)."""
    out = []
    for seed in seeds:
        state = GAME.start(seed, {}, 2, seed % 2)
        out.append(state)
        rng = Rng.derived(seed, "dead-ends")
        out.append(GAME.apply(state, GAME.decide(state, state.to_move,
                                                 GAME.random_submission(state, state.to_move, rng))))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_the_rule_agrees_with_a_search_on_random_first_turns(seed):
    """Random walks of legal steps (dead ends included) through first turns: at every step
    `can_finish` says what the exhaustive search finds, and dead ends are met."""
    rng, seen, dead, checked = Rng.derived(seed, "walks"), {}, 0, 0
    for start in first_turns(range(20 * seed, 20 * seed + 20)):
        for _ in range(10):
            state = start.copy()
            while True:
                finishable = completable(state, seen)
                assert legal.can_finish(state) == finishable, key(state)
                checked += 1
                dead += not finishable
                steps = [s for s in legal.legal_steps(state) if not isinstance(s, End)]
                if not steps or not starting_card_unbuilt(state.mover):
                    break
                state = legal.after(state, rng.choice(steps))
    assert checked > 1000 and dead > 20, (checked, dead)


def late_in_first_turns() -> list[State]:
    """First-turn drafts with 4 cards or fewer left that can still end: the testers' after step 4,
    and random ones (random legal steps, dead ends included, from the first turns of seeds)."""
    testers = GAME.draft(second_players_first_turn(), 1, "\n".join(TESTERS[:4])).state
    out, rng, seen = [testers], Rng.derived(0, "late"), {}
    for state in first_turns(range(40)):
        while state.mover.hand_size > 4 and starting_card_unbuilt(state.mover):
            steps = [s for s in legal.legal_steps(state) if not isinstance(s, End)]
            state = legal.after(state, rng.choice(steps))
        if starting_card_unbuilt(state.mover) and completable(state, seen):
            out.append(state)
    return out


LATE = late_in_first_turns()


@pytest.mark.parametrize("start", range(0, 8))
def test_every_draft_reached_by_offered_steps_ends(start):
    """From first-turn drafts late enough for dead ends, every state reached by offered steps
    (each once, to the end of the turn or 6 steps) offers a step, and the search finds that it
    can end; the search finds each step left out a dead end, and some are."""
    state = LATE[start]
    seen: dict[tuple, bool] = {}
    level, visited, left_out = {key(state): state}, 0, 0
    for _depth in range(6):
        following: dict[tuple, State] = {}
        for now in level.values():
            visited += 1
            steps = legal.offered_steps(now)
            assert [o.notation for o in GAME.legal_steps(now, now.to_move)] == [
                "" if isinstance(s, End) else str(s) for s in steps]
            assert steps and completable(now, seen)
            for step in legal.legal_steps(now):
                if step in steps:
                    if not isinstance(step, End):
                        after = legal.after(now, step)
                        following.setdefault(key(after), after)
                else:
                    left_out += 1
                    assert not completable(legal.after(now, step), seen), step
        level = following
    assert visited > 30 and left_out > 0, (visited, left_out)


def test_offering_costs_little_beside_a_page():
    """What the offering costs where it tries steps (a first turn, card in hand): well under
    a millisecond per draft on this machine's share (a page takes about 2 ms)."""
    states = [s for s in first_turns(range(40))]
    GAME.legal_steps(states[0], states[0].to_move)
    began = time.perf_counter()
    for state in states:
        GAME.legal_steps(state, state.to_move)
    each = (time.perf_counter() - began) / len(states)
    assert each < 0.002, each
