"""The engines are pure (docs/architecture.md, "Layers"): no module under pbem/games imports the
web or the database (flask, sqlalchemy, werkzeug, jinja2), reads a clock (time, datetime), or
draws chance from anywhere but the project's seeded generator (pbem/games/rng.py): not the
global `random` module, not `secrets`, not `uuid`. Each module's source is parsed and its
imports read (including `importlib.import_module("...")` and `__import__("...")` of a
literal name), so a violation fails here before it runs anywhere.

Two exceptions, named: `pbem/games/bench.py` is the stopwatch of the `bench` commands and may
read `time.perf_counter`, which times the engine from outside and decides nothing; and
`pbem/games/rng.py` may make a seeded `random.Random` (`SearchRng`: the search players' own
draws, never a game's chance), never call the global generator.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[2] / "pbem" / "games"
SERVER = ("flask", "sqlalchemy", "werkzeug", "jinja2", "itsdangerous", "psycopg")
CHANCE = ("random", "secrets", "uuid")
CLOCKS = ("time", "datetime")
#: module (relative to pbem/games) -> the clock functions it may call, and why.
CLOCK_ALLOWED = {"bench.py": {"time.perf_counter"}}    # the benchmark's stopwatch
#: module -> the seeded generators it may make (a class, never the module's global functions).
CHANCE_ALLOWED = {"rng.py": {"random.Random"}}


def top(name: str) -> str:
    return name.split(".")[0]


def forbidden(name: str) -> str | None:
    """Why importing the module `name` is not for an engine (None: it may)."""
    root = top(name)
    if root.startswith(SERVER) or root.startswith("flask_"):
        return "the web or the database"
    if root in CHANCE:
        return "chance outside pbem/games/rng.py"
    if root in CLOCKS:
        return "a clock"
    return None


def violations(source: str, module: str = "<test>") -> list[str]:
    """Each import or use in `source` that an engine may not make, as a line of a report."""
    tree = ast.parse(source)
    allowed = CLOCK_ALLOWED.get(module, set())
    clock_modules = {top(name) for name in allowed}
    found = []
    aliases: dict[str, str] = {}          # a local name -> the module it stands for
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
            aliases.update({alias.asname or top(alias.name): alias.name for alias in node.names})
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
            if top(node.module) in CLOCKS:
                names = [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call) and (name := _dynamic_import(node)):
            names = [name]
        for name in names:
            why = forbidden(name)
            if (why and isinstance(node, ast.Import)
                    and name in {top(n) for n in CHANCE_ALLOWED.get(module, ())}):
                continue        # its uses are checked one by one below
            if why and not (top(name) in clock_modules and (name in allowed or name in clock_modules)):
                found.append(f"{module}:{node.lineno}: imports {name} ({why})")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            module_name = aliases.get(node.value.id, node.value.id)
            used = f"{module_name}.{node.attr}"
            if top(module_name) in CHANCE and used not in CHANCE_ALLOWED.get(module, ()):
                found.append(f"{module}:{node.lineno}: uses {used} (chance outside pbem/games/rng.py)")
            elif top(module_name) in CLOCKS and node.value.id in aliases and used not in allowed:
                found.append(f"{module}:{node.lineno}: uses {used} (a clock)")
    return found


def _dynamic_import(node: ast.Call) -> str | None:
    """The literal name of `importlib.import_module("x")`, `import_module("x")` or
    `__import__("x")` (None: not such a call)."""
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if called not in ("import_module", "__import__") or not node.args:
        return None
    first = node.args[0]
    return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None


MODULES = sorted(GAMES.rglob("*.py"))


def test_every_engine_module_is_read():
    names = {p.relative_to(GAMES).as_posix() for p in MODULES}
    assert {"base.py", "rng.py", "bench.py", "babel/game.py", "babel_tower/game.py",
            "babylonia/game.py"} <= names
    assert len(MODULES) > 40


@pytest.mark.parametrize("path", MODULES, ids=[p.relative_to(GAMES).as_posix() for p in MODULES])
def test_an_engine_module_imports_no_server_no_clock_and_no_chance(path):
    module = path.relative_to(GAMES).as_posix()
    assert violations(path.read_text(encoding="utf-8"), module) == []


@pytest.mark.parametrize("source, words", [
    ("import flask", "imports flask (the web or the database)"),
    ("from flask_sqlalchemy import SQLAlchemy", "imports flask_sqlalchemy"),
    ("from sqlalchemy.orm import Session", "imports sqlalchemy.orm"),
    ("import werkzeug.exceptions", "imports werkzeug.exceptions"),
    ("from jinja2 import Template", "imports jinja2"),
    ("import random", "imports random (chance outside pbem/games/rng.py)"),
    ("import random as r\nr.shuffle([])", "uses random.shuffle"),
    ("from random import shuffle", "imports random"),
    ("import secrets", "imports secrets"),
    ("import uuid", "imports uuid"),
    ("import time\ntime.time()", "imports time (a clock)"),
    ("from time import monotonic", "imports time.monotonic (a clock)"),
    ("from datetime import datetime\ndatetime.now()", "imports datetime.datetime (a clock)"),
    ("import datetime\ndatetime.date.today()", "imports datetime (a clock)"),
    ("from importlib import import_module\nimport_module('flask')", "imports flask"),
    ("__import__('random')", "imports random"),
])
def test_the_check_catches_each_kind_of_impurity(source, words):
    found = violations(source)
    assert any(words in line for line in found), found


def test_the_stopwatch_may_read_perf_counter_only():
    assert violations("import time\ntime.perf_counter()", "bench.py") == []
    assert violations("import time\ntime.time()", "bench.py") == [
        "bench.py:2: uses time.time (a clock)"]
    assert violations("import datetime", "bench.py") == [
        "bench.py:1: imports datetime (a clock)"]
    assert violations("import time\ntime.perf_counter()", "babel/cli.py") == [
        "babel/cli.py:1: imports time (a clock)", "babel/cli.py:2: uses time.perf_counter (a clock)"]


def test_the_generator_module_may_make_a_seeded_twister_only():
    assert violations("import random\nrandom.Random(7)", "rng.py") == []
    assert violations("import random\nrandom.shuffle([])", "rng.py") == [
        "rng.py:2: uses random.shuffle (chance outside pbem/games/rng.py)"]
    assert violations("from random import shuffle", "rng.py") == [
        "rng.py:1: imports random (chance outside pbem/games/rng.py)"]
    assert violations("import random\nrandom.Random(7)", "babel/bot.py") == [
        "babel/bot.py:1: imports random (chance outside pbem/games/rng.py)",
        "babel/bot.py:2: uses random.Random (chance outside pbem/games/rng.py)"]
