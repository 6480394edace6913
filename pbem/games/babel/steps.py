"""The steps of Babel's turn notation, as values.

Each step prints itself in canonical form (docs/games/babel-notation.md): lower-case
keyword, upper-case tribe letters, `mine`/`theirs`. `End` is not notation: it
stands for ending phase 2 among the legal next steps of a draft.
"""

from __future__ import annotations

from dataclasses import dataclass

MINE = "mine"
THEIRS = "theirs"
COLUMNS = (MINE, THEIRS)


@dataclass(frozen=True, slots=True)
class Move:
    tribe: str

    def __str__(self) -> str:
        return f"move {self.tribe}"


@dataclass(frozen=True, slots=True)
class Settle:
    tribes: tuple[str, ...]

    def __str__(self) -> str:
        return "settle " + " ".join(self.tribes)


@dataclass(frozen=True, slots=True)
class Build:
    column: str

    def __str__(self) -> str:
        return f"build {self.column}"


@dataclass(frozen=True, slots=True)
class Migrate:
    source: str
    target: str

    def __str__(self) -> str:
        return f"migrate {self.source} {self.target}"


@dataclass(frozen=True, slots=True)
class Destroy:
    def __str__(self) -> str:
        return "destroy"


@dataclass(frozen=True, slots=True)
class Rob:
    def __str__(self) -> str:
        return "rob"


@dataclass(frozen=True, slots=True)
class Emigrate:
    tribe: str

    def __str__(self) -> str:
        return f"emigrate {self.tribe}"


@dataclass(frozen=True, slots=True)
class Switch:
    def __str__(self) -> str:
        return "switch"


@dataclass(frozen=True, slots=True)
class Jump:
    column: str

    def __str__(self) -> str:
        return f"jump {self.column}"


@dataclass(frozen=True, slots=True)
class Halve:
    tribe: str

    def __str__(self) -> str:
        return f"halve {self.tribe}"


@dataclass(frozen=True, slots=True)
class Discard:
    tribes: tuple[str, ...]

    def __str__(self) -> str:
        return "discard " + " ".join(self.tribes)


@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class End:
    """Ending phase 2 (only among legal next steps; never written)."""

    def __str__(self) -> str:
        return "end"


Step = Move | Settle | Build | Migrate | Destroy | Rob | Emigrate | Switch | Jump | Halve | Discard | Pass
#: What `legal.legal_steps` lists: an atomic step, or ending phase 2.
Choice = Step | End
#: A submission read: each step with the text it was read from.
Parsed = list[tuple[Step, str]]

#: The skill step of each tribe's run of three.
SKILL_STEP = {"A": Destroy, "H": Rob, "M": Emigrate, "S": Switch, "P": Jump}
