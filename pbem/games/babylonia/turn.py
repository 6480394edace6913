"""A whole turn, step by step: tokens, the scoring order, card choices, `extra`, then the
refill and the end (docs/games/babylonia-rulings.md, "A turn", "End", "Decisions owed by other players").

Scoring runs as soon as it can: a city at once, a ziggurat the mover wins
when his `card N` follows, a ziggurat another player wins by pausing the turn
(`state.card_due`). Cards the mover names after a pause wait in `turn.cards` and
are taken in order when the turn resumes; one gone by then is owed again. Until
then they are his secret: the other seats see neither them in a view nor their
steps in the record (`card ?`), and a seat answering the pause does not see the
turn resume in its preview.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import IllegalStep, WrongDecision
from ..phrases import phrase
from . import placing, scoring
from .notation import Card, Extra, Play, Score, Step, parse_steps
from .state import Result, State, Turn, refill


def play_steps(state: State, seat: int, text: str) -> list[Step]:
    """Apply every step of a submission in place; errors name the step."""
    steps = []
    for number, (step, piece) in enumerate(parse_steps(text), 1):
        try:
            apply_step(state, seat, step)
        except IllegalStep as error:
            raise error.at(number, piece) from None
        steps.append(step)
    return steps


def apply_step(state: State, seat: int, step: Step) -> None:
    """Apply one step in place; a refused step leaves the state as it was.

    Fix: a score, card or extra step first closes step 1 (and scores what it can); when
    the step itself is then refused, that closing is undone too, so that a draft shows
    the state after its legal prefix only."""
    if isinstance(step, Play):
        _apply_step(state, seat, step)          # checked in full before anything changes
        return
    before = state.copy()
    try:
        _apply_step(state, seat, step)
    except IllegalStep:
        for name in State.__slots__:
            setattr(state, name, getattr(before, name))
        raise


def _apply_step(state: State, seat: int, step: Step) -> None:
    turn = state.current
    if isinstance(step, Play):
        if turn.closed:
            raise IllegalStep(phrase("tokens are played before scoring, cards and extra"))
        placing.check_play(state, seat, step.kind, step.hex)
        placing.play(state, seat, step.kind, step.hex)
        return
    close(state, seat)
    if isinstance(step, Score):
        declare(state, step.hex)
    elif isinstance(step, Card):
        name_card(state, seat, step.number)
    elif isinstance(step, Extra):
        _refuse(_extra_problem(state, seat))
        turn.extra = True
    resolve(state)


def step_problem(state: State, seat: int, step: Score | Card | Extra) -> str | None:
    """Why a score, card or extra step is refused once step 1 is closed (None: it applies).
    The very check `apply_step` makes before it changes anything (`legal.py` lists steps by it)."""
    if isinstance(step, Score):
        return _declare_problem(state, step.hex)
    if isinstance(step, Card):
        return _card_problem(state, seat, step.number)
    return _extra_problem(state, seat)


def _refuse(problem: str | None) -> None:
    if problem:
        raise IllegalStep(problem)


def _extra_problem(state: State, seat: int) -> str | None:
    turn = state.current
    if turn.waiting:
        # Fix: the card comes right after the score step of a ziggurat he wins (Decision).
        return phrase("first name your card for the ziggurat at {hex}", hex=turn.waiting)
    if turn.extra:
        return phrase("extra is said once")
    if not state.has(seat, 2):
        return phrase("extra needs ziggurat card 2, unused")
    return None


def close(state: State, seat: int) -> None:
    """End step 1: check the tokens make a whole legal way, find what became surrounded."""
    turn = state.current
    if turn.closed:
        return
    problem = placing.way_problems(state, seat, turn.placed, complete=True)
    if problem:
        raise IllegalStep(problem if turn.placed else phrase("play your tokens first"))
    turn.closed = True
    turn.candidates = scoring.newly_surrounded(state)
    if len(turn.candidates) == 1:
        turn.order = list(turn.candidates)
    resolve(state)


def declare(state: State, hex: str) -> None:
    _refuse(_declare_problem(state, hex))
    state.current.order.append(hex)


def _declare_problem(state: State, hex: str) -> str | None:
    turn = state.current
    if hex not in turn.candidates:
        return (phrase("nothing at {hex} became surrounded this turn", hex=hex) if turn.candidates
                else phrase("nothing became surrounded this turn"))
    if hex in turn.order and turn.candidates == [hex]:
        # Fix (message): a sole candidate is scored without a `score` step (its card, if he
        # wins it, comes right after the tokens); say so rather than "already in the
        # scoring order", which the player never wrote.
        return phrase("only {hex} became surrounded: it is scored without a score step", hex=hex)
    if hex in turn.order:
        return phrase("{hex} is already in the scoring order", hex=hex)
    if turn.waiting:
        return phrase("first name your card for the ziggurat at {hex}", hex=turn.waiting)
    return None


def name_card(state: State, seat: int, card: int) -> None:
    _refuse(_card_problem(state, seat, card))
    turn = state.current
    if turn.waiting:
        scoring.take_card(state, seat, card)
        turn.waiting = None
        turn.resolved += 1
        return
    turn.cards.append(card)


def _card_problem(state: State, seat: int, card: int) -> str | None:
    turn = state.current
    if turn.waiting:
        return _unavailable(state, card)
    if state.card_due is None or len(turn.cards) >= _wins_ahead(state, seat):
        return phrase("no ziggurat of yours waits for a card")
    if card in turn.cards:
        return phrase("card {card} is already named", card=card)
    return _unavailable(state, card)


def _check_available(state: State, card: int) -> None:
    _refuse(_unavailable(state, card))


def _unavailable(state: State, card: int) -> str | None:
    if card not in state.available:
        if not state.available:
            return phrase("card {card} is not available; available: none", card=card)
        return phrase("card {card} is not available; available: {left}", card=card,
                      left=", ".join(map(str, state.available)))
    return None


def _wins_ahead(state: State, seat: int) -> int:
    """The mover's ziggurat wins in the declared order beyond the paused one."""
    turn = state.current
    return sum(1 for h in turn.order[turn.resolved + 1:]
               if h in state.board.ziggurats and scoring.majority(state, h) == seat)


