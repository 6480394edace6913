"""Step 1 of a turn: playing tokens from the stand (docs/games/babylonia-rulings.md, "A turn" 1).

A turn's tokens follow one of these ways, each a rule of its own:
- `two`: exactly 2 tokens of any kind (fewer when the stand holds fewer);
- `farmers`: 3 or more farmers, none on a river; with card 5 also 1 noble face up;
- `nobles` (card 4): exactly 3 different nobles, face up;
- round 1: the first player exactly 1 token, the second exactly 2.
Face up means not on a river, where every token lies face down.
"""

from __future__ import annotations

from functools import cache

from ..errors import IllegalStep
from ..phrases import phrase
from .board import board
from .state import KIND_INDEX, NOBLES, State, Token

ROUND_ONE = {0: phrase("in the first round the first player plays exactly 1 token"),
             1: phrase("in the first round the second player plays exactly 2 tokens")}
WAYS = phrase("a turn plays exactly 2 tokens, or 3 or more farmers")
#: "your stand holds no farmer": one sentence per kind (each language declines the token).
NONE_OF = {"F": phrase("your stand holds no farmer"), "P": phrase("your stand holds no priest"),
           "M": phrase("your stand holds no merchant"),
           "O": phrase("your stand holds no official")}
#: The tokens of a turn as played: (kind, hex) in order.
Way = list[tuple[str, str]]


def is_free(state: State, hex: str) -> bool:
    """No tile, no ziggurat, no token."""
    b = state.board
    return (hex in b.hexes and b.hexes[hex].kind != "ziggurat"
            and hex not in state.tiles and hex not in state.tokens)


def stand_at_start(state: State, seat: int) -> list[int]:
    stand = list(state.stands[seat])
    for kind, _ in state.current.placed:
        stand[KIND_INDEX[kind]] += 1
    return stand


def way_problems(state: State, seat: int, placed: Way, complete: bool) -> str | None:
    """None when `placed` is (complete: exactly; else the start of) a legal way; else why not."""
    turn = state.current
    size, index = sum(state.stands[seat]) + len(turn.placed), turn.index    # the stand at start
    if index in ROUND_ONE:
        need = min(index + 1, size)
        ok = len(placed) == need if complete else len(placed) <= need
        return None if ok else ROUND_ONE[index]
    two = _two(placed, min(2, size), complete)
    if two is None:
        return None         # the commonest answer, before the other ways are worked out
    stand = stand_at_start(state, seat)
    reasons = [two, _farmers(state, seat, stand, placed, complete)]
    if state.has(seat, 4):
        reasons.append(_nobles(state, stand, placed, complete))
    if None in reasons:
        return None
    # Fix: three or more nobles alone, with card 4, are card 4's way gone wrong (two equal,
    # one on a river); say so rather than "only farmers can be played as 3 or more tokens".
    if state.has(seat, 4) and len(placed) > 2 and all(kind != "F" for kind, _ in placed):
        return reasons[2]
    return next((r for r in reasons[1:] if r and len(placed) > 2), reasons[0])


def _two(placed: Way, need: int, complete: bool) -> str | None:
    ok = len(placed) == need if complete else len(placed) <= need
    return None if ok else WAYS


def _farmers(state: State, seat: int, stand: list[int], placed: Way, complete: bool) -> str | None:
    nobles = sum(1 for kind, _ in placed if kind != "F")
    farmers = len(placed) - nobles
    if nobles > (1 if state.has(seat, 5) else 0):
        return (phrase("with card 5, at most 1 noble goes with 3 or more farmers")
                if state.has(seat, 5) else phrase("only farmers can be played as 3 or more tokens"))
    if any(state.board.is_river(h) for _, h in placed):
        return phrase("tokens played with 3 or more farmers may not go onto a river")
    if stand[KIND_INDEX["F"]] < 3:
        return WAYS
    if complete and farmers < 3:
        return WAYS
    return None


