"""The shape every game's turn notation shares: steps on lines or between `;`,
`#` comments to the end of a line, and lines quoted in a mail reply (`>`) ignored."""

from __future__ import annotations

from .errors import NotationError
from .phrases import phrase_n


def split_steps(text: str, max_text: int = 20_000, max_steps: int = 400) -> list[str]:
    """The steps of a text as written, without blanks, comments or quoted lines."""
    if len(text) > max_text:
        raise NotationError(phrase_n("the turn is {n} character long; at most {most} are read.",
                                     "the turn is {n} characters long; at most {most} are read.",
                                     len(text), most=max_text))
    pieces: list[str] = []
    for line in text.splitlines():
        if line.lstrip().startswith(">"):
            continue
        line = line.split("#", 1)[0]
        pieces.extend(p.strip() for p in line.split(";") if p.strip())
    if len(pieces) > max_steps:
        raise NotationError(phrase_n("the turn has {n} step; at most {most} are read.",
                                     "the turn has {n} steps; at most {most} are read.",
                                     len(pieces), most=max_steps))
    return pieces
