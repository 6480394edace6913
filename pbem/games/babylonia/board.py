"""The Babylonia board (docs/games/babylonia-rulings.md, data/board.json: the printed board as data).

Hexes use doubled coordinates: (row, col) has neighbours at (row-2, col),
(row-1, col+1), (row+1, col+1), (row+2, col), (row+1, col-1), (row-1, col-1).
A hex is named by its column letter and row // 2 + 1 (`c3`). Kinds: land,
river, ziggurat; a `site` holds a location tile; `area` is the land mass.
Two players play north and centre, three centre and south, four all three;
rivers are always in play, and a ziggurat when its area is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

DATA = Path(__file__).with_name("data") / "board.json"
AREAS_IN_PLAY = {2: ("north", "center"), 3: ("center", "south"), 4: ("north", "center", "south")}
STEPS = ((-2, 0), (-1, 1), (1, 1), (2, 0), (1, -1), (-1, -1))
LAND, RIVER, ZIGGURAT = "land", "river", "ziggurat"
CENTRE = "center"


@dataclass(frozen=True)
class Hex:
    name: str
    row: int
    col: int
    kind: str
    site: bool
    area: str | None


@dataclass(frozen=True)
class Board:
    """The hexes in play for a number of players, and who neighbours whom."""
    players: int
    hexes: dict[str, Hex]
    neighbours: dict[str, tuple[str, ...]]
    tiles: dict[str, int]                 # tile name ("city MP", "field 5") -> how many

    @cached_property
    def sites(self) -> list[str]:
        return [n for n, h in self.hexes.items() if h.site]

    @cached_property
    def ziggurats(self) -> list[str]:
        return [n for n, h in self.hexes.items() if h.kind == ZIGGURAT]

    def is_river(self, name: str) -> bool:
        return self.hexes[name].kind == RIVER


@cache
def raw() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text())
    return data


@cache
def board(players: int) -> Board:
    data = raw()
    areas = AREAS_IN_PLAY[players]
    every = {(h["row"], h["col"]): h for h in data["hexes"]}
    hexes = {h["name"]: Hex(h["name"], h["row"], h["col"], h["kind"], h["site"], h.get("area"))
             for h in data["hexes"] if h["kind"] == RIVER or h.get("area") in areas}
    position = {(h.row, h.col): h.name for h in hexes.values()}
    neighbours = {name: tuple(position[(h.row + dr, h.col + dc)] for dr, dc in STEPS
                              if (h.row + dr, h.col + dc) in position)
                  for name, h in hexes.items()}
    assert len(every) == len(data["hexes"])
    return Board(players, hexes, neighbours, dict(data["tiles"][str(players)]))
