"""`GAME.legal_steps` against brute force (docs/games/babylonia-rulings.md, "Notation").

States are sampled from random legal games (the engine's uniform player and the CLI's greedy
one, which surrounds cities and ziggurats far more often), at every point of a turn: its
start, after each of its steps (a draft), and while it pauses for someone's card.

- every listed step applies: `GAME.draft` of the steps so far plus that step takes it;
- brute force: every step of the notation that applies is listed (a play of each kind on
  every hex, `score` on every hex, `card 1` to `card 9`, `extra`), without duplicates;
- the End option is listed exactly when `GAME.draft(...)` of the steps so far is `done`,
  which is exactly when `GAME.decide` accepts them;
- a seat that owes nothing has no legal step.
"""

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.games.babylonia import GAME
from pbem.games.babylonia.cli import walk
from pbem.games.babylonia.notation import HEXES, WORDS
from pbem.games.errors import GameError
from pbem.games.rng import Rng

KINDS = tuple(WORDS.values())
EVERY_STEP = ([f"{kind} {hex}" for kind in KINDS for hex in sorted(HEXES)]
              + [f"score {hex}" for hex in sorted(HEXES)]
              + [f"card {n}" for n in range(1, 10)] + ["extra"])


def points(seed, players, cards, greedy):
    """(state, seat, steps so far) at every point of a random game where a seat decides."""
    before = None
    for event, state in walk(seed, players, cards, greedy=greedy):
        if event is not None:
            if event["type"] == "card":
                yield before, event["seat"], []
            else:
                steps = event["steps"].splitlines()
                for k in range(len(steps) + 1):
                    yield before, event["seat"], steps[:k]
        before = state
    yield before, None, []        # the end


def text(steps):
    return "\n".join(steps)


def check(state, seat, steps, brute=True) -> list:
    """The listed steps against drafts; returns the listed options."""
    before = GAME.snapshot(state)
    draft = GAME.draft(state, seat, text(steps))
    assert draft.error is None and draft.steps == steps, (steps, draft.error)
    options = GAME.legal_steps(draft.state, seat)
    assert GAME.snapshot(state) == before, "drafting or listing changed the state"
    listed = [o.notation for o in options if not o.ends]
    assert len(listed) == len(set(listed)), f"duplicates: {listed}"
    ends = [o for o in options if o.ends]
    assert len(ends) <= 1
    assert bool(ends) == draft.done, (steps, draft.todo)
    if steps or state.card_due is None:
        decided = _decides(state, seat, steps)
        assert decided == draft.done, (steps, draft.todo)
    for step in listed:
        after = GAME.draft(state, seat, text(steps + [step]))
        assert after.error is None, f"{step!r} is listed but refused: {after.error}"
        assert after.steps == steps + [step]
    if brute:
        applies = [s for s in EVERY_STEP
                   if GAME.draft(state, seat, text(steps + [s])).error is None]
        missing = set(applies) - set(listed)
        assert not missing, f"legal but not listed after {steps}: {sorted(missing)}"
        assert set(listed) <= set(applies)
    return options


def _decides(state, seat, steps) -> bool:
    try:
        GAME.decide(state, seat, text(steps))
    except GameError:
        return False
    return True


