"""Views and records as hidden information (docs/games/babylonia-rulings.md, "Hidden information").

`GAME.view(state, seat)` holds exactly what that seat may know. Changing only what the seat
may not know leaves its view byte-identical: the other stands' tokens (same counts), every
supply's order, the other supplies' tokens (same sizes), the kinds of the other seats'
face-down river tokens, the cards the mover named for after a pause (when the seat is not
the mover), the seed. Changing what it may know changes it: its own stand, any stand's or
supply's size, a face-up token's kind, its own face-down tokens' kinds, its own named cards.
A spectator (seat None) sees none of the hidden things. `GAME.notation(event, seat)` writes
another seat's river plays as `? i7` and the cards he named for after a pause as `card ?`, and
the owner's and all other steps in full. The seat answering a pause does not see the turn
resume in its preview. (tests/contract checks all of it on twins of every state.)
"""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from babylonia_twins import (
    hide_all,
    redeal,
    rename_cards,
    shuffle_supply,
    swap_stand_and_supply,
    turn_down_token,
)
from pbem.games.babylonia import GAME
from pbem.games.babylonia.cli import walk
from pbem.games.babylonia.notation import Play, parse
from pbem.games.babylonia.state import KIND_INDEX, KINDS, Token
from pbem.games.rng import Rng

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def seen(state, seat) -> str:
    return json.dumps(GAME.view(state, seat), sort_keys=True)


# -- changes to a state -------------------------------------------------------------------------

def hidden_changes(state, seat, rng):
    """(name, change) for things `seat` may not know, about one other seat drawn at random
    (for river tokens: one that has some, when one does)."""
    others = [s for s in range(state.players) if s != seat]
    other = others[rng.below(len(others))]
    down = [s for s in others if any(t.down and t.seat == s for t in state.tokens.values())]
    river = down[rng.below(len(down))] if down else other
    shuffled = rng.below(state.players)
    changes = [("redeal", lambda s: redeal(s, other, rng)),
               ("swap", lambda s: swap_stand_and_supply(s, other, rng)),
               ("river", lambda s: turn_down_token(s, river, rng)),
               ("shuffle", lambda s: shuffle_supply(s, shuffled, rng)),
               ("seed", lambda s: setattr(s, "seed", rng.next_u64())),
               ("all", lambda s: hide_all(s, seat, rng))]
    if seat != state.to_move:
        changes.append(("named cards", lambda s: rename_cards(s, rng)))
    return changes


# -- the checks ---------------------------------------------------------------------------------

def check_hidden(state, rng) -> set:
    """Changing what a seat may not know leaves its view identical."""
    tried = set()
    for seat in [*range(state.players), None]:
        before = seen(state, seat)
        for name, change in hidden_changes(state, seat, rng):
            changed = state.copy()
            if change(changed) is False:
                continue
            assert seen(changed, seat) == before, f"seat {seat} sees the change {name!r}"
            tried.add(name.split()[0] if seat is not None else "spectator " + name.split()[0])
    return tried


def check_known(state, rng) -> set:
    """Changing what a seat may know changes its view (and only that seat's, where private).

    One seat drawn at random, against one other seat and a spectator."""
    tried = set()
    seat = rng.below(state.players)
    other = (seat + 1 + rng.below(state.players - 1)) % state.players
    before = {s: seen(state, s) for s in (seat, other, None)}

    def sees(changed):
        return {s for s in before if seen(changed, s) != before[s]}

    changed = state.copy()
    if swap_stand_and_supply(changed, seat, rng):
        assert sees(changed) == {seat}, "its own stand"
        tried.add("own stand")
    if state.stand_size(seat):
        changed = state.copy()
        kind = next(k for k, n in zip(KINDS, state.stands[seat]) if n)
        changed.stands[seat][KIND_INDEX[kind]] -= 1
        changed.supplies[seat] += kind
        assert sees(changed) == set(before), "stand and supply sizes"
        tried.add("sizes")
    changed = state.copy()
    if turn_down_token(changed, seat, rng):
        assert sees(changed) == {seat}, "its own face-down token"
        tried.add("own river token")
    up = [h for h, t in state.tokens.items() if not t.down and t.seat == seat]
    if up:
        changed = state.copy()
        token = changed.tokens[up[0]]
        changed.tokens[up[0]] = Token(seat, "P" if token.kind != "P" else "M")
        assert sees(changed) == set(before), "a face-up token"
        tried.add("face-up token")
    if state.turn is not None and state.turn.cards:
        changed = state.copy()
        rename_cards(changed, rng)
        assert seen(changed, state.to_move) != seen(state, state.to_move), "own named cards"
        tried.add("own named cards")
    return tried


