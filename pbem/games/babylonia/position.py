"""Babylonia positions as JSON: the command line's position files and the server's snapshots.

A position is the whole state as plain JSON (dicts, lists, strings, numbers, booleans, None:
no tuples), so it equals its own JSON round trip and shares nothing mutable with the state:

- `players` (2 to 4, which decides the board), `to_move`, `seed` (the state's own seed);
- `tiles`: site hex -> location tile (`city MP`, `field 5`, `field cities`) still on the board;
- `tokens`: hex -> [seat, kind F|P|M|O, face down]; a token on a river lies face down;
- per seat (lists of one item per seat): `stands` (counts of F, P, M, O), `supplies` (the
  tokens left, drawn from the end), `scores`, `causes` ([points, why] of each score),
  `cities` (tiles in front of him), `cards` (ziggurat cards held), `used` (cards turned over);
- `available`: the ziggurat cards still to take; `scored`: ziggurats scored;
- `card_due`: the seat that owes a ziggurat card while the turn pauses, or null;
- `turn`: the turn in progress (null once the game is over): `index`, `placed` ([kind, hex]),
  `closed`, `candidates`, `order`, `resolved`, `waiting`, `cards`, `extra`, `submitted`;
- `result`: null while the game runs, else [winning seats, reason].

Every field is checked; a bad one is refused with a PositionError naming it. Cards are each
in one place; tokens are not counted across the board, stands and supplies (positions made
by hand for the rules' tests hold what they need).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, TypeVar

from .. import fields as f
from .board import Board, board
from .state import KINDS, Result, State, Token, Turn

FIELDS = ("players", "tiles", "tokens", "stands", "supplies", "scores", "causes", "cities",
          "available", "cards", "used", "scored", "to_move", "card_due", "seed", "turn", "result")
TURN_FIELDS = ("index", "placed", "closed", "candidates", "order", "resolved", "waiting", "cards",
               "extra", "submitted")
REASONS = ("end", "resigned", "timeout", "aborted")
T = TypeVar("T")
CARDS = range(1, 10)
MAX_STAND = 7


def to_json(state: State) -> dict[str, Any]:
    return {
        "players": state.players,
        "tiles": dict(state.tiles),
        "tokens": {h: [t.seat, t.kind, t.down] for h, t in state.tokens.items()},
        "stands": [list(x) for x in state.stands], "supplies": list(state.supplies),
        "scores": list(state.scores),
        "causes": [[[p, c] for p, c in x] for x in state.causes],
        "cities": [list(x) for x in state.cities], "available": list(state.available),
        "cards": [list(x) for x in state.cards], "used": [list(x) for x in state.used],
        "scored": sorted(state.scored),
        "to_move": state.to_move, "card_due": state.card_due, "seed": state.seed,
        "turn": _turn_json(state.turn) if state.turn else None,
        "result": [list(state.result.winners), state.result.reason] if state.result else None,
    }


def _turn_json(turn: Turn) -> dict[str, Any]:
    return {"index": turn.index, "placed": [[k, h] for k, h in turn.placed],
            "closed": turn.closed, "candidates": list(turn.candidates),
            "order": list(turn.order), "resolved": turn.resolved, "waiting": turn.waiting,
            "cards": list(turn.cards), "extra": turn.extra, "submitted": turn.submitted}


def dumps(state: State) -> str:
    return f.dumps(to_json(state))


def loads(text: str) -> State:
    return from_json(f.loads(text))


def from_json(data: Any) -> State:
    """A checked position; raises PositionError naming the field."""
    data = f.obj(data, "", FIELDS, required=FIELDS)
    players = f.whole(data["players"], "players", 2, 4)
    b = board(players)
    state = State(players)
    state.tiles = _tiles(data["tiles"], b)
    state.tokens = _tokens(data["tokens"], b)
    state.stands = per_seat(data["stands"], "stands", players, _stand)
    state.supplies = per_seat(data["supplies"], "supplies", players, _supply)
    state.scores = per_seat(data["scores"], "scores", players, lambda v, p: f.whole(v, p, 0))
    state.causes = per_seat(data["causes"], "causes", players, _causes)
    state.cities = per_seat(data["cities"], "cities", players, _cities)
    state.available = _cards(data["available"], "available")
    state.cards = per_seat(data["cards"], "cards", players, _cards)
    state.used = per_seat(data["used"], "used", players, _cards)
    _cards_in_one_place(state)
    state.scored = set(_hexes(data["scored"], "scored", b.ziggurats))
    state.to_move = f.seat(data["to_move"], "to_move", players)
    state.card_due = f.seat_or_none(data["card_due"], "card_due", players)
    state.seed = f.whole(data["seed"], "seed", 0, (1 << 64) - 1)
    state.turn = None if data["turn"] is None else _turn(data["turn"], b)
    state.result = _result(data["result"], players)
    if (state.result is None) == (state.turn is None):
        f.fail("turn", "a game in play has a turn in progress (an object); a game over, null")
    if state.card_due is not None and state.turn is None:
        f.fail("card_due", "a card is due only while a turn pauses; the game is over")
    return state


def per_seat(value: Any, path: str, players: int, read: Callable[[Any, str], T]) -> list[T]:
    """One item per seat, each read by `read(value, path)`."""
    return [read(item, f"{path}[{seat}]") for seat, item in enumerate(f.listed(value, path, players))]


def _tiles(value: Any, b: Board) -> dict[str, str]:
    tiles = f.keyed(value, "tiles", b.sites, f"a site of the board for {b.players} players")
    for hex, tile in tiles.items():
        f.one_of(tile, f"tiles.{hex}", sorted(b.tiles))
    return dict(tiles)


def _tokens(value: Any, b: Board) -> dict[str, Token]:
    hexes = [h for h, x in b.hexes.items() if x.kind != "ziggurat"]
    tokens = {}
    where = f"a hex of the board for {b.players} players that takes a token"
    for hex, item in f.keyed(value, "tokens", hexes, where).items():
        path = f"tokens.{hex}"
        seat, kind, down = f.listed(item, path, 3)
        seat = f.seat(seat, path + "[0]", b.players)
        kind = f.one_of(kind, path + "[1]", list(KINDS))
        if f.boolean(down, path + "[2]") != b.is_river(hex):
            f.fail(path + "[2]", "a token lies face down (true) on a river, face up elsewhere")
        tokens[hex] = Token(seat, kind, down)
    return tokens


def _stand(value: Any, path: str) -> list[int]:
    stand = [f.whole(n, f"{path}[{i}]", 0, MAX_STAND) for i, n in enumerate(f.listed(value, path, 4))]
    if sum(stand) > MAX_STAND:
        f.fail(path, f"a stand holds at most {MAX_STAND} tokens, not {sum(stand)}")
    return stand


def _supply(value: Any, path: str) -> str:
    supply = f.text(value, path)
    bad = [k for k in supply if k not in KINDS]
    if bad:
        f.fail(path, f"{bad[0]!r} is not a token; tokens are {', '.join(KINDS)}")
    return supply


def _causes(value: Any, path: str) -> list[tuple[int, str]]:
    out = []
    for i, item in enumerate(f.listed(value, path)):
        points, why = f.listed(item, f"{path}[{i}]", 2)
        out.append((f.whole(points, f"{path}[{i}][0]", 1), f.text(why, f"{path}[{i}][1]")))
    return out


def _cities(value: Any, path: str) -> list[str]:
    cities = [f.text(tile, f"{path}[{i}]") for i, tile in enumerate(f.listed(value, path))]
    for i, tile in enumerate(cities):
        if not tile.startswith("city "):
            f.fail(f"{path}[{i}]", f"must be a city tile (city MP ...), not {tile!r}")
    return cities


def _cards(value: Any, path: str) -> list[int]:
    cards = [f.whole(c, f"{path}[{i}]", CARDS.start, CARDS.stop - 1)
             for i, c in enumerate(f.listed(value, path))]
    if len(set(cards)) != len(cards):
        f.fail(path, f"names a card twice: {cards}")
    return cards


def _cards_in_one_place(state: State) -> None:
    """A card is available, or held by one seat; a seat turns over only cards he holds."""
    seen = {c: "available" for c in state.available}
    for seat, held in enumerate(state.cards):
        for card in held:
            if card in seen:
                f.fail(f"cards[{seat}]", f"card {card} is also in {seen[card]}")
            seen[card] = f"cards[{seat}]"
        for card in state.used[seat]:
            if card not in held:
                f.fail(f"used[{seat}]", f"card {card} is turned over but not held")


def _hexes(value: Any, path: str, allowed: Collection[str]) -> list[str]:
    hexes = [_hex(h, f"{path}[{i}]", allowed) for i, h in enumerate(f.listed(value, path))]
    if len(set(hexes)) != len(hexes):
        f.fail(path, "names a hex twice")
    return hexes


def _hex(value: Any, path: str, allowed: Collection[str]) -> str:
    hex = f.text(value, path)
    if hex not in allowed:
        f.fail(path, f"{hex!r} is not a hex this field may name on this board")
    return hex


def _turn(value: Any, b: Board) -> Turn:
    t = f.obj(value, "turn", TURN_FIELDS, required=TURN_FIELDS)
    placed = []
    for i, item in enumerate(f.listed(t["placed"], "turn.placed")):
        kind, hex = f.listed(item, f"turn.placed[{i}]", 2)
        placed.append((f.one_of(kind, f"turn.placed[{i}][0]", list(KINDS)),
                       _hex(hex, f"turn.placed[{i}][1]", b.hexes)))
    scorable = b.sites + b.ziggurats
    order = _hexes(t["order"], "turn.order", scorable)
    waiting = None if t["waiting"] is None else _hex(t["waiting"], "turn.waiting", b.ziggurats)
    return Turn(index=f.whole(t["index"], "turn.index", 0), placed=placed,
                closed=f.boolean(t["closed"], "turn.closed"),
                candidates=_hexes(t["candidates"], "turn.candidates", scorable), order=order,
                resolved=f.whole(t["resolved"], "turn.resolved", 0, len(order)), waiting=waiting,
                cards=_cards(t["cards"], "turn.cards"), extra=f.boolean(t["extra"], "turn.extra"),
                submitted=f.boolean(t["submitted"], "turn.submitted"))


def _result(value: Any, players: int) -> Result | None:
    if value is None:
        return None
    winners, reason = f.listed(value, "result", 2)
    seats = [f.seat(s, f"result[0][{i}]", players) for i, s in enumerate(f.listed(winners, "result[0]"))]
    if len(set(seats)) != len(seats):
        f.fail("result[0]", "names a seat twice")
    reason = f.one_of(reason, "result[1]", REASONS)
    if (reason == "aborted") != (not seats):
        f.fail("result[0]", "an aborted game has no winner, and any other end at least one")
    return Result(tuple(seats), reason)
