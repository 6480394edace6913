"""Regenerate the golden random games of tests/engine/test_golden.py.

    cd /work/main && .venv/bin/python tests/engine/golden/regenerate.py

Each file is exactly what `python -m pbem.games.babel random-game --seed N --json
[--sumerians S] [--first F]` prints; its name records the arguments:
`seed-<N>_<sumerians>_first-<0|1|random>.json`.

Run this ONLY after a deliberate change to the rules or to random play, and
review the diff: the golden games pin that a stored game replays to the same
state on every Python version and every later release (docs/games/babel-rulings.md,
"Randomness"). The tests never rewrite these files themselves.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))   # the project root, for `pbem`

from pbem.games.babel import cli  # noqa: E402

#: (seed, sumerians, first): both Sumerian options, first player named and drawn by the seed.
#: Seed 77 plays a switch that the two options resolve differently. Where a first player is
#: named, the seed alone would have let the other seat begin. Between them the games hold
#: halvings with owed discards, destroy, rob, jump, emigrate and switch, and a drawn game (1118).
CASES = [
    (77, "top-run", None),
    (77, "all", None),
    (1454, "top-run", None),
    (351, "all", 0),
    (1118, "top-run", 0),
    (1997, "all", 1),
    (4975, "top-run", 1),
]


def file_name(seed: int, sumerians: str, first: int | None) -> str:
    return f"seed-{seed}_{sumerians}_first-{'random' if first is None else first}.json"


def cli_args(seed: int, sumerians: str, first: int | None) -> list[str]:
    args = ["random-game", "--seed", str(seed), "--json", "--sumerians", sumerians]
    if first is not None:
        args += ["--first", str(first)]
    return args


def record(seed: int, sumerians: str, first: int | None) -> str:
    out = io.StringIO()
    assert cli.main(cli_args(seed, sumerians, first), out=out) == 0
    return out.getvalue()


def main() -> None:
    for old in HERE.glob("seed-*.json"):
        old.unlink()
    for case in CASES:
        path = HERE / file_name(*case)
        path.write_text(record(*case), encoding="utf-8")
        print(f"wrote {path.relative_to(HERE.parents[2])}")


if __name__ == "__main__":
    main()
