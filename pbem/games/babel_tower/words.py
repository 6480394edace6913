"""Babel Tower's words for a cube's bumps and the tower's corners, shared by the steps in words,
the drawing and the mails."""

from __future__ import annotations

from collections.abc import Collection

from ..phrases import Phrase, phrase, phrase_n
from ..words import listing
from .cubes import FACES

#: Which way a bump faces, in words ("bumps up and north").
FACE_WORDS = {"U": phrase("up"), "D": phrase("down"), "N": phrase("north"), "E": phrase("east"),
              "S": phrase("south"), "W": phrase("west")}


#: The corners as the reader names them: the initials of his compass (German NW NO SO SW: Nord,
#: Ost, Süd, West; Czech SZ SV JV JZ: sever, východ, jih, západ). The notation reads all three
#: (`notation.CORNER_OF`); none names two corners in any two languages.
CORNER_NAMES = {"NW": phrase("NW"), "NE": phrase("NE"), "SE": phrase("SE"), "SW": phrase("SW")}
#: The same, as data for the notation and the tests: each language's name of each corner.
CORNER_LETTERS = {
    "en": {"NW": "NW", "NE": "NE", "SE": "SE", "SW": "SW"},
    "de": {"NW": "NW", "NE": "NO", "SE": "SO", "SW": "SW"},
    "cs": {"NW": "SZ", "NE": "SV", "SE": "JV", "SW": "JZ"},
}


def corner_name(corner: str) -> Phrase:
    """A corner ("NE") as the reader names it ("NO", "SV")."""
    return CORNER_NAMES[corner]


def bumps_in_words(bumps: Collection[str]) -> Phrase:
    """"bumps north", "bumps up, north and east", "no bumps" (`bumps`: faces, or "-" for none).
    Each language counts them: one bump is singular in German and Czech, "bumps" in English."""
    faces = [FACE_WORDS[f] for f in FACES if f in bumps]
    if not faces:
        return phrase("no bumps")
    return phrase_n("bumps {faces}", "bumps {faces}", len(faces), faces=listing(faces))
