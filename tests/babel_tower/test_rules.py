"""Babel Tower's rules, each on its legal and its illegal side (docs/games/tower-rulings.md).

Positions are built by hand (`tower_kit.position`); every refusal is checked by its
whole sentence, which names the rule, the face and the corner (the corner and the step
as written come in the prefix `step 1 (...)`).
"""

from __future__ import annotations

import pytest
from tower_kit import (
    CORNERS,
    SUBSETS,
    accepts,
    oracle,
    position,
    refusal,
    shape_ok,
    the_tower,
    toward,
    tower_game,
)

from pbem.games.babel_tower import GAME
from pbem.games.babel_tower.cubes import FACES, SHAPES, SIDES, canonical
from pbem.games.babel_tower.rules import violation
from pbem.games.babel_tower.state import BUILD, DRAFT, Tower
from pbem.games.errors import IllegalStep, NotationError, WrongDecision

#: A ground floor whose up faces are all hollows: every cube of floor 2 needs a bump down.
HOLLOW_TOP = {"NW": "2 ES", "NE": "1 S", "SE": "1 W", "SW": "0 -"}
#: A ground floor whose up faces are all bumps (the searched tower's): floor 2 needs hollows down.
BUMPY_TOP = {"NW": "3 UES", "NE": "2 US", "SE": "2 UW", "SW": "1 U"}


def legal(state: Tower, seat: int | None = None) -> set[str]:
    seat = state.to_move if seat is None else seat
    found = {o.notation for o in GAME.legal_steps(state, seat)}
    assert found == oracle(state, seat)          # the engine agrees with the rulings read again
    return found


def step(state: Tower, text: str) -> str:
    """Why the player to move may not play `text`."""
    return refusal(state, state.to_move, text)


# -- the cubes ---------------------------------------------------------------------------

def test_every_orientation_of_each_cube_type():
    assert {t: len(SHAPES[t]) for t in SHAPES} == {0: 1, 1: 6, 2: 12, 3: 8, 4: 12}
    for t, shapes in SHAPES.items():
        assert set(shapes) == {frozenset(s) for s in SUBSETS if shape_ok(t, set(s))}
    assert sum((6, 6, 2, 6, 4)[t] * t for t in range(5)) == 44


def test_a_cube_has_as_many_bumps_as_its_type():
    empty = position()
    assert "place 1 NW E" in legal(empty)
    assert step(empty, "place 1 NW -") == "step 1 (place 1 NW -): a 1 has 1 bump, not 0."
    assert step(empty, "place 0 NW E") == "step 1 (place 0 NW E): a 0 has 0 bumps, not 1."
    assert step(empty, "place 3 NW UE") == "step 1 (place 3 NW UE): a 3 has 3 bumps, not 2."


def test_two_bumps_are_never_opposite():
    empty = position()
    accepts(empty, 0, "place 2 NW ES")
    accepts(empty, 0, "place 2 NW UE")
    assert step(empty, "place 2 NW UD") == (
        "step 1 (place 2 NW UD): a 2's bumps sit on two faces that share an edge; U and D are opposite.")
    assert step(empty, "place 2 NW SN") == (
        "step 1 (place 2 NW SN): a 2's bumps sit on two faces that share an edge; N and S are opposite.")


def test_a_threes_bumps_sit_around_one_corner():
    empty = position()
    accepts(empty, 0, "place 3 NW UES")
    accepts(empty, 0, "place 3 NW seu")
    assert step(empty, "place 3 NW UDE") == (
        "step 1 (place 3 NW UDE): a 3's bumps sit on three faces around one corner; U and D are opposite.")
    assert step(empty, "place 3 NW ESW") == (
        "step 1 (place 3 NW ESW): a 3's bumps sit on three faces around one corner; E and W are opposite.")


