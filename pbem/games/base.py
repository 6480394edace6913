"""The interface between the server and a game's rules engine.

The server core (store, links, mail, pages, JSON API) knows games only through
this class. An engine is pure: no Flask, no database, no clock, no global
random. Its state is an opaque value the server never looks into; everything
the server shows comes from `view(state, seat)`, computed for that seat.

A game's log is a list of events (JSON-able dicts). Each has at least
`"type"` and `"seat"`; `"v"` is the event format's version. Every engine
accepts three generic events at any point while the game runs, handled here
once for all games (`Engine.apply`):
- `{"type": "resign", "seat": s}`: the seat gives up and loses;
- `{"type": "timeout", "seat": s}`: the seat's time ran out, and it loses;
- `{"type": "abort", "seat": null, "why": "..."}`: the game ends with no winner.
All other events come from `decide()`.

Words: a seat *owes* a decision (`to_act`: a turn, an answer); what a rule
makes a seat hand over is *due* (Babel's halving discards, Babylonia's
ziggurat card).

Chance is not the rules' business: all of it is drawn from the seed given to
`start()`, through `pbem.games.rng.Rng`, so replaying (seed, options, events)
always yields the same state.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeGuard, TypeVar

from .errors import GameError, IllegalStep, NotationError, PositionError, WrongDecision
from .phrases import Phrase, phrase
from .rng import Rng
from .text import split_steps
from .words import listing

__all__ = [
    "ABORTED", "Decision", "Draft", "Engine", "GameError", "IllegalStep", "NotationError",
    "Option", "Outcome", "PositionError", "Recount", "StepOption", "WrongDecision",
]

EVENT_VERSION = 1

#: An event as stored and applied: JSON-able, with at least "type" and "seat".
Event = Mapping[str, Any]

RESIGN, TIMEOUT, ABORT = "resign", "timeout", "abort"
#: The reasons the generic events end a game with (`Outcome.reason`).
RESIGNED, TIMED_OUT, ABORTED_REASON = "resigned", "timeout", "aborted"
#: How the record writes the generic events.
GENERIC_NOTATION = {RESIGN: "resign", TIMEOUT: "timeout", ABORT: "aborted"}


T = TypeVar("T")


def event_field(event: Event, key: str, kind: type[T]) -> T:
    """A field of one of a game's own events, or the GameError that names it (a malformed
    event: the server writes only what `decide` returns, so this guards against hand edits)."""
    value = event.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise GameError(phrase("a {type} event needs {key} ({kind}), not {value}.",
                               type=str(event.get("type")), key=repr(key), kind=kind.__name__,
                               value=repr(value)))
    return value


def required(kind: str | None, over: bool) -> str:
    """The kind of decision a seat owes now, or the WrongDecision its submission meets."""
    if over:
        raise WrongDecision(phrase("the game is over."))
    if kind is None:
        raise WrongDecision(phrase("it is not your turn."))
    return kind


@dataclass(frozen=True)
class Option:
    """A game option chosen when a game is created (a variant, say)."""
    name: str
    label: str
    choices: tuple[tuple[str, str], ...]   # (value, words for the form)
    default: str


@dataclass(frozen=True)
class Decision:
    """A seat owes a decision of this kind (game-defined: "turn", "discard", ...)."""
    seat: int
    kind: str
    label: str      # words for subjects and pages: "play your turn", "discard 3 cards"


@dataclass(frozen=True)
class StepOption:
    """One legal next step of a draft: its notation and its words.

    `ends` marks the option that completes the decision (ending phase 2):
    it has no notation of its own; submitting the draft is that step.
    """
    notation: str
    label: str
    ends: bool = False
    #: Options of one group are shown together (folded, when there are many): "Play a farmer".
    group: str = ""


@dataclass(frozen=True)
class Outcome:
    winner: int | None          # None: a draw, or a win shared by `winners`
    reason: str                 # game-defined key, e.g. "twenty", "resigned"
    description: str            # one sentence for pages and mails
    winners: tuple[int, ...] = ()   # every winning seat: (winner,), or several sharing a win

    def __post_init__(self) -> None:
        if not self.winners and self.winner is not None:
            object.__setattr__(self, "winners", (self.winner,))


@dataclass(frozen=True)
class Recount:
    """A decision told to one reader (`Engine.recount`): what the mover did, in words that
    follow his name ("moved to the Hittites, settled 2 Persians there"), and what it changed
    on the board, as the game's board template reads it (JSON-able, game-defined)."""
    words: str
    marks: Mapping[str, Any] = field(default_factory=dict)


