"""Babel Tower positions as JSON: the command line's position files and the server's snapshots.

    {"pool": [6, 6, 2, 6, 4], "hands": [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0]], "to_move": 0,
     "phase": "draft", "picks": 0, "result": null,
     "floors": [{"NW": [3, "UES", 0]}, {}, {}, {}, {}, {}]}

- `pool` and each of `hands`: how many cubes of type 0 to 4;
- `phase`: `draft` (cubes are picked from the pool) or `build`;
- `picks`: cubes picked so far (in a draft, 24 less the pool; optional);
- `floors`: six floors, bottom first, each corner (NW NE SE SW) holding [cube, bump faces
  (U D N E S W, or - for none), the seat that placed it]; a floor is built once the floors
  below it are complete (optional: an empty tower);
- `result`: null while the game runs, else [winner 0|1|null, reason] (optional).

Every field is checked; a bad one is refused with a PositionError naming it. The 24 cubes
are all somewhere: pool, hands and tower together hold each type's number.
"""

from __future__ import annotations

from typing import Any

from .. import fields as f
from .cubes import CORNERS, COUNTS, CUBES, FACES, FLOORS, TYPES, canonical, shape_error
from .state import BUILD, DRAFT, Placed, Result, Tower

FIELDS = ("pool", "hands", "to_move", "phase", "picks", "result", "floors")
REASONS = ("complete", "blocked", "resigned", "timeout", "aborted")


def to_json(state: Tower) -> dict[str, Any]:
    return {"pool": list(state.pool), "hands": [list(h) for h in state.hands],
            "to_move": state.to_move, "phase": state.phase, "picks": state.picks,
            "result": None if state.result is None else [state.result.winner, state.result.reason],
            "floors": [{c: [p.cube, canonical(p.bumps), p.seat] for c, p in floor.items()}
                       for floor in state.floors]}


def dumps(state: Tower) -> str:
    return f.dumps(to_json(state))


def loads(text: str) -> Tower:
    return from_json(f.loads(text))


def from_json(data: Any) -> Tower:
    """A checked position; raises PositionError naming the field."""
    data = f.obj(data, "", FIELDS, required=("pool", "hands", "to_move", "phase"))
    pool = _counts(data["pool"], "pool")
    hands = [_counts(h, f"hands[{i}]") for i, h in enumerate(f.listed(data["hands"], "hands", 2))]
    phase = f.one_of(data["phase"], "phase", (DRAFT, BUILD))
    floors = _floors(data.get("floors", [{}] * FLOORS))
    _all_cubes(pool, hands, floors)
    if phase == DRAFT and any(floors):
        f.fail("floors", "the tower is built once the draft is over (phase build)")
    if phase == BUILD and any(pool):
        f.fail("pool", "the pool is empty once the draft is over (phase build)")
    picked = CUBES - sum(pool)
    picks = f.whole(data.get("picks", picked if phase == DRAFT else 0), "picks", 0, CUBES)
    if phase == DRAFT and picks != picked:
        f.fail("picks", f"{picked} cubes have left the pool, not {picks}")
    return Tower(pool, hands, floors, f.seat(data["to_move"], "to_move", 2), phase,
                 _result(data.get("result")), picks)


def _counts(value: Any, path: str) -> list[int]:
    """Five counts, one per cube type, none above the game's number of that type."""
    return [f.whole(n, f"{path}[{t}]", 0, COUNTS[t])
            for t, n in enumerate(f.listed(value, path, len(TYPES)))]


def _floors(value: Any) -> list[dict[str, Placed]]:
    floors = [_floor(floor, f"floors[{i}]") for i, floor in enumerate(f.listed(value, "floors", FLOORS))]
    for i in range(1, FLOORS):
        if floors[i] and len(floors[i - 1]) < len(CORNERS):
            f.fail(f"floors[{i}]", f"floor {i + 1} is built on a complete floor {i}; "
                                   f"floor {i} has {len(floors[i - 1])} cubes")
    return floors


def _floor(value: Any, path: str) -> dict[str, Placed]:
    value = f.obj(value, path, CORNERS)
    # In the file's order, which is the order of placing (the mail summary lists it so).
    return {corner: _placed(cube, f"{path}.{corner}") for corner, cube in value.items()}


def _placed(value: Any, path: str) -> Placed:
    cube, bumps, seat = f.listed(value, path, 3)
    cube = f.whole(cube, path + "[0]", 0, len(TYPES) - 1)
    faces = f.text(bumps, path + "[1]")
    if faces != "-" and (any(face not in FACES for face in faces) or len(set(faces)) != len(faces)):
        f.fail(path + "[1]", f"must be bump faces out of U D N E S W (each once) or -, not {faces!r}")
    shape = frozenset(faces.replace("-", ""))
    problem = shape_error(cube, shape)
    if problem:
        f.fail(path + "[1]", problem)
    return Placed(cube, shape, f.seat(seat, path + "[2]", 2))


def _all_cubes(pool: list[int], hands: list[list[int]], floors: list[dict[str, Placed]]) -> None:
    """Each type's cubes are all somewhere: the pool, the hands, the tower."""
    for t in TYPES:
        placed = sum(1 for floor in floors for p in floor.values() if p.cube == t)
        held = pool[t] + hands[0][t] + hands[1][t] + placed
        if held != COUNTS[t]:
            f.fail("cubes", f"pool, hands and tower hold {held} cubes of type {t}; "
                            f"the game has {COUNTS[t]}")


def _result(value: Any) -> Result | None:
    if value is None:
        return None
    winner, reason = f.listed(value, "result", 2)
    reason = f.one_of(reason, "result[1]", REASONS)
    winner = f.seat_or_none(winner, "result[0]", 2)
    if reason in ("complete", "aborted") and winner is not None:
        f.fail("result[0]", f"a game that ends {reason} has no winner: null")
    return Result(winner, reason)
