"""The state of a game of Babylonia, and the deal from a seed.

Tokens: `F` farmer, `P` priest, `M` merchant, `O` official (the data file's
city letter `S`). A stand and a supply hold a seat's tokens; a supply is face
down and drawn from its end. A token on a river lies face down.

The turn in progress (`Turn`) keeps what the player on turn has done so far:
the tokens played, the declared scoring order, the cards he named, `extra`.
When another player wins a ziggurat the turn pauses (`card_due`): that seat owes
the decision `card N`, and the turn keeps the rest of the scoring for when he has chosen.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from ..errors import WrongDecision
from ..phrases import phrase
from ..rng import Rng
from .board import RIVER, ZIGGURAT, Board, board

KINDS = "FPMO"
NOBLES = "PMO"
KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
TOKENS = {"F": 12, "P": 6, "M": 6, "O": 6}            # 30 per player
CITY_LETTERS = {"P": "P", "M": "M", "S": "O"}          # a city's symbol -> the noble it rewards
STAND = 5
BASIC_CARDS = (1, 2, 3, 4, 5, 6, 7)
ALL_CARDS = (1, 2, 3, 4, 5, 6, 7, 8, 9)


@dataclass(frozen=True, slots=True)
class Token:
    seat: int
    kind: str
    down: bool = False       # face down on a river: its kind is its owner's secret


@dataclass(frozen=True, slots=True)
class Result:
    winners: tuple[int, ...]   # several: a shared win
    reason: str                # end, resigned, timeout


@dataclass
class Turn:
    """The turn in progress of the player to move (kept while it pauses for someone's card)."""
    index: int                                            # turns begun before this one
    placed: list[tuple[str, str]] = field(default_factory=list)   # (kind, hex) in order
    closed: bool = False                                  # tokens done: scoring, cards, extra
    candidates: list[str] = field(default_factory=list)   # became surrounded in step 1
    order: list[str] = field(default_factory=list)        # declared scoring order
    resolved: int = 0                                     # how much of `order` is scored
    waiting: str | None = None                            # the mover's ziggurat awaiting his card
    cards: list[int] = field(default_factory=list)        # cards he named for after a pause
    extra: bool = False
    submitted: bool = False                               # his submission is in; it may pause

    def copy(self) -> Turn:
        # By hand, not dataclasses.replace: a turn is copied with every state, and replace
        # (which re-runs __init__ through keyword lookups) cost three times as much.
        return Turn(self.index, list(self.placed), self.closed, list(self.candidates),
                    list(self.order), self.resolved, self.waiting, list(self.cards), self.extra,
                    self.submitted)


#: A free hex as `State.free_cells` keeps it: on a river?, its field or None, its place.
Cell = tuple[bool, "str | None", int]


class State:
    __slots__ = ("players", "tiles", "tokens", "stands", "supplies", "scores", "causes", "cities",
                 "available", "cards", "used", "scored", "to_move", "turn", "card_due", "result",
                 "seed", "free", "cities_on_board")

    #: Slots that are no part of the game: a cache, derived from the rest (`free_cells`).
    DERIVED = ("free", "cities_on_board")

    def __init__(self, players: int):
        self.players = players
        self.tiles: dict[str, str] = {}               # hex -> "city MP" | "field 5" | "field cities"
        self.tokens: dict[str, Token] = {}
        self.stands: list[list[int]] = [[0] * 4 for _ in range(players)]
        self.supplies: list[str] = [""] * players
        self.scores: list[int] = [0] * players
        self.causes: list[list[tuple[int, str]]] = [[] for _ in range(players)]
        self.cities: list[list[str]] = [[] for _ in range(players)]
        self.available: list[int] = []
        self.cards: list[list[int]] = [[] for _ in range(players)]
        self.used: list[list[int]] = [[] for _ in range(players)]
        self.scored: set[str] = set()                 # ziggurats scored (each once)
        self.to_move = 0
        self.turn: Turn | None = None
        self.card_due: int | None = None              # a seat owing `card N`: the turn pauses
        self.result: Result | None = None
        self.seed = 0
        # (tokens, tiles, cells): `free_cells` as last computed, and the sizes it was computed
        # for; kept up to date as tokens go down (`placing.play`), dropped when a city leaves.
        self.free: tuple[int, int, dict[str, Cell]] | None = None
        # (tiles, hexes): `city_hexes` as last listed, for the number of tiles it was listed at
        # (tiles only ever leave the board: a city scored, a field taken).
        self.cities_on_board: tuple[int, tuple[str, ...]] | None = None

    def copy(self) -> State:
        s = State.__new__(State)
        s.players = self.players
        s.tiles, s.tokens, s.scored = dict(self.tiles), dict(self.tokens), set(self.scored)
        s.stands = [list(x) for x in self.stands]
        s.supplies = list(self.supplies)
        s.scores = list(self.scores)
        s.causes = [list(x) for x in self.causes]
        s.cities = [list(x) for x in self.cities]
        s.available = list(self.available)
        s.cards = [list(x) for x in self.cards]
        s.used = [list(x) for x in self.used]
        s.to_move, s.card_due, s.result, s.seed = self.to_move, self.card_due, self.result, self.seed
        s.turn = self.turn.copy() if self.turn else None
        free = self.free
        s.free = None if free is None else (free[0], free[1], dict(free[2]))
        s.cities_on_board = self.cities_on_board
        return s

    def free_cells(self) -> dict[str, Cell]:
        """hex -> (a river?, its field or None, its place in `playable`) for every hex in play
        without a token, a city or a ziggurat, in the board's order: where tokens may go, as
        far as the hex goes.

        Listing legal steps asks this after every step, so it is kept rather than recomputed;
        the sizes guard against a state edited by hand (tests build positions so)."""
        free = self.free
        if free is not None and free[0] == len(self.tokens) and free[1] == len(self.tiles):
            return free[2]
        cells: dict[str, Cell] = {}
        tokens, tiles = self.tokens, self.tiles
        for place, (hex, river) in enumerate(playable(self.players)):
            if hex in tokens:
                continue
            tile = tiles.get(hex)
            if tile is None or not tile.startswith("city"):
                cells[hex] = (river, tile, place)
        self.free = (len(tokens), len(tiles), cells)
        return cells

    def token_down(self, hex: str, took_field: bool) -> None:
        """Keep `free_cells` as a token went onto `hex` (taking the field there, if any)."""
        free = self.free
        if (free is not None and free[0] + 1 == len(self.tokens)
                and free[1] == len(self.tiles) + took_field):
            free[2].pop(hex, None)
            self.free = (free[0] + 1, len(self.tiles), free[2])

    @property
    def board(self) -> Board:
        return board(self.players)

    @property
    def current(self) -> Turn:
        """The turn in progress; a game that is over has none, and nothing is played then."""
        if self.turn is None:
            raise WrongDecision(phrase("the game is over; no turn is in progress."))
        return self.turn

    def has(self, seat: int, card: int) -> bool:
        """Holds this card and may still use it (1 and 2 are turned over once used)."""
        return card in self.cards[seat] and card not in self.used[seat]

    def score(self, seat: int, points: int, cause: str) -> None:
        if points:
            self.scores[seat] += points
            self.causes[seat].append((points, cause))

    def city_hexes(self) -> tuple[str, ...]:
        """The hexes where a city tile still lies (asked after every step: kept per tile count)."""
        known = self.cities_on_board
        if known is not None and known[0] == len(self.tiles):
            return known[1]
        hexes = tuple(h for h, tile in self.tiles.items() if tile.startswith("city"))
        self.cities_on_board = (len(self.tiles), hexes)
        return hexes

    def stand_size(self, seat: int) -> int:
        return sum(self.stands[seat])

    def stand_limit(self, seat: int) -> int:
        return 7 if 3 in self.cards[seat] else STAND

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and all(
            getattr(self, k) == getattr(other, k) for k in State.__slots__ if k not in State.DERIVED)


@cache
def playable(players: int) -> tuple[tuple[str, bool], ...]:
    """The hexes a token may ever go onto (not a ziggurat), in order, and whether each is a river."""
    b = board(players)
    return tuple((hex, b.hexes[hex].kind == RIVER) for hex in sorted(b.hexes, key=_hex_order)
                 if b.hexes[hex].kind != ZIGGURAT)


def _hex_order(name: str) -> tuple[str, int]:
    return name[0], int(name[1:])


def refill(state: State, seat: int) -> None:
    """Draw from the end of the seat's supply up to its stand's limit, as far as it goes."""
    supply, stand = state.supplies[seat], state.stands[seat]
    while supply and sum(stand) < state.stand_limit(seat):
        stand[KIND_INDEX[supply[-1]]] += 1
        supply = supply[:-1]
    state.supplies[seat] = supply


def deal(seed: int, players: int, first: int | None, cards: str) -> State:
    """The tiles on their sites, each supply shuffled, each stand filled, the cards in play."""
    rng = Rng(seed)
    drawn_first = rng.below(players)      # drawn even when named: the rest stays the same
    state = State(players)
    b = board(players)
    tiles = [name for name, n in sorted(b.tiles.items()) for _ in range(n)]
    state.tiles = dict(zip(sorted(b.sites), rng.shuffled(tiles)))
    for seat in range(players):
        state.supplies[seat] = "".join(rng.shuffled([k for k in KINDS for _ in range(TOKENS[k])]))
        refill(state, seat)
    deck = rng.shuffled(list(ALL_CARDS))[:7] if cards == "advanced" else list(BASIC_CARDS)
    state.available = sorted(deck)
    state.to_move = drawn_first if first is None else first
    state.turn = Turn(0)
    state.seed = rng.next_u64()
    return state