#: The outcome of an aborted game, the same in every game: nobody wins.
ABORTED = Outcome(None, ABORTED_REASON, phrase("the game was aborted"))


def _you(seat: int, reader: int | None, names: list[str]) -> str:
    return phrase("you") if seat == reader else names[seat]


def _result_words(outcome: Outcome, reader: int | None, names: list[str]) -> str:
    """"You win", "Bob wins", "Anna and you share the win", "Nobody wins", "A draw"."""
    if outcome.reason == ABORTED_REASON:
        return phrase("Nobody wins")
    winners = outcome.winners
    if not winners:
        return phrase("A draw")
    if len(winners) == 1:
        return phrase("You win") if winners[0] == reader else phrase("{name} wins",
                                                                      name=names[winners[0]])
    who = listing([_you(s, reader, names) for s in winners])
    return phrase("{winners} share the win", winners=who).capitalized()


def ended_off_the_board(outcome: Outcome, reader: int | None, names: list[str]) -> str | None:
    """The words for an ending the generic events made ("You win: Bob resigned", "Bob wins:
    your time ran out"), or None for an ending on the board. The loser is the seat that did
    not win (these endings come in games of two: in larger ones a computer takes the seat)."""
    if outcome.reason == ABORTED_REASON:
        return phrase("Nobody wins: the game was called off")
    if outcome.reason not in (RESIGNED, TIMED_OUT):
        return None
    losers = [s for s in range(len(names)) if s not in outcome.winners]
    if len(losers) != 1:
        return None
    loser = losers[0]
    if outcome.reason == RESIGNED:
        why = phrase("you resigned") if loser == reader else phrase(
            "{name} resigned", name=names[loser])
    else:
        why = phrase("your time ran out") if loser == reader else phrase(
            "{name}'s time ran out", name=names[loser])
    return phrase("{result}: {why}", result=_result_words(outcome, reader, names), why=why)


class GameState(Protocol):
    """What the base needs of an engine's state: a copy that shares nothing mutable."""

    def copy(self: S) -> S: ...


S = TypeVar("S", bound=GameState)


@dataclass
class Draft(Generic[S]):
    """A partly composed decision: the state after its longest legal prefix.

    `error` is the first failing step (None when every step applies); `done`
    says whether submitting the draft as it stands would be accepted, and
    `todo` why not, when every step applies but the decision is unfinished.
    """
    state: S
    steps: list[str] = field(default_factory=list)   # canonical notation of the applied steps
    error: GameError | None = None
    done: bool = False
    todo: str | None = None


