"""`legal.legal_steps` against brute force, and `GAME.legal_steps` (the StepOption wrapper of
`legal.offered_steps`: the legal steps but a first turn's dead ends, tests/engine/test_dead_ends.py).

On many random states (random legal play from random seeds, stopped at random points: first
turns, owed discards, after a migration, with runs of three, both Sumerian options), every
syntactically possible atomic step is tried on a copy of the state. A step is legal iff it
applies (`rules.act` raises no `IllegalStep`; for End: `turn.check_can_end` passes). The
listed steps must be exactly the legal ones, without duplicates.
"""

from collections import Counter
from itertools import combinations_with_replacement

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from babel_walk import walk  # tests/helpers
from pbem.games.babel import GAME
from pbem.games.babel.cards import TRIBES
from pbem.games.babel.legal import legal_steps, offered_steps
from pbem.games.babel.notation import format_steps, parse
from pbem.games.babel.rules import act
from pbem.games.babel.state import ACTIONS, DRAW
from pbem.games.babel.steps import (
    COLUMNS,
    Build,
    Destroy,
    Discard,
    Emigrate,
    End,
    Halve,
    Jump,
    Migrate,
    Move,
    Pass,
    Rob,
    Settle,
    Switch,
)
from pbem.games.babel.turn import check_can_end
from pbem.games.errors import GameError, IllegalStep
from pbem.games.rng import Rng

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


def sampled_states(walks=120, every=4):
    """Deterministic sample: every few states of many walks, and every state of interest."""
    out = []
    for i in range(walks):
        seed = Rng(i).next_u64()
        sumerians = ("top-run", "all")[i % 2]
        first = (None, 0, 1)[i % 3]
        for n, state in enumerate(walk(seed, sumerians, first, greedy=i % 4 != 3)):
            if n % every == 0 or interesting(state):
                out.append(state.copy())
    return out


def has_run(state):
    figure = state.mover.figure
    return figure is not None and any(t * 3 in state.mover.rows[figure] for t in TRIBES)


def interesting(state):
    return (state.phase == DRAW or state.mover.first_turn or state.end_phase
            or state.result is not None or has_run(state) or state.temple_known > 0)


STATES = sampled_states()


# -- brute force ------------------------------------------------------------------------------

def every_possible_step(state):
    """Every syntactically possible atomic step (single-card settles), End included."""
    steps = [End()]
    steps += [Move(t) for t in TRIBES]
    steps += [Settle((t,)) for t in TRIBES]
    steps += [Build(c) for c in COLUMNS]
    steps += [Migrate(x, y) for x in TRIBES for y in TRIBES if x != y]
    steps += [Destroy(), Rob(), Switch()]
    steps += [Emigrate(t) for t in TRIBES]
    steps += [Jump(c) for c in COLUMNS]
    steps += [Halve(t) for t in TRIBES]
    owed = state.discards_due(state.to_move)
    sizes = {owed - 1, owed, owed + 1} if owed else {1, 2}
    for n in sorted(sizes - {0}):
        steps += [Discard(combo) for combo in combinations_with_replacement(TRIBES, n)]
    return steps


def applies(state, step) -> bool:
    """Whether the step is legal now, tried on a copy. Only IllegalStep may say no."""
    if state.result is not None:
        return False   # nothing follows the end (turn.play_actions refuses it)
    if isinstance(step, End):
        if state.phase != ACTIONS:
            return False
        try:
            check_can_end(state, [])
        except IllegalStep:
            return False
        return True
    trial = state.copy()
    try:
        act(trial, step)
    except IllegalStep:
        return False
    return True


def check_against_brute_force(state):
    before = state.copy()
    listed = legal_steps(state)
    assert state == before, "legal_steps changed the state"
    assert len(listed) == len(set(listed)), f"duplicates in {listed}"
    legal = [s for s in every_possible_step(state) if applies(state, s)]
    missing = set(legal) - set(listed)
    wrong = set(listed) - set(legal)
    assert not missing, f"legal but not listed: {sorted(map(str, missing))}"
    assert not wrong, f"listed but illegal: {sorted(map(str, wrong))}"
    assert not any(isinstance(s, Pass) for s in listed)
    assert (End() in listed) == applies(state, End())
    return listed


