"""The state of a game of Babel.

Mutable on purpose: the rules change a state in place, which keeps replaying a
log fast. Every public entry point that must leave its input alone copies it
first (`State.copy()` is cheap: rows are strings, temples and columns tuples).

Representation:
- a hand is a list of five counts, in the order of `TRIBES`;
- a row is a string of tribe letters, bottom -> top;
- a temple and a column are tuples of levels, bottom -> top;
- the tribe supply is a string and the temple supply a tuple, top last;
- `temple_known` counts the cards on top of the temple supply that both players
  know (put back by a destroy);
- `seed` drives the next reshuffle of the discard pile; a reshuffle replaces it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..rng import Rng
from .cards import DRAW_TRIBES, HAND_SIZE, TEMPLE_SUPPLY_DECK, TRIBE_DECK, TRIBE_INDEX, TRIBES

ACTIONS = "actions"     # the player to move has drawn and acts (phase 2)
DRAW = "draw"           # the player to move has not drawn yet (phase 1 is next)

SUMERIANS_TOP_RUN = "top-run"
SUMERIANS_ALL = "all"


@dataclass(frozen=True, slots=True)
class Result:
    winner: int | None    # None: a draw
    reason: str           # fifteen-ten, twenty, below-ten, supply-empty, resigned, timeout


class Player:
    __slots__ = ("hand", "figure", "column", "first_turn", "rows", "temples")

    def __init__(self, hand: Iterable[int] | None = None, figure: str | None = None,
                 column: Iterable[int] = (), first_turn: bool = True,
                 rows: Mapping[str, str] | None = None,
                 temples: Mapping[str, tuple[int, ...]] | None = None):
        self.hand: list[int] = list(hand) if hand is not None else [0] * 5
        self.figure: str | None = figure
        self.column: tuple[int, ...] = tuple(column)
        self.first_turn: bool = first_turn
        self.rows: dict[str, str] = dict(rows) if rows else {t: "" for t in TRIBES}
        self.temples: dict[str, tuple[int, ...]] = (
            dict(temples) if temples else {t: () for t in TRIBES})

    def copy(self) -> Player:
        p = Player.__new__(Player)
        p.hand = self.hand[:]
        p.figure = self.figure
        p.column = self.column
        p.first_turn = self.first_turn
        p.rows = self.rows.copy()
        p.temples = self.temples.copy()
        return p

    @property
    def hand_size(self) -> int:
        return sum(self.hand)

    def hand_letters(self) -> str:
        return "".join(t * n for t, n in zip(TRIBES, self.hand))

    def score(self) -> int:
        total = 0     # a loop, not sum() of a list: the end checks ask after most steps
        for temple in self.temples.values():
            if temple:
                total += temple[-1]
        return total

    def temple_top(self, territory: str) -> int:
        temple = self.temples[territory]
        return temple[-1] if temple else 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Player) and all(
            getattr(self, k) == getattr(other, k) for k in Player.__slots__)

    def __repr__(self) -> str:
        return (f"Player(hand={self.hand_letters()!r}, figure={self.figure!r}, "
                f"column={self.column}, rows={self.rows}, temples={self.temples})")


class State:
    __slots__ = ("sumerians", "players", "to_move", "phase", "end_phase", "migrated",
                 "tribe_supply", "discard", "temple_supply", "temple_known",
                 "pending_discard", "result", "seed")

    def __init__(self, players: Iterable[Player], to_move: int = 0, *,
                 sumerians: str = SUMERIANS_TOP_RUN, phase: str = ACTIONS,
                 end_phase: bool = False, migrated: bool = False, tribe_supply: str = "",
                 discard: str = "", temple_supply: Iterable[int] = (), temple_known: int = 0,
                 pending_discard: tuple[int, int] | None = None, result: Result | None = None,
                 seed: int = 0):
        self.sumerians: str = sumerians
        self.players: list[Player] = list(players)
        self.to_move: int = to_move
        self.phase: str = phase
        self.end_phase: bool = end_phase
        self.migrated: bool = migrated
        self.tribe_supply: str = tribe_supply
        self.discard: str = discard
        self.temple_supply: tuple[int, ...] = tuple(temple_supply)
        self.temple_known: int = temple_known
        self.pending_discard: tuple[int, int] | None = pending_discard   # (seat, count)
        self.result: Result | None = result
        self.seed: int = seed

    def copy(self) -> State:
        s = State.__new__(State)
        for k in State.__slots__:
            setattr(s, k, getattr(self, k))
        s.players = [p.copy() for p in self.players]
        return s

    @property
    def mover(self) -> Player:
        return self.players[self.to_move]

    @property
    def opponent(self) -> Player:
        return self.players[1 - self.to_move]

    @property
    def over(self) -> bool:
        return self.result is not None

    def scores(self) -> list[int]:
        first, second = self.players    # two players, without a list comprehension's frame
        return [first.score(), second.score()]

    def discards_due(self, seat: int) -> int:
        """Cards `seat` must still discard from halvings, before his draw (0: none are due)."""
        pending = self.pending_discard
        return pending[1] if pending and pending[0] == seat else 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and all(
            getattr(self, k) == getattr(other, k) for k in State.__slots__)

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={getattr(self, k)!r}" for k in State.__slots__)
        return f"State({fields})"


def hand_counts(letters: str) -> list[int]:
    counts = [0] * 5
    for t in letters:
        counts[TRIBE_INDEX[t]] += 1
    return counts


def deal(seed: int, first: int | None = None, sumerians: str = SUMERIANS_TOP_RUN) -> State:
    """A new game from its seed, before the first player's draw.

    The seed shuffles the tribe deck and the temple supply, deals five cards to
    each player (the first five to seat 0), picks the first player when none is
    named, and seeds later reshuffles of the discard pile.
    """
    rng = Rng(seed)
    tribes = "".join(rng.shuffled(TRIBE_DECK))
    temples = tuple(rng.shuffled(TEMPLE_SUPPLY_DECK))
    drawn_first = rng.below(2)   # drawn even when named, so the rest of the stream is the same
    if first is None:
        first = drawn_first
    hands = [tribes[-HAND_SIZE:], tribes[-2 * HAND_SIZE:-HAND_SIZE]]
    players = [Player(hand=hand_counts(h), column=(1,)) for h in hands]
    return State(players, to_move=first, sumerians=sumerians, phase=DRAW,
                 tribe_supply=tribes[:-2 * HAND_SIZE], temple_supply=temples,
                 seed=rng.next_u64())


def draw_tribes(state: State, n: int = DRAW_TRIBES) -> str:
    """Phase 1: the player to move draws n cards from the top of the tribe supply.

    An empty supply is refilled by shuffling the discard pile (with the state's
    seed, which then moves on); when both are empty, he draws what there is.
    Decision: the reshuffle happens when a card must be drawn from an empty
    supply (the rulings put it in the draw), not the moment the last card is
    taken; cards discarded in between are shuffled in with the rest.
    """
    hand = state.players[state.to_move].hand   # not `mover`: a property call costs a frame
    supply = state.tribe_supply
    if len(supply) >= n:    # no reshuffle: the top n at once (the top card is the last)
        drawn = supply[len(supply) - n:][::-1]
        state.tribe_supply = supply[:len(supply) - n]
        for card in drawn:
            hand[TRIBE_INDEX[card]] += 1
        state.phase = ACTIONS
        return drawn
    drawn = ""
    for _ in range(n):
        if not state.tribe_supply:
            if not state.discard:
                break
            rng = Rng(state.seed)
            state.tribe_supply = "".join(rng.shuffled(state.discard))
            state.discard = ""
            state.seed = rng.next_u64()
        card = state.tribe_supply[-1]
        state.tribe_supply = state.tribe_supply[:-1]
        hand[TRIBE_INDEX[card]] += 1
        drawn += card
    state.phase = ACTIONS
    return drawn
