"""Editing a position's JSON field by field, for the tests that check each bad field is refused
with its name (the games' `play --position` and the engine's position reader)."""

from __future__ import annotations

import copy
from typing import Any


class _Delete:
    """The value that removes a field. Its repr is the test id's, the same in every process
    (pytest-xdist requires each worker to collect the same ids)."""

    def __repr__(self) -> str:
        return "DELETE"


DELETE = _Delete()


def edit(data: Any, path: list[Any], value: Any) -> Any:
    """A copy of `data` with the field at `path` (keys and indices) set, or removed (DELETE)."""
    data = copy.deepcopy(data)
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data
