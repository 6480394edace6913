"""Babylonia as the server sees it: the `pbem.games.base.Engine` interface, for 2 to 4 seats.

Events (each also has "v"):
- `{"type": "turn", "seat": s, "steps": "farmer g7\\nscore i7\\ncard 3", "named": [3]}`: a
  whole turn in canonical notation; it ends the turn, or leaves it paused for someone's card.
  `named` numbers the card steps (from 1) that name cards for after such a pause: the
  mover's secret (version 1 turns had no `named`: see `_named_unknown`);
- `{"type": "card", "seat": s, "card": 4}`: a ziggurat card owed while a turn pauses;
- the generic events (`pbem.games.base`): resign and timeout end the game (see
  `turn.end_off_the_board`), and so does abort, with no winner.
Each seat's view hides the other stands, every supply, the kinds of the others'
face-down river tokens and the cards the mover named for after a pause; so does the
record of a turn (`notation`), and so does the preview of an answered pause (`draft`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..base import (
    ABORTED,
    Decision,
    Draft,
    Engine,
    Event,
    Option,
    Outcome,
    Recount,
    StepOption,
    event_field,
    required,
)
from ..errors import GameError, IllegalStep, NotationError
from ..phrases import phrase
from ..rng import Rng
from . import bot, hidden, position, turn
from .board import board
from .cards import CARD_WORDS, listing
from .legal import legal_steps, words
from .notation import Card, Play, Step, parse, parse_steps
from .state import State, deal
from .view import ending, recount, summary, view

TURN, CARD = "turn", "card"
BASIC, ADVANCED = "basic", "advanced"
OUTCOMES = {"end": phrase("the game ended; most points wins, then most cities"),
            "resigned": phrase("a player resigned"), "timeout": phrase("a player's time ran out")}


def _named_unknown(event: Event) -> Event:
    """Event format 2 says which cards of a turn were named for after a pause (`named`);
    format 1 did not, and the state before the turn is not at hand here, so every card of a
    version 1 turn is hidden from the other seats' record (the views still show the cards
    taken at once)."""
    steps = parse(event["steps"])
    return {**event, "named": [n for n, step in enumerate(steps, 1) if isinstance(step, Card)]}


class Babylonia(Engine[State]):
    name = "babylonia"
    title = "Babylonia"
    min_seats, max_seats = 2, 4
    options = (
        Option("ziggurat_cards", phrase("Ziggurat cards"),
               ((BASIC, phrase("cards 1 to 7 (basic)")),
                (ADVANCED, phrase("7 of the 9 cards, drawn at random (advanced)"))), BASIC),
    )
    board_template = "games/babylonia/board.html"
    example_step = "farmer g7"
    #: 2: snapshots name the seat that owes a ziggurat card `card_due` (it was `owed`).
    rules_version = 2
    #: 2: a turn says which of its cards were named for after a pause ("named").
    event_version = 2
    upcasters = {(TURN, 1): _named_unknown}

    # -- setting up and the log -------------------------------------------
    def start(self, seed: int, options: Mapping[str, str] | None = None, seats: int = 2,
              first: int | None = None) -> State:
        if not 2 <= seats <= 4:
            raise GameError(phrase("Babylonia is a game for 2 to 4; {seats} seats were asked for.",
                                   seats=seats))
        if first is not None and not 0 <= first < seats:
            raise GameError(phrase("the first player must be a seat from 0 to {last}, not {first}.",
                                   last=seats - 1, first=repr(first)))
        return deal(seed, seats, first, self.normalize_options(options)["ziggurat_cards"])

    def seat_count(self, state: State) -> int:
        return state.players

    def is_over(self, state: State) -> bool:
        return state.result is not None

    def decision_kind(self, state: State, seat: int) -> str | None:
        return decision_kind(state, seat)

    def play(self, state: State, event: Event) -> None:
        seat = event["seat"]
        if event["type"] == CARD:
            turn.answer_card(state, seat, event_field(event, "card", int))
        else:
            turn.play_steps(state, seat, event_field(event, "steps", str))
            turn.finish_submission(state, seat)

    def end_game(self, state: State, loser: int | None, reason: str) -> None:
        turn.end_off_the_board(state, loser, reason)

    def to_act(self, state: State) -> list[Decision]:
        if state.result is not None:
            return []
        if state.card_due is not None:
            hex = state.current.order[state.current.resolved]
            return [Decision(state.card_due, CARD,
                             phrase("choose a ziggurat card for the ziggurat won at {hex}", hex=hex))]
        return [Decision(state.to_move, TURN, phrase("play your turn"))]

    def _require(self, state: State, seat: int) -> str:
        return required(decision_kind(state, seat), state.result is not None)

    def decide(self, state: State, seat: int, text: str) -> dict[str, Any]:
        kind = self._require(state, seat)
        trial = state.copy()
        if kind == CARD:
            card = _answer(trial, seat, text)
            return {"v": self.event_version, "type": CARD, "seat": seat, "card": card}
        steps = turn.play_steps(trial, seat, text)
        named = _named_ahead(steps, trial)
        try:
            turn.finish_submission(trial, seat)
        except IllegalStep as error:
            raise IllegalStep(phrase("the turn is not finished: {problem}",
                                     problem=error.message)) from None
        return {"v": self.event_version, "type": TURN, "seat": seat,
                "steps": "\n".join(str(s) for s in steps), "named": named}

    def draft(self, state: State, seat: int, text: str) -> Draft[State]:
        trial = state.copy()
        try:
            kind = self._require(state, seat)
            if kind == CARD:
                if not parse_steps(text):
                    return Draft(trial, todo=phrase("choose a ziggurat card (card N)"))
                card = _answer(trial, seat, text)
                return Draft(trial, [f"card {card}"], done=True)
            parsed = parse_steps(text)
        except GameError as error:
            return Draft(trial, error=error)
        applied: list[str] = []
        for number, (step, piece) in enumerate(parsed, 1):
            try:
                turn.apply_step(trial, seat, step)
            except IllegalStep as error:
                return Draft(trial, applied, error.at(number, piece))
            applied.append(str(step))
        todo = turn.unfinished(trial, seat)
        return Draft(trial, applied, None, done=todo is None, todo=todo)

    def legal_steps(self, state: State, seat: int) -> list[StepOption]:
        return legal_steps(state, seat)

    # -- what people see --------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        result = state.result
        if result is None:
            return None
        if result.reason == ABORTED.reason:
            return ABORTED
        words = OUTCOMES[result.reason]
        if len(result.winners) > 1:
            words = phrase("{outcome}; equal points and cities: the win is shared", outcome=words)
        winner = result.winners[0] if len(result.winners) == 1 else None
        return Outcome(winner, result.reason, words, result.winners)

    def scores(self, state: State) -> list[int]:
        return list(state.scores)

    def places(self, state: State) -> list[int]:
        """The winners first, then by points, then by cities (the rules' tie-break)."""
        winners = state.result.winners if state.result is not None else ()

        def key(s: int) -> tuple[int, int, int]:
            return (0 if s in winners else 1, -state.scores[s], -len(state.cities[s]))
        return [1 + sum(key(o) < key(s) for o in range(state.players))
                for s in range(state.players)]

    def event_notation(self, event: Event, seat: int | None) -> str:
        if event["type"] == CARD:
            return f"card {event['card']}"
        named = event.get("named") or ()
        return "; ".join(_hidden(number in named, step, event["seat"], seat)
                         for number, step in enumerate(parse(event["steps"]), 1))

    def explain(self, state: State, seat: int, text: str) -> list[str]:
        try:
            return [words(state, step) for step in parse(text)]
        except GameError:
            return []

    def summary(self, state: State, seat: int, names: Sequence[str] = ()) -> list[str]:
        return summary(state, seat, names)

    def reply_help(self, state: State, seat: int) -> tuple[str, str]:
        """An example that fits the decision owed: a legal first step (a token, or a card)."""
        options = [o for o in legal_steps(state, seat) if not o.ends]
        if not options:
            return self.example_step, ""
        if options[0].notation.startswith("card "):
            return options[0].notation, phrase("Answer with the one card you take.")
        return options[0].notation, phrase("Answer with your whole turn: your tokens, then, when "
                                           "several became surrounded, the scoring order "
                                           "(score c10) and any cards you take.")

    def is_turn(self, event: Event) -> bool:
        return event.get("type") == TURN      # not a card owed in another's turn

    def recount(self, before: State, event: Event, seat: int | None,
                after: State | None = None) -> Recount:
        """A turn or an owed card told to `seat`; the marks name the hexes tokens went to."""
        after = self.apply(before, event) if after is None else after
        if event["type"] == CARD:
            steps: list[Step] = [Card(event_field(event, "card", int))]
            named: list[int] = []
        else:
            steps, named = parse(event_field(event, "steps", str)), list(event.get("named") or ())
        phrases, marks = recount(before, after, event["type"], steps, named, event["seat"], seat)
        return Recount(listing(phrases), marks)

    def ending(self, state: State, seat: int | None, names: list[str]) -> str:
        return ending(state, seat, names) or super().ending(state, seat, names)

    def snapshot(self, state: State) -> dict[str, Any]:
        """A position file (`position.py`), which holds every part of the state."""
        return position.to_json(state)

    def restore(self, data: Mapping[str, Any]) -> State:
        return position.from_json(data)

    def random_submission(self, state: State, seat: int, rng: Rng) -> str:
        """A random legal submission: random steps until ending is allowed and chosen."""
        self._require(state, seat)
        state.free_cells()          # a cache (no part of the game): the copies below keep it
        trial = state.copy()
        steps: list[str] = []
        while True:
            options = legal_steps(trial, seat)
            ends = options[-1].ends     # ending, when allowed, is always the last option
            if ends and (rng.below(2) or len(options) == 1):
                return "\n".join(steps)
            choices = options[:-1] if ends else options
            pick = choices[rng.below(len(choices))].notation
            if decision_kind(trial, seat) == CARD:
                return pick
            turn.apply_step(trial, seat, parse(pick)[0])
            steps.append(pick)


    # -- players without people --------------------------------------------
    def determinize(self, state: State, seat: int, rng: Rng) -> State:
        return hidden.determinize(state, seat, rng)

    #: Playouts stop after two rounds (`bot.worth` judges), and afford half a level's count.
    playout_rounds, playout_share = 2, 0.5
    #: Hundreds of first steps (every token onto every free hex): the search widens slowly.
    search_width = 2.0

    def step_weight(self, state: State, option: StepOption) -> int:
        return bot.weight(state, option)

    def worth(self, state: State, seat: int) -> float:
        return bot.worth(state, seat)

    def play_out(self, state: State, rng: Rng) -> None:
        """`random_submission` with `rng`, played in place as its event would be."""
        seat = state.to_move if state.card_due is None else state.card_due
        text = self.random_submission(state, seat, rng)
        if decision_kind(state, seat) == CARD:
            card = parse(text)[0]
            assert isinstance(card, Card), "an owed card is answered with `card N`"
            turn.answer_card(state, seat, card.number)
        else:
            turn.play_steps(state, seat, text)
            turn.finish_submission(state, seat)


def decision_kind(state: State, seat: int) -> str | None:
    if state.result is not None:
        return None
    if state.card_due is not None:
        return CARD if seat == state.card_due else None
    return TURN if seat == state.to_move else None


def _answer(state: State, seat: int, text: str) -> int:
    """Take the owed card a one-step answer names (in place; the paused turn is not resumed,
    see `turn.take_card_due`); errors name step 1."""
    parsed = parse_steps(text)
    step, piece = parsed[0] if len(parsed) == 1 else (None, parsed[0][1] if parsed else "")
    if not isinstance(step, Card):
        raise NotationError(phrase("answer with one step: card N, the ziggurat card you take."),
                            1, piece)
    try:
        turn.take_card_due(state, seat, step.number)
    except IllegalStep as error:
        raise error.at(1, piece) from None
    return step.number


def _named_ahead(steps: list[Step], paused: State) -> list[int]:
    """The numbers (from 1) of the `card N` steps naming cards for after a pause: the cards in
    `turn.cards` once every step is played (a card taken at once is gone from the available
    ones, so it is never also named)."""
    return [number for number, step in enumerate(steps, 1)
            if isinstance(step, Card) and step.number in paused.current.cards]


def _hidden(named: bool, step: Step, mover: int, seat: int | None) -> str:
    """The mover's secrets as the others read them: a river play's kind (`? i7`), and the
    cards he named for after a pause (`card ?`)."""
    if seat == mover:
        return str(step)
    if isinstance(step, Play) and board(4).is_river(step.hex):
        return f"? {step.hex}"
    if isinstance(step, Card) and named:
        return "card ?"
    return str(step)


GAME = Babylonia()
__all__ = ["GAME", "Babylonia", "CARD_WORDS"]