def sample(games, every, brute_every):
    """Deterministic: every few decision points of many games, and every one of interest."""
    out = []
    for i in range(games):
        players, cards, greedy = 2 + i % 3, ("basic", "advanced")[i // 3 % 2], i % 4 != 3
        seed = Rng(i).next_u64()
        for n, (state, seat, steps) in enumerate(points(seed, players, cards, greedy)):
            paused = state.card_due is not None
            if (n % every == 0 or paused or seat is None or (_after_tokens(steps) and n % 3 == 0)
                    or (seat is not None and _of_interest(state, seat, steps))):
                out.append((state, seat, steps, len(out) % brute_every == 0 or paused))
    return out


def _of_interest(state, seat, steps) -> bool:
    """The draft waits for someone's card, or could say extra now."""
    if not steps or not (_after_tokens(steps) or state.has(seat, 2)):
        return False
    draft = GAME.draft(state, seat, text(steps))
    after = draft.state
    return (after.card_due is not None or after.turn.waiting is not None
            or (after.has(seat, 2) and not after.turn.extra and draft.done))


def _after_tokens(steps) -> bool:
    return bool(steps) and steps[-1].split()[0] in ("score", "card", "extra")


SAMPLE = sample(games=16, every=16, brute_every=6)


def test_the_sample_holds_every_kind_of_decision():
    kinds = Counter()
    for state, seat, steps, brute in SAMPLE:
        kinds["brute"] += brute
        if seat is None:
            kinds["over"] += 1
            continue
        draft = GAME.draft(state, seat, text(steps)).state
        kinds["turn start"] += not steps and state.card_due is None
        kinds["mid-turn"] += bool(steps)
        kinds["card owed"] += state.card_due is not None
        kinds["owed by a seat not on turn"] += state.card_due is not None and state.card_due != state.to_move
        kinds["paused in the draft"] += draft.card_due is not None and state.card_due is None
        kinds["waiting for the mover's card"] += draft.turn.waiting is not None
        kinds["several to score"] += len(draft.turn.candidates) > 1
        kinds["first round"] += draft.turn.index < state.players
        for o in GAME.legal_steps(draft, seat):
            kinds["End" if o.ends else o.notation.split()[0]] += 1
    for kind in ("over", "turn start", "mid-turn", "card owed", "owed by a seat not on turn",
                 "paused in the draft", "waiting for the mover's card", "several to score",
                 "first round", "End", "farmer", "priest", "merchant", "official", "score",
                 "card", "extra"):
        assert kinds[kind] >= 2, f"the sample has too few of {kind!r}: {kinds}"
    assert kinds["brute"] >= 40, kinds


def test_listed_steps_apply_and_every_step_that_applies_is_listed():
    for state, seat, steps, brute in SAMPLE:
        if seat is None:
            continue
        check(state, seat, steps, brute)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**64 - 1), players=st.sampled_from([2, 3, 4]),
       cards=st.sampled_from(["basic", "advanced"]), greedy=st.booleans(),
       stop=st.integers(min_value=0, max_value=400))
def test_legal_steps_at_a_random_point_of_a_random_game(seed, players, cards, greedy, stop):
    found = None
    for n, found in enumerate(points(seed, players, cards, greedy)):  # noqa: B007 - the last one is read after the loop
        if n == stop:
            break
    state, seat, steps = found
    if seat is not None:
        check(state, seat, steps)


def test_only_the_seat_that_owes_has_legal_steps():
    for state, _seat, _steps, _ in SAMPLE[::5]:
        owing = {d.seat for d in GAME.to_act(state)}
        for other in range(state.players):
            if other not in owing:
                assert GAME.legal_steps(state, other) == []
                assert GAME.draft(state, other, "farmer a1").error is not None
                with pytest.raises(GameError):
                    GAME.decide(state, other, "card 1")


def test_a_finished_game_has_no_legal_steps():
    over = [state for state, seat, _, _ in SAMPLE if seat is None]
    assert over
    for state in over:
        for seat in range(state.players):
            assert GAME.legal_steps(state, seat) == []
            assert GAME.to_act(state) == []


def test_an_owed_card_lists_exactly_the_available_cards_and_no_end():
    owing = [(state, seat) for state, seat, _, _ in SAMPLE if state.card_due is not None]
    assert owing
    for state, seat in owing:
        options = GAME.legal_steps(state, seat)
        assert [o.notation for o in options] == [f"card {c}" for c in state.available]
        assert not any(o.ends for o in options)


def test_plays_are_grouped_by_kind_and_other_steps_are_not():
    for state, seat, steps, _ in SAMPLE[::7]:
        if seat is None:
            continue
        draft = GAME.draft(state, seat, text(steps)).state
        for o in GAME.legal_steps(draft, seat):
            head = o.notation.split()[0] if o.notation else ""
            if head in KINDS:
                assert o.group == ("Play an official" if head == "official" else f"Play a {head}")
            else:
                assert o.group == ""
            assert o.label


# -- the composer's words and errors ------------------------------------------------------------