def _nobles(state: State, stand: list[int], placed: Way, complete: bool) -> str | None:
    kinds = [kind for kind, _ in placed]
    if len(kinds) > 3:
        return phrase("with card 4, play exactly 3 different nobles")
    if "F" in kinds or len(set(kinds)) < len(kinds):
        return phrase("with card 4, the three nobles must all differ")
    if any(state.board.is_river(h) for _, h in placed):
        return phrase("with card 4, the nobles are played face up, so not onto a river")
    if any(stand[KIND_INDEX[k]] == 0 for k in NOBLES):
        return WAYS
    if complete and len(kinds) != 3:
        return phrase("with card 4, play exactly 3 different nobles")
    return None


def check_play(state: State, seat: int, kind: str, hex: str) -> None:
    """Raise IllegalStep (message only) when this token may not go onto this hex now."""
    b = state.board
    if state.stands[seat][KIND_INDEX[kind]] == 0:
        raise IllegalStep(NONE_OF[kind])
    if hex not in b.hexes:
        raise IllegalStep(phrase("{hex} is not on the board in play", hex=hex))
    if b.hexes[hex].kind == "ziggurat":
        raise IllegalStep(phrase("{hex} is a ziggurat", hex=hex))
    if hex in state.tokens:
        raise IllegalStep(phrase("{hex} already holds a token", hex=hex))
    tile = state.tiles.get(hex)
    if tile and tile.startswith("city"):
        raise IllegalStep(phrase("{hex} holds a city; nothing may go onto it", hex=hex))
    if tile:
        _check_field(state, seat, kind, hex)
    problem = way_problems(state, seat, state.current.placed + [(kind, hex)], complete=False)
    if problem:
        raise IllegalStep(problem)


def _check_field(state: State, seat: int, kind: str, hex: str) -> None:
    problem = field_problem(state, seat, kind, hex)
    if problem:
        raise IllegalStep(problem)


def fields_open(state: State, seat: int, kind: str, hexes: list[str]) -> list[str]:
    """Those of the field hexes where `field_problem` finds nothing, in order (all at once,
    for listing legal steps: a farmer's neighbours looked up directly)."""
    if kind != "F":
        return list(hexes) if state.has(seat, 6) else []
    mine = {hex for hex, token in state.tokens.items() if token.seat == seat}
    near = _neighbour_sets(state.players)
    return [h for h in hexes if not near[h].isdisjoint(mine)]


@cache
def _neighbour_sets(players: int) -> dict[str, frozenset[str]]:
    return {hex: frozenset(near) for hex, near in board(players).neighbours.items()}


def field_problem(state: State, seat: int, kind: str, hex: str) -> str | None:
    """Why this token may not go onto the field at `hex` (None: it may, as far as the field goes)."""
    if kind != "F":
        return None if state.has(seat, 6) else phrase("a noble cannot go onto a field without card 6")
    tokens = state.tokens
    if not any(tokens.get(n, _NOBODY).seat == seat for n in state.board.neighbours[hex]):
        return phrase("a farmer goes onto the field at {hex} only next to another token of yours",
                      hex=hex)
    return None


_NOBODY = Token(-1, "F")


def play(state: State, seat: int, kind: str, hex: str) -> None:
    """Put the token down (checked before), then score a field and ziggurat neighbours."""
    b = state.board
    state.stands[seat][KIND_INDEX[kind]] -= 1
    state.tokens[hex] = Token(seat, kind, down=b.is_river(hex))
    state.current.placed.append((kind, hex))
    tile = state.tiles.pop(hex, None)
    state.token_down(hex, tile is not None)
    if tile:
        value = tile.split()[1]
        points = sum(len(c) for c in state.cities) if value == "cities" else int(value)
        state.score(seat, points, f"{tile} at {hex}")
    if any(b.hexes[n].kind == "ziggurat" for n in b.neighbours[hex]):
        # Decision: a scored ziggurat stays on the board, so it is still "in play" here.
        touched = sum(1 for z in b.ziggurats if next_to(state, z, seat))
        state.score(seat, touched, f"token next to a ziggurat at {hex}")


def next_to(state: State, hex: str, seat: int) -> int:
    """How many tokens of this seat lie next to the hex."""
    return sum(1 for n in state.board.neighbours[hex]
               if n in state.tokens and state.tokens[n].seat == seat)
