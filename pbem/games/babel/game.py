"""Babel as the server sees it: the `pbem.games.base.Engine` interface.

Events of a Babel log (each also has "v", the format version):
- `{"type": "discard", "seat": s, "cards": "AAM"}`: the halving discards due,
  after which the seat draws;
- `{"type": "turn", "seat": s, "steps": "move M\\nsettle M M"}`: a whole
  phase 2 in canonical notation, then phase 3 and the next player's draw;
- the generic events (`pbem.games.base`): resign, timeout (the seat loses), abort.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
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
from ..errors import GameError
from ..phrases import phrase, phrase_n
from ..rng import Rng
from . import bot, hidden, legal, notation, position, randomplay, rules, turn
from . import explain as explaining
from .cards import NAMES, TRIBES
from .rules import listed
from .state import ACTIONS, DRAW, SUMERIANS_ALL, SUMERIANS_TOP_RUN, State, deal
from .steps import End
from .view import OUTCOME_WORDS, ending, view

DISCARD, TURN = "discard", "turn"


class Babel(Engine[State]):
    name = "babel"
    title = "Babel"
    min_seats = max_seats = 2
    options = (
        Option("sumerians", phrase("The Sumerians' switch takes"),
               ((SUMERIANS_TOP_RUN, phrase("the opponent's top run of equal cards (German rules)")),
                (SUMERIANS_ALL, phrase("every opposing card of the top card's tribe (English "
                                       "rules)"))),
               SUMERIANS_TOP_RUN),
    )
    board_template = "games/babel/board.html"
    example_step = "move M"
    form_templates = {DISCARD: "games/babel/discard.html"}

    # -- setting up -------------------------------------------------------
    def start(self, seed: int, options: Mapping[str, str] | None = None, seats: int = 2,
              first: int | None = None) -> State:
        if seats != 2:
            raise GameError(phrase("Babel is a game for two; {seats} seats were asked for.",
                                   seats=seats))
        if first not in (None, 0, 1):
            raise GameError(phrase("the first player must be seat 0 or 1, not {first}.",
                                   first=repr(first)))
        state = deal(seed, first, self.normalize_options(options)["sumerians"])
        turn.begin_turn(state)
        return state

    # -- the log ----------------------------------------------------------
    def seat_count(self, state: State) -> int:
        return 2

    def is_over(self, state: State) -> bool:
        return state.result is not None

    def decision_kind(self, state: State, seat: int) -> str | None:
        if state.result is not None or seat != state.to_move:
            return None
        if state.phase == DRAW and state.discards_due(seat):
            return DISCARD
        return TURN if state.phase == ACTIONS else None

    def play(self, state: State, event: Event) -> None:
        if event["type"] == DISCARD:
            turn.play_discard(state, "discard " + event_field(event, "cards", str))
        else:
            turn.play_turn(state, event_field(event, "steps", str))

    def end_game(self, state: State, loser: int | None, reason: str) -> None:
        rules.end(state, loser, reason)

    def to_act(self, state: State) -> list[Decision]:
        seat = state.to_move
        kind = self.decision_kind(state, seat)
        if kind == DISCARD:
            due = state.discards_due(seat)
            return [Decision(seat, DISCARD, phrase_n("discard {n} card (halving) before you draw",
                                                     "discard {n} cards (halving) before you draw",
                                                     due))]
        if kind == TURN:
            return [Decision(seat, TURN, phrase("play your turn"))]
        return []

    def _require(self, state: State, seat: int) -> str:
        return required(self.decision_kind(state, seat), state.result is not None)

    def decide(self, state: State, seat: int, text: str) -> dict[str, Any]:
        kind = self._require(state, seat)
        trial = state.copy()
        if kind == DISCARD:
            cards = turn.play_discard(trial, text).tribes
            return {"v": self.event_version, "type": DISCARD, "seat": seat, "cards": "".join(sorted(cards))}
        turn.play_turn(trial, text)
        return {"v": self.event_version, "type": TURN, "seat": seat, "steps": notation.canonical(text)}

    def draft(self, state: State, seat: int, text: str) -> Draft[State]:
        try:
            kind = self._require(state, seat)
            parsed = notation.parse_steps(text)
        except GameError as error:
            return Draft(state, error=error)
        trial = state.copy()
        if not parsed:
            return Draft(trial)
        try:
            if kind == DISCARD:
                turn.discard_only(trial, parsed)
            else:
                turn.play_actions(trial, parsed)
        except GameError as error:
            applied = parsed[:(error.step or 1) - 1]
            return Draft(trial, [str(s) for s, _ in applied], error)
        steps = [str(s) for s, _ in parsed]
        if kind == TURN:
            try:
                turn.check_can_end(trial, parsed)   # every step applies; may phase 2 end here?
            except GameError as error:
                return Draft(trial, steps, todo=error.message)
        return Draft(trial, steps, None, done=True)

    def legal_steps(self, state: State, seat: int) -> list[StepOption]:
        """The legal next steps after which the turn can still end (`legal.offered_steps`)."""
        if seat != state.to_move:
            return []
        return [StepOption("" if isinstance(s, End) else str(s), explaining.words(state, s),
                           isinstance(s, End))
                for s in legal.offered_steps(state)]

    def finishable(self, state: State, seat: int) -> bool:
        return legal.can_finish(state)

    # -- what people see --------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        result = state.result
        if result is None:
            return None
        if result.reason == ABORTED.reason:
            return ABORTED
        words = OUTCOME_WORDS[result.reason]
        if result.winner is None:
            words = phrase("equal scores and equal hands when the temple supply ran out")
        return Outcome(result.winner, result.reason, words)

    def scores(self, state: State) -> list[int]:
        return state.scores()

    def event_notation(self, event: Event, seat: int | None) -> str:
        if event["type"] == TURN:
            return notation.one_line(notation.parse(event["steps"]))
        return "discard " + " ".join(event["cards"])

    def snapshot(self, state: State) -> dict[str, Any]:
        """A complete position file (docs/games/babel-notation.md), which holds every part of the state."""
        return position.to_json(position.Position(state))

    def restore(self, data: Mapping[str, Any]) -> State:
        return position.from_json(data).state

    def reply_help(self, state: State, seat: int) -> tuple[str, str]:
        """Owed halving discards are a reply of their own: the three cards drawn after them
        decide the turn, so its mail follows once they are in."""
        if self.decision_kind(state, seat) != DISCARD:
            first = next((o.notation for o in self.legal_steps(state, seat) if not o.ends), None)
            return first or self.example_step, ""   # a step of this turn
        due = state.discards_due(seat)
        example = "discard " + " ".join(state.players[seat].hand_letters()[:due])
        return example, phrase_n("Answer with your {n} discard alone. You then draw 3 cards, and "
                                 "the mail for the rest of your turn, with the cards drawn, "
                                 "follows at once.",
                                 "Answer with your {n} discards alone. You then draw 3 cards, and "
                                 "the mail for the rest of your turn, with the cards drawn, "
                                 "follows at once.", due)

    def summary(self, state: State, seat: int, names: Sequence[str] = ()) -> list[str]:
        """The seat's hand and columns, both sides' temples and rows, as lines of a mail."""
        v = view(state, seat)
        me, them = v["players"][seat], v["players"][1 - seat]
        hand = " ".join(me["hand"])
        lines: list[str] = [
            phrase_n("Your hand: {hand} (you owe {n} discard)",
                     "Your hand: {hand} (you owe {n} discards)", me["owes"], hand=hand)
            if me["owes"] else phrase("Your hand: {hand}", hand=hand) if hand
            else phrase("Your hand: empty"),
            *_columns(_levels(me["column"]), _levels(them["column"])),
            phrase("Your figure: {mine}; your opponent's: {theirs}", mine=_place(me["figure"]),
                   theirs=_place(them["figure"]))]
        for t in TRIBES:
            mine, theirs = _site(me, t), _site(them, t)
            if mine or theirs:
                lines.append(phrase("{tribe}: you {mine} | opponent {theirs}", tribe=NAMES[t],
                                    mine=mine or "-", theirs=theirs or "-"))
        lines.append(phrase("Scores: you {mine}, your opponent {theirs}; tribe supply {tribes}, "
                            "temple supply {temples}", mine=me["score"], theirs=them["score"],
                            tribes=v["tribe_supply"], temples=v["temple_supply"]))
        return lines

    def explain(self, state: State, seat: int, text: str) -> list[str]:
        return explaining.explain(state, text)

    def is_turn(self, event: Event) -> bool:
        return event.get("type") == TURN      # the halving discards open the turn they belong to

    def recount(self, before: State, event: Event, seat: int | None,
                after: State | None = None) -> Recount:
        """A turn or the halving discards, told to `seat`; the marks name the territories,
        temples, rows, columns and hands it changed (`explain.recount`)."""
        if event["type"] == DISCARD:
            text = "discard " + " ".join(event_field(event, "cards", str))
        else:
            text = event_field(event, "steps", str)
        told, marks = explaining.recount(before, text, seat)
        return Recount(listed(told) if told else "", marks)

    def ending(self, state: State, seat: int | None, names: list[str]) -> str:
        return ending(state, seat, names) or super().ending(state, seat, names)

    def random_submission(self, state: State, seat: int, rng: Rng) -> str:
        """A uniformly random legal decision for `seat` (bots, load tests)."""
        return randomplay.random_decision(state, rng)

    # -- players without people --------------------------------------------
    def determinize(self, state: State, seat: int, rng: Rng) -> State:
        return hidden.determinize(state, seat, rng)

    def submission(self, steps: list[str]) -> str:
        return "\n".join(steps) or "pass"      # phase 2 with no step at all is written `pass`

    def play_out(self, state: State, rng: Rng) -> None:
        """The same decision as `random_submission` with `rng`, played in place (no text)."""
        randomplay.random_move(state, rng)

    playout_rounds = 3      # then `worth` (bot.py: whole random games drown a decision's mark)

    def playout_move(self, state: State, rng: Rng) -> None:
        bot.greedy_move(state, rng)

    def step_weight(self, state: State, option: StepOption) -> int:
        return bot.weight(option.notation)

    def worth(self, state: State, seat: int) -> float:
        return bot.worth(state, seat)


def _columns(mine: str, theirs: str) -> list[str]:
    """Both columns on one line of a mail when they fit in 76 characters (in English: the
    other languages break where it does), else one each. An empty column has sentences of its
    own ("empty" agrees with "column" in Czech, not with what other games call empty)."""
    if mine and theirs:
        line = phrase("Columns (top last): yours {mine}, your opponent's {theirs}", mine=mine,
                      theirs=theirs)
    elif theirs:
        line = phrase("Columns (top last): yours empty, your opponent's {theirs}", theirs=theirs)
    elif mine:
        line = phrase("Columns (top last): yours {mine}, your opponent's empty", mine=mine)
    else:
        line = phrase("Columns (top last): yours empty, your opponent's empty")
    if len(line) <= 76:
        return [line]
    return [phrase("Your column (top last): {levels}", levels=mine) if mine
            else phrase("Your column (top last): empty"),
            phrase("Your opponent's column: {levels}", levels=theirs) if theirs
            else phrase("Your opponent's column: empty")]


def _levels(levels: Iterable[int]) -> str:
    """"1 2 3": numbers, not words ("" for none)."""
    return " ".join(map(str, levels))


def _place(figure: str | None) -> str:
    return NAMES[figure] if figure else phrase("quarry")


def _site(player: dict[str, Any], territory: str) -> str:
    """`temple 1 2 3, row SSA` (empty parts left out)."""
    temple, row = player["temples"][territory], player["rows"][territory]
    if temple and row:
        return phrase("temple {levels}, row {row}", levels=_levels(temple), row=row)
    if temple:
        return phrase("temple {levels}", levels=_levels(temple))
    if row:
        return phrase("row {row}", row=row)
    return ""


GAME = Babel()
