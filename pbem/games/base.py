"""The interface between the server and a game's rules engine.

The server core (store, links, mail, pages, JSON API) knows games only through
this class. An engine is pure: no Flask, no database, no clock, no global
random. Its state is an opaque value the server never looks into; everything
the server shows comes from `view(state, seat)`, computed for that seat.

A game's log is a list of events (JSON-able dicts). Each has at least
`"type"` and `"seat"`; `"v"` is the event format's version. Every engine must
accept the generic events `{"type": "resign", "seat": s}` and
`{"type": "timeout", "seat": s}` (a seat's time ran out) at any point while the
game runs. All other events come from `decide()`.

Chance is not the rules' business: all of it is drawn from the seed given to
`start()`, through `pbem.games.rng.Rng`, so replaying (seed, options, events)
always yields the same state.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from .errors import GameError, IllegalStep, NotationError, PositionError, WrongDecision
from .text import split_steps

__all__ = [
    "Decision", "Draft", "Engine", "GameError", "IllegalStep", "NotationError", "Option",
    "Outcome", "PositionError", "StepOption", "WrongDecision",
]

EVENT_VERSION = 1


def required(kind: str | None, over: bool) -> str:
    """The kind of decision a seat owes now, or the WrongDecision its submission meets."""
    if over:
        raise WrongDecision("the game is over.")
    if kind is None:
        raise WrongDecision("it is not your turn.")
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

    def __post_init__(self):
        if not self.winners and self.winner is not None:
            object.__setattr__(self, "winners", (self.winner,))


@dataclass
class Draft:
    """A partly composed decision: the state after its longest legal prefix.

    `error` is the first failing step (None when every step applies); `done`
    says whether submitting the draft as it stands would be accepted, and
    `todo` why not, when every step applies but the decision is unfinished.
    """
    state: Any
    steps: list[str] = field(default_factory=list)   # canonical notation of the applied steps
    error: GameError | None = None
    done: bool = False
    todo: str | None = None


class Engine(ABC):
    """A rules engine as the server sees it."""

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
    upcasters: Mapping[tuple[str, int], Any] = {}

    # -- setting up -------------------------------------------------------
    def normalize_options(self, raw: Mapping[str, str] | None) -> dict[str, str]:
        """Fill in defaults and refuse unknown options or values."""
        raw = dict(raw or {})
        known = {o.name: o for o in self.options}
        for key in raw:
            if key not in known:
                names = ", ".join(known) or "none"
                raise GameError(f"unknown option {key!r} for {self.title}; options are: {names}")
        out = {}
        for opt in self.options:
            value = str(raw.get(opt.name, opt.default)).strip().lower()
            allowed = [v for v, _ in opt.choices]
            if value not in allowed:
                raise GameError(
                    f"option {opt.name}={value!r} is not one of {', '.join(allowed)}")
            out[opt.name] = value
        return out

    @abstractmethod
    def start(self, seed: int, options: Mapping[str, str], seats: int, first: int | None) -> Any:
        """The state before the first decision. `first=None` lets the seed choose."""

    # -- the log ----------------------------------------------------------
    @abstractmethod
    def apply(self, state: Any, event: Mapping[str, Any]) -> Any:
        """The state after one event; the given state is left unchanged."""

    def upcast(self, event: Mapping[str, Any]) -> Mapping[str, Any]:
        """A stored event in the current format, one tested version step at a time.

        Stored rows are never rewritten: the log stays as it was written, and
        every load reads it through the upcasters.
        """
        version = event.get("v", 1)
        if version > self.event_version:
            raise GameError(f"event version {version} is newer than this server's "
                            f"{self.event_version}; upgrade the server.")
        while version < self.event_version:
            step = self.upcasters.get((event["type"], version))
            event = dict(step(event) if step else event)
            version += 1
            event["v"] = version
        return event

    def replay(self, seed: int, options: Mapping[str, str], seats: int, first: int | None,
               events: Iterable[Mapping[str, Any]]) -> Any:
        """A state as a fold over its events (engines may do it faster in place)."""
        state = self.start(seed, options, seats, first)
        for event in events:
            state = self.apply(state, event)
        return state

    @abstractmethod
    def to_act(self, state: Any) -> list[Decision]:
        """Who owes a decision now, and of what kind (empty once the game is over)."""

    @abstractmethod
    def decide(self, state: Any, seat: int, text: str) -> dict[str, Any]:
        """Check a whole submission of `seat` and return the event that records it.

        Raises a GameError naming the step when any part of it is illegal;
        nothing is applied then.
        """

    @abstractmethod
    def draft(self, state: Any, seat: int, text: str) -> Draft:
        """Apply as much of a submission as is legal, for previews and composers."""

    @abstractmethod
    def legal_steps(self, state: Any, seat: int) -> list[StepOption]:
        """Every legal next step for `seat` in `state` (a draft's state, too)."""

    def snapshot(self, state: Any) -> dict | None:
        """The state as JSON-able data, to be restored exactly; None: this engine takes none."""
        return None

    def restore(self, data: Mapping[str, Any]) -> Any:
        """The state a snapshot holds."""
        raise NotImplementedError(f"{self.title} takes no snapshots")

    def split_steps(self, text: str) -> list[str]:
        """The steps of a submission as written (for composers that remove a step)."""
        return split_steps(text)

    # -- what people see --------------------------------------------------
    @abstractmethod
    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """Exactly what `seat` may know (None: a spectator), as JSON-able data."""

    @abstractmethod
    def outcome(self, state: Any) -> Outcome | None:
        """The result, once the game is over."""

    @abstractmethod
    def scores(self, state: Any) -> list[int]:
        """Each seat's score now (for the record's chart)."""

    @abstractmethod
    def notation(self, event: Mapping[str, Any], seat: int | None = None) -> str:
        """An event as a line of the game record, as `seat` may see it (None: a spectator)."""

    def summary(self, state: Any, seat: int) -> list[str]:
        """A few lines of what the seat sees, for mails (so a player can answer from his mailbox)."""
        return []

    @abstractmethod
    def explain(self, state: Any, seat: int, text: str) -> list[str]:
        """A submission in plain words, one phrase per step, for confirmations."""

    # -- generic events ---------------------------------------------------
    def resign_event(self, seat: int) -> dict[str, Any]:
        return {"v": self.event_version, "type": "resign", "seat": seat}

    def timeout_event(self, seat: int) -> dict[str, Any]:
        return {"v": self.event_version, "type": "timeout", "seat": seat}
