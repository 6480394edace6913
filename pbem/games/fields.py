"""Reading a position file (JSON) field by field, for every game's command line and snapshots.

Each reader checks one value and returns it typed, or raises a `PositionError` whose message
starts with the field's path (`hands[1][3]: must be a whole number from 0 to 6, not -1`), the
shape Babel's position files set (docs/games/babel-notation.md).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from typing import Any, NoReturn

from .errors import PositionError


def fail(path: str, problem: str) -> NoReturn:
    raise PositionError(f"{path}: {problem}")


def loads(text: str) -> Any:
    """JSON text, or the PositionError that says why it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise PositionError(f"position: not valid JSON ({error.msg} at line {error.lineno}, "
                            f"column {error.colno})") from None
    except (ValueError, RecursionError) as error:   # a number too long, nesting too deep
        raise PositionError(f"position: not valid JSON ({error})") from None


def dumps(data: dict[str, Any]) -> str:
    """A position as JSON with one top-level field a line: short enough to read, and to edit."""
    lines = [f" {json.dumps(key)}: {json.dumps(value)}" for key, value in data.items()]
    return "{\n" + ",\n".join(lines) + "\n}"


def child(path: str, key: str | int) -> str:
    """The path of a field inside `path`: `floors[2].NW`, `turn.order`."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def obj(value: Any, path: str, fields: Sequence[str], required: Collection[str] = ()) -> dict[str, Any]:
    """An object with no field but `fields`, and every one of `required`."""
    if not isinstance(value, dict):
        fail(path or "position", "must be a JSON object")
    for key in value:
        if key not in fields:
            fail(child(path, key), f"unknown field; fields are {', '.join(fields)}")
    for key in required:
        if key not in value:
            fail(child(path, key), "is missing")
    return value


def keyed(value: Any, path: str, allowed: Collection[str], what: str) -> dict[str, Any]:
    """An object keyed by names out of `allowed` (hexes, say): another key "is not `what`"."""
    if not isinstance(value, dict):
        fail(path, f"must be an object keyed by {what}, not {_short(value)}")
    for key in value:
        if key not in allowed:
            fail(child(path, key), f"is not {what}")
    return value


def whole(value: Any, path: str, low: int, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low or (
            high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f"of at least {low}"
        fail(path, f"must be a whole number {bound}, not {_short(value)}")
    return value


def boolean(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        fail(path, f"must be true or false, not {_short(value)}")
    return value


def text(value: Any, path: str) -> str:
    if not isinstance(value, str):
        fail(path, f"must be a string, not {_short(value)}")
    return value


def one_of(value: Any, path: str, choices: Sequence[Any]) -> Any:
    if not any(value == c and type(value) is type(c) for c in choices):
        fail(path, f"must be one of {', '.join(map(_json, choices))}, not {_short(value)}")
    return value


def listed(value: Any, path: str, length: int | None = None) -> list[Any]:
    """A list, of exactly `length` items when given."""
    if not isinstance(value, list):
        fail(path, f"must be a list, not {_short(value)}")
    if length is not None and len(value) != length:
        fail(path, f"must be a list of {length}, not of {len(value)}")
    return value


def seat(value: Any, path: str, seats: int) -> int:
    """A seat of a game of `seats`."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < seats:
        fail(path, f"must be a seat from 0 to {seats - 1}, not {_short(value)}")
    return value


def seat_or_none(value: Any, path: str, seats: int) -> int | None:
    """A seat of a game of `seats`, or null."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < seats:
        fail(path, f"must be a seat from 0 to {seats - 1} or null, not {_short(value)}")
    return value


def _json(value: Any) -> str:
    return json.dumps(value)


def _short(value: Any) -> str:
    """A value as the message quotes it, cut short (a position may hold anything)."""
    shown = repr(value)
    return shown if len(shown) <= 60 else shown[:57] + "..."