def test_the_sample_holds_every_kind_of_state():
    kinds = Counter()
    for state in STATES:
        mover = state.mover
        kinds["first turn"] += mover.first_turn and state.phase == ACTIONS
        kinds["opponent's column reserved"] += (state.opponent.first_turn
                                                and bool(state.opponent.column))
        kinds["discard owed"] += state.phase == DRAW and state.discards_due(state.to_move) > 0
        kinds["after migrate"] += state.migrated
        kinds["run of three"] += has_run(state)
        kinds["run of four"] += bool(mover.figure) and any(
            t * 4 in mover.rows[mover.figure] for t in TRIBES)
        kinds["known temple cards"] += state.temple_known > 0
        kinds["end phase"] += state.end_phase
        kinds["over"] += state.result is not None
        kinds["sumerians all"] += state.sumerians == "all"
        kinds["figure on the quarry"] += mover.figure is None and state.phase == ACTIONS
        kinds["empty hand"] += mover.hand_size == 0
        kinds["first-turn dead end"] += (state.phase == ACTIONS and state.result is None
                                         and not legal_steps(state))
        listed = legal_steps(state)
        for step in listed:
            kinds[type(step).__name__] += 1
    for kind in ("first turn", "opponent's column reserved", "discard owed", "after migrate",
                 "run of three", "run of four", "known temple cards", "end phase", "over",
                 "sumerians all", "figure on the quarry", "empty hand", "first-turn dead end",
                 "End", "Move", "Settle", "Build", "Migrate", "Destroy", "Rob", "Emigrate",
                 "Switch", "Jump", "Halve", "Discard"):
        assert kinds[kind] >= 3, f"the sample has too few states of kind {kind!r}: {kinds}"


def test_legal_steps_are_exactly_the_steps_that_apply():
    assert len(STATES) > 2000
    for state in STATES:
        check_against_brute_force(state)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, sumerians=st.sampled_from(["top-run", "all"]),
       first=st.sampled_from([None, 0, 1]), greedy=st.booleans(),
       stop=st.integers(min_value=0, max_value=300))
def test_legal_steps_at_a_random_point_of_a_random_game(seed, sumerians, first, greedy, stop):
    state = None
    for n, state in enumerate(walk(seed, sumerians, first, greedy)):  # noqa: B007 - the last one is read after the loop
        if n == stop:
            break
    check_against_brute_force(state.copy())


def test_a_finished_game_has_no_legal_steps():
    over = [s for s in STATES if s.result is not None]
    assert over
    for state in over:
        assert legal_steps(state) == []
        assert GAME.legal_steps(state, state.to_move) == []


def test_owed_discards_are_every_multiset_of_the_owed_size_and_nothing_else():
    owing = [s for s in STATES if s.phase == DRAW and s.discards_due(s.to_move) and s.result is None]
    assert owing
    for state in owing:
        owed, hand = state.discards_due(state.to_move), state.mover.hand
        listed = legal_steps(state)
        assert all(isinstance(s, Discard) and len(s.tribes) == owed for s in listed)
        assert all(list(s.tribes) == sorted(s.tribes) for s in listed)
        expected = {combo for combo in combinations_with_replacement(TRIBES, owed)
                    if all(combo.count(t) <= hand[i] for i, t in enumerate(TRIBES))}
        assert {s.tribes for s in listed} == expected


# -- pass ------------------------------------------------------------------------------------