def resolve(state: State, resuming: bool = False) -> None:
    """Score the declared order as far as it goes without someone's choice.

    While the mover composes, a ziggurat he wins waits for his `card N`; once
    the turn resumes after a pause, his named cards are taken in order, and
    when the next one is gone he owes a card like anyone else.
    """
    turn, mover = state.current, state.to_move
    while state.card_due is None and turn.waiting is None and turn.resolved < len(turn.order):
        hex = turn.order[turn.resolved]
        if hex not in state.board.ziggurats:
            scoring.score_city(state, hex)
            turn.resolved += 1
            continue
        state.scored.add(hex)
        winner = scoring.majority(state, hex)
        if winner is None or not state.available:
            turn.resolved += 1
        elif winner != mover:
            state.card_due = winner
        elif not resuming:
            turn.waiting = hex
        elif turn.cards and turn.cards[0] in state.available:
            scoring.take_card(state, mover, turn.cards.pop(0))
            turn.resolved += 1
        else:
            turn.cards[:1] = []          # his named card is gone: he chooses again
            state.card_due = mover


def unfinished(state: State, seat: int) -> str | None:
    """Why the submission cannot end here (None: it can)."""
    turn = state.current
    if not turn.closed:
        problem = placing.way_problems(state, seat, turn.placed, complete=True)
        if problem:
            return problem if turn.placed else phrase("play your tokens")
        trial = state.copy()
        close(trial, seat)
        return unfinished(trial, seat)
    missing = [h for h in turn.candidates if h not in turn.order]
    if missing:
        return phrase("say the order in which to score: {steps}",
                      steps=", ".join(f"score {h}" for h in missing))
    if turn.waiting:
        return phrase("you won the ziggurat at {hex}: name your card (card N)", hex=turn.waiting)
    # Fix and Decision: named cards differ and must be available, so the mover names at most
    # as many cards as are left now (three ziggurats in one turn with one card left could
    # otherwise never finish); a win whose card is gone by then is owed, or gets nothing
    # when no card is left.
    if state.card_due is not None and len(turn.cards) < min(_wins_ahead(state, seat),
                                                         len(state.available)):
        return phrase("name a card for each ziggurat of yours still to score (card N)")
    return None


def finish_submission(state: State, seat: int) -> None:
    """The submission is over: end the turn, or leave it paused for someone's card."""
    if not state.current.closed:
        close(state, seat)
    problem = unfinished(state, seat)
    if problem:
        raise IllegalStep(problem)
    state.current.submitted = True
    if state.card_due is None:
        end_turn(state)


def answer_card(state: State, seat: int, card: int) -> None:
    """The owed `card N`; the rest of the turn then resolves by itself."""
    take_card_due(state, seat, card)
    resume(state)


def take_card_due(state: State, seat: int, card: int) -> None:
    """The owed `card N` taken, the paused turn not yet resumed: what the seat's own preview
    shows. Resuming may take cards the mover named ahead, a secret until the answer is in."""
    if state.card_due != seat:
        raise WrongDecision(phrase("no ziggurat card is owed by you now."))
    _check_available(state, card)
    scoring.take_card(state, seat, card)
    state.card_due = None
    state.current.resolved += 1


def resume(state: State) -> None:
    """The rest of a paused turn after an answered card: scoring on, then the turn's end."""
    resolve(state, resuming=True)
    if state.card_due is None:
        end_turn(state)


def end_turn(state: State) -> None:
    """Step 3, the end check, and the next turn (the same player's with `extra`)."""
    mover, turn = state.to_move, state.current
    refill(state, mover)
    cities_left = len(state.city_hexes())
    if state.stand_size(mover) == 0 or cities_left <= 1:
        state.result = Result(ranking(state, range(state.players)), "end")
        state.turn = None
        return
    if turn.extra:
        state.used[mover].append(2)
    else:
        state.to_move = (mover + 1) % state.players
    state.turn = Turn(turn.index + 1)


def ranking(state: State, seats: Sequence[int]) -> tuple[int, ...]:
    """Most points; then more cities in front; still tied, a shared win."""
    key = {s: (state.scores[s], len(state.cities[s])) for s in seats}
    best = max(key.values())
    return tuple(s for s in seats if key[s] == best)


def end_off_the_board(state: State, loser: int | None, reason: str) -> None:
    """Decision: a resigning (or timed-out) player ends the game; the others are ranked as at
    its end, so in a game of two the other player wins. An aborted game (no loser) has no
    winner."""
    others = [s for s in range(state.players) if s != loser]
    state.result = Result(ranking(state, others) if loser is not None else (), reason)
    state.turn, state.card_due = None, None