def check_spectator(state):
    view = GAME.view(state, None)
    assert view["seat"] is None
    assert view["stands"] == [None] * state.players
    for h in view["hexes"]:
        if h["token"] and h["token"]["down"]:
            assert h["token"]["kind"] == "?"
    if view["turn"] is not None:
        assert view["turn"]["named"] is None
        river = state.board.is_river
        assert all(k == "?" for k, h in view["turn"]["placed"] if river(h))


def states(games, every):
    """Event states and draft states (mid-turn, paused ones too) of random games."""
    for i in range(games):
        players, cards = 2 + i % 3, ("basic", "advanced")[i // 3 % 2]
        before = None
        for n, (event, state) in enumerate(walk(Rng(i).next_u64(), players, cards,
                                               greedy=i % 4 != 3)):
            if n % every == 0 or state.card_due is not None or state.result is not None:
                yield i, state.copy()
            if event is not None and event["type"] == "turn" and (
                    n % every == 1 or state.card_due is not None):
                steps = event["steps"].splitlines()
                for k in range(1, len(steps)):
                    draft = GAME.draft(before, event["seat"], "\n".join(steps[:k]))
                    assert draft.error is None
                    yield i, draft.state
            before = state


def test_views_hide_exactly_what_each_seat_may_not_know():
    tried, count = set(), 0
    for _i, state in states(games=10, every=12):
        rng = Rng.derived(count, "views")
        check_spectator(state)
        tried |= check_hidden(state, rng)
        tried |= check_known(state, rng)
        if state.turn is not None and state.turn.cards:
            tried.add("a state with named cards")
        count += 1
    assert count > 80
    for kind in ("redeal", "swap", "river", "shuffle", "seed", "all", "spectator all",
                 "spectator river", "own stand", "sizes", "own river token", "face-up token"):
        assert kind in tried, f"never tried {kind!r}: {sorted(tried)}"


@SETTINGS
@given(seed=st.integers(min_value=0, max_value=2**64 - 1), players=st.sampled_from([2, 3, 4]),
       greedy=st.booleans(), stop=st.integers(min_value=0, max_value=90),
       salt=st.integers(min_value=0, max_value=2**32))
def test_views_at_a_random_point_of_a_random_game(seed, players, greedy, stop, salt):
    state = None
    for n, (_, state) in enumerate(walk(seed, players, "advanced", greedy=greedy)):  # noqa: B007 - the last one is read after the loop
        if n == stop:
            break
    rng = Rng(salt)
    check_spectator(state)
    check_hidden(state, rng)
    check_known(state, rng)


def two_ziggurats():
    """A hand-made turn (4 players, seat 0 on turn): his two tokens surround the ziggurat at
    l3, where seat 1 has the most tokens, and the one at i7, where he has. Scoring l3 first,
    the turn pauses for seat 1's card, and seat 0 names card 3 for i7 ahead."""
    state = two_ziggurats_before()
    event = GAME.decide(state, 0, "farmer k3\nfarmer h6\nscore l3\nscore i7\ncard 3")
    paused = GAME.apply(state, event)
    assert paused.card_due == 1 and paused.turn.cards == [3]
    return paused


def two_ziggurats_before():
    """The position of `two_ziggurats` before seat 0's turn."""
    state = GAME.start(1, {}, 4, 0)
    for hex in ("l2", "m3", "m4", "l4"):
        state.tokens[hex] = Token(1, "F")
        state.supplies[1] = state.supplies[1].replace("F", "", 1)
    for hex in ("i6", "j6", "j7", "i8", "h7"):
        state.tokens[hex] = Token(0, "F")
        state.supplies[0] = state.supplies[0].replace("F", "", 1)
    state.turn.index = 5                    # past the first round
    assert state.stands[0][KIND_INDEX["F"]] >= 2
    return state


def test_a_paused_turn_hides_the_movers_named_cards():
    paused = two_ziggurats()
    rng = Rng(5)
    for seat in [None, 0, 1, 2, 3]:
        named = GAME.view(paused, seat)["turn"]["named"]
        assert named == ([3] if seat == 0 else None)
    tried = check_hidden(paused, rng) | check_known(paused, rng)
    assert {"named", "spectator named", "own named cards"} <= tried
    for card in (3, 5):                     # seat 1 takes card 3 away from him, or leaves it
        after = GAME.apply(paused, {"v": 1, "type": "card", "seat": 1, "card": card})
        assert (after.card_due == 0) == (card == 3)
        check_spectator(after)
        check_hidden(after, rng)
        check_known(after, rng)



def test_the_answer_to_a_pause_previews_its_own_card_only():
    """The seat answering a pause sees his card taken in his preview, not the turn resuming:
    resuming takes the cards the mover named ahead, which he must not learn before he chooses
    (he could take that card away). Submitted, the turn resumes as before."""
    paused = two_ziggurats()
    for card in (3, 5):
        draft = GAME.draft(paused, 1, f"card {card}")
        assert draft.done and draft.steps == [f"card {card}"] and draft.error is None
        preview = GAME.view(draft.state, 1)
        assert preview["cards"][1] == [card] and preview["cards"][0] == []
        assert preview["turn"]["named"] is None
        assert GAME.legal_steps(draft.state, 1) == []
        after = GAME.apply(paused, GAME.decide(paused, 1, f"card {card}"))
        assert after.cards[1] == [card]
        assert after.cards[0] == ([] if card == 3 else [3]) and (after.card_due == 0) == (card == 3)
    # Whichever card the mover named, the answering seat's preview is the same.
    other = paused.copy()
    other.turn.cards = [6]
    assert json.dumps(GAME.view(GAME.draft(other, 1, "card 5").state, 1), sort_keys=True) == \
        json.dumps(GAME.view(GAME.draft(paused, 1, "card 5").state, 1), sort_keys=True)


def test_the_record_hides_the_cards_named_for_after_a_pause_from_all_but_the_mover():
    state = two_ziggurats_before()
    event = GAME.decide(state, 0, "farmer k3\nfarmer h6\nscore l3\nscore i7\ncard 3")
    assert event["named"] == [5] and event["v"] == 2
    assert GAME.notation(event, 0) == "farmer k3; farmer h6; score l3; score i7; card 3"
    for seat in (1, 2, 3, None):
        assert GAME.notation(event, seat) == "farmer k3; farmer h6; score l3; score i7; card ?"
    # A card taken at once (his ziggurat scored first) is no secret.
    event = GAME.decide(state, 0, "farmer k3\nfarmer h6\nscore i7\ncard 4\nscore l3")
    assert event["named"] == []
    assert all(GAME.notation(event, s) == "farmer k3; farmer h6; score i7; card 4; score l3"
               for s in (0, 1, None))


def test_a_version_1_turn_hides_all_its_cards_from_the_others():
    """Version 1 turns did not say which cards were named ahead: upcast, every card of one is
    hidden from the other seats; the log replays as before."""
    state = two_ziggurats_before()
    v2 = GAME.decide(state, 0, "farmer k3\nfarmer h6\nscore i7\ncard 4\nscore l3")
    v1 = {"v": 1, "type": "turn", "seat": 0, "steps": v2["steps"]}
    assert GAME.upcast(v1) == {**v2, "named": [4]}
    assert GAME.notation(GAME.upcast(v1), 1).endswith("score i7; card ?; score l3")
    assert GAME.apply(state, v1) == GAME.apply(state, v2)
    assert GAME.upcast({"v": 1, "type": "card", "seat": 1, "card": 4}) == \
        {"v": 2, "type": "card", "seat": 1, "card": 4}

# -- the record ---------------------------------------------------------------------------------

def test_notation_hides_other_seats_river_plays_only():
    hidden = shown = 0
    for i in range(9):
        players = 2 + i % 3
        for event, state in walk(i, players, greedy=i % 2 == 0):
            if event is None:
                continue
            if event["type"] == "card":
                assert all(GAME.notation(event, s) == f"card {event['card']}"
                           for s in [*range(players), None])
                continue
            steps = parse(event["steps"])
            mover = event["seat"]
            assert GAME.notation(event, mover) == "; ".join(map(str, steps))
            for seat in [*range(players), None]:
                line = GAME.notation(event, seat).split("; ")
                assert len(line) == len(steps)
                for written, step in zip(line, steps):
                    river = isinstance(step, Play) and state.board.is_river(step.hex)
                    if river and seat != mover:
                        assert written == f"? {step.hex}"
                        hidden += 1
                    else:
                        assert written == str(step)
                        shown += river
    assert hidden > 50 and shown > 20
    assert GAME.notation(GAME.resign_event(1), 0) == "resign"
