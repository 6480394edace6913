"""Helpers for Babel Tower's tests: positions built by hand, random games, a complete
tower arranged as a whole game, and the rulings read again independently of the engine
(docs/games/tower-rulings.md), so a rule the engine gets wrong in both `decide` and `legal_steps`
still shows.
"""

from __future__ import annotations

from itertools import combinations

from pbem.games.babel_tower import GAME
from pbem.games.babel_tower.cubes import canonical
from pbem.games.babel_tower.rules import violation
from pbem.games.babel_tower.search import complete_tower
from pbem.games.babel_tower.state import BUILD, DRAFT, Placed, Tower
from pbem.games.errors import GameError
from pbem.games.rng import Rng

FACES = "UDNESW"
CORNERS = ("NW", "NE", "SE", "SW")
COUNTS = [6, 6, 2, 6, 4]
OPPOSITE = {"U": "D", "D": "U", "N": "S", "S": "N", "E": "W", "W": "E"}
SUBSETS = ["".join(c) for r in range(7) for c in combinations(FACES, r)]

# -- the geometry, from the rulings alone ------------------------------------------------
#: corner -> (x, y): x grows to the east, y to the north.
XY = {"NW": (0, 1), "NE": (1, 1), "SE": (1, 0), "SW": (0, 0)}


def outer(corner: str) -> set[str]:
    x, y = XY[corner]
    return {"W" if x == 0 else "E", "S" if y == 0 else "N"}


def toward(corner: str, other: str) -> str | None:
    """The face of `corner` that touches `other` on the same floor (None: diagonal or same)."""
    (x, y), (a, b) = XY[corner], XY[other]
    if (x, y) == (a, b) or (x != a and y != b):
        return None
    if x != a:
        return "E" if a > x else "W"
    return "N" if b > y else "S"


def shape_ok(cube: int, bumps: set[str]) -> bool:
    """The rulings' table: 0; any one; two sharing an edge; three around a corner;
    four whose two hollows share an edge."""
    if len(bumps) != cube:
        return False
    if cube == 3:
        return any(bumps == {a, b, c} for a in "UD" for b in "NS" for c in "EW")
    if cube == 4:
        hollows = set(FACES) - bumps
        return not any(OPPOSITE[h] in hollows for h in hollows)
    return not any(OPPOSITE[f] in bumps for f in bumps)


def lowest_incomplete(state: Tower) -> int:
    return next((i for i, f in enumerate(state.floors) if len(f) < 4), 6)


def fits(state: Tower, cube: int, corner: str, bumps: set[str]) -> bool:
    """Whether the rulings allow this placement now (the cube's ownership aside)."""
    level = lowest_incomplete(state)
    floor = state.floors[level]
    if corner in floor or not shape_ok(cube, bumps):
        return False
    if level == 0 and floor and not any(toward(corner, c) for c in floor):
        return False
    if bumps & outer(corner) or (level == 0 and "D" in bumps):
        return False
    for other, placed in floor.items():
        face = toward(corner, other)
        if face and (face in bumps) == (toward(other, corner) in placed.bumps):
            return False
    if level > 0 and ("D" in bumps) == ("U" in state.floors[level - 1][corner].bumps):
        return False
    return True


def oracle(state: Tower, seat: int) -> set[str]:
    """Every legal step of `seat`, as canonical notation, by the rulings."""
    if state.result is not None or seat != state.to_move:
        return set()
    if state.phase == DRAFT:
        return {f"pick {t}" for t in range(5) if state.pool[t]}
    return {f"place {t} {corner} {canonical(faces)}"
            for t in range(5) if state.hands[seat][t]
            for corner in CORNERS for faces in SUBSETS if fits(state, t, corner, set(faces))}


