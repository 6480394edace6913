"""Every legal next step of a turn or an owed card, with its words (for composers)."""

from __future__ import annotations

from ..base import StepOption
from ..errors import GameError
from . import placing, scoring, turn
from .cards import CARD_WORDS
from .notation import WORDS, Card, Extra, Play, Score, Step
from .state import KINDS, KIND_INDEX, State


def legal_steps(state: State, seat: int) -> list[StepOption]:
    if state.result is not None:
        return []
    if state.owed == seat and state.turn.submitted:
        return [StepOption(str(Card(c)), words(state, Card(c))) for c in state.available]
    if seat != state.to_move or state.turn.submitted:
        return []       # a draft goes on past a pause; a submitted turn waits for the card
    options = _plays(state, seat) if not state.turn.closed else []
    for step in _others(state):
        trial = state.copy()
        try:
            turn.apply_step(trial, seat, step)
        except GameError:
            continue
        options.append(StepOption(str(step), words(state, step)))
    if turn.unfinished(state, seat) is None:
        options.append(StepOption("", "end your turn", ends=True))
    return options


def _plays(state: State, seat: int) -> list[StepOption]:
    options = []
    for kind in KINDS:
        if not state.stands[seat][KIND_INDEX[kind]]:
            continue
        group = f"Play a {WORDS[kind]}"
        for hex in sorted(state.board.hexes, key=_hex_order):
            try:
                placing.check_play(state, seat, kind, hex)
            except GameError:
                continue
            options.append(StepOption(str(Play(kind, hex)), _where(state, hex), group=group))
    return options


def _others(state: State) -> list[Step]:
    """Score, card and extra steps worth trying: the rules then say which apply."""
    candidates = state.turn.candidates if state.turn.closed else scoring.newly_surrounded(state)
    return ([Score(h) for h in candidates] + [Card(c) for c in state.available] + [Extra()])


def _hex_order(name: str) -> tuple[str, int]:
    return name[0], int(name[1:])


def _where(state: State, hex: str) -> str:
    tile = state.tiles.get(hex)
    if state.board.is_river(hex):
        return f"{hex} (river, face down)"
    return f"{hex} ({tile})" if tile else hex


def words(state: State, step: Step) -> str:
    """A step in plain words."""
    if isinstance(step, Play):
        return f"a {WORDS[step.kind]} onto {_where(state, step.hex)}"
    if isinstance(step, Score):
        what = "ziggurat" if step.hex in state.board.ziggurats else state.tiles.get(step.hex, "city")
        return f"score the {what} at {step.hex}"
    if isinstance(step, Card):
        return f"take ziggurat card {step.number} ({CARD_WORDS[step.number]})"
    return "take another turn after this one (card 2)"
