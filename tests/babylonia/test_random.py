"""Random legal play (docs/games/babylonia-rulings.md), for two, three and four players.

Whole games of random legal play (the engine's `random_submission`, and the CLI's greedy
player, which takes fields and surrounds cities and ziggurats far more often), from many
seeds and both `ziggurat_cards` options, keep every invariant after every event:
30 tokens per player (stand + supply + board, kind by kind), scores the sum of their causes,
what each seat's view hides, each card in one place only, tiles only on their sites, tokens
only on the board in play. Every game ends as the rules say, and replays to the same state.
"""

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.games.babylonia import GAME
from pbem.games.babylonia.cli import MAX_EVENTS, random_game, walk
from pbem.games.babylonia.notation import Play, parse
from pbem.games.babylonia.state import ALL_CARDS, BASIC_CARDS, KINDS, STAND, TOKENS
from pbem.games.errors import GameError

CARDS = ("basic", "advanced")
GAMES = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- the invariants ----------------------------------------------------------------------------

def check_invariants(state, start):
    """`start`: the game's first state (its tiles and its deck of ziggurat cards)."""
    b = state.board
    # 30 tokens per player, kind by kind: stand + supply + board.
    for seat in range(state.players):
        board = Counter(t.kind for t in state.tokens.values() if t.seat == seat)
        supply = Counter(state.supplies[seat])
        assert set(supply) <= set(KINDS)
        for i, kind in enumerate(KINDS):
            assert state.stands[seat][i] >= 0
            assert state.stands[seat][i] + supply[kind] + board[kind] == TOKENS[kind], \
                f"seat {seat}, {kind}: stand {state.stands[seat]}, supply {supply}, board {board}"
        assert sum(TOKENS.values()) == 30
        assert state.stand_size(seat) <= state.stand_limit(seat)
        between_turns = state.turn is None or seat != state.to_move or not state.turn.placed
        if between_turns and state.supplies[seat]:
            assert state.stand_size(seat) >= STAND, f"seat {seat} was not refilled"
    # Tokens on the board in play, never on a ziggurat or a tile; face down exactly on rivers.
    for hex, token in state.tokens.items():
        assert hex in b.hexes and b.hexes[hex].kind != "ziggurat", hex
        assert hex not in state.tiles, f"{hex} holds a token and a tile"
        assert token.down == b.is_river(hex), hex
        assert 0 <= token.seat < state.players and token.kind in KINDS
    # Tiles only on their sites, each the one dealt there; taken cities came from the deal.
    for hex, tile in state.tiles.items():
        assert b.hexes[hex].site and start.tiles[hex] == tile, hex
    taken = Counter(c for cities in state.cities for c in cities)
    dealt = Counter(start.tiles.values())
    assert all(n <= dealt[c] for c, n in taken.items())
    assert all(c.startswith("city") for c in taken)
    # Scores are the sum of their causes; every cause is a gain.
    for seat in range(state.players):
        assert state.scores[seat] == sum(p for p, _ in state.causes[seat])
        assert all(isinstance(p, int) and p > 0 for p, _ in state.causes[seat])
        for points, cause in state.causes[seat]:
            if cause.startswith("field ") and not cause.startswith("field cities"):
                assert points == int(cause.split()[1]), cause
            if cause == "ziggurat card 1":
                assert points == 10
    # Each ziggurat card in one place: available or in front of one seat.
    held = [c for cards in state.cards for c in cards]
    assert len(held) == len(set(held)), f"a card held twice: {state.cards}"
    assert not set(held) & set(state.available)
    assert sorted(held + state.available) == start.available
    for seat in range(state.players):
        assert set(state.used[seat]) <= set(state.cards[seat]) & {1, 2}
        assert len(state.used[seat]) == len(set(state.used[seat]))
    assert state.scored <= set(b.ziggurats)
    # Whose decision it is.
    if state.result is not None:
        assert state.turn is None and state.card_due is None
        assert GAME.to_act(state) == []
    else:
        assert state.turn is not None and 0 <= state.to_move < state.players
        if state.card_due is not None:
            assert state.turn.submitted and 0 <= state.card_due < state.players
            assert [d.kind for d in GAME.to_act(state)] == ["card"]
        else:
            assert not state.turn.submitted and not state.turn.placed
            assert [(d.seat, d.kind) for d in GAME.to_act(state)] == [(state.to_move, "turn")]
    check_hidden(state)


def check_hidden(state):
    """Each view shows its own stand only, and others' face-down kinds as `?`."""
    for seat in [*range(state.players), None]:
        view = GAME.view(state, seat)
        for s, stand in enumerate(view["stands"]):
            assert (stand is not None) == (s == seat)
        assert view["stand_sizes"] == [state.stand_size(s) for s in range(state.players)]
        assert view["supply_sizes"] == [len(x) for x in state.supplies]
        assert "supplies" not in view and "seed" not in view
        for h in view["hexes"]:
            token = state.tokens.get(h["name"])
            if token is None:
                assert h["token"] is None
            elif token.down and token.seat != seat:
                assert h["token"] == {"seat": token.seat, "kind": "?", "down": True}
            else:
                assert h["token"]["kind"] == token.kind