def test_pass_is_never_listed_but_is_the_empty_drafts_spelling_of_end():
    seen = Counter()
    for state in STATES:
        assert not any(isinstance(s, Pass) for s in legal_steps(state))
    for i in range(60):
        seed = Rng(1000 + i).next_u64()
        game_state = GAME.start(seed, {"sumerians": "top-run"}, 2, None)
        for _ in range(6):   # a few turn starts of this game
            if game_state.result is not None or game_state.phase != ACTIONS:
                break
            seat = game_state.to_move
            end_legal = End() in legal_steps(game_state)
            seen[end_legal] += 1
            draft = GAME.draft(game_state, seat, "pass")
            assert draft.done == end_legal
            if end_legal:
                event = GAME.decide(game_state, seat, "pass")
                assert event["steps"] == "pass"
            else:
                with pytest.raises(IllegalStep):
                    GAME.decide(game_state, seat, "pass")
            text = GAME.random_submission(game_state, seat, Rng(i))
            game_state = GAME.apply(game_state, GAME.decide(game_state, seat, text))
    assert seen[True] and seen[False]   # first turns refuse pass, later turns accept it


def test_pass_cannot_stand_with_other_steps():
    for state in STATES:
        if state.phase != ACTIONS or state.result is not None or not state.mover.hand_size:
            continue
        t = next(t for i, t in enumerate(TRIBES) if state.mover.hand[i])
        draft = GAME.draft(state, state.to_move, f"move {t}\npass")
        assert draft.error is not None and draft.error.step == 2 and not draft.done
        break
    else:
        raise AssertionError("no state to try")


# -- GAME.legal_steps: the StepOption wrapper ------------------------------------------------------

def check_options(state):
    seat = state.to_move
    options = GAME.legal_steps(state, seat)
    steps = offered_steps(state)
    assert set(steps) <= set(legal_steps(state))
    assert len(options) == len(steps)
    assert GAME.legal_steps(state, 1 - seat) == []
    ends = [o for o in options if o.ends]
    assert len(ends) == (1 if End() in steps else 0)
    for option, step in zip(options, steps):
        assert isinstance(option.label, str) and option.label
        if isinstance(step, End):
            assert option.ends and option.notation == ""
        else:
            assert not option.ends
            assert parse(option.notation) == [step]
            assert option.notation == str(step)
    assert len({o.notation for o in options}) == len(options)
    return options


def test_step_options_parse_back_to_the_legal_steps():
    for state in STATES:
        check_options(state)


def test_every_listed_option_extends_a_draft_legally():
    """The composer's contract: from any draft, each option appended is accepted."""
    checked = Counter()
    for i in range(80):
        seed = Rng(5000 + i).next_u64()
        state = GAME.start(seed, {"sumerians": ("top-run", "all")[i % 2]}, 2, None)
        rng = Rng(i)
        for _ in range(8):   # turns of this game
            if state.result is not None:
                break
            seat = state.to_move
            steps = []
            while True:
                text = format_steps(steps)
                draft = GAME.draft(state, seat, text)
                assert draft.steps == [str(x) for x in steps]
                options = check_options(draft.state)
                done = draft.done if steps else GAME.draft(state, seat, "pass").done
                if state.phase == DRAW:
                    done = False
                assert done == any(o.ends for o in options), (text, options)
                for option in options:
                    if option.ends:
                        continue
                    longer_text = (text + "\n" if text else "") + option.notation
                    longer = GAME.draft(state, seat, longer_text)
                    # Every step applies; a first-turn draft may still not be done, and
                    # then says why (the starting card is unbuilt).
                    assert longer.error is None, (text, option.notation, longer.error)
                    assert longer.steps == [str(x) for x in steps] + [option.notation]
                    assert longer.done or longer.todo
                    checked["options"] += 1
                if not options or (state.phase == DRAW and steps):
                    break
                option = rng.choice(options)
                if option.ends:
                    break
                steps.append(parse(option.notation)[0])
                if draft.state.result is not None:
                    break
            text = format_steps(steps) if steps else "pass"
            if state.phase == DRAW:
                event = GAME.decide(state, seat, text)
            else:
                try:
                    event = GAME.decide(state, seat, text)
                except GameError:
                    break   # a first-turn dead end
            state = GAME.apply(state, event)
            checked["turns"] += 1
    assert checked["turns"] > 200 and checked["options"] > 5000
