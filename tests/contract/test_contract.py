"""The contract every game keeps, run against every registered game (`pbem.games.INSTALLED`)
with every seat count it allows: a game gets it by registering (and writing its kit in
tests/helpers/contract_kits.py, which says what the game hides and how to brute-force it).

States come from random games (the kit's player, else the engine's `random_submission`),
from the drafts of every prefix of their decisions, and from hand-made positions of the kit
that random play rarely reaches. What holds for every game:

- replay: (seed, options, events) always fold to the same state, as when played;
- legal steps: every listed step applies as the next step of its draft; brute force over a
  superset of the notation (the kit's `candidates`) finds no legal step missing but those
  after which the decision can no longer be completed; End is offered exactly when the draft
  could be submitted (an empty Babel draft is ended by `pass`);
- no dead ends: every draft reached by offered steps alone can be completed by offered steps
  and is then decided and applied (a random walk from random decisions, hypothesis); a draft
  that can no longer be completed says which step to take back;
- twins: for every seat and for spectators, a state that differs only in what the seat may
  not know gives the same view, mail summary, legal steps and previews of its own decisions,
  and every past event the same line of the record (`notation(event, seat)`);
- snapshots restore exactly, and the game goes on from them alike;
- resign, timeout and abort are accepted at any point while the game runs, and nothing
  after its end;
- `to_act` agrees with `decide`: a seat not in it is refused with WrongDecision (and has no
  legal step); a seat in it decides an event of the kind it owes;
- notation round-trips: the mover's line of an event, decided again, is that event;
- malformed input (random text, huge numbers, unicode) raises nothing but GameError.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any
from unittest.mock import ANY

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contract_kits import KITS, Kit
from pbem.games import all_games, get
from pbem.games.base import ABORTED, Engine
from pbem.games.errors import GameError, WrongDecision
from pbem.games.rng import Rng

CASES = [pytest.param(engine.name, seats, id=f"{engine.name}-{seats}")
         for engine in all_games() for seats in range(engine.min_seats, engine.max_seats + 1)]
GAMES_PER_CASE = 2
MAX_EVENTS = 3_000          # far above any real game: a game that does not end fails
BRUTE_POINTS = 6            # decision points per case whose every draft prefix is brute-forced
GENERIC = ("resign", "timeout", "abort")


def kit_of(name: str) -> Kit:
    if name not in KITS:
        pytest.fail(f"{name} is registered but has no contract kit in tests/helpers/contract_kits.py")
    return KITS[name]


@dataclass(frozen=True)
class Played:
    seed: int
    options: dict[str, str]
    seats: int
    events: tuple[dict, ...]
    states: tuple[Any, ...]          # states[i] is the state before events[i]; the last, the end


def play(engine: Engine, kit: Kit, seed: int, options: dict[str, str], seats: int) -> Played:
    rng = Rng.derived(seed, "contract-player")
    choose = kit.player or engine.random_submission
    state = engine.start(seed, options, seats, None)
    states, events = [state], []
    while owed := engine.to_act(state):
        assert len(events) < MAX_EVENTS, f"seed {seed}: no end after {MAX_EVENTS} events"
        seat = owed[rng.below(len(owed))].seat
        event = engine.decide(state, seat, choose(state, seat, rng))
        state = engine.apply(state, event)
        events.append(event)
        states.append(state)
    return Played(seed, options, seats, tuple(events), tuple(states))


@cache
def played(name: str, seats: int) -> tuple[Played, ...]:
    engine, kit = get(name), kit_of(name)
    return tuple(play(engine, kit, 1000 * seats + i, kit.options[i % len(kit.options)], seats)
                 for i in range(GAMES_PER_CASE))


def seen(engine: Engine, state: Any, seat: int | None) -> str:
    return json.dumps(engine.view(state, seat), sort_keys=True)


def same(engine: Engine, a: Any, b: Any) -> bool:
    return a == b and engine.snapshot(a) == engine.snapshot(b)


def text(steps: list[str]) -> str:
    return "\n".join(steps)


@dataclass(frozen=True)
class Point:
    """A decision: the state, the seat that owes it, and the canonical steps it was taken with."""
    state: Any
    seat: int
    steps: tuple[str, ...]


@cache
def history(name: str, seats: int) -> tuple[tuple[Any, dict], ...]:
    """(state before, event) of every decided event: the played games', then the kit's
    hand-made positions'."""
    engine = get(name)
    pairs = [pair for game in played(name, seats) for pair in zip(game.states, game.events)]
    for state, seat, submission in kit_of(name).positions(seats):
        pairs.append((state, engine.decide(state, seat, submission)))
    return tuple(pairs)