def check_end(state, events):
    """The game ended at the end of a turn: the mover's stand empty, or at most one city left."""
    assert state.result is not None and state.result.reason == "end"
    assert events[-1]["seat"] is not None
    last = next(e for e in reversed(events) if e["type"] == "turn")
    mover = last["seat"]
    cities_left = sum(1 for t in state.tiles.values() if t.startswith("city"))
    assert state.stand_size(mover) == 0 or cities_left <= 1
    if state.stand_size(mover) == 0:
        assert state.supplies[mover] == ""
    best = max((state.scores[s], len(state.cities[s])) for s in range(state.players))
    assert state.result.winners == tuple(s for s in range(state.players)
                                         if (state.scores[s], len(state.cities[s])) == best)
    outcome = GAME.outcome(state)
    assert outcome.winners == state.result.winners
    assert outcome.winner == (state.result.winners[0] if len(state.result.winners) == 1 else None)


def play_checked(seed, players, cards, greedy, first=None):
    """Walk a whole game, checking after every event; returns (events, final state)."""
    events, start, state = [], None, None
    for event, state in walk(seed, players, cards, first, greedy):
        if event is None:
            start = state
            assert state.available == sorted(state.available)
            if cards == "basic":
                assert tuple(state.available) == BASIC_CARDS
            else:
                assert len(state.available) == 7 and set(state.available) <= set(ALL_CARDS)
        else:
            events.append(event)
        check_invariants(state, start)
    assert len(events) < MAX_EVENTS
    check_end(state, events)
    return events, start, state


# -- whole games -------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("cards", CARDS)
@pytest.mark.parametrize("seed, greedy", [(1, False), (2, True), (3, True)])
def test_random_games_keep_the_invariants_and_end(players, cards, seed, greedy):
    events, start, final = play_checked(seed, players, cards, greedy)
    assert GAME.replay(seed, {"ziggurat_cards": cards}, players, None, events) == final
    assert GAME.replay(seed, {"ziggurat_cards": cards}, players, start.to_move, events) == final


@GAMES
@given(seed=st.integers(min_value=0, max_value=2**64 - 1), players=st.sampled_from([2, 3, 4]),
       cards=st.sampled_from(CARDS), greedy=st.booleans(),
       first=st.none() | st.integers(min_value=0, max_value=3))
def test_any_seed_keeps_the_invariants_and_ends(seed, players, cards, greedy, first):
    first = None if first is None else first % players
    events, start, final = play_checked(seed, players, cards, greedy, first)
    if first is not None:
        assert start.to_move == first
    assert GAME.replay(seed, {"ziggurat_cards": cards}, players, first, events) == final


def test_the_sample_reaches_pauses_cards_fields_and_extra_turns():
    seen = Counter()
    for seed in range(6):
        for players in (2, 3, 4):
            game = random_game(seed, players, CARDS[seed % 2], greedy=True)
            for event in game.events:
                if event["type"] == "card":
                    seen["owed card"] += 1
                    continue
                steps = parse(event["steps"])
                seen["3+ farmers"] += sum(isinstance(s, Play) and s.kind == "F" for s in steps) >= 3
                for step in steps:
                    seen[type(step).__name__] += 1
            for causes in game.state.causes:
                for _, cause in causes:
                    seen[cause.split(" at ")[0].split(",")[0]] += 1
            seen["shared win"] += len(game.state.result.winners) > 1
    for kind in ("owed card", "3+ farmers", "Score", "Card", "Extra", "ziggurat card 1",
                 "token next to a ziggurat", "field 5", "field 6", "field 7", "field cities"):
        assert seen[kind] >= 1, f"{kind!r} never happened: {seen}"


# -- the first round and each event -------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_first_player_plays_one_token_and_the_second_two(players):
    for seed in range(4):
        game = random_game(seed, players)
        turns = [e for e in game.events if e["type"] == "turn"]
        plays = [sum(isinstance(s, Play) for s in parse(e["steps"])) for e in turns]
        assert plays[:2] == [1, 2]
        assert [e["seat"] for e in turns[:players]] == \
            [(game.first + i) % players for i in range(players)]


def test_apply_never_changes_its_input_and_refuses_the_wrong_seat():
    for players in (2, 3, 4):
        state = GAME.start(11, {}, players, None)
        for event, after in list(walk(11, players, greedy=True))[1:]:
            before = GAME.snapshot(state)
            for other in range(players):
                if other != event["seat"]:
                    with pytest.raises(GameError):
                        GAME.apply(state, dict(event, seat=other))
            applied = GAME.apply(state, event)
            assert applied is not state and GAME.snapshot(state) == before
            assert applied == after
            state = applied
        with pytest.raises(GameError):
            GAME.apply(state, GAME.resign_event(0))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_resignation_at_any_point_ends_the_game(players):
    game = random_game(5, players, greedy=True)
    state = GAME.start(5, {}, players, None)
    for n, event in enumerate(game.events):
        if n % 7 == 0:
            seat = n % players
            over = GAME.apply(state, GAME.resign_event(seat))
            assert over.result.reason == "resigned" and seat not in over.result.winners
            assert GAME.to_act(over) == [] and GAME.legal_steps(over, seat) == []
            timed = GAME.apply(state, GAME.timeout_event(seat))
            assert timed.result.reason == "timeout"
        state = GAME.apply(state, event)
