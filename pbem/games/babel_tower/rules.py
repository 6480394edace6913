"""The rules of Babel Tower (TOWER-RULINGS.md): picking, placing, and the end.

`violation` names the first rule a placement breaks, in one sentence with the
face and the corner; the other functions change a state in place.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..errors import IllegalStep
from .cubes import CORNERS, CUBES, OUTER, SHAPES, SIDES, TYPES, canonical, shape_error
from .state import BUILD, DRAFT, Placed, Result, Tower


def pick(state: Tower, cube: int) -> None:
    if state.phase != DRAFT:
        raise IllegalStep("the draft is over: every cube has been picked.")
    if not state.pool[cube]:
        raise IllegalStep(f"no {cube} is left in the pool.")
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
        return f"{corner} on floor {floor_no + 1} is taken; the lowest incomplete floor is built first."
    problem = shape_error(cube, bumps)
    if problem:
        return problem + "."
    if floor_no == 0 and floor and not any(n in floor for n in SIDES[corner]):
        return f"on the ground floor a cube must share a side with one already placed; {corner} touches none."
    outward = sorted(bumps & OUTER[corner], key="NESW".index)
    if outward:
        return f"a bump faces outward ({''.join(outward)}) at {corner}."
    if floor_no == 0 and "D" in bumps:
        return f"a bump faces down on the ground floor at {corner}."
    for neighbour, face in SIDES[corner].items():
        other = floor.get(neighbour)
        if other is not None:
            problem = _joint(face in bumps, SIDES[neighbour][corner] in other.bumps, neighbour)
            if problem:
                return problem
    if floor_no > 0:
        below = state.floors[floor_no - 1][corner]
        return _joint("D" in bumps, "U" in below.bumps, "the cube below")
    return None


def _joint(mine: bool, theirs: bool, what: str) -> str | None:
    if mine and theirs:
        return f"the joint with {what} would be bump on bump."
    if not mine and not theirs:
        return f"the joint with {what} would be hollow on hollow."
    return None


def place(state: Tower, cube: int, corner: str, bumps: frozenset[str]) -> None:
    if state.phase != BUILD:
        raise IllegalStep("cubes are placed once the draft is over.")
    if not state.hands[state.to_move][cube]:
        raise IllegalStep(f"you hold no {cube}.")
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

