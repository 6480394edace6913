"""Step 2 of a turn: surrounded cities and ziggurats (docs/games/babylonia-rulings.md, "A turn" 2).

A city or ziggurat is surrounded when no land hex next to it is free (river
hexes need not be occupied). Majorities count every token next to it, face
up or down. Tokens never leave the board, so who wins a ziggurat is known as
soon as step 1 ends; only the cards change as scoring goes on.
"""

from __future__ import annotations

from functools import cache

from .board import CENTRE, LAND, board
from .placing import is_free, next_to
from .state import CITY_LETTERS, State


def surrounded(state: State, hex: str) -> bool:
    """No land hex next to it is free (a land hex is free without a tile and a token)."""
    tiles, tokens = state.tiles, state.tokens
    return all(n in tiles or n in tokens for n in _land_neighbours(state.players)[hex])


@cache
def _land_neighbours(players: int) -> dict[str, tuple[str, ...]]:
    b = board(players)
    return {hex: tuple(n for n in b.neighbours[hex] if b.hexes[n].kind == LAND) for hex in b.hexes}


def newly_surrounded(state: State) -> list[str]:
    """Cities and unscored ziggurats surrounded now, which step 1 must have done: a city is
    scored (and leaves) in the turn it is surrounded, and scoring only ever frees hexes.
    (`surrounded` for each, as one subset test against the hexes taken.)"""
    tiles, scored = state.tiles, state.scored
    taken = tiles.keys() | state.tokens.keys()
    land = _land_sets(state.players)
    ziggurats = [z for z in state.board.ziggurats if z not in scored]
    return sorted(h for h in (*state.city_hexes(), *ziggurats) if land[h] <= taken)


@cache
def _land_sets(players: int) -> dict[str, frozenset[str]]:
    return {hex: frozenset(near) for hex, near in _land_neighbours(players).items()}


def majority(state: State, hex: str) -> int | None:
    """The seat with strictly the most tokens next to the hex; None on a tie."""
    counts = [next_to(state, hex, seat) for seat in range(state.players)]
    best = max(counts)
    return counts.index(best) if best and counts.count(best) == 1 else None


def joins(state: State, seat: int, hex: str) -> bool:
    """Does this hex carry the seat's chain: his own token, or a free hex his card 8 or 9 opens?"""
    token = state.tokens.get(hex)
    if token is not None:
        return token.seat == seat
    if not is_free(state, hex):
        return False
    h = state.board.hexes[hex]
    return ((state.has(seat, 8) and h.kind == "land" and h.area == CENTRE)
            or (state.has(seat, 9) and h.kind == "river"))


def chain(state: State, seat: int, city: str) -> set[str]:
    """Every hex next to the city, or joined to it through hexes that carry the seat's chain."""
    b = state.board
    seen = {n for n in b.neighbours[city] if joins(state, seat, n)}
    todo = list(seen)
    while todo:
        for n in b.neighbours[todo.pop()]:
            if n not in seen and n != city and joins(state, seat, n):
                seen.add(n)
                todo.append(n)
    return seen


def score_city(state: State, city: str) -> None:
    """(a) nobles by chains, (b) the majority takes the tile, (c) if taken, points per city."""
    tile = state.tiles[city]
    symbols = {CITY_LETTERS[letter] for letter in tile.split()[1]}
    for seat in range(state.players):
        nobles = [h for h in chain(state, seat, city) if (t := state.tokens.get(h))
                  and not t.down and t.kind in symbols]
        state.score(seat, 2 * len(nobles), f"nobles for the {tile} at {city}")
    winner = majority(state, city)
    del state.tiles[city]
    if winner is None:
        return
    state.cities[winner].append(tile)
    for seat in range(state.players):
        held = len(state.cities[seat])
        bonus = held // 2 if state.has(seat, 7) else 0
        state.score(seat, held + bonus, f"cities in front, after the {tile} at {city}")


def take_card(state: State, seat: int, card: int) -> None:
    state.available.remove(card)
    state.cards[seat].append(card)
    if card == 1:
        state.used[seat].append(1)          # turned over at once
        state.score(seat, 10, "ziggurat card 1")
