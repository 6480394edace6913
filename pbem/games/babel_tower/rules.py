"""The rules of Babel Tower (docs/games/tower-rulings.md): picking, placing, and the end.

`violation` names the first rule a placement breaks, in one sentence with the
face and the corner; the other functions change a state in place.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..errors import IllegalStep
from ..phrases import phrase
from .cubes import CORNERS, CUBES, OUTER, SHAPES, SIDES, TYPES, canonical, shape_error
from .state import BUILD, DRAFT, Placed, Result, Tower
from .words import corner_name


def pick(state: Tower, cube: int) -> None:
    if state.phase != DRAFT:
        raise IllegalStep(phrase("the draft is over: every cube has been picked."))
    if not state.pool[cube]:
        raise IllegalStep(phrase("no {cube} is left in the pool.", cube=cube))
    state.pool[cube] -= 1
    state.hands[state.to_move][cube] += 1
    state.picks += 1
    if state.picks == CUBES:   # the player who picked last places first
        state.phase = BUILD
        check_blocked(state)
    else:
        state.to_move = 1 - state.to_move


def violation(state: Tower, cube: int, corner: str, bumps: frozenset[str]) -> str | None:
    """The first rule this placement breaks, or None."""
    floor_no = state.floor
    floor = state.floors[floor_no]
    if corner in floor:
        return phrase("{corner} on floor {floor} is taken; the lowest incomplete floor is built "
                      "first.", corner=corner_name(corner), floor=floor_no + 1)
    problem = shape_error(cube, bumps)
    if problem:
        return phrase("{rule}.", rule=problem)
    if floor_no == 0 and floor and not any(n in floor for n in SIDES[corner]):
        return phrase("on the ground floor a cube must share a side with one already placed; "
                      "{corner} touches none.", corner=corner_name(corner))
    outward = sorted(bumps & OUTER[corner], key="NESW".index)
    if outward:
        return phrase("a bump faces outward ({faces}) at {corner}.", faces="".join(outward),
                      corner=corner_name(corner))
    if floor_no == 0 and "D" in bumps:
        return phrase("a bump faces down on the ground floor at {corner}.", corner=corner_name(corner))
    for neighbour, face in SIDES[corner].items():
        other = floor.get(neighbour)
        if other is not None:
            problem = _joint(face in bumps, SIDES[neighbour][corner] in other.bumps, neighbour)
            if problem:
                return problem
    if floor_no > 0:
        below = state.floors[floor_no - 1][corner]
        return _joint("D" in bumps, "U" in below.bumps, None)
    return None


def _joint(mine: bool, theirs: bool, neighbour: str | None) -> str | None:
    """What is wrong with a joint with the cube at corner `neighbour` (None: the cube below)."""
    if mine == theirs and neighbour is None:
        return (phrase("the joint with the cube below would be bump on bump.") if mine else
                phrase("the joint with the cube below would be hollow on hollow."))
    if mine == theirs and neighbour is not None:
        name = corner_name(neighbour)
        return (phrase("the joint with {corner} would be bump on bump.", corner=name) if mine
                else phrase("the joint with {corner} would be hollow on hollow.", corner=name))
    return None


def place(state: Tower, cube: int, corner: str, bumps: frozenset[str]) -> None:
    if state.phase != BUILD:
        raise IllegalStep(phrase("cubes are placed once the draft is over."))
    if not state.hands[state.to_move][cube]:
        raise IllegalStep(phrase("you hold no {cube}.", cube=cube))
    problem = violation(state, cube, corner, bumps)
    if problem:
        raise IllegalStep(problem)
    state.floors[state.floor][corner] = Placed(cube, bumps, state.to_move)
    state.hands[state.to_move][cube] -= 1
    if state.placed() == CUBES:
        state.result = Result(None, "complete")
        return
    state.to_move = 1 - state.to_move
    check_blocked(state)


def placements(state: Tower, seat: int) -> Iterator[tuple[int, str, frozenset[str]]]:
    """Every legal (cube, corner, bumps) for `seat` now."""
    if state.phase != BUILD or state.result is not None or seat != state.to_move:
        return
    floor = state.floors[state.floor]
    for cube in TYPES:
        if state.hands[seat][cube]:
            for corner in CORNERS:
                if corner not in floor:
                    for bumps in SHAPES[cube]:
                        if violation(state, cube, corner, bumps) is None:
                            yield cube, corner, bumps


def check_blocked(state: Tower) -> None:
    """A player who must place and has no legal placement loses."""
    if next(placements(state, state.to_move), None) is None:
        state.result = Result(1 - state.to_move, "blocked")


def describe(cube: int, corner: str, bumps: frozenset[str]) -> str:
    return f"place {cube} {corner} {canonical(bumps)}"

