"""Babel Tower (cuboro) as the server sees it: the `pbem.games.base.Engine` interface.

A decision is exactly one step. Events (each also has "v"):
- `{"type": "pick", "seat": s, "step": "pick 3"}` during the draft;
- `{"type": "place", "seat": s, "step": "place 3 SW UNE"}` while building;
- the generic events (`pbem.games.base`): resign, timeout (the seat loses), abort.
Nothing is hidden: every seat's view is the whole state.
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
from ..phrases import Phrase, phrase
from ..rng import Rng
from . import drawing, position, rules
from .cubes import CORNERS, CUBES, FACES, canonical
from .notation import Pick, Place, parse, parse_steps
from .state import BUILD, DRAFT, PICK, RANDOM, Placed, Result, Tower, start
from .words import bumps_in_words, corner_name

PICK_EVENT, PLACE_EVENT = "pick", "place"
OUTCOMES = {
    "complete": phrase("the tower is complete"),
    "blocked": phrase("the opponent could not place any of his cubes"),
    "resigned": phrase("the opponent resigned"),
    "timeout": phrase("the opponent's time ran out"),
}


class BabelTower(Engine[Tower]):
    name = "babel-tower"
    title = phrase("Babel Tower (cuboro)")
    min_seats = max_seats = 2
    options = (
        Option("draft", phrase("The 24 cubes are shared out"),
               ((PICK, phrase("by picking in turn, one cube at a time (the printed rules)")),
                (RANDOM, phrase("at random, twelve each (a faster start by mail)"))),
               PICK),
    )
    board_template = "games/babel-tower/board.html"
    example_step = "place 3 SW UNE"
    form_templates = {PICK_EVENT: "games/babel-tower/pick.html",
                      PLACE_EVENT: "games/babel-tower/place.html"}

    # -- setting up and the log -------------------------------------------
    def start(self, seed: int, options: Mapping[str, str] | None = None, seats: int = 2,
              first: int | None = None) -> Tower:
        if seats != 2:
            raise GameError(phrase("Babel Tower is a game for two; {seats} seats were asked for.",
                                   seats=seats))
        if first not in (None, 0, 1):
            raise GameError(phrase("the first player must be seat 0 or 1, not {first}.",
                                   first=repr(first)))
        state = start(seed, self.normalize_options(options)["draft"], first)
        if state.phase == BUILD:
            rules.check_blocked(state)
        return state

    def seat_count(self, state: Tower) -> int:
        return 2

    def is_over(self, state: Tower) -> bool:
        return state.result is not None

    def decision_kind(self, state: Tower, seat: int) -> str | None:
        if state.result is not None or seat != state.to_move:
            return None
        return PICK_EVENT if state.phase == DRAFT else PLACE_EVENT

    def play(self, state: Tower, event: Event) -> None:
        parsed = parse(event_field(event, "step", str))
        wanted = Pick if event["type"] == PICK_EVENT else Place
        if len(parsed) != 1 or not isinstance(parsed[0], wanted):
            raise GameError(phrase("a {type} event holds one {type} step, not {step}.",
                                   type=str(event["type"]), step=repr(event["step"])))
        _act(state, parsed[0])

    def end_game(self, state: Tower, loser: int | None, reason: str) -> None:
        state.result = Result(None if loser is None else 1 - loser, reason)

    def to_act(self, state: Tower) -> list[Decision]:
        kind = self.decision_kind(state, state.to_move)
        if kind is None:
            return []
        label = phrase("pick a cube") if kind == PICK_EVENT else phrase("place a cube")
        return [Decision(state.to_move, kind, label)]

    def _one_step(self, state: Tower, seat: int, text: str) -> tuple[Pick | Place, Tower]:
        kind = required(self.decision_kind(state, seat), state.result is not None)
        parsed = parse_steps(text)
        if not parsed:
            raise NotationError(phrase("the turn has no step; write one {kind} step.", kind=kind), 1, "")
        if len(parsed) > 1:
            raise IllegalStep(phrase("a turn is exactly one step."), 2, parsed[1][1])
        step, piece = parsed[0]
        trial = state.copy()
        try:
            _act(trial, step)
        except IllegalStep as error:
            raise error.at(1, piece) from None
        return step, trial

    def decide(self, state: Tower, seat: int, text: str) -> dict[str, Any]:
        step, _ = self._one_step(state, seat, text)
        kind = PICK_EVENT if isinstance(step, Pick) else PLACE_EVENT
        return {"v": self.event_version, "type": kind, "seat": seat, "step": str(step)}

    def draft(self, state: Tower, seat: int, text: str) -> Draft[Tower]:
        try:
            # The seat first, as `decide` does: a seat that owes nothing meets WrongDecision.
            required(self.decision_kind(state, seat), state.result is not None)
            if not parse_steps(text):
                return Draft(state)
            step, trial = self._one_step(state, seat, text)
        except GameError as error:
            return Draft(state, error=error)
        return Draft(trial, [str(step)], None, done=True)

    def legal_steps(self, state: Tower, seat: int) -> list[StepOption]:
        steps: list[Pick | Place]
        if self.decision_kind(state, seat) == PICK_EVENT:
            steps = [Pick(t) for t in range(5) if state.pool[t]]
        else:
            steps = [Place(c, k, b) for c, k, b in rules.placements(state, seat)]
        return [StepOption(str(s), words(s)) for s in steps]

    # -- what people see --------------------------------------------------
    def view(self, state: Tower, seat: int | None) -> dict[str, Any]:
        return {
            "game": self.name,
            "seat": seat,
            "to_move": state.to_move,
            "phase": "over" if state.result else state.phase,
            "pool": state.pool,
            "hands": state.hands,
            "floor": state.floor,
            "floors": [{c: _placed_json(f.get(c)) for c in CORNERS} for f in state.floors],
            "placed": [sum(1 for f in state.floors for p in f.values() if p.seat == s) for s in (0, 1)],
            "outcome": (None if state.result is None else
                        {"winner": state.result.winner, "reason": state.result.reason}),
        }

    def drawing(self, view: Mapping[str, Any], last_step: str | None = None) -> dict[str, Any]:
        """The tower as an isometric picture (`drawing.py`)."""
        return drawing.drawing(view, last_step)

    def outcome(self, state: Tower) -> Outcome | None:
        if state.result is None:
            return None
        if state.result.reason == ABORTED.reason:
            return ABORTED
        return Outcome(state.result.winner, state.result.reason, OUTCOMES[state.result.reason])

    def scores(self, state: Tower) -> list[int]:
        """Cubes each player has placed."""
        return [sum(1 for f in state.floors for p in f.values() if p.seat == s) for s in (0, 1)]

    def event_notation(self, event: Event, seat: int | None) -> str:
        return str(event["step"])

    def explain(self, state: Tower, seat: int, text: str) -> list[str]:
        try:
            return [words(step) for step in parse(text)]
        except GameError:
            return []

    score_word = phrase("Cubes placed")
    score_axis = phrase("cubes placed")

    def reply_help(self, state: Tower, seat: int) -> tuple[str, str]:
        """An example of the step owed: a pick from the pool in the draft, else a placement
        that fits the tower as it stands."""
        options = self.legal_steps(state, seat)
        if not options:
            return self.example_step, ""
        if self.decision_kind(state, seat) == PICK_EVENT:
            return options[0].notation, phrase(
                "Answer with one pick: the number of a cube type in the pool.")
        return options[0].notation, phrase(
            "Answer with one placement: cube, corner and where its bumps face.")

    def summary(self, state: Tower, seat: int, names: Sequence[str] = ()) -> list[str]:
        def cubes(counts: list[int]) -> str:
            # the cubes' numbers are notation: only "none" is a word
            return " ".join(str(t) for t, n in enumerate(counts) for _ in range(n)) or phrase("none")
        lines: list[str] = [phrase("Your cubes: {cubes}", cubes=cubes(state.hands[seat])),
                 phrase("Your opponent's cubes: {cubes}", cubes=cubes(state.hands[1 - seat]))]
        if state.phase == DRAFT:
            lines.append(phrase("Still in the pool: {cubes}", cubes=cubes(state.pool)))
        for number, floor in enumerate(state.floors, 1):
            if floor:
                lines.append(phrase("Floor {floor}: {cubes}", floor=number, cubes=_cells(floor)))
        return lines

    def snapshot(self, state: Tower) -> dict[str, Any]:
        """A position file (`position.py`), which holds every part of the state."""
        return position.to_json(state)

    def restore(self, data: Mapping[str, Any]) -> Tower:
        return position.from_json(data)

    #: A search playout (a random game to its end, draft and all) is slow: 0.8 of a level's.
    playout_share = 0.8

    def determinize(self, state: Tower, seat: int, rng: Rng) -> Tower:
        """Nothing is hidden: every seat knows the whole state."""
        return state.copy()

    def recount(self, before: Tower, event: Event, seat: int | None,
                after: Tower | None = None) -> Recount:
        """A pick or a placement in words ("placed a 3 at SW on floor 2, bumps north"); a
        placement's marks name the cube placed: {"placed": {"floor": index, "corner": c}}."""
        step = parse(event_field(event, "step", str))[0]
        if isinstance(step, Pick):
            return Recount(phrase("picked a {cube}", cube=step.cube))
        if after is None:
            after = before.copy()
            _act(after, step)
        floor = next(i for i, f in enumerate(after.floors)
                     if step.corner in f and (i >= len(before.floors)
                                              or step.corner not in before.floors[i]))
        if step.bumps:
            text = phrase("placed a {cube} at {corner} on floor {floor}, {bumps}", cube=step.cube,
                          corner=corner_name(step.corner), floor=floor + 1, bumps=bumps_in_words(step.bumps))
        else:
            text = phrase("placed a {cube} at {corner} on floor {floor}", cube=step.cube,
                          corner=corner_name(step.corner), floor=floor + 1)
        return Recount(text, {"placed": {"floor": floor, "corner": step.corner}})

    def ending(self, state: Tower, seat: int | None, names: list[str]) -> str:
        result = state.result
        if result is not None and result.reason == "complete":
            return phrase("A draw: the tower is complete, all {n} cubes placed", n=CUBES)
        if result is not None and result.reason == "blocked" and result.winner is not None:
            w, lost = result.winner, 1 - result.winner
            if lost == seat:
                return phrase("{winner} wins: you could not place any of your cubes",
                              winner=names[w])
            if w == seat:
                return phrase("You win: {loser} could not place any of their cubes",
                              loser=names[lost])
            return phrase("{winner} wins: {loser} could not place any of their cubes",
                          winner=names[w], loser=names[lost])
        return super().ending(state, seat, names)

    def random_submission(self, state: Tower, seat: int, rng: Rng) -> str:
        return rng.choice(self.legal_steps(state, seat)).notation

    def play_out(self, state: Tower, rng: Rng) -> None:
        """The step `random_submission` draws with `rng`, played in place (no words, no text)."""
        if state.phase == DRAFT:
            _act(state, Pick(rng.choice([t for t in range(5) if state.pool[t]])))
        else:
            _act(state, Place(*rng.choice(list(rules.placements(state, state.to_move)))))