def test_an_owed_cards_errors_name_step_1():
    state, seat = next((s, s.card_due) for s, _, _, _ in SAMPLE if s.card_due is not None)
    gone = next(c for c in range(1, 10) if c not in state.available)
    for error in (GAME.draft(state, seat, f"card {gone}").error, _refusal(state, seat, f"card {gone}")):
        assert error.step == 1 and str(error).startswith(f"step 1 (card {gone}): card {gone} is not")
    error = _refusal(state, seat, "card 1; card 2")
    assert error.step == 1 and "one step" in str(error)
    draft = GAME.draft(state, seat, "")
    assert not draft.done and draft.error is None and "card" in draft.todo
    card = state.available[-1]
    draft = GAME.draft(state, seat, f"card {card}")
    assert draft.done and draft.steps == [f"card {card}"]


def _refusal(state, seat, text):
    with pytest.raises(GameError) as caught:
        GAME.decide(state, seat, text)
    return caught.value


def test_explain_words_every_step_even_off_the_board_in_play():
    state = GAME.start(1, {}, 2, 0)
    off = sorted(set(HEXES) - set(state.board.hexes))
    assert off
    assert GAME.explain(state, 0, f"farmer {off[0]}") == [f"a farmer onto {off[0]} (not in play)"]
    river = next(h for h in sorted(state.board.hexes) if state.board.is_river(h))
    assert GAME.explain(state, 0, f"P {river}; card 3; extra") == [
        f"a priest onto {river} (river, face down)",
        "take ziggurat card 3 (a stand of 7 tokens)",
        "take another turn after this one (card 2)"]
    assert GAME.explain(state, 0, "fly away") == []


def test_a_random_submission_is_only_for_a_seat_that_owes_one():
    state = GAME.start(2, {}, 3, 0)
    for seat in (1, 2):
        with pytest.raises(GameError):
            GAME.random_submission(state, seat, Rng(1))
    text = GAME.random_submission(state, 0, Rng(1))
    assert GAME.decide(state, 0, text)["steps"] == text


def two_ziggurats():
    """Hand-made (4 players, seat 0 on turn, past the first round): `farmer k3; farmer h6`
    surrounds the ziggurat at l3, where seat 1 has the most tokens, and the one at i7,
    where seat 0 has. (tests/babylonia/test_views.py builds the same.)"""
    from pbem.games.babylonia.state import Token
    state = GAME.start(1, {}, 4, 0)
    for hexes, seat in ((("l2", "m3", "m4", "l4"), 1), (("i6", "j6", "j7", "i8", "h7"), 0)):
        for hex in hexes:
            state.tokens[hex] = Token(seat, "F")
            state.supplies[seat] = state.supplies[seat].replace("F", "", 1)
    state.turn.index = 5
    return state


def test_a_draft_paused_for_another_seat_names_the_movers_cards_ahead():
    state = two_ziggurats()
    steps = ["farmer k3", "farmer h6"]
    options = check(state, 0, steps)
    assert {o.notation for o in options} == {"score l3", "score i7"}
    check(state, 0, steps + ["score l3"])
    # l3 first: the draft pauses for seat 1; seat 0 must name a card for i7 before ending.
    paused = steps + ["score l3", "score i7"]
    options = check(state, 0, paused)
    assert not any(o.ends for o in options)
    assert [o.notation for o in options] == [f"card {c}" for c in state.available]
    options = check(state, 0, paused + ["card 3"])
    assert [o.notation for o in options] == [""] and options[0].ends
    # i7 first: his card is named at once, before anything else is declared.
    options = check(state, 0, steps + ["score i7"])
    assert [o.notation for o in options] == [f"card {c}" for c in state.available]
    options = check(state, 0, steps + ["score i7", "card 4"])
    assert [o.notation for o in options] == ["score l3"]
    options = check(state, 0, steps + ["score i7", "card 4", "score l3"])
    assert [o.notation for o in options] == [""]


def test_a_mover_whose_named_card_was_taken_owes_a_card_like_anyone():
    state = two_ziggurats()
    state = GAME.apply(state, GAME.decide(state, 0, "farmer k3; farmer h6; score l3; score i7; card 3"))
    assert state.card_due == 1 and GAME.legal_steps(state, 0) == []
    check(state, 1, [])
    state = GAME.apply(state, GAME.decide(state, 1, "card 3"))
    assert state.card_due == 0 == state.to_move
    options = check(state, 0, [])
    assert [o.notation for o in options] == [f"card {c}" for c in state.available]
    assert 3 not in state.available
    after = GAME.apply(state, GAME.decide(state, 0, "card 5"))
    assert after.card_due is None and after.to_move == 1 and after.cards[0] == [5]
