"""The floors of the server (docs/architecture.md, "Floors"): each folder of `pbem/` is one floor,
and a module imports only from its own floor or from floors below it. Every import counts,
those inside functions too; the source is parsed, nothing is run.

    commands                      the command line, which starts the servers and the worker
    web · inbound · jobs          entry points: requests, incoming mail, background work
    play                          the use cases, each owning its transaction
    mail                          which mails a change causes, composing and delivering them
    views                         what a reader sees: a seat's view, a home, words
    players                       what players keep: settings, messages, notes
    policy                        clocks, deadlines, vacations, limits, signed links
    store                         the tables, games as logs, the one transaction
    games · bots                  the pure engines and the computer players

Beside the floors, the wiring every floor may use: `errors` (the server's errors), `i18n` (the
reader's language), `extensions` and `config`; and `app`, the factory, which puts it all
together and so may import anything.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PBEM = Path(__file__).resolve().parents[2] / "pbem"

#: a floor (a folder of pbem/, or a wiring module) -> its height; imports go down or level.
HEIGHT = {
    "commands": 9,
    "web": 8, "inbound": 8, "jobs": 8,
    "play": 7,
    "mail": 6,
    "views": 5,
    "players": 4,
    "policy": 3,
    "store": 2, "extensions": 2, "config": 2,
    "games": 1, "bots": 1, "errors": 1, "i18n": 1,
}
#: may import any floor: the package itself (its lazy factory) and the factory.
ANYWHERE = {"pbem", "app"}


def floor(module: str) -> str:
    """`pbem.play.turns` -> `play`; `pbem.errors` -> `errors`; `pbem` -> `pbem`."""
    parts = module.removesuffix(".__init__").split(".")
    return parts[1] if len(parts) > 1 else "pbem"


def imported(path: Path, root: Path = PBEM) -> set[str]:
    """Every pbem module a source file imports (`from pbem import x` names `pbem.x`)."""
    module = ".".join(path.relative_to(root.parent).with_suffix("").parts)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "pbem")
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            if base == "pbem":
                found.update(f"pbem.{a.name}" for a in node.names)
            elif base.split(".")[0] == "pbem":
                found.add(base)
    return found


def upward(path: Path, root: Path = PBEM) -> list[str]:
    """The imports of one file that go up a floor, as lines of a report."""
    module = ".".join(path.relative_to(root.parent).with_suffix("").parts)
    here = floor(module)
    if here in ANYWHERE:
        return []
    return [f"{module} ({here}) imports {target} ({floor(target)})"
            for target in sorted(imported(path, root))
            if floor(target) in ANYWHERE or HEIGHT[floor(target)] > HEIGHT[here]]


SOURCES = sorted(PBEM.rglob("*.py"))


def test_every_folder_and_top_module_has_a_floor():
    """A new folder or top-level module must be given its floor here (and in the docs)."""
    named = {p.name for p in PBEM.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    named |= {p.stem for p in PBEM.glob("*.py") if p.stem != "__init__"}
    assert named - set(HEIGHT) - ANYWHERE == set()


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PBEM)))
def test_imports_go_down_the_floors(path):
    assert upward(path) == []


def test_an_upward_import_is_caught(tmp_path):
    """The check can fail: a store module that asks a use case, inside a function, is reported."""
    bad = tmp_path / "pbem" / "store" / "probe.py"
    bad.parent.mkdir(parents=True)
    bad.write_text("def f():\n    from pbem.play import turns\n    from .. import web\n")
    assert upward(bad, tmp_path / "pbem") == ["pbem.store.probe (store) imports pbem.play (play)",
                                               "pbem.store.probe (store) imports pbem.web (web)"]


#: The one place that commits a use case's work, and the connection's session settings made
#: when a connection opens (before any use case runs on it).
COMMITTERS = {"store/transaction.py", "store/waits.py"}


def commits(path: Path) -> list[int]:
    """The lines of `path` that call some `.commit()`."""
    tree = ast.parse(path.read_text(), str(path))
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "commit"]


def test_only_the_transaction_commits():
    """Use cases write inside `store.transaction.transaction()`; no other module commits."""
    found = {str(p.relative_to(PBEM)): commits(p) for p in SOURCES}
    assert {name: lines for name, lines in found.items()
            if lines and name not in COMMITTERS} == {}


def test_a_stray_commit_is_caught(tmp_path):
    stray = tmp_path / "stray.py"
    stray.write_text("def f(session):\n    session.add(1)\n    session.commit()\n")
    assert commits(stray) == [3]
