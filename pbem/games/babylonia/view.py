"""What one seat may see of a Babylonia state (None: a spectator).

Hidden from a seat: the other stands' tokens (their counts are shown), every
supply but its size, the kinds of the others' face-down river tokens, and the
cards the mover named for after a pause. Everything else is public.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..phrases import phrase, phrase_n
from .board import Hex
from .cards import CARD_WORDS, commas, listing, tile_name
from .legal import legal_steps
from .mailboard import lines
from .notation import WORDS, Card, Extra, Play, Score, Step
from .state import KINDS, State


def view(state: State, seat: int | None) -> dict[str, Any]:
    b = state.board
    return {
        "game": "babylonia",
        "seat": seat,
        "players": state.players,
        "to_move": state.to_move,
        "owed": state.card_due,
        "phase": "over" if state.result else ("card" if state.card_due is not None else "turn"),
        "hexes": [_hex(state, h, seat) for h in b.hexes.values()],
        "stands": [_stand(state, s) if s == seat else None for s in range(state.players)],
        "stand_sizes": [state.stand_size(s) for s in range(state.players)],
        "supply_sizes": [len(x) for x in state.supplies],
        "scores": list(state.scores),
        "causes": [[[points, cause_words(cause)] for points, cause in x] for x in state.causes],
        "cities": [[shown_tile(c) for c in x] for x in state.cities],
        "cards": [list(x) for x in state.cards],
        "used": [list(x) for x in state.used],
        "available": list(state.available),
        "card_words": {str(c): CARD_WORDS[c] for c in sorted(set(state.available).union(
            *state.cards))},
        "cities_on_board": len(state.city_hexes()),
        "turn": _turn(state, seat),
        "outcome": (None if state.result is None else
                    {"winners": list(state.result.winners), "reason": state.result.reason}),
    }


def _hex(state: State, h: Hex, seat: int | None) -> dict[str, Any]:
    token = state.tokens.get(h.name)
    shown = None
    if token is not None:
        kind = "?" if token.down and token.seat != seat else token.kind
        shown = {"seat": token.seat, "kind": kind, "down": token.down}
    return {"name": h.name, "row": h.row, "col": h.col, "kind": h.kind, "area": h.area,
            "tile": shown_tile(state.tiles.get(h.name)), "token": shown,
            "scored": h.name in state.scored}


_CITY = re.compile(r"\bcity ([MPS]+)\b")


def shown_tile(text: str | None) -> str | None:
    """A city tile (or a sentence naming one) as players read it: its officials marked `O`,
    like the official tokens (the board's data, after the printed tiles, writes `S`)."""
    if text is None:
        return None
    return _CITY.sub(lambda m: "city " + m.group(1).replace("S", "O"), text)


_CAUSES = (
    (re.compile(r"token next to a ziggurat at (\w+)"),
     lambda m: phrase("token next to a ziggurat at {hex}", hex=m[1])),
    (re.compile(r"nobles for the (city \w+) at (\w+)"),
     lambda m: phrase("nobles for the {tile} at {hex}", tile=_tile(m[1]), hex=m[2])),
    (re.compile(r"cities in front, after the (city \w+) at (\w+)"),
     lambda m: phrase("cities in front, after the {tile} at {hex}", tile=_tile(m[1]), hex=m[2])),
    (re.compile(r"ziggurat card 1"), lambda m: phrase("ziggurat card 1")),
    (re.compile(r"(field \w+) at (\w+)"),
     lambda m: phrase("{tile} at {hex}", tile=_tile(m[1]), hex=m[2])),
)


def cause_words(cause: str) -> str:
    """Why points were scored, as players read it (`shown_tile`), in words a server
    translates. The state keeps the cause as the English the scoring wrote (positions hold
    it): its few shapes are read back here."""
    for pattern, words in _CAUSES:
        match = pattern.fullmatch(cause)
        if match:
            return words(match)
    return shown_tile(cause) or cause


def _tile(tile: str) -> str:
    return tile_name(shown_tile(tile) or tile)


def _stand(state: State, seat: int) -> dict[str, int]:
    return {WORDS[k]: n for k, n in zip(KINDS, state.stands[seat])}


def _turn(state: State, seat: int | None) -> dict[str, Any] | None:
    turn = state.turn
    if turn is None:
        return None
    mine = seat == state.to_move
    river = state.board.is_river
    return {
        "index": turn.index,
        "placed": [[kind if mine or not river(h) else "?", h] for kind, h in turn.placed],
        "closed": turn.closed,
        "candidates": list(turn.candidates),
        "order": list(turn.order),
        "resolved": turn.resolved,
        "waiting": turn.waiting,
        "named": list(turn.cards) if mine else None,
        "extra": turn.extra,
    }


def summary(state: State, seat: int, names: Sequence[str] = ()) -> list[str]:
    """The text board of a mail (`mailboard`): players, stand, cities and ziggurats with the
    tokens around them, and where the seat's tokens may go now (or the cards it may take)."""
    return lines(state, seat, names, view(state, seat), legal_steps(state, seat))


# -- told to a reader ------------------------------------------------------------------------

def recount(before: State, after: State, kind: str, steps: list[Step], named: list[int],
            mover: int, reader: int | None) -> tuple[list[str], dict[str, Any]]:
    """A turn (or an owed card) in words from the reader's side, past tense after the mover's
    name, hiding what the view hides (a face-down river token's kind, the cards named for
    after a pause); and its marks: {"hexes": [where tokens went]}."""
    mine = reader == mover
    river = before.board.is_river
    phrases: list[str] = []
    placed: list[str] = []
    plays = [s for s in steps if isinstance(s, Play)]
    if plays:
        # As a person tells it: the tokens of a kind together, "3 farmers on g7, g8 and h3".
        kinds: dict[str, list[str]] = {}
        for p in plays:
            kinds.setdefault(p.kind if mine or not river(p.hex) else "?", []).append(p.hex)
        phrases.append(phrase("placed {tokens}", tokens=listing(
            [_on(kind, hexes) for kind, hexes in kinds.items()])))
        placed = [p.hex for p in plays]
    for number, step in enumerate(steps, 1):
        if isinstance(step, Score):
            phrases.append(phrase("scored the ziggurat at {hex}", hex=step.hex)
                           if step.hex in before.board.ziggurats
                           else phrase("scored the city at {hex}", hex=step.hex))
        elif isinstance(step, Card):
            phrases.append(phrase("took ziggurat card {number} ({effect})", number=step.number,
                                  effect=CARD_WORDS[step.number])
                           if mine or number not in named
                           else phrase("named a ziggurat card for later"))
        elif isinstance(step, Extra):
            phrases.append(phrase("took another turn (card 2)"))
    if kind == "card" and not phrases:
        phrases.append(phrase("took a ziggurat card"))
    gained = after.scores[mover] - before.scores[mover]
    if gained and phrases:
        phrases[-1] = phrase_n("{did}, gaining {n} point", "{did}, gaining {n} points", gained,
                               did=phrases[-1])
    return phrases, {"hexes": placed}


def _on(kind: str, hexes: list[str]) -> str:
    """Tokens of one kind told as placed: "a farmer on g7", "3 farmers on g7, g8 and h3" (a
    sentence per kind, `?` a face-down token whose kind the reader may not know)."""
    if len(hexes) == 1:
        hex = hexes[0]
        if kind == "F":
            return phrase("a farmer on {hex}", hex=hex)
        if kind == "P":
            return phrase("a priest on {hex}", hex=hex)
        if kind == "M":
            return phrase("a merchant on {hex}", hex=hex)
        if kind == "?":
            return phrase("a face-down token on {hex}", hex=hex)
        return phrase("an official on {hex}", hex=hex)
    n, where = len(hexes), listing(hexes)
    if kind == "F":
        return phrase_n("{n} farmer on {hexes}", "{n} farmers on {hexes}", n, hexes=where)
    if kind == "P":
        return phrase_n("{n} priest on {hexes}", "{n} priests on {hexes}", n, hexes=where)
    if kind == "M":
        return phrase_n("{n} merchant on {hexes}", "{n} merchants on {hexes}", n, hexes=where)
    if kind == "?":
        return phrase_n("{n} face-down token on {hexes}", "{n} face-down tokens on {hexes}", n,
                        hexes=where)
    return phrase_n("{n} official on {hexes}", "{n} officials on {hexes}", n, hexes=where)


def ending(state: State, reader: int | None, names: list[str]) -> str | None:
    """Why a game ended on the board, for `reader` (None: a spectator): whose stand ran empty
    or how few cities were left, and the ranking with its tie-breaks (points, then cities).
    None while it runs or when it ended off the board."""
    result = state.result
    if result is None or result.reason != "end":
        return None

    def who(seat: int) -> str:
        return phrase("you") if seat == reader else names[seat]

    empty = [s for s in range(state.players) if state.stand_size(s) == 0]
    cities = len(state.city_hexes())
    left = phrase_n("{n} city left on the board", "{n} cities left on the board", cities)
    if empty:
        why = (phrase("your stand ran empty, with {left}", left=left) if empty[0] == reader
               else phrase("{name}'s stand ran empty, with {left}", name=names[empty[0]], left=left))
    else:
        why = phrase("only {left}", left=left)
    winners = list(result.winners)
    order = sorted(range(state.players), key=lambda s: (-state.scores[s], -len(state.cities[s]), s))
    points = commas([phrase("{who} {points}", who=who(s), points=state.scores[s]) for s in order])
    best = state.scores[winners[0]]
    level = [s for s in range(state.players) if state.scores[s] == best]
    if len(winners) > 1:
        head = phrase("{players} share the win", players=listing([who(s) for s in winners]))
        return phrase("{head}: {why}. Points: {points}; equal points ({best}) and equal cities in "
                      "front ({cities})", head=head.capitalized(), why=why, points=points,
                      best=best, cities=len(state.cities[winners[0]]))
    w = winners[0]
    head = phrase("You win") if w == reader else phrase("{name} wins", name=names[w])
    if len(level) == 1:
        return phrase("{head}: {why}. Points: {points}", head=head, why=why, points=points)
    theirs: object = None
    for other in (len(state.cities[s]) for s in level if s != w):     # "2 and 1 and 0"
        theirs = other if theirs is None else phrase("{items} and {last}", items=theirs, last=other)
    if w == reader:
        return phrase("{head}: {why}. Points: {points}; equal points ({best}), and you have more "
                      "cities ({mine} to {theirs})", head=head, why=why, points=points, best=best,
                      mine=len(state.cities[w]), theirs=theirs)
    return phrase("{head}: {why}. Points: {points}; equal points ({best}), and {name} has more "
                  "cities ({mine} to {theirs})", head=head, why=why, points=points, best=best,
                  name=names[w], mine=len(state.cities[w]), theirs=theirs)
