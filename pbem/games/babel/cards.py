"""Babel's components and their names.

Tribes and territories share one letter each: a tribe card of the Medes lets
the figure travel to the Medes territory. Every stack (row, temple, column,
supply, discard pile) is written bottom -> top: the last element is the top.
"""

from __future__ import annotations

from ..phrases import phrase

TRIBES = "AHMPS"
TRIBE_INDEX = {t: i for i, t in enumerate(TRIBES)}

NAMES = {
    "A": phrase("Assyrians"),
    "H": phrase("Hittites"),
    "M": phrase("Medes"),
    "P": phrase("Persians"),
    "S": phrase("Sumerians"),
}

#: The skill of each tribe's run of three (halving is open to every tribe).
SKILLS = {
    "A": "destroy",
    "H": "rob",
    "M": "emigrate",
    "S": "switch",
    "P": "jump",
}

CARDS_PER_TRIBE = 12
TRIBE_DECK = "".join(t * CARDS_PER_TRIBE for t in TRIBES)

#: Temple cards per level: 10x1, 9x2, 8x3, 7x4, 6x5, 5x6 (45).
TEMPLE_COUNTS = {1: 10, 2: 9, 3: 8, 4: 7, 5: 6, 6: 5}
MAX_LEVEL = 6
#: The deck shuffled into the supply: everything but the two starting level-1 cards.
TEMPLE_SUPPLY_DECK = tuple(
    level for level, n in TEMPLE_COUNTS.items() for _ in range(n - (2 if level == 1 else 0))
)

HAND_SIZE = 5
DRAW_TRIBES = 3
DRAW_TEMPLES = 2


def name(letter: str) -> str:
    return NAMES[letter]


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
