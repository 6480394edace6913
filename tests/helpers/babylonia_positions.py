"""Small Babylonia positions on the real board, for rule tests, and playing on them.

A position starts from a real deal (`GAME.start`), then the tests say what
matters: which tiles lie where, which tokens are on the board (`"0F g6, 1P h6"`:
seat, kind, hex; a token on a river lies face down by itself), each stand and
supply, scores, cities in front, cards held, who is to move and the turn index
(2 unless told: past the first round's limits).

By default the dealt tiles are cleared: only the tiles a test names lie on the
board, plus two spare cities far from every test (`SPARE`) so that a turn does
not end the game for "at most one city left". `dealt=True` keeps the deal;
`keep=("g7", ...)` keeps only the dealt tiles on those sites.

Hexes used here (2 players: north and centre; the ziggurats are b2, i7, c10):
    b2  ziggurat: land b1 b3 a3 a2, rivers c2 c3
    i7  ziggurat: land i6 j6 j7 i8 h7 h6
    c10 ziggurat: land d10 c11 b10 b9, rivers c9 d9
    f10 site: land g10 g11 f11 e11, rivers f9 e10 (e10 touches e9 in the north)
    g7  site: land g6 h6 h7 g8, rivers f7 f6
    h10 site: land h9 i10 i11 h11 g11 g10
    d2  site: land e2 e3 d3, rivers c3 c2
"""

from __future__ import annotations

import pytest

from pbem.games.babylonia import GAME
from pbem.games.babylonia.state import KIND_INDEX, Token, Turn
from pbem.games.errors import GameError

SPARE = {2: {"a7": "city P", "b5": "city M"},
         3: {"m12": "city P", "o12": "city M"},
         4: {"a7": "city P", "b5": "city M"}}


def counts(letters: str) -> list[int]:
    """A stand as counts of F, P, M, O from letters ("FFPMO")."""
    stand = [0, 0, 0, 0]
    for letter in letters:
        stand[KIND_INDEX[letter]] += 1
    return stand


def put_tokens(state, text: str) -> None:
    """Tokens written "0F g6, 1P h6" (seat, kind, hex); face down on a river."""
    for item in filter(None, (p.strip() for p in text.replace(";", ",").split(","))):
        who, hex = item.split()
        state.tokens[hex] = Token(int(who[0]), who[1], down=state.board.is_river(hex))


def position(players: int = 2, *, tiles: dict[str, str] | None = None, dealt: bool = False,
             keep=None, spare: bool = True, tokens: str = "", stands=None, supplies=None, cards=None,
             used=None, available=None, scores=None, cities=None, scored=(), to_move: int = 0,
             index: int = 2, seed: int = 7, options=None):
    """A position as described in the module's docstring."""
    state = GAME.start(seed, options or {}, players, first=to_move)
    if keep is not None:
        state.tiles = {h: t for h, t in state.tiles.items() if h in keep}
    elif not dealt:
        state.tiles = dict(SPARE[players]) if spare else {}
    state.tiles.update(tiles or {})
    put_tokens(state, tokens)
    state.stands = [counts(s) for s in (stands or ["FFPMO"] * players)]
    state.supplies = list(supplies or ["FFFFFFFFFF"] * players)
    if scores is not None:
        state.scores = list(scores)
    if cities is not None:
        state.cities = [list(c) for c in cities]
    if cards is not None:
        state.cards = [list(c) for c in cards]
    if used is not None:
        state.used = [list(u) for u in used]
    held = {c for hand in state.cards for c in hand}
    if available is not None:
        state.available = sorted(available)
    else:
        state.available = [c for c in state.available if c not in held]
    state.scored = set(scored)
    state.to_move = to_move
    state.turn = Turn(index)
    return state


def submit(state, text: str, seat: int | None = None):
    """The server's path: decide, then apply the event; a new state."""
    seat = state.to_move if seat is None else seat
    event = GAME.decide(state, seat, text)
    return GAME.apply(state, event)


def answer(state, seat: int, text: str):
    """An owed decision (`card N`) through the server's path."""
    return GAME.apply(state, GAME.decide(state, seat, text))


def rejected(state, text: str, seat: int | None = None, error=GameError) -> str:
    """The message of a submission the server refuses; the state is left as it was."""
    seat = state.to_move if seat is None else seat
    before = state.copy()
    with pytest.raises(error) as info:
        GAME.decide(state, seat, text)
    assert state == before
    return str(info.value)


def draft_error(state, text: str, seat: int | None = None) -> str:
    """The first failing step of a draft, as the player reads it."""
    seat = state.to_move if seat is None else seat
    draft = GAME.draft(state, seat, text)
    assert draft.error is not None, f"{text!r} was accepted"
    return str(draft.error)


def points(state, seat: int = 0) -> int:
    return state.scores[seat]


def causes(state, seat: int = 0) -> list[tuple[int, str]]:
    return list(state.causes[seat])


def board_tokens(state) -> dict[str, str]:
    """hex -> "0F" (seat and kind; lower case when face down)."""
    return {h: f"{t.seat}{t.kind.lower() if t.down else t.kind}" for h, t in state.tokens.items()}
