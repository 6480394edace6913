"""An engine's command line run as a real subprocess, as other tools run it:
`python -m pbem.games.<game> ...`, from the project's root."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_engine(module: str, *args, stdin: str | None = None, timeout: int = 120):
    """(exit code, standard output, standard error) of `python -m module args...`."""
    done = subprocess.run([sys.executable, "-m", module, *map(str, args)], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=timeout)
    return done.returncode, done.stdout, done.stderr


def random_game(module: str, *args, timeout: int = 120) -> str:
    """The output of `random-game args...`, which must succeed without a word on stderr."""
    code, out, err = run_engine(module, "random-game", *args, timeout=timeout)
    assert code == 0, err
    assert err == ""
    return out
