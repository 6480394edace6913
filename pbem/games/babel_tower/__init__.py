"""Babel Tower (Matthias Etter, cuboro 1999): the abstract cube tower, as docs/games/tower-rulings.md
settles it.

- `cubes`: the five cube types, their orientations, the tower's geometry;
- `state`: the pool, both supplies and the six floors; the draft or the deal;
- `rules`: picking, placing (every rule, with a sentence naming it), the end;
- `notation`: `pick T` and `place T CORNER FACES`;
- `game`: the server's interface (`GAME`); `search`: a complete tower; `cli`: random games.
"""

from .game import GAME, BabelTower

__all__ = ["GAME", "BabelTower"]