def _act(state: Tower, step: Pick | Place) -> None:
    if isinstance(step, Pick):
        rules.pick(state, step.cube)
    else:
        rules.place(state, step.cube, step.corner, step.bumps)


def _placed_json(placed: Placed | None) -> dict[str, Any] | None:
    if placed is None:
        return None
    return {"cube": placed.cube, "bumps": canonical(placed.bumps), "seat": placed.seat,
            "faces": {f: f in placed.bumps for f in FACES}}


def _cells(floor: Mapping[str, Placed]) -> Phrase:
    """A floor's cubes for a mail: "NW 3 UNE, NE 0 -", each corner named in the reader's
    language (the cube and its faces are notation)."""
    cells = [phrase("{corner} {cube} {bumps}", corner=corner_name(c), cube=p.cube,
                    bumps=canonical(p.bumps)) for c, p in floor.items()]
    line = cells[0]
    for cell in cells[1:]:
        line = phrase("{items}, {item}", items=line, item=cell)
    return line


def words(step: Pick | Place) -> Phrase:
    if isinstance(step, Pick):
        return phrase("pick a {cube}", cube=step.cube)
    if not step.bumps:
        return phrase("place a {cube} at {corner}", cube=step.cube, corner=corner_name(step.corner))
    return phrase("place a {cube} at {corner}, {bumps}", cube=step.cube, corner=corner_name(step.corner),
                  bumps=bumps_in_words(step.bumps))


GAME = BabelTower()