class Engine(ABC, Generic[S]):
    """A rules engine as the server sees it (`S`: the type of its states)."""

    name: str            # the key in URLs, the database and the CLI: "babel"
    title: str           # for people: "Babel"
    min_seats: int = 2
    max_seats: int = 2
    options: tuple[Option, ...] = ()
    #: Jinja templates drawing this game's view (`view` in the context) and its decision forms.
    board_template: str = ""
    #: One step of the notation, as an example in mails ("answer with your steps, e.g. ...").
    example_step: str = ""
    form_templates: Mapping[str, str] = {}
    #: Raised whenever a rules fix may change what a log folds to: stored snapshots of other
    #: versions are then ignored (and `flask verify` replays every game in full).
    rules_version: int = 1
    #: The version of this game's event format; stored events are upcast to it when loaded.
    event_version: int = EVENT_VERSION
    #: (event type, version) -> a function turning such an event into the next version's form.
    #: Types a version step leaves alone need none: their "v" is simply raised.
    upcasters: Mapping[tuple[str, int], Callable[[Event], Event]] = {}

    # -- setting up -------------------------------------------------------
    def normalize_options(self, raw: Mapping[str, str] | None) -> dict[str, str]:
        """Fill in defaults and refuse unknown options or values."""
        raw = dict(raw or {})
        known = {o.name: o for o in self.options}
        for key in raw:
            if key not in known:
                names = ", ".join(known) or phrase("none")
                raise GameError(phrase("unknown option {key} for {title}; options are: {names}",
                                       key=repr(key), title=self.title, names=names))
        out = {}
        for opt in self.options:
            value = str(raw.get(opt.name, opt.default)).strip().lower()
            allowed = [v for v, _ in opt.choices]
            if value not in allowed:
                raise GameError(phrase("option {name}={value} is not one of {allowed}",
                                       name=opt.name, value=repr(value), allowed=", ".join(allowed)))
            out[opt.name] = value
        return out

    @abstractmethod
    def start(self, seed: int, options: Mapping[str, str], seats: int, first: int | None) -> S:
        """The state before the first decision. `first=None` lets the seed choose."""

    # -- the log ----------------------------------------------------------
    def apply(self, state: S, event: Event) -> S:
        """The state after one event; the given state is left unchanged.

        An event of an older format is upcast first (the store upcasts what it loads, so
        this costs one comparison)."""
        after = state.copy()
        self.apply_in_place(after, self._current(event))
        return after

    def _current(self, event: Event) -> Event:
        return event if event.get("v", 1) == self.event_version else self.upcast(event)

    def apply_in_place(self, state: S, event: Event) -> None:
        """One event in the current format, changing `state`: the generic events here, the
        game's own in `play`. An event the state does not wait for is refused with
        WrongDecision before anything changes."""
        kind, seat = event.get("type"), event.get("seat")
        if self.is_over(state):
            raise WrongDecision(phrase("the game is over; a {kind} event cannot follow.",
                                       kind=str(kind)))
        if kind == ABORT:
            if seat is not None or not isinstance(event.get("why"), str):
                raise WrongDecision(phrase("an abort is {form}.",
                                           form='{"type": "abort", "seat": null, "why": "..."}'))
            self.end_game(state, None, ABORTED_REASON)
        elif kind in (RESIGN, TIMEOUT):
            self.end_game(state, self._seat(state, seat), RESIGNED if kind == RESIGN else TIMED_OUT)
        else:
            owed = self.decision_kind(state, seat) if self._is_seat(seat, state) else None
            if kind != owed:
                raise WrongDecision(phrase("seat {seat} owes {owed} now, not {kind}.", seat=str(seat),
                                           owed=owed or phrase("nothing"), kind=str(kind)))
            self.play(state, event)

    def _is_seat(self, seat: object, state: S) -> TypeGuard[int]:
        return (isinstance(seat, int) and not isinstance(seat, bool)
                and 0 <= seat < self.seat_count(state))

    def _seat(self, state: S, seat: object) -> int:
        """`seat` as a seat of this game, or the WrongDecision that names the seats."""
        if not self._is_seat(seat, state):
            last = self.seat_count(state) - 1
            seats = phrase("0 and 1") if last == 1 else phrase("0 to {last}", last=last)
            raise WrongDecision(phrase("seat {seat} does not play this game; its seats are {seats}.",
                                       seat=repr(seat), seats=seats))
        return seat

    def upcast(self, event: Event) -> Event:
        """A stored event in the current format, one tested version step at a time.

        Stored rows are never rewritten: the log stays as it was written, and
        every load reads it through the upcasters.
        """
        version = event.get("v", 1)
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise GameError(phrase("event version {version} is not a version of this game's events.",
                                   version=repr(version)))
        if version > self.event_version:
            raise GameError(phrase("event version {version} is newer than this server's {mine}; "
                                   "upgrade the server.", version=str(version),
                                   mine=str(self.event_version)))
        kind = str(event.get("type"))
        while version < self.event_version:
            step = self.upcasters.get((kind, version))
            event = dict(step(event) if step else event)
            version += 1
            event["v"] = version
        return event

    def replay(self, seed: int, options: Mapping[str, str], seats: int, first: int | None,
               events: Iterable[Event]) -> S:
        """A state as a fold over its events, in place on a state nobody else holds."""
        state = self.start(seed, options, seats, first)
        for event in events:
            self.apply_in_place(state, self._current(event))
        return state

    # -- what each game says of its own events ----------------------------------
    @abstractmethod
    def seat_count(self, state: S) -> int:
        """How many seats play this game."""

    @abstractmethod
    def is_over(self, state: S) -> bool:
        """Whether the game has ended (then nothing may follow)."""

    @abstractmethod
    def decision_kind(self, state: S, seat: int) -> str | None:
        """The kind of decision `seat` owes now (an event type of this game), or None."""

    @abstractmethod
    def play(self, state: S, event: Event) -> None:
        """One of the game's own events, in place; its seat owes a decision of its type."""

    @abstractmethod
    def end_game(self, state: S, loser: int | None, reason: str) -> None:
        """End the game in place: `loser` resigned or ran out of time (`reason` says which),
        or, with no loser, it was aborted and nobody wins."""

    @abstractmethod
    def to_act(self, state: S) -> list[Decision]:
        """Who owes a decision now, and of what kind (empty once the game is over)."""

    @abstractmethod
    def decide(self, state: S, seat: int, text: str) -> dict[str, Any]:
        """Check a whole submission of `seat` and return the event that records it.

        Raises a GameError naming the step when any part of it is illegal;
        nothing is applied then.
        """

    @abstractmethod
    def draft(self, state: S, seat: int, text: str) -> Draft[S]:
        """Apply as much of a submission as is legal, for previews and composers."""

    @abstractmethod
    def legal_steps(self, state: S, seat: int) -> list[StepOption]:
        """Every legal next step for `seat` in `state` (a draft's state, too) after which the
        decision can still be completed: what a page offers. A step that is legal but leads
        into a dead end (no step left, and the decision not done) is left out, so a player who
        only clicks offered steps can always end (tests/contract: every draft reached through
        offered steps is completed and decided)."""

    def finishable(self, state: S, seat: int) -> bool:
        """Whether the decision `seat` owes can still be completed from `state`, a draft's
        state. With `legal_steps` keeping its word, that is whether anything is offered there
        (a completion's first step leaves a completion, so it is offered; an offered step
        leaves one by its word). A game whose `legal_steps` asks this (to leave steps out)
        says it by its own rules, more cheaply."""
        return bool(self.legal_steps(state, seat))

    def take_back(self, state: S, seat: int, draft: Draft[S]) -> tuple[int, Phrase] | None:
        """For a draft whose every step applies but which can no longer be completed (typed
        notation goes where no offered step leads): the number of the first step after which
        it could not, and a sentence telling the player to take it back. None otherwise.

        Completable prefixes come first and dead ones after (a completion of a longer prefix
        completes the shorter), so the first dead one is found by halving: a few drafts."""
        if draft.done or draft.error is not None or not draft.steps:
            return None
        if self.finishable(draft.state, seat):
            return None
        alive, dead = 0, len(draft.steps)        # the empty draft of an owed decision ends
        while dead - alive > 1:
            middle = (alive + dead) // 2
            shorter = self.draft(state, seat, self.submission(draft.steps[:middle]))
            if shorter.done or self.finishable(shorter.state, seat):
                alive = middle
            else:
                dead = middle
        return dead, phrase("Take back step {n} ({step}): after it the turn cannot be finished.",
                            n=dead, step=draft.steps[dead - 1])

    def snapshot(self, state: S) -> dict[str, Any] | None:
        """The state as JSON-able data, to be restored exactly; None: this engine takes none."""
        return None

    def restore(self, data: Mapping[str, Any]) -> S:
        """The state a snapshot holds."""
        raise NotImplementedError(f"{self.title} takes no snapshots")

    def split_steps(self, text: str) -> list[str]:
        """The steps of a submission as written (for composers that remove a step)."""
        return split_steps(text)

    # -- what people see --------------------------------------------------
    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """Exactly what `seat` may know (None: a spectator), as JSON-able data."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The result, once the game is over."""

    @abstractmethod
    def scores(self, state: S) -> list[int]:
        """Each seat's score now (for the record's chart)."""

    def places(self, state: S) -> list[int]:
        """Seat by seat, where it finished (1: it won; seats level share a place, the next
        place counting them: 1, 2, 2, 4), once the game is over: the winners first, the others
        by score. A game with tie-breaks beyond the score says so itself."""
        outcome = self.outcome(state)
        winners = outcome.winners if outcome is not None else ()
        scores = self.scores(state)

        def key(s: int) -> tuple[int, int]:
            return (0 if s in winners else 1, -scores[s] if s < len(scores) else 0)
        return [1 + sum(key(o) < key(s) for o in range(len(scores))) for s in range(len(scores))]

    def drawing(self, view: Mapping[str, Any], last_step: str | None = None) -> Any:
        """Precomputed geometry for the board template to draw `view` with (`game_drawing` in
        templates), `last_step` being the notation of the step to mark; None: the template
        draws on its own."""
        return None

    def notation(self, event: Event, seat: int | None = None) -> str:
        """An event as a line of the game record, as `seat` may see it (None: a spectator)."""
        generic = GENERIC_NOTATION.get(str(event.get("type")))
        return generic if generic is not None else self.event_notation(event, seat)

    @abstractmethod
    def event_notation(self, event: Event, seat: int | None) -> str:
        """One of the game's own events as a line of the record, as `seat` may see it."""

    def summary(self, state: S, seat: int, names: Sequence[str] = ()) -> list[str]:
        """A few lines of what the seat sees, for mails (so a player can answer from his
        mailbox), at most 76 characters each; `names`: the players' names by seat."""
        return []

    #: What `scores` counts, for headings and mails: "Scores", or a game's own word.
    score_word: str = phrase("Scores")
    #: What the record's chart counts up its side, in lower case ("cubes placed").
    score_axis: str = phrase("score")

    def reply_help(self, state: S, seat: int) -> tuple[str, str]:
        """How a mail answers the decision `seat` owes: an example reply that fits it, and
        what the reply must hold when the example does not say enough ("" otherwise)."""
        return self.example_step, ""

    @abstractmethod
    def explain(self, state: S, seat: int, text: str) -> list[str]:
        """A submission in plain words, one phrase per step, for confirmations."""

    def is_turn(self, event: Event) -> bool:
        """Whether an event of the log is its seat's own turn: the others' moves are marked
        for that seat until its next one. Not so a generic event, nor what a seat owes within
        another's turn (this default counts every decision of the game's own)."""
        return event.get("type") not in GENERIC_NOTATION

    def recount(self, before: S, event: Event, seat: int | None, after: S | None = None
                ) -> Recount:
        """One of the game's own events told to `seat` (None: a spectator), who may be its
        mover: words in the past tense from that reader's side ("built level 3 from your
        column"), and the marks the board shows for it. `before` is the state the event was
        applied to, `after` the state it led to (computed when not given). This default tells
        the record's line and marks nothing."""
        return Recount(self.notation(event, seat))

    def ending(self, state: S, seat: int | None, names: list[str]) -> str:
        """Why the game ended, written for `seat` (None: a spectator), tie-breaks spelled out:
        "You win: the temple supply ran out at 5 to 5, and you hold more tribe cards (4 to
        2)". This default names the winners and the outcome's description."""
        outcome = self.outcome(state)
        if outcome is None:
            return ""
        return (ended_off_the_board(outcome, seat, names)
                or phrase("{result}: {description}", result=_result_words(outcome, seat, names),
                          description=outcome.description))

    # -- players without people --------------------------------------------
    @abstractmethod
    def random_submission(self, state: S, seat: int, rng: Rng) -> str:
        """A random legal decision for `seat`, which owes one (bots, load tests, the contract)."""

    def determinize(self, state: S, seat: int, rng: Rng) -> S:
        """A full state `seat` cannot tell from this one: every part hidden from it (the others'
        hands, the order of decks and supplies, face-down pieces) drawn anew with `rng` from
        what it has not seen, the rest left as it is, so `view(result, seat) == view(state,
        seat)`. The draw depends on the view and `rng` alone, never on the hidden parts as
        they are: two states that differ only there give the same result for the same `rng`
        (a bot searching such samples cannot read what its seat may not know)."""
        raise NotImplementedError(f"{self.title} cannot sample its hidden information")

    def submission(self, steps: list[str]) -> str:
        """The text submitting these steps as a whole decision (chosen step by step from
        `legal_steps`; the option that `ends` adds no step)."""
        return "\n".join(steps)

    def play_out(self, state: S, rng: Rng) -> None:
        """One random legal decision of whoever owes one, in place (the search players'
        playouts). This default goes through `random_submission`, `decide` and the event;
        a game may do the same faster on its own state."""
        seat = self.to_act(state)[0].seat
        self.apply_in_place(state, self.decide(state, seat, self.random_submission(state, seat, rng)))

    # -- what the search players ask of a game (pbem/bots/search.py) -------
    #: Rounds (a decision per seat each) after which a search playout stops and `worth` judges
    #: the position; None: playouts go on to the end of the game.
    playout_rounds: int | None = None
    #: The share of a bot level's playouts this game affords (slower playouts: fewer), so
    #: that every level keeps to its time by its playout count.
    playout_share: float = 1.0
    #: Progressive widening for decisions with very many next steps: a node visited n times
    #: lets in its `search_width` * sqrt(n + 1) likeliest steps (`step_weight`); None: all.
    search_width: float | None = None

    def playout_move(self, state: S, rng: Rng) -> None:
        """One decision of a search playout, in place: `play_out`, unless the game knows a
        better (greedier) player that costs about as much."""
        self.play_out(state, rng)

    def step_weight(self, state: S, option: StepOption) -> int:
        """How likely a search completing a decision draws this next step (`state`: the
        draft so far); uniform unless the game says better."""
        return 1

    def worth(self, state: S, seat: int) -> float:
        """What a position a playout stopped in is worth to a seat, in [0, 1] (a win 1):
        even, unless the game says better."""
        return 1 / self.seat_count(state)

    # -- generic events ---------------------------------------------------
    def resign_event(self, seat: int) -> dict[str, Any]:
        return {"v": self.event_version, "type": RESIGN, "seat": seat}

    def timeout_event(self, seat: int) -> dict[str, Any]:
        return {"v": self.event_version, "type": TIMEOUT, "seat": seat}

    def abort_event(self, why: str) -> dict[str, Any]:
        """The game ends with no winner (a player's address is gone, the host stops it ...)."""
        return {"v": self.event_version, "type": ABORT, "seat": None, "why": why}
