"""Babel Tower's words for a cube's bumps, shared by the steps in words and the drawing's titles."""

from __future__ import annotations

from collections.abc import Collection

from ..phrases import Phrase, phrase, phrase_n
from ..words import listing
from .cubes import FACES

#: Which way a bump faces, in words ("bumps up and north").
FACE_WORDS = {"U": phrase("up"), "D": phrase("down"), "N": phrase("north"), "E": phrase("east"),
              "S": phrase("south"), "W": phrase("west")}


def bumps_in_words(bumps: Collection[str]) -> Phrase:
    """"bumps north", "bumps up, north and east", "no bumps" (`bumps`: faces, or "-" for none).
    Each language counts them: one bump is singular in German and Czech, "bumps" in English."""
    faces = [FACE_WORDS[f] for f in FACES if f in bumps]
    if not faces:
        return phrase("no bumps")
    return phrase_n("bumps {faces}", "bumps {faces}", len(faces), faces=listing(faces))
