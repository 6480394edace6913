"""The engine's command line (BABEL-NOTATION.md).

    python -m pbem.games.babel play --position FILE (--turn TEXT | --turn-file FILE|-)
    python -m pbem.games.babel random-game --seed N [--sumerians all] [--first 0|1] [--json]
    python -m pbem.games.babel bench [--games N] [--seed N]

`play` prints the position after the turn as JSON and exits 0; an illegal
turn prints {"error": ..., "step": N} and an unreadable position
{"error": ...} naming the field, both with exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from .. import bench
from ..errors import GameError, PositionError
from . import position as positions
from .game import GAME
from .notation import one_line, parse
from .randomplay import play_random_game
from .state import SUMERIANS_ALL, SUMERIANS_TOP_RUN
from .turn import play_from_position

EXIT_OK, EXIT_REFUSED = 0, 2


def _read(path: str, what: str) -> str:
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as error:
        raise PositionError(f"{what}: cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise PositionError(f"{what}: cannot read {path}: it is not UTF-8 text") from None


def _fail(error: GameError, out) -> int:
    body = {"error": str(error)}
    if not isinstance(error, PositionError):
        body["step"] = error.step
    print(json.dumps(body), file=out)
    return EXIT_REFUSED


def cmd_play(args, out) -> int:
    try:
        pos = positions.loads(_read(args.position, "position"))
    except GameError as error:
        return _fail(error, out)
    try:
        text = args.turn if args.turn is not None else _read(args.turn_file, "turn")
    except PositionError as error:
        return _fail(error, out)
    state = pos.state.copy()
    try:
        if state.result is not None:
            raise GameError("the game is over; no turn can follow.", 1, None)
        play_from_position(state, text)
    except GameError as error:
        return _fail(error, out)
    pos.state = state
    print(positions.dumps(pos), file=out)
    return EXIT_OK


def record_lines(game) -> list[str]:
    """One line per turn: its seat and its steps, the discards due first."""
    lines, pending = [], ""
    for event in game.events:
        text = one_line(parse(event.get("steps") or "discard " + event["cards"]))
        if event["type"] == "discard":
            pending = text + "; "
            continue
        lines.append(f"{len(lines) + 1}. seat {event['seat']}: {pending}{text}")
        pending = ""
    if pending:
        lines.append(f"{len(lines) + 1}. seat {game.events[-1]['seat']}: {pending[:-2]}")
    return lines


def cmd_random_game(args, out) -> int:
    game = play_random_game(args.seed, args.sumerians, args.first)
    state = game.state
    summary = {"outcome": {"winner": state.result.winner, "reason": state.result.reason},
               "scores": state.scores(), "turns": sum(e["type"] == "turn" for e in game.events)}
    if args.json:
        final = positions.to_json(positions.Position(state, ["Player 1", "Player 2"], True))
        print(json.dumps({"seed": args.seed, "first": game.first, "sumerians": game.sumerians,
                          "events": game.events, **summary, "final": final}, indent=1), file=out)
        return EXIT_OK
    print(f"# babel random game: seed {args.seed}, seat {game.first} first, "
          f"sumerians {game.sumerians}", file=out)
    for line in record_lines(game):
        print(line, file=out)
    print(json.dumps(summary), file=out)
    return EXIT_OK


def cmd_bench(args, out) -> int:
    """Random legal games per second, and replaying a finished game from its log."""
    play_times, replay_times, steps = [], [], 0
    games = []
    for i in range(args.games):
        t0 = time.perf_counter()
        game = play_random_game(args.seed + i)
        play_times.append(time.perf_counter() - t0)
        games.append(game)
    for game in games:
        t0 = time.perf_counter()
        final = GAME.replay(game.seed, {"sumerians": game.sumerians}, 2, game.first, game.events)
        replay_times.append(time.perf_counter() - t0)
        assert final == game.state, f"seed {game.seed}: replay differs from play"
        steps += sum(len(e.get("steps", "x").splitlines()) for e in game.events)
    report = bench.report(play_times, replay_times, sum(len(g.events) for g in games), steps)
    print(json.dumps(report, indent=1), file=out)
    return EXIT_OK


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m pbem.games.babel", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play the rest of a turn from a position file")
    play.add_argument("--position", required=True, metavar="FILE")
    turn = play.add_mutually_exclusive_group(required=True)
    turn.add_argument("--turn", metavar="TEXT")
    turn.add_argument("--turn-file", metavar="FILE", help="- reads standard input")
    rand = sub.add_parser("random-game", help="play a whole game of random legal steps")
    rand.add_argument("--seed", type=int, required=True)
    rand.add_argument("--sumerians", choices=(SUMERIANS_TOP_RUN, SUMERIANS_ALL), default=SUMERIANS_TOP_RUN)
    rand.add_argument("--first", type=int, choices=(0, 1), default=None)
    rand.add_argument("--json", action="store_true", help="the whole record and final position as JSON")
    bench = sub.add_parser("bench", help="measure random play and replay")
    bench.add_argument("--games", type=int, default=300)
    bench.add_argument("--seed", type=int, default=1)
    return p


COMMANDS = {"play": cmd_play, "random-game": cmd_random_game, "bench": cmd_bench}


def main(argv=None, out=None) -> int:
    args = parser().parse_args(argv)
    return COMMANDS[args.command](args, out or sys.stdout)