def test_a_fours_two_hollows_share_an_edge():
    floor2 = position(HOLLOW_TOP)
    accepts(floor2, 0, "place 4 NW UDES")         # hollows N and W
    assert step(floor2, "place 4 NW UDNS") == (   # hollows E and W
        "step 1 (place 4 NW UDNS): a 4's two hollows sit on faces that share an edge; E and W are opposite.")
    assert step(floor2, "place 4 NW NESW") == (   # hollows U and D
        "step 1 (place 4 NW NESW): a 4's two hollows sit on faces that share an edge; U and D are opposite.")


def test_the_geometry_of_a_floor():
    for corner in CORNERS:
        assert set(SIDES[corner]) == {c for c in CORNERS if toward(corner, c)}
        for other, face in SIDES[corner].items():
            assert face == toward(corner, other)
    assert toward("NW", "SE") is None and toward("NE", "SW") is None


# -- which floor, which corner -------------------------------------------------------------

def test_the_lowest_incomplete_floor_is_built_first():
    three = position({"NW": "2 ES", "NE": "1 S", "SE": "1 W"})
    assert three.floor == 0
    assert {s.split()[2] for s in legal(three)} == {"SW"}   # only the last corner of floor 1
    assert step(three, "place 1 NW U") == (
        "step 1 (place 1 NW U): NW on floor 1 is taken; the lowest incomplete floor is built first.")
    full = accepts(three, 0, "place 0 SW -")
    assert full.floor == 1 and full.floors[1] == {}
    after = accepts(full, 1, "place 1 NW D")      # the next cube goes to floor 2
    assert "NW" in after.floors[1] and len(after.floors[0]) == 4
    assert step(after, "place 1 NW D") == (
        "step 1 (place 1 NW D): NW on floor 2 is taken; the lowest incomplete floor is built first.")


def test_ground_floor_the_second_cube_shares_a_side():
    one = position({"NW": "2 ES"})
    assert step(one, "place 1 SE W") == (
        "step 1 (place 1 SE W): on the ground floor a cube must share a side with one already placed; "
        "SE touches none.")
    assert not any(s.split()[2] == "SE" for s in legal(one))
    accepts(one, 0, "place 1 NE S")
    accepts(one, 0, "place 1 SW E")
    assert {s.split()[2] for s in legal(one)} == {"NE", "SW"}


def test_any_corner_of_the_ground_floor_may_be_first():
    empty = position()
    assert {s.split()[2] for s in legal(empty)} == set(CORNERS)
    for corner in CORNERS:
        accepts(empty, 0, f"place 0 {corner} -")


def test_on_higher_floors_diagonal_placing_is_allowed():
    floor2 = accepts(position(HOLLOW_TOP), 0, "place 4 NW UDES")
    accepts(floor2, 1, "place 1 SE D")
    assert {s.split()[2] for s in legal(floor2)} == {"NE", "SE", "SW"}


# -- faces ---------------------------------------------------------------------------------

def test_no_bump_on_an_outer_face():
    one = position({"NW": "2 ES"})
    accepts(one, 0, "place 2 NE US")
    assert step(one, "place 2 NE NU") == "step 1 (place 2 NE NU): a bump faces outward (N) at NE."
    assert step(one, "place 2 NE NE") == "step 1 (place 2 NE NE): a bump faces outward (NE) at NE."
    assert step(one, "place 1 SW W") == "step 1 (place 1 SW W): a bump faces outward (W) at SW."
    floor2 = position(HOLLOW_TOP)
    assert step(floor2, "place 2 SE DE") == "step 1 (place 2 SE DE): a bump faces outward (E) at SE."
    for option in legal(floor2) | legal(position()):   # no legal placement shows a bump outward
        _, _, corner, faces = option.split()
        assert not set(corner) & set(faces), option


def test_no_bump_faces_down_on_the_ground_floor():
    one = position({"NW": "2 ES"})
    assert step(one, "place 1 NE D") == "step 1 (place 1 NE D): a bump faces down on the ground floor at NE."
    assert step(position(), "place 2 SW DN") == (
        "step 1 (place 2 SW DN): a bump faces down on the ground floor at SW.")
    accepts(position(HOLLOW_TOP), 0, "place 1 NE D")       # above the ground floor it may


