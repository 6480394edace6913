"""Position files (docs/games/babel-notation.md): reading them field by field, and writing them.

A position is a game at the start of phase 2 of the player to move (`phase`
"actions"), or before his draw (`phase` "draw"). Every field is checked and a
bad one is refused with a `PositionError` whose message starts with the field's
path, e.g. `players[1].temples.A: ...`. Card conservation is checked only for
positions marked `"complete": true`; partial ones (the rulebook's examples)
must merely not hold more cards of a kind than the game has.

Fields beyond the documented ones, both optional: `temple_known`, the number
of cards on top of the temple supply that both players know (put back by a
destroy; written only when not 0), and `seed` (always written, so that
positions chain through reshuffles).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn, TypeVar

from ..errors import PositionError
from .cards import CARDS_PER_TRIBE, NAMES, TEMPLE_COUNTS, TRIBES
from .state import ACTIONS, DRAW, SUMERIANS_ALL, SUMERIANS_TOP_RUN, Player, Result, State, hand_counts

REASONS = ("fifteen-ten", "twenty", "below-ten", "supply-empty", "resigned", "timeout", "aborted")
TOP_FIELDS = ("options", "to_move", "end_phase", "migrated", "players", "tribe_supply", "discard",
              "temple_supply", "pending_discard", "outcome", "phase", "seed", "complete",
              "temple_known")
T = TypeVar("T")
PLAYER_FIELDS = ("name", "hand", "figure", "column", "first_turn", "rows", "temples")
#: A tribe or territory letter as a file may write it: exactly one of A H M P S, either case.
#: (Not `x.upper() in TRIBES`: that is a substring test, and "AH", "" or "ß" would pass.)
LETTERS = {t: t for t in TRIBES} | {t.lower(): t for t in TRIBES}


@dataclass
class Position:
    state: State
    names: list[str] = field(default_factory=lambda: ["Player 1", "Player 2"])
    complete: bool = False


def _fail(path: str, problem: str) -> NoReturn:
    raise PositionError(f"{path}: {problem}")


def _known(obj: dict[str, Any], allowed: Sequence[str], path: str) -> None:
    for key in obj:
        if key not in allowed:
            _fail(f"{path}{key}", f"unknown field; fields are {', '.join(allowed)}")


def _bool(obj: dict[str, Any], key: str, path: str, default: bool = False) -> bool:
    value = obj.get(key, default)
    if not isinstance(value, bool):
        _fail(path + key, f"must be true or false, not {value!r}")
    return bool(value)


def _seat(value: Any, path: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value not in (0, 1):
        _fail(path, f"must be 0 or 1, not {value!r}")
    return value


def _letters(value: Any, path: str, what: str = "tribe letters A, H, M, P, S") -> str:
    if not isinstance(value, str):
        _fail(path, f"must be a string of {what}, not {value!r}")
    bad = [c for c in value if c not in LETTERS]
    if bad:
        _fail(path, f"{bad[0]!r} is not a tribe; use {what}")
    return value.upper()


def _territory(value: Any, path: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or value not in LETTERS:
        _fail(path, f"must be a territory letter (A, H, M, P, S) or null, not {value!r}")
    return LETTERS[value]


def _levels(value: Any, path: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        _fail(path, f"must be a list of temple levels 1-6, not {value!r}")
    for i, level in enumerate(value):
        if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= 6:
            _fail(f"{path}[{i}]", f"{level!r} is not a temple level (1-6)")
    return tuple(value)


def _per_territory(value: Any, path: str, read: Callable[[Any, str | None], T]) -> dict[str, T]:
    if not isinstance(value, dict):
        _fail(path, f"must be an object keyed by territory letter, not {value!r}")
    out = {t: read(None, None) for t in TRIBES}
    for key, item in value.items():
        if key not in LETTERS:
            _fail(f"{path}.{key}", "is not a territory; use A, H, M, P or S")
        out[LETTERS[key]] = read(item, f"{path}.{key}")
    return out


def _row(item: Any, path: str | None) -> str:
    return "" if path is None else _letters(item, path)


def _temple(item: Any, path: str | None) -> tuple[int, ...]:
    if path is None:
        return ()
    temple = _levels(item, path)
    if any(a >= b for a, b in zip(temple, temple[1:])):
        _fail(path, f"a temple must rise strictly from bottom to top; {list(temple)} does not")
    return temple


def _player(obj: Any, path: str) -> tuple[Player, str]:
    if not isinstance(obj, dict):
        _fail(path, "must be an object")
    _known(obj, PLAYER_FIELDS, path + ".")
    if "hand" not in obj:
        _fail(path + ".hand", "is missing")
    name = obj.get("name", "")
    if not isinstance(name, str):
        _fail(path + ".name", f"must be a string, not {name!r}")
    player = Player(
        hand=hand_counts(_letters(obj["hand"], path + ".hand")),
        figure=_territory(obj.get("figure"), path + ".figure"),
        column=_levels(obj.get("column", []), path + ".column"),
        first_turn=_bool(obj, "first_turn", path + "."),
        rows=_per_territory(obj.get("rows", {}), path + ".rows", _row),
        temples=_per_territory(obj.get("temples", {}), path + ".temples", _temple),
    )
    return player, name


def _pending(value: Any, players: list[Player]) -> tuple[int, int] | None:
    if value is None:
        return None
    path = "pending_discard"
    if not isinstance(value, dict) or set(value) != {"seat", "count"}:
        _fail(path, 'must be null or {"seat": 0|1, "count": N}')
    seat = _seat(value["seat"], path + ".seat")
    count = value["count"]
    hand = players[seat].hand_size
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= hand:
        _fail(path + ".count", f"must be a number from 1 to the seat's {hand} hand cards, not {count!r}")
    return seat, count


def _outcome(value: Any) -> Result | None:
    if value is None:
        return None
    path = "outcome"
    if not isinstance(value, dict) or set(value) != {"winner", "reason"}:
        _fail(path, 'must be null or {"winner": 0|1|null, "reason": "..."}')
    winner = value["winner"]
    if winner is not None:
        _seat(winner, path + ".winner")
    if value["reason"] not in REASONS:
        _fail(path + ".reason", f"{value['reason']!r} is not one of {', '.join(REASONS)}")
    if value["reason"] == "aborted" and winner is not None:
        _fail(path + ".winner", "an aborted game has no winner: null")
    return Result(winner, value["reason"])


def _options(value: Any) -> str:
    if not isinstance(value, dict):
        _fail("options", "must be an object")
    _known(value, ("sumerians",), "options.")
    mode = value.get("sumerians", SUMERIANS_TOP_RUN)
    if mode not in (SUMERIANS_TOP_RUN, SUMERIANS_ALL):
        _fail("options.sumerians", f"must be {SUMERIANS_TOP_RUN} or {SUMERIANS_ALL}, not {mode!r}")
    return str(mode)


def _int(obj: dict[str, Any], key: str, default: int, low: int, high: int | None = None) -> int:
    value = obj.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < low or (
            high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f"of at least {low}"
        _fail(key, f"must be a whole number {bound}, not {value!r}")
    return value


def from_json(obj: Any) -> Position:
    """A checked position from parsed JSON; raises PositionError naming the field."""
    if not isinstance(obj, dict):
        _fail("position", "must be a JSON object")
    _known(obj, TOP_FIELDS, "")
    for key in ("to_move", "players"):
        if key not in obj:
            _fail(key, "is missing")
    players_json = obj["players"]
    if not isinstance(players_json, list) or len(players_json) != 2:
        _fail("players", "must be a list of exactly two players")
    read = [_player(p, f"players[{i}]") for i, p in enumerate(players_json)]
    players = [p for p, _ in read]
    names = [n or f"Player {i + 1}" for i, (_, n) in enumerate(read)]
    phase = obj.get("phase", ACTIONS)
    if phase not in (ACTIONS, DRAW):
        _fail("phase", f"must be {ACTIONS} or {DRAW}, not {phase!r}")
    supply = _levels(obj.get("temple_supply", []), "temple_supply")
    state = State(
        players,
        to_move=_seat(obj["to_move"], "to_move"),
        sumerians=_options(obj.get("options", {})),
        phase=phase,
        end_phase=_bool(obj, "end_phase", ""),
        migrated=_bool(obj, "migrated", ""),
        tribe_supply=_letters(obj.get("tribe_supply", ""), "tribe_supply"),
        discard=_letters(obj.get("discard", ""), "discard"),
        temple_supply=supply,
        temple_known=_int(obj, "temple_known", 0, 0, len(supply)),
        pending_discard=_pending(obj.get("pending_discard"), players),
        result=_outcome(obj.get("outcome")),
        seed=_int(obj, "seed", 0, 0, (1 << 64) - 1),
    )
    if state.phase == ACTIONS and state.discards_due(state.to_move):
        _fail("pending_discard.seat", "the player to move owes discards, which come before his "
              "draw: the position must be in phase draw")
    complete = _bool(obj, "complete", "")
    _check_cards(state, complete)
    return Position(state, names, complete)


def _check_cards(state: State, complete: bool) -> None:
    """No more cards of a kind than the game has; exactly the game's cards when complete."""
    tribes = Counter(state.tribe_supply + state.discard)
    levels = Counter(state.temple_supply)
    for p in state.players:
        tribes.update(p.hand_letters() + "".join(p.rows.values()))
        levels.update(p.column)
        for temple in p.temples.values():
            levels.update(temple)
    for t in TRIBES:
        n = tribes[t]
        if n > CARDS_PER_TRIBE or (complete and n != CARDS_PER_TRIBE):
            _fail("cards", f"{n} {NAMES[t]} cards are in play; the game has {CARDS_PER_TRIBE}")
    for level, deck in TEMPLE_COUNTS.items():
        n = levels[level]
        if n > deck or (complete and n != deck):
            _fail("cards", f"{n} temple cards of level {level} are in play; the game has {deck}")