def invariants(state: Tower) -> None:
    """What must hold in every state of every game."""
    placed = [p for f in state.floors for p in f.values()]
    per_type = [state.pool[t] + state.hands[0][t] + state.hands[1][t]
                + sum(1 for p in placed if p.cube == t) for t in range(5)]
    assert per_type == COUNTS, per_type                                   # 24 cubes
    held = [state.pool[t] + state.hands[0][t] + state.hands[1][t] for t in range(5)]
    assert sum(t * n for t, n in enumerate(held)) + sum(len(p.bumps) for p in placed) == 44
    assert all(n >= 0 for n in state.pool + state.hands[0] + state.hands[1])
    for p in placed:
        assert shape_ok(p.cube, set(p.bumps)), p
    if state.phase == DRAFT:
        assert not placed and sum(state.pool) + state.picks == 24
        assert (sum(state.hands[state.to_move])
                == sum(state.hands[1 - state.to_move]) + (state.picks % 2 and -1))
    else:
        assert sum(state.pool) == 0
        mine = [sum(1 for p in placed if p.seat == s) + sum(state.hands[s]) for s in (0, 1)]
        assert mine == [12, 12], mine
    seen_gap = False                                                       # floors bottom-up
    for number, floor in enumerate(state.floors):
        if seen_gap:
            assert not floor, f"floor {number + 1} begun before the one below is full"
        if len(floor) < 4:
            seen_gap = True
        for corner, p in floor.items():
            assert not p.bumps & outer(corner), (number, corner, p)       # no outward bump
            if number == 0:
                assert "D" not in p.bumps, (corner, p)                    # not into the table
            for other, q in floor.items():                                 # side joints
                face = toward(corner, other)
                if face:
                    assert (face in p.bumps) != (toward(other, corner) in q.bumps), (number, corner, other)
            if number + 1 < len(state.floors) and corner in state.floors[number + 1]:
                above = state.floors[number + 1][corner]                   # stacked joints
                assert ("U" in p.bumps) != ("D" in above.bumps), (number, corner)
    ground = state.floors[0]
    if len(ground) == 2:                                                   # no diagonal start
        a, b = ground
        assert toward(a, b), ground


# -- positions by hand -------------------------------------------------------------------

def cube(text: str, seat: int = 0) -> Placed:
    """`"3 UES"` -> a placed 3 with those bumps."""
    kind, faces = text.split()
    return Placed(int(kind), frozenset(faces.replace("-", "")), seat)


def position(*floors: dict[str, str], hands=([6, 6, 2, 6, 4], [6, 6, 2, 6, 4]), to_move: int = 0) -> Tower:
    """A building position: floors as {corner: "T FACES"}, both supplies, whose turn."""
    state = Tower([0] * 5, hands, to_move=to_move, phase=BUILD)
    count = 0
    for number, floor in enumerate(floors):
        for corner, text in floor.items():
            placed = cube(text, count % 2)
            assert state.floor == number, "floors are filled bottom-up"
            assert violation(state, placed.cube, corner, placed.bumps) is None, (number, corner, text)
            state.floors[number][corner] = placed
            count += 1
    return state


def refusal(state: Tower, seat: int, text: str) -> str:
    """The sentence `decide` refuses a submission with (fails if it is accepted)."""
    try:
        event = GAME.decide(state, seat, text)
    except GameError as error:
        return str(error)
    raise AssertionError(f"{text!r} was accepted: {event}")


def accepts(state: Tower, seat: int, text: str) -> Tower:
    return GAME.apply(state, GAME.decide(state, seat, text))


# -- whole games ---------------------------------------------------------------------------

def random_states(seed: int, draft: str = "pick", first: int | None = None):
    """(state, events) after every step of a game of random legal steps, the start included."""
    rng = Rng.derived(seed, "tower-tests")
    state = GAME.start(seed, {"draft": draft}, 2, first)
    events: list[dict] = []
    yield state, events
    while owed := GAME.to_act(state):
        seat = owed[0].seat
        event = GAME.decide(state, seat, GAME.random_submission(state, seat, rng))
        state = GAME.apply(state, event)
        events = events + [event]
        yield state, events


_TOWER = None


def the_tower() -> list[tuple[int, str, frozenset]]:
    global _TOWER
    if _TOWER is None:
        _TOWER = complete_tower()
    return _TOWER


def tower_game(first: int = 0, path=None) -> list[tuple[int, str]]:
    """(seat, step) of a whole pick-draft game that builds `path` (a complete tower by default):
    `first` picks first, so seat 1 - first picks last and places first; each picks what he
    must place."""
    path = path or the_tower()
    placer = 1 - first
    need: dict[int, list[int]] = {0: [], 1: []}
    places = []
    for i, (kind, corner, bumps) in enumerate(path):
        seat = (placer + i) % 2
        need[seat].append(kind)
        places.append((seat, f"place {kind} {corner} {canonical(bumps)}"))
    picks, seat = [], first
    for _ in range(24):
        picks.append((seat, f"pick {need[seat].pop()}"))
        seat = 1 - seat
    return picks + places