def test_a_side_joint_holds_exactly_one_bump():
    bump = position({"NW": "2 ES"})                         # NW shows a bump east
    accepts(bump, 0, "place 1 NE S")                        # hollow west: bump into hollow
    assert step(bump, "place 1 NE W") == "step 1 (place 1 NE W): the joint with NW would be bump on bump."
    hollow = position({"NW": "0 -"})                        # NW shows hollows everywhere
    accepts(hollow, 0, "place 1 NE W")
    accepts(hollow, 0, "place 1 SW N")
    assert step(hollow, "place 0 NE -") == (
        "step 1 (place 0 NE -): the joint with NW would be hollow on hollow.")
    assert step(hollow, "place 1 SW E") == (
        "step 1 (place 1 SW E): the joint with NW would be hollow on hollow.")


def test_a_cube_with_two_placed_side_neighbours_fits_both():
    three = position({"NW": "1 E", "NE": "1 S"})           # NW: S hollow; NE: S bump
    # SE touches NE (north); SW touches NW (north): its own joints only.
    accepts(three, 0, "place 0 SE -")
    after = accepts(three, 0, "place 1 SE W")               # SE's W bump waits for SW
    assert step(after, "place 2 SW NE") == "step 1 (place 2 SW NE): the joint with SE would be bump on bump."
    assert step(after, "place 0 SW -") == (
        "step 1 (place 0 SW -): the joint with NW would be hollow on hollow.")
    accepts(after, 1, "place 1 SW N")


def test_the_joint_with_the_cube_below_holds_exactly_one_bump():
    hollow_below = position(HOLLOW_TOP)
    accepts(hollow_below, 0, "place 1 NW D")
    assert step(hollow_below, "place 1 NW E") == (
        "step 1 (place 1 NW E): the joint with the cube below would be hollow on hollow.")
    bump_below = position(BUMPY_TOP)
    accepts(bump_below, 0, "place 1 NW E")
    assert step(bump_below, "place 1 NW D") == (
        "step 1 (place 1 NW D): the joint with the cube below would be bump on bump.")
    assert not any("D" in s.split()[3] for s in legal(bump_below))
    assert all("D" in s.split()[3] for s in legal(hollow_below))


def test_side_and_stacked_joints_together():
    floor2 = accepts(position(HOLLOW_TOP), 0, "place 2 NW DE")     # NW on floor 2: bump east
    accepts(floor2, 1, "place 2 NE DS")                              # NE: hollow west, bump down
    assert step(floor2, "place 2 NE DW") == "step 1 (place 2 NE DW): the joint with NW would be bump on bump."
    assert step(floor2, "place 1 NE S") == (
        "step 1 (place 1 NE S): the joint with the cube below would be hollow on hollow.")


def test_faces_toward_empty_corners_and_up_faces_are_free_now():
    empty = position()
    for text in ("place 1 NW E", "place 0 NW -", "place 1 NW S", "place 1 NW U", "place 3 NW UES"):
        accepts(empty, 0, text)
    # ... and the later cube must fit them.
    bump_east = accepts(empty, 0, "place 1 NW E")
    assert step(bump_east, "place 1 NE W") == (
        "step 1 (place 1 NE W): the joint with NW would be bump on bump.")
    hollow_east = accepts(empty, 0, "place 1 NW S")
    assert step(hollow_east, "place 1 NE S") == (
        "step 1 (place 1 NE S): the joint with NW would be hollow on hollow.")
    # Up faces below floor 6 are checked by the cube that comes above them.
    for top in (HOLLOW_TOP, BUMPY_TOP):
        for corner in CORNERS:
            ups = {"U" in s.split()[3] for s in legal(position(top)) if s.split()[2] == corner}
            assert ups == {True, False}