@cache
def points(name: str, seats: int) -> tuple[Point, ...]:
    """Every decision of `history`, with the canonical steps of its submission."""
    engine = get(name)
    return tuple(Point(before, event["seat"], tuple(engine.draft(
        before, event["seat"], engine.notation(event, event["seat"])).steps))
        for before, event in history(name, seats))


def special(name: str, seats: int) -> int:
    """How many of the last points (and events) come from the kit's hand-made positions."""
    return len(kit_of(name).positions(seats))


def sampled(items: tuple, n: int, tail: int = 0) -> list:
    """About `n` items spread evenly over all but the last `tail`, and those `tail` too."""
    head = items[:len(items) - tail]
    return list(head[::max(1, len(head) // n)]) + list(items[len(head):])


@dataclass(frozen=True)
class Sample:
    state: Any
    real: bool       # a state of a game (False: a draft's, mid-decision: nobody acts on it)


@cache
def states(name: str, seats: int) -> tuple[Sample, ...]:
    """Every state of the played games, the drafts of every prefix of a sample of decisions,
    and last, the kit's positions with their drafts and the states after them."""
    engine = get(name)
    out = [Sample(s, True) for game in played(name, seats) for s in game.states]
    tail = special(name, seats)
    all_points, all_events = points(name, seats), history(name, seats)
    for point in sampled(all_points[:len(all_points) - tail], 12):
        out += drafts(engine, point)
    for point, (before, event) in zip(all_points[len(all_points) - tail:],
                                      all_events[len(all_events) - tail:]):
        out += [Sample(point.state, True), *drafts(engine, point),
                Sample(engine.apply(before, event), True)]
    return tuple(out)


def drafts(engine: Engine, point: Point) -> list[Sample]:
    return [Sample(engine.draft(point.state, point.seat, text(list(point.steps[:k]))).state, False)
            for k in range(1, len(point.steps))]


def special_states(name: str, seats: int) -> int:
    """How many of the last `states` come from the kit's hand-made positions."""
    tail = points(name, seats)[len(points(name, seats)) - special(name, seats):]
    return sum(len(p.steps) + 1 for p in tail)


# -- replay ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name, seats", CASES)
def test_replay_is_determined_by_seed_options_and_events(name, seats):
    engine, kit = get(name), kit_of(name)
    for game in played(name, seats):
        events = json.loads(json.dumps(game.events))      # as the database stores them
        assert tuple(events) == game.events
        final = engine.replay(game.seed, game.options, seats, None, events)
        assert same(engine, final, game.states[-1])
        assert same(engine, engine.replay(game.seed, game.options, seats, None, events), final)
        again = play(engine, kit, game.seed, game.options, seats)
        assert again.events == game.events and same(engine, again.states[-1], final)
        state = engine.start(game.seed, game.options, seats, None)
        for before, event in zip(game.states, game.events):
            assert same(engine, state, before)
            state = engine.apply(state, event)
        assert all(seen(engine, final, s) == seen(engine, game.states[-1], s)
                   for s in [*range(seats), None])


# -- legal steps ----------------------------------------------------------------------------

def check_draft(engine: Engine, kit: Kit, point: Point, prefix: list[str], brute: bool) -> int:
    """The legal steps of one draft against drafts one step longer; returns the steps tried."""
    state, seat = point.state, point.seat
    draft = engine.draft(state, seat, text(prefix))
    assert draft.error is None and draft.steps == prefix, (prefix, draft.error)
    options = engine.legal_steps(draft.state, seat)
    listed = [o.notation for o in options if not o.ends]
    ends = [o for o in options if o.ends]
    assert len(listed) == len(set(listed)) and len(ends) <= 1, options
    assert all(o.label for o in options)
    if not prefix:
        assert options, "a seat that owes a decision has no legal step"
    if options and prefix:
        assert bool(ends) == draft.done, (prefix, draft.todo)
    elif options:
        assert draft.done <= bool(ends), (prefix, draft.todo)   # an empty Babel draft: `pass`
    assert _decides(engine, state, seat, text(prefix)) == draft.done, (prefix, draft.todo)
    if set(prefix) & set(kit.alone):
        return 0                    # a step that is a whole decision on its own: nothing follows
    for step in listed:
        after = engine.draft(state, seat, text(prefix + [step]))
        assert after.error is None, f"{step!r} is listed after {prefix} but refused: {after.error}"
        assert after.steps == prefix + [step]
    tried = len(listed)
    if brute:
        for step in kit.candidates(draft.state, seat):
            after = engine.draft(state, seat, text(prefix + [step]))
            if after.error is None and after.steps[-1] not in listed:
                # Left out only as a dead end, which then names itself to be taken back.
                assert not (after.done or engine.finishable(after.state, seat)), (
                    f"legal but not listed after {prefix}: {step!r}")
                assert engine.take_back(state, seat, after) == (len(after.steps), ANY), step
        tried += len(kit.candidates(draft.state, seat))
    return tried


def _decides(engine: Engine, state: Any, seat: int, submission: str) -> bool:
    try:
        engine.decide(state, seat, submission)
    except GameError:
        return False
    return True


@pytest.mark.parametrize("name, seats", CASES)
def test_legal_steps_apply_and_brute_force_finds_none_missing(name, seats):
    engine, kit = get(name), kit_of(name)
    every, tail = points(name, seats), special(name, seats)
    brute = sampled(every, BRUTE_POINTS, tail)
    tried = 0
    for point in sampled(every, 3 * BRUTE_POINTS, tail) + brute:
        for k in range(len(point.steps) + 1):
            tried += check_draft(engine, kit, point, list(point.steps[:k]), point in brute)
    assert tried > 100


# -- no dead ends ---------------------------------------------------------------------------

#: Steps of a random walk through offered steps; then the draft is completed, also by them.
WALK, COMPLETE = 30, 300


def complete(engine: Engine, state: Any, seat: int, steps: list[str]) -> list[str]:
    """The draft completed by offered steps (the first offered, or ending when offered): the
    contract says none of them leads where nothing is offered."""
    steps, kind = list(steps), engine.decision_kind(state, seat)
    for _ in range(COMPLETE):
        draft = engine.draft(state, seat, engine.submission(steps))
        assert draft.error is None, (steps, draft.error)
        options = engine.legal_steps(draft.state, seat)
        if draft.done and engine.decision_kind(draft.state, seat) != kind:
            return steps            # a decision of one step (a pick, a card), decided
        assert options, f"a dead end reached by offered steps: {steps} ({draft.todo})"
        steps.append(options[0].notation)
        if options[0].ends:
            return steps[:-1]
    raise AssertionError(f"no end after {COMPLETE} offered steps: {steps}")


def opening(engine: Engine, seed: int, seats: int, options: dict[str, str], decisions: int
            ) -> tuple[Any, int] | None:
    """The state after a few random decisions of a new game, and a seat that owes one."""
    rng = Rng.derived(seed, "dead-ends")
    state = engine.start(seed, options, seats, None)
    for _ in range(decisions):
        owed = engine.to_act(state)
        if not owed:
            return None
        seat = owed[0].seat
        state = engine.apply(state, engine.decide(state, seat, engine.random_submission(
            state, seat, rng)))
    owed = engine.to_act(state)
    return (state, owed[0].seat) if owed else None


@pytest.mark.parametrize("name, seats", CASES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_draft_reached_by_offered_steps_can_be_completed_and_decided(name, seats, data):
    """A player clicking only offered steps never lands where nothing is offered and the
    decision is not done (the testers' Babel first turn, issue 26): from the first decisions
    of a random game (Babel's first turns, Babylonia's first round) or any decision of the
    played games, a random walk through offered steps, completed by offered steps, is
    decided and applied."""
    engine, kit = get(name), kit_of(name)
    if data.draw(st.booleans(), "an opening"):
        start = opening(engine, data.draw(st.integers(0, 2**32), "seed"), seats,
                        data.draw(st.sampled_from(kit.options), "options"),
                        data.draw(st.integers(0, 2 * seats), "decisions before"))
        if start is None:
            return
        state, seat = start
    else:
        point = data.draw(st.sampled_from(points(name, seats)), "decision")
        state, seat = point.state, point.seat
    steps: list[str] = []
    kind = engine.decision_kind(state, seat)
    for _ in range(WALK):
        draft = engine.draft(state, seat, engine.submission(steps))
        assert draft.error is None, (steps, draft.error)
        assert engine.take_back(state, seat, draft) is None, steps
        options = engine.legal_steps(draft.state, seat)
        if draft.done and engine.decision_kind(draft.state, seat) != kind:
            break                   # a decision of one step (a pick, a card), decided
        assert options, f"a dead end reached by offered steps: {steps} ({draft.todo})"
        option = data.draw(st.sampled_from(options), "offered step")
        if option.ends or set(steps) & set(kit.alone):
            break
        steps.append(option.notation)
    whole = complete(engine, state, seat, steps)
    event = engine.decide(state, seat, engine.submission(whole))
    engine.apply(state, event)


#: Drafts a decision of the brute force below completes, breadth first.
BRUTE_DRAFTS = 120


@pytest.mark.parametrize("name, seats", CASES)
def test_drafts_near_the_first_decisions_reached_by_offered_steps_all_complete(name, seats):
    """Brute force on small cases: from the first decisions of two games (every seat's first
    turn), the drafts reached by offered steps, breadth first (all of one step, of two while
    `BRUTE_DRAFTS` lasts: Babel's first turns to two steps; of a Babylonia turn's hundreds of
    first tokens an even spread of `BRUTE_DRAFTS`), each completed by offered steps and
    decided."""
    engine, kit = get(name), kit_of(name)
    checked = 0
    for seed in range(2):
        for decisions in range(seats + 1):
            start = opening(engine, seed, seats, kit.options[seed % len(kit.options)], decisions)
            if start is None:
                continue
            state, seat = start
            kind = engine.decision_kind(state, seat)
            queue: list[list[str]] = [[]]
            for steps in queue:
                if len(queue) > BRUTE_DRAFTS and len(steps) > 1:
                    break
                engine.decide(state, seat, engine.submission(complete(engine, state, seat, steps)))
                checked += 1
                draft = engine.draft(state, seat, engine.submission(steps))
                if (draft.done and engine.decision_kind(draft.state, seat) != kind
                        or set(steps) & set(kit.alone)):
                    continue
                following = [steps + [o.notation] for o in engine.legal_steps(draft.state, seat)
                             if not o.ends]
                queue += following[::max(1, -(-len(following) // BRUTE_DRAFTS))]  # evenly
    assert checked > 20, checked


# -- who acts -------------------------------------------------------------------------------

@pytest.mark.parametrize("name, seats", CASES)
def test_to_act_agrees_with_decide(name, seats):
    engine, kit = get(name), kit_of(name)
    rng = Rng.derived(seats, name + " to_act")
    for game in played(name, seats):
        for state in game.states:
            owed = {d.seat: d for d in engine.to_act(state)}
            over = engine.outcome(state) is not None
            assert over == (not owed)
            probe = "x"
            for seat, decision in owed.items():
                assert engine.decision_kind(state, seat) == decision.kind and decision.label
                assert engine.legal_steps(state, seat)
                probe = (kit.player or engine.random_submission)(state, seat, rng)
                event = engine.decide(state, seat, probe)
                assert (event["type"], event["seat"]) == (decision.kind, seat)
            for seat in set(range(seats)) - set(owed):
                assert engine.legal_steps(state, seat) == []
                with pytest.raises(WrongDecision):
                    engine.decide(state, seat, probe)
                assert isinstance(engine.draft(state, seat, probe).error, WrongDecision)
                if over:
                    with pytest.raises(WrongDecision, match="the game is over"):
                        engine.decide(state, seat, probe)


# -- hidden information ---------------------------------------------------------------------

@pytest.mark.parametrize("name, seats", CASES)
def test_twins_look_the_same_to_the_seat_that_cannot_tell_them_apart(name, seats):
    """Views, mail summaries, legal steps, and the previews of its own decisions."""
    engine, kit = get(name), kit_of(name)
    rng = Rng.derived(seats, name + " twins")
    for sample in sampled(states(name, seats), 40, special_states(name, seats)):
        state = sample.state
        owing = {d.seat for d in engine.to_act(state)} if sample.real else set()
        for seat in [*range(seats), None]:
            twin = kit.twin(state, seat, rng)
            assert seen(engine, twin, seat) == seen(engine, state, seat), f"seat {seat} tells them apart"
            if seat is None:
                continue
            assert engine.summary(twin, seat) == engine.summary(state, seat)
            assert engine.legal_steps(twin, seat) == engine.legal_steps(state, seat)
            if seat in owing:
                submission = (kit.player or engine.random_submission)(state, seat, rng)
                mine, theirs = (engine.draft(s, seat, submission) for s in (state, twin))
                assert (mine.steps, mine.done, str(mine.error)) == \
                    (theirs.steps, theirs.done, str(theirs.error))
                assert seen(engine, mine.state, seat) == seen(engine, theirs.state, seat), \
                    f"seat {seat}'s preview of {submission!r} tells them apart"
                assert engine.explain(twin, seat, submission) == engine.explain(state, seat, submission)


@pytest.mark.parametrize("name, seats", CASES)
def test_twin_events_read_the_same_in_the_record_of_the_seat_that_cannot_tell_them_apart(name, seats):
    """`notation(event, seat)`: the record, the last turn on pages and in mails."""
    engine, kit = get(name), kit_of(name)
    rng = Rng.derived(seats, name + " twin events")
    for before, event in history(name, seats):
        for seat in [*range(seats), None]:
            other = kit.twin_event(before, event, seat, rng)
            assert engine.notation(other, seat) == engine.notation(event, seat), \
                f"seat {seat} reads a difference in {event}"


@pytest.mark.parametrize("name, seats", CASES)
def test_every_decision_is_told_and_twins_are_told_the_same(name, seats):
    """`recount(before, event, seat, after)`: the last turns on pages, in JSON and mails. Words for
    every decision, JSON-able marks, and nothing the reader may not know: events that differ
    only there read the same."""
    engine, kit = get(name), kit_of(name)
    rng = Rng.derived(seats, name + " twin recounts")
    for before, event in history(name, seats):
        after = engine.apply(before, event)
        for seat in [*range(seats), None]:
            told = engine.recount(before, event, seat, after)
            assert told.words and json.loads(json.dumps(told.marks)) == told.marks
            assert engine.recount(before, event, seat) == told     # `after` computed alike
            other = kit.twin_event(before, event, seat, rng)
            assert engine.recount(before, other, seat, after).words == told.words, \
                f"seat {seat} is told a difference in {event}"


# -- snapshots ------------------------------------------------------------------------------

@pytest.mark.parametrize("name, seats", CASES)
def test_snapshots_restore_exactly(name, seats):
    engine = get(name)
    for game in played(name, seats):
        for before, event in zip(game.states, game.events):
            restored = engine.restore(json.loads(json.dumps(engine.snapshot(before))))
            assert same(engine, restored, before)
            assert engine.to_act(restored) == engine.to_act(before)
            assert same(engine, engine.apply(restored, event), engine.apply(before, event))
    for state in (sample.state for sample in states(name, seats)):
        restored = engine.restore(json.loads(json.dumps(engine.snapshot(state))))
        assert same(engine, restored, state)
        assert all(seen(engine, restored, s) == seen(engine, state, s) for s in [*range(seats), None])


# -- the generic events ---------------------------------------------------------------------

def check_over(engine: Engine, over: Any, seats: int, submission: str = "") -> None:
    """Nothing follows the end: every generic event and every decision is refused; the end
    is shown to every seat (view, mail summary, the words of a late submission)."""
    assert engine.to_act(over) == [] and engine.outcome(over) is not None
    for event in (engine.resign_event(0), engine.timeout_event(seats - 1), engine.abort_event("x")):
        with pytest.raises(WrongDecision, match="the game is over"):
            engine.apply(over, event)
    for seat in range(seats):
        assert engine.legal_steps(over, seat) == []
        json.dumps(engine.view(over, seat))
        assert all(isinstance(line, str) for line in engine.summary(over, seat))
        with pytest.raises(WrongDecision, match="the game is over"):
            engine.decide(over, seat, submission)
        assert isinstance(engine.draft(over, seat, submission).error, WrongDecision)
        try:
            assert all(isinstance(w, str) for w in engine.explain(over, seat, submission))
        except GameError:
            pass
    json.dumps(engine.view(over, None))
    assert same(engine, engine.restore(json.loads(json.dumps(engine.snapshot(over)))), over)
    # The ending explains itself to every seat, from its side (and to spectators).
    names = [f"Player {s}" for s in range(seats)]
    for seat in [*range(seats), None]:
        ending = engine.ending(over, seat, names)
        assert ending and ": " in ending, (seat, ending)
        winners = engine.outcome(over).winners
        assert ending.startswith("You win") == (winners == (seat,)), (seat, ending)


@pytest.mark.parametrize("name, seats", CASES)
def test_resign_timeout_and_abort_at_any_point(name, seats):
    engine = get(name)
    rng = Rng.derived(seats, name + " generic events")
    real = tuple(s.state for s in states(name, seats) if s.real)
    for state in sampled(real, 25, 2 * special(name, seats)):
        if engine.outcome(state) is not None:
            check_over(engine, state, seats)
            continue
        before = engine.snapshot(state)
        owing = engine.to_act(state)[0].seat
        late = (kit_of(name).player or engine.random_submission)(state, owing, rng)
        for seat in range(seats):
            for event, reason in ((engine.resign_event(seat), "resigned"),
                                  (engine.timeout_event(seat), "timeout")):
                over = engine.apply(state, event)
                outcome = engine.outcome(over)
                assert outcome.reason == reason and seat not in outcome.winners
                assert outcome.winner is None or outcome.winners == (outcome.winner,)
                check_over(engine, over, seats, late)
        for seat in (seats, -1, None, True, "0"):
            with pytest.raises(WrongDecision):
                engine.apply(state, {"v": engine.event_version, "type": "resign", "seat": seat})
        aborted = engine.apply(state, engine.abort_event("the contract stops it"))
        assert engine.outcome(aborted) == ABORTED
        assert (ABORTED.winner, ABORTED.winners, ABORTED.reason, ABORTED.description) == \
            (None, (), "aborted", "the game was aborted")
        check_over(engine, aborted, seats, late)
        assert all(engine.notation(engine.abort_event("x"), s) == "aborted" for s in [*range(seats), None])
        assert engine.snapshot(state) == before, "a generic event changed the state it was given"


# -- notation -------------------------------------------------------------------------------

@pytest.mark.parametrize("name, seats", CASES)
def test_the_movers_line_of_an_event_decides_that_event_again(name, seats):
    engine = get(name)
    for before, event in history(name, seats):
        seat = event["seat"]
        line = engine.notation(event, seat)
        assert engine.decide(before, seat, line) == event, line
        draft = engine.draft(before, seat, line)
        assert draft.done and draft.error is None
        assert engine.decide(before, seat, text(draft.steps)) == event
        words = engine.explain(before, seat, line)
        assert words and all(isinstance(w, str) and w for w in words)
        assert all(isinstance(engine.notation(event, s), str) for s in [*range(seats), None])


# -- malformed input ------------------------------------------------------------------------

NASTY = ["", " ", ";", "\x00", "\n\n>", "#", "ß", "İ", "ﬀ", "\u202e", "\ud800", "𝟙", "٣", "Ⅻ",
         "9" * 5000, "-1", "0", "1e9", "0x3", "+3", " 3 ", "NaN", "∞", "card " + "9" * 5000,
         "pick " + "9" * 5000, "place " + "9" * 5000 + " NW U", "place ٣ NW UDN", "card ٣",
         "pick ٣", "settle ＳＳ", "discard " + "A" * 30000, "move M;" * 1000, "farmer g7;" * 500]


def words_of(name: str, seats: int) -> list[str]:
    """The notation's own words, for inputs that read almost well."""
    engine = get(name)
    found = set()
    for point in sampled(points(name, seats), 6, special(name, seats)):
        for option in engine.legal_steps(point.state, point.seat):
            found.update(option.notation.split())
    return sorted(found)


def only_game_errors(engine: Engine, state: Any, seats: int, submission: str) -> None:
    for seat in range(seats):
        try:
            engine.decide(state, seat, submission)
        except GameError:
            pass
        draft = engine.draft(state, seat, submission)
        assert draft.error is None or isinstance(draft.error, GameError)
        try:
            engine.explain(state, seat, submission)
        except GameError:
            pass


@pytest.mark.parametrize("name, seats", CASES)
def test_malformed_input_raises_only_game_errors(name, seats):
    engine = get(name)
    chosen = [s.state for s in sampled(states(name, seats), 4, special_states(name, seats))]
    words = words_of(name, seats) + NASTY

    @settings(max_examples=60, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(submission=st.one_of(
        st.text(max_size=60),
        st.sampled_from(NASTY),
        st.lists(st.sampled_from(words), min_size=1, max_size=6).map(" ".join),
        st.lists(st.lists(st.sampled_from(words), min_size=1, max_size=4).map(" ".join),
                 min_size=1, max_size=5).map(lambda steps: rng_join(steps))),
           which=st.integers(min_value=0, max_value=len(chosen) - 1))
    def check(submission, which):
        only_game_errors(engine, chosen[which], seats, submission)

    for nasty in NASTY:
        only_game_errors(engine, chosen[-1], seats, nasty)
    check()


def rng_join(steps: list[str]) -> str:
    return ";".join(steps) if len(steps) % 2 else "\n".join(steps)
