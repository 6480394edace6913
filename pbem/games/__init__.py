"""The rules engines the server hosts, looked up by name.

The server core names no game: it asks this registry. Adding a game means
adding its module path here and nothing else in the server.
"""

from __future__ import annotations

from importlib import import_module

from .base import Engine

#: name -> "module:attribute" of an `Engine` instance.
INSTALLED = {
    "babel": "pbem.games.babel:GAME",
    "babel-tower": "pbem.games.babel_tower:GAME",
    "babylonia": "pbem.games.babylonia:GAME",
}

_loaded: dict[str, Engine] = {}


class UnknownGame(KeyError):
    pass


def get(name: str) -> Engine:
    if name not in INSTALLED:
        raise UnknownGame(name)
    if name not in _loaded:
        module, attribute = INSTALLED[name].split(":")
        _loaded[name] = getattr(import_module(module), attribute)
    return _loaded[name]


def all_games() -> list[Engine]:
    return [get(name) for name in INSTALLED]