def tower_up_to(placements: int) -> Tower:
    """The searched complete tower, its first `placements` cubes standing."""
    floors = [{} for _ in range(6)]
    for i, (kind, corner, bumps) in enumerate(the_tower()[:placements]):
        floors[i // 4][corner] = f"{kind} {canonical(bumps)}"
    return position(*floors)


def test_on_the_sixth_floor_up_faces_are_free():
    top = tower_up_to(20)
    assert top.floor == 5
    options = legal(top)
    with_up = [s for s in options if "U" in s.split()[3]]
    without = [s for s in options if "U" not in s.split()[3]]
    assert with_up and without
    for text in with_up[:3] + without[:3]:
        accepts(top, 0, text)
    # The searched tower's last floor: every cube goes in, the tower is complete.
    state = top
    for kind, corner, bumps in the_tower()[20:]:
        state = accepts(state, state.to_move, f"place {kind} {corner} {canonical(bumps)}")
    assert GAME.outcome(state).reason == "complete"


def test_the_first_cube_can_never_be_a_four():
    empty = position()
    for corner in CORNERS:
        for bumps in SHAPES[4]:
            assert violation(empty, 4, corner, bumps) is not None
    assert not any(s.startswith("place 4") for s in legal(empty))
    assert step(empty, "place 4 NW UDES") == (
        "step 1 (place 4 NW UDES): a bump faces down on the ground floor at NW.")
    assert step(empty, "place 4 NW UNES") == "step 1 (place 4 NW UNES): a bump faces outward (N) at NW."
    for seed in range(30):                 # nor in a dealt game, with fours in hand
        state = GAME.start(seed, {"draft": "random"}, 2, None)
        assert state.phase == BUILD and legal(state)
        assert not any(s.startswith("place 4") for s in legal(state))


def test_only_a_cube_one_holds():
    state = position(hands=([1, 0, 0, 0, 0], [0, 0, 0, 0, 1]))
    accepts(state, 0, "place 0 NW -")
    assert step(state, "place 1 NW E") == "step 1 (place 1 NW E): you hold no 1."
    assert legal(state) == {f"place 0 {c} -" for c in CORNERS}


# -- the draft -------------------------------------------------------------------------------

def test_the_draft_starts_with_the_whole_pool():
    state = GAME.start(7, {}, 2, 0)
    assert state.phase == DRAFT and state.pool == [6, 6, 2, 6, 4]
    assert state.hands == [[0] * 5, [0] * 5] and state.to_move == 0
    assert legal(state) == {f"pick {t}" for t in range(5)}
    assert [(d.seat, d.kind, d.label) for d in GAME.to_act(state)] == [(0, "pick", "pick a cube")]
    assert GAME.start(7, {"draft": "pick"}, 2, 1).to_move == 1
    assert {GAME.start(seed, {}, 2, None).to_move for seed in range(20)} == {0, 1}   # default: random


def test_picks_alternate_one_cube_a_turn():
    state = GAME.start(7, {}, 2, 0)
    state = accepts(state, 0, "pick 2")
    assert state.hands == [[0, 0, 1, 0, 0], [0] * 5] and state.pool == [6, 6, 1, 6, 4]
    assert state.to_move == 1
    assert refusal(state, 0, "pick 3") == "it is not your turn."
    with pytest.raises(WrongDecision):
        GAME.apply(state, {"type": "pick", "seat": 0, "step": "pick 3"})
    state = accepts(state, 1, "pick 2")
    assert state.pool[2] == 0 and "pick 2" not in legal(state)
    assert refusal(state, 0, "pick 2") == "step 1 (pick 2): no 2 is left in the pool."
    assert refusal(state, 0, "place 0 NW -") == (
        "step 1 (place 0 NW -): cubes are placed once the draft is over.")


@pytest.mark.parametrize("first", [0, 1])
def test_the_last_picker_places_first(first):
    state = GAME.start(11, {}, 2, first)
    pickers = []
    for kind in [t for t in range(5) for _ in range((6, 6, 2, 6, 4)[t])]:
        pickers.append(state.to_move)
        state = accepts(state, state.to_move, f"pick {kind}")
    assert pickers == [(first + i) % 2 for i in range(24)]
    assert state.phase == BUILD and state.pool == [0] * 5
    assert [sum(h) for h in state.hands] == [12, 12]
    assert state.to_move == pickers[-1] == 1 - first
    assert [(d.seat, d.kind) for d in GAME.to_act(state)] == [(1 - first, "place")]
    assert refusal(state, state.to_move, "pick 0") == (
        "step 1 (pick 0): the draft is over: every cube has been picked.")


def test_a_random_deal_gives_twelve_each_from_the_seed():
    deals = set()
    firsts = set()
    for seed in range(40):
        state = GAME.start(seed, {"draft": "random"}, 2, None)
        assert state.phase == BUILD and state.pool == [0] * 5
        assert [sum(h) for h in state.hands] == [12, 12]
        assert [a + b for a, b in zip(*state.hands)] == [6, 6, 2, 6, 4]
        assert GAME.start(seed, {"draft": "random"}, 2, None) == state           # deterministic
        for first in (0, 1):        # naming the first player changes only who places first
            named = GAME.start(seed, {"draft": "random"}, 2, first)
            assert named.hands == state.hands and named.to_move == first
        deals.add(tuple(map(tuple, state.hands)))
        firsts.add(state.to_move)
    assert len(deals) > 30 and firsts == {0, 1}
    assert GAME.start(3, {"draft": "RANDOM "}, 2, 0).phase == BUILD     # options are normalized


def test_game_options_and_seats_are_checked():
    from pbem.games.errors import GameError
    with pytest.raises(GameError, match="option draft='deal' is not one of pick, random"):
        GAME.start(1, {"draft": "deal"}, 2, 0)
    with pytest.raises(GameError, match="unknown option"):
        GAME.start(1, {"sumerians": "all"}, 2, 0)
    with pytest.raises(GameError, match="a game for two"):
        GAME.start(1, {}, 3, 0)
    with pytest.raises(GameError, match="seat 0 or 1"):
        GAME.start(1, {}, 2, 2)


# -- the end -----------------------------------------------------------------------------------

def blocked_before(hand_of_seat_1):
    """NW shows a hollow south, NE a bump south. After seat 0 puts a 0 at SE, SW needs bumps
    north and east (hollows south, west and down): only a 2 (NE) or a 3 (UNE) fits."""
    return position({"NW": "1 E", "NE": "1 S"}, hands=([1, 2, 0, 0, 0], hand_of_seat_1), to_move=0)


def test_a_player_who_cannot_place_loses_at_once():
    before = blocked_before([1, 2, 0, 0, 3])
    after = accepts(before, 0, "place 0 SE -")
    assert legal(after, 1) == set() and GAME.legal_steps(after, 1) == []
    assert GAME.to_act(after) == []
    outcome = GAME.outcome(after)
    assert (outcome.winner, outcome.reason) == (0, "blocked")
    assert outcome.description == "the opponent could not place any of his cubes"
    assert GAME.view(after, 1)["phase"] == "over"
    assert refusal(after, 1, "place 2 SW NE") == "the game is over."
    with pytest.raises(WrongDecision, match="the game is over"):
        GAME.apply(after, {"type": "place", "seat": 1, "step": "place 2 SW NE"})


@pytest.mark.parametrize("extra, fits", [(2, "place 2 SW NE"), (3, "place 3 SW UNE")])
def test_a_player_with_a_cube_that_fits_is_not_blocked(extra, fits):
    hand = [1, 2, 0, 0, 3]
    hand[extra] += 1
    after = accepts(blocked_before(hand), 0, "place 0 SE -")
    assert GAME.outcome(after) is None and [d.seat for d in GAME.to_act(after)] == [1]
    assert legal(after) == {fits}
    assert GAME.outcome(accepts(after, 1, fits)) is None


def test_blocked_on_a_higher_floor():
    """Floor 2 over a ground floor of up-hollows: every cube needs a bump down. A player
    left with only zeros cannot place."""
    state = position(HOLLOW_TOP, hands=([0, 3, 0, 0, 0], [3, 0, 0, 0, 0]), to_move=0)
    after = accepts(state, 0, "place 1 NW D")
    assert (GAME.outcome(after).winner, GAME.outcome(after).reason) == (0, "blocked")


def test_a_complete_tower_is_a_draw():
    state = GAME.start(21, {}, 2, 0)
    for seat, text in tower_game(first=0):
        assert GAME.outcome(state) is None
        state = accepts(state, seat, text)
    outcome = GAME.outcome(state)
    assert (outcome.winner, outcome.reason, outcome.description) == (
        None, "complete", "the tower is complete")
    assert GAME.to_act(state) == [] and GAME.scores(state) == [12, 12]
    assert state.floor == 6 and all(len(f) == 4 for f in state.floors)
    assert state.hands == [[0] * 5, [0] * 5]


@pytest.mark.parametrize("kind, reason, words", [("resign", "resigned", "the opponent resigned"),
                                                  ("timeout", "timeout", "the opponent's time ran out")])
def test_resign_and_timeout_end_the_game_at_any_point(kind, reason, words):
    draft = GAME.start(5, {}, 2, 0)
    building = GAME.start(5, {"draft": "random"}, 2, 1)
    building = accepts(building, 1, sorted(legal(building))[0])
    for state in (draft, building):
        for seat in (0, 1):         # also the seat that is not to move
            over = GAME.apply(state, {"v": 1, "type": kind, "seat": seat})
            outcome = GAME.outcome(over)
            assert (outcome.winner, outcome.reason, outcome.description) == (1 - seat, reason, words)
            assert GAME.to_act(over) == [] and GAME.outcome(state) is None   # state left unchanged
            with pytest.raises(WrongDecision, match=f"the game is over; a {kind} event cannot follow"):
                GAME.apply(over, {"v": 1, "type": kind, "seat": 1 - seat})
    assert GAME.apply(draft, GAME.resign_event(0)).result.winner == 1
    assert GAME.apply(draft, GAME.timeout_event(1)).result.winner == 0
    with pytest.raises(WrongDecision, match="seat 2 does not play"):
        GAME.apply(draft, {"type": "resign", "seat": 2})



def test_an_abort_ends_the_game_with_no_winner_in_the_draft_and_while_building():
    draft = GAME.start(5, {}, 2, 0)
    building = accepts(GAME.start(5, {"draft": "random"}, 2, 1), 1,
                       sorted(legal(GAME.start(5, {"draft": "random"}, 2, 1)))[0])
    for state in (draft, building):
        over = GAME.apply(state, GAME.abort_event("the host stops the game"))
        outcome = GAME.outcome(over)
        assert (outcome.winner, outcome.winners, outcome.reason, outcome.description) == \
            (None, (), "aborted", "the game was aborted")
        assert GAME.to_act(over) == [] and GAME.outcome(state) is None   # state left unchanged
        assert GAME.view(over, None)["phase"] == "over"
        assert GAME.view(over, 0)["outcome"] == {"winner": None, "reason": "aborted"}
        assert GAME.restore(GAME.snapshot(over)) == over
        assert GAME.notation(GAME.abort_event("x"), 1) == "aborted"
        for seat in (0, 1):
            assert GAME.legal_steps(over, seat) == [] and GAME.summary(over, seat)
            with pytest.raises(WrongDecision, match="the game is over"):
                GAME.decide(over, seat, "pick 3")
        for event in (GAME.abort_event("again"), GAME.resign_event(0), GAME.timeout_event(1)):
            with pytest.raises(WrongDecision, match="the game is over; a .* event cannot follow"):
                GAME.apply(over, event)
    resigned = GAME.apply(draft, GAME.resign_event(1))
    with pytest.raises(WrongDecision, match="the game is over; a abort event cannot follow"):
        GAME.apply(resigned, GAME.abort_event("too late"))
    for event in ({"type": "abort", "seat": 1, "why": "x"}, {"type": "abort", "seat": None}):
        with pytest.raises(WrongDecision, match="an abort is"):
            GAME.apply(draft, event)

def test_a_turn_is_exactly_one_step():
    draft = GAME.start(5, {}, 2, 0)
    assert refusal(draft, 0, "pick 3\npick 4") == "step 2 (pick 4): a turn is exactly one step."
    assert refusal(draft, 0, "pick 3; pick 3") == "step 2 (pick 3): a turn is exactly one step."
    assert refusal(draft, 0, "") == "step 1: the turn has no step; write one pick step."
    assert refusal(draft, 0, "# nothing\n> quoted") == "step 1: the turn has no step; write one pick step."
    with pytest.raises(IllegalStep):
        GAME.decide(draft, 0, "pick 3\npick 4")
    with pytest.raises(NotationError):
        GAME.decide(draft, 0, "")
    building = position()
    assert refusal(building, 0, "  \n") == "step 1: the turn has no step; write one place step."
    assert refusal(building, 0, "place 1 NW E\nplace 1 NE W") == (
        "step 2 (place 1 NE W): a turn is exactly one step.")
    # One step with a comment is one step; the event holds its canonical notation.
    event = GAME.decide(draft, 0, "  PICK 3   # a corner cube\n")
    assert event == {"v": 1, "type": "pick", "seat": 0, "step": "pick 3"}
    event = GAME.decide(building, 0, "place 3 nw seu")
    assert event == {"v": 1, "type": "place", "seat": 0, "step": "place 3 NW UES"}


def test_the_draft_of_a_decision():
    state = GAME.start(5, {}, 2, 0)
    empty = GAME.draft(state, 0, "")
    assert not empty.done and empty.error is None and empty.state == state
    done = GAME.draft(state, 0, "pick 4")
    assert done.done and done.steps == ["pick 4"] and done.state.hands[0][4] == 1
    assert state.hands[0][4] == 0                            # the state itself is left alone
    two = GAME.draft(state, 0, "pick 4\npick 4")
    assert not two.done and str(two.error) == "step 2 (pick 4): a turn is exactly one step."
    wrong = GAME.draft(state, 1, "pick 4")
    assert isinstance(wrong.error, WrongDecision)
    bad = GAME.draft(state, 0, "pick 9")
    assert isinstance(bad.error, NotationError) and "'9' is not a cube" in str(bad.error)


def test_views_are_public_and_words_are_plain():
    state = accepts(position({"NW": "2 ES"}, to_move=1), 1, "place 2 NE US")
    assert GAME.view(state, 0) == {**GAME.view(state, 1), "seat": 0} == {**GAME.view(state, None), "seat": 0}
    cell = GAME.view(state, None)["floors"][0]["NE"]
    assert cell == {"cube": 2, "bumps": "US", "seat": 1,
                    "faces": {f: f in "US" for f in FACES}}
    assert GAME.explain(state, 0, "place 3 SE unw") == ["place a 3 at SE, bumps up, north and west"]
    assert GAME.explain(state, 0, "place 0 SW -") == ["place a 0 at SW"]
    assert GAME.explain(state, 0, "place 1 SW N") == ["place a 1 at SW, bumps north"]
    assert GAME.explain(state, 0, "pick 2") == ["pick a 2"]
    assert GAME.explain(state, 0, "pick 9") == []
    assert GAME.notation({"type": "place", "seat": 0, "step": "place 2 NE US"}) == "place 2 NE US"
    assert GAME.notation({"type": "resign", "seat": 0}) == "resign"
