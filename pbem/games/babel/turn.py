"""A submission as a whole: phase 1, phase 2 step by step, phase 3.

A submission is checked as a whole: the first illegal step raises with its
1-based number. These functions change the state in place (replaying a log
needs no copies); callers that must keep the state on an error pass a copy,
as `game.Babel` does, so nothing of a rejected submission is applied.
"""

from __future__ import annotations

from ..errors import IllegalStep, NotationError, WrongDecision
from ..phrases import phrase, phrase_n
from .notation import parse_steps
from .rules import act, finish_turn, pass_turn, starting_card_unbuilt
from .state import ACTIONS, DRAW, State, draw_tribes
from .steps import Discard, Parsed, Pass

NO_STEPS = phrase("the turn has no steps; write pass to play no action.")


def play_actions(state: State, parsed: Parsed, first: int = 1) -> None:
    """Phase-2 steps in place, numbered from `first`; raises at the failing step."""
    alone = len(parsed) == 1
    for number, (step, text) in enumerate(parsed, first):
        if state.result is not None:
            raise IllegalStep(phrase("the game ended after step {step}; nothing may follow it.",
                                     step=number - 1), number, text)
        if isinstance(step, Pass) and not alone:
            raise IllegalStep(phrase("pass means an empty phase 2 and cannot stand with other "
                                     "steps."), number, text)
        try:
            act(state, step)
        except IllegalStep as error:
            raise error.at(number, text) from None


def check_can_end(state: State, parsed: Parsed, first: int = 1) -> None:
    """Ending phase 2 is legal unless the first-turn duty is unmet."""
    if state.result is None and starting_card_unbuilt(state.mover):
        number = first + len(parsed) - 1
        text = parsed[-1][1] if parsed else ""
        raise IllegalStep(phrase("in your first turn you must build your starting level-1 card; "
                                 "it is still in your column."), max(number, 1), text)


def begin_turn(state: State) -> str:
    """Phase 1 of the player to move, unless he owes discards first or the game is over."""
    if state.result is None and state.phase == DRAW and not state.discards_due(state.to_move):
        return draw_tribes(state)
    return ""


def _parsed(text: str) -> Parsed:
    parsed = parse_steps(text)
    if not parsed:
        raise NotationError(NO_STEPS, 1, "")
    return parsed


def _discard_due(state: State, parsed: Parsed) -> Discard:
    step, text = parsed[0]
    if not isinstance(step, Discard):
        due = state.discards_due(state.to_move)
        raise IllegalStep(phrase_n("you owe {n} discard from halvings; your turn starts with "
                                   "discard, before you draw.",
                                   "you owe {n} discards from halvings; your turn starts with "
                                   "discard, before you draw.", due), 1, text)
    try:
        act(state, step)
    except IllegalStep as error:
        raise error.at(1, text) from None
    return step


def discard_only(state: State, parsed: Parsed) -> Discard:
    """The halving discards due, as a whole submission, without the draw after them."""
    if state.phase != DRAW or not state.discards_due(state.to_move):
        raise WrongDecision(phrase("no discards are owed now."))
    if len(parsed) > 1:
        raise IllegalStep(phrase("after your discards you draw 3 cards; send the rest of your turn "
                                 "once you have seen them."), 2, parsed[1][1])
    return _discard_due(state, parsed)


def play_discard(state: State, text: str) -> Discard:
    """The halving discards due, then the draw; returns the discard."""
    discard = discard_only(state, _parsed(text))
    begin_turn(state)
    return discard


def play_turn(state: State, text: str) -> None:
    """A whole phase 2, then phase 3 and the next player's draw."""
    if state.phase != ACTIONS:
        raise WrongDecision(phrase("this is not the moment for phase 2."))
    parsed = _parsed(text)
    play_actions(state, parsed)
    check_can_end(state, parsed)
    if state.result is None:
        finish_turn(state)
        begin_turn(state)


def play_from_position(state: State, text: str) -> None:
    """The rest of a turn from a position (the command line's `play`).

    In phase "draw" the text starts with the discards due (if any); then the
    player draws, plays phase 2 and phase 3. The next turn's draw is not made.
    Decision: the turn passes even when the game ended in phase 2 (phase 3 is
    then not played), so a printed position always names the other player as
    `to_move`, as docs/games/babel-notation.md says; its outcome says that nothing follows.
    """
    parsed = _parsed(text)
    first = 1
    if state.phase == DRAW:
        if state.discards_due(state.to_move):
            _discard_due(state, parsed)
            parsed, first = parsed[1:], 2
            if not parsed:
                raise NotationError(NO_STEPS, 2, "")
        draw_tribes(state)
    play_actions(state, parsed, first)
    check_can_end(state, parsed, first)
    if state.result is None:
        finish_turn(state)
    else:
        pass_turn(state)
