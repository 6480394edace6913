"""What every engine's command line shares (docs/games/babel-notation.md, "The engine's command line"):

    python -m pbem.games.<game> play --position FILE (--turn TEXT | --turn-file FILE|-)
    python -m pbem.games.<game> random-game --seed N ... [--json [--after N]]
    python -m pbem.games.<game> bench ...

`play` prints the position after the decision as JSON and exits 0; an illegal decision prints
{"error": ..., "step": N} and an unreadable position {"error": ...} naming the field, both
with exit code 2. `random-game --json --after N` prints the position after the game's first
N decisions: a position file for `play`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import IO, Any, TypeVar

from .base import Engine
from .errors import GameError, PositionError, WrongDecision
from .phrases import phrase

EXIT_OK, EXIT_REFUSED = 0, 2
S = TypeVar("S")


def read(path: str, what: str) -> str:
    """A file's text (`-`: standard input), or the PositionError that says why not."""
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as file:
            return file.read()
    except OSError as error:
        raise PositionError(f"{what}: cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise PositionError(f"{what}: cannot read {path}: it is not UTF-8 text") from None


def refuse(error: GameError, out: IO[str]) -> int:
    """A refusal as JSON: the error, and the step for a refused decision."""
    body: dict[str, Any] = {"error": str(error)}
    if not isinstance(error, PositionError):
        body["step"] = error.step
    print(json.dumps(body), file=out)
    return EXIT_REFUSED


def add_play(sub: argparse._SubParsersAction[argparse.ArgumentParser],
             what: str) -> argparse.ArgumentParser:
    """The `play` command's arguments: a position file and the decision's text."""
    play = sub.add_parser("play", help=f"play {what} from a position file")
    play.add_argument("--position", required=True, metavar="FILE")
    turn = play.add_mutually_exclusive_group(required=True)
    turn.add_argument("--turn", metavar="TEXT")
    turn.add_argument("--turn-file", metavar="FILE", help="- reads standard input")
    return play


def play(args: argparse.Namespace, out: IO[str], loads: Callable[[str], S],
         decide: Callable[[S, str], S], dumps: Callable[[S], str]) -> int:
    """Read the position and the decision, play it, print the position after it."""
    try:
        state = loads(read(args.position, "position"))
        text = args.turn if args.turn is not None else read(args.turn_file, "turn")
        after = decide(state, text)
    except GameError as error:
        return refuse(error, out)
    print(dumps(after), file=out)
    return EXIT_OK


def decide_owed(engine: Engine[Any], state: Any, text: str) -> Any:
    """The state after the decision the position waits for, by the seat that owes it."""
    owed = engine.to_act(state)
    if not owed:
        raise WrongDecision(phrase("the game is over; no decision can follow."), 1, None)
    return engine.apply(state, engine.decide(state, owed[0].seat, text))


def add_after(random_game: argparse.ArgumentParser) -> None:
    random_game.add_argument("--after", type=decisions, metavar="N",
                             help="with --json: only the position after the first N decisions "
                                  "(a position file for play)")


def decisions(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of decisions") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"a number of decisions from 0, not {n}")
    return n


def positive(text: str) -> int:
    """A count of at least 1 (games to play, say)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"at least 1, not {n}")
    return n


def check_after(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if getattr(args, "after", None) is not None and not args.json:
        parser.error("argument --after: only with --json")


def position_after(states: list[S], after: int, dumps: Callable[[S], str], out: IO[str]) -> int:
    """Print the position after `after` decisions (states[0] is the deal); a game with fewer
    decisions is a usage error, on standard error, exit 2."""
    if after >= len(states):
        print(f"error: argument --after: this game has {len(states) - 1} decisions, not {after}",
              file=sys.stderr)
        return EXIT_REFUSED
    print(dumps(states[after]), file=out)
    return EXIT_OK
