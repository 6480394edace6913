"""Babel (Uwe Rosenberg & Hagen Dorgathen, Kosmos 2000): the rules engine.

Pure Python: no Flask, no database, no clock, no global random.

- `cards`: the components; `state`: a game's state and the deal;
- `steps`, `notation`: the turn notation, read and written;
- `rules`: each step, the end checks, phase 3; `turn`: a submission as a whole;
- `legal`: every legal next step; `view`: what a seat may know;
- `position`: position files; `game`: the server's interface (`GAME`);
- `randomplay`: random legal games; `cli`: `python -m pbem.games.babel`.
"""

from .game import GAME, Babel

__all__ = ["GAME", "Babel"]