def loads(text: str) -> Position:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as error:
        raise PositionError(f"position: not valid JSON ({error.msg} at line {error.lineno}, "
                            f"column {error.colno})") from None
    except (ValueError, RecursionError) as error:   # a number too long, nesting too deep
        raise PositionError(f"position: not valid JSON ({error})") from None
    return from_json(obj)


def to_json(position: Position) -> dict[str, Any]:
    state = position.state
    out: dict[str, Any] = {
        "options": {"sumerians": state.sumerians},
        "to_move": state.to_move,
        "end_phase": state.end_phase,
        "migrated": state.migrated,
        "players": [_player_json(p, name) for p, name in zip(state.players, position.names)],
        "tribe_supply": state.tribe_supply,
        "discard": state.discard,
        "temple_supply": list(state.temple_supply),
        "pending_discard": (None if state.pending_discard is None else
                            {"seat": state.pending_discard[0], "count": state.pending_discard[1]}),
        "outcome": (None if state.result is None else
                    {"winner": state.result.winner, "reason": state.result.reason}),
        "phase": state.phase,
        "seed": state.seed,
    }
    if state.temple_known:
        out["temple_known"] = state.temple_known
    if position.complete:
        out["complete"] = True
    return out


def _player_json(p: Player, name: str) -> dict[str, Any]:
    return {
        "name": name,
        "hand": p.hand_letters(),
        "figure": p.figure,
        "column": list(p.column),
        "first_turn": p.first_turn,
        "rows": {t: p.rows[t] for t in TRIBES},
        "temples": {t: list(p.temples[t]) for t in TRIBES},
    }


def dumps(position: Position) -> str:
    return json.dumps(to_json(position), indent=2)
