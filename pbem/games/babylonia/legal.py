"""Every legal next step of a turn or an owed card, with its words (for composers)."""

from __future__ import annotations

from functools import lru_cache

from ..base import StepOption
from ..errors import GameError
from . import placing, turn
from .board import RIVER, ZIGGURAT, board
from .cards import CARD_WORDS
from .notation import WORDS, Card, Extra, Play, Score, Step
from .state import KIND_INDEX, KINDS, State


def legal_steps(state: State, seat: int) -> list[StepOption]:
    if state.result is not None:
        return []
    if state.card_due == seat and state.turn.submitted:
        return [StepOption(str(Card(c)), words(state, Card(c))) for c in state.available]
    if seat != state.to_move or state.turn.submitted:
        return []       # a draft goes on past a pause; a submitted turn waits for the card
    options = _plays(state, seat) if not state.turn.closed else []
    closed = _closed(state, seat)
    if closed is None:
        return options      # the tokens are no whole legal way yet: only more tokens
    for step in _others(closed):
        trial = closed.copy()
        try:
            turn.apply_step(trial, seat, step)
        except GameError:
            continue
        options.append(StepOption(str(step), words(state, step)))
    if turn.unfinished(closed, seat) is None:
        options.append(StepOption("", "end your turn", ends=True))
    return options


def _closed(state: State, seat: int) -> State | None:
    """The state with step 1 closed (None: the tokens cannot end step 1 now).

    Every step but a play, and ending the turn, first closes step 1 (`turn.close`, which a
    closed turn passes through), so each is tried once on this state rather than each
    closing again from scratch; `turn.unfinished` of an open turn is that of the closed one.
    """
    if state.turn.closed:
        return state
    closed = state.copy()
    try:
        turn.close(closed, seat)
    except GameError:
        return None
    return closed


def _plays(state: State, seat: int) -> list[StepOption]:
    """Every token of the stand onto every hex where `placing.check_play` allows it.

    For speed, a free hex without a tile is not checked one by one: there only the way of
    the turn's tokens can forbid a play (`placing.way_problems`), and that depends on the
    hex only through whether it is a river, so it is asked once per kind and river or land.
    Hexes with a tile (fields) get the whole check. tests/babylonia/test_legal.py holds
    this against `GAME.draft` of every play on every hex.
    """
    b, tokens, tiles = state.board, state.tokens, state.tiles
    open_hexes = []                 # (hex, its words, on a river?, holds a field?)
    for hex in _in_order(state.players):
        h = b.hexes[hex]
        tile = tiles.get(hex)
        if hex in tokens or h.kind == ZIGGURAT or (tile is not None and tile.startswith("city")):
            continue                # never: a token, a ziggurat or a city is there
        label = f"{hex} (river)" if h.kind == RIVER else f"{hex} ({tile})" if tile else hex
        open_hexes.append((hex, label, h.kind == RIVER, tile is not None))
    options = []
    for kind in KINDS:
        if not state.stands[seat][KIND_INDEX[kind]]:
            continue
        word, group = WORDS[kind], f"Play {_article(WORDS[kind])}"
        way_ok = {}
        for hex, where, river, field in open_hexes:
            if field:
                try:
                    placing.check_play(state, seat, kind, hex)
                except GameError:
                    continue
            else:
                if river not in way_ok:
                    way_ok[river] = placing.way_problems(
                        state, seat, state.turn.placed + [(kind, hex)], complete=False) is None
                if not way_ok[river]:
                    continue
            options.append(StepOption(f"{word} {hex}", where, group=group))
    return options


@lru_cache(maxsize=None)
def _in_order(players: int) -> tuple[str, ...]:
    return tuple(sorted(board(players).hexes, key=_hex_order))


def _others(closed: State) -> list[Step]:
    """Score, card and extra steps worth trying (step 1 closed): the rules then say which apply."""
    return ([Score(h) for h in closed.turn.candidates] + [Card(c) for c in closed.available]
            + [Extra()])


def _hex_order(name: str) -> tuple[str, int]:
    return name[0], int(name[1:])


def _where(state: State, hex: str) -> str:
    tile = state.tiles.get(hex)
    if hex not in state.board.hexes:
        return f"{hex} (not in play)"
    if state.board.is_river(hex):
        return f"{hex} (river, face down)"
    return f"{hex} ({tile})" if tile else hex


def words(state: State, step: Step) -> str:
    """A step in plain words."""
    if isinstance(step, Play):
        return f"{_article(WORDS[step.kind])} onto {_where(state, step.hex)}"
    if isinstance(step, Score):
        what = "ziggurat" if step.hex in state.board.ziggurats else state.tiles.get(step.hex, "city")
        return f"score the {what} at {step.hex}"
    if isinstance(step, Card):
        return f"take ziggurat card {step.number} ({CARD_WORDS[step.number]})"
    return "take another turn after this one (card 2)"


def _article(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word
