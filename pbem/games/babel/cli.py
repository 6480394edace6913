"""The engine's command line (docs/games/babel-notation.md; what every game's shares: `pbem.games.commands`).

    python -m pbem.games.babel play --position FILE (--turn TEXT | --turn-file FILE|-)
    python -m pbem.games.babel random-game --seed N [--sumerians all] [--first 0|1]
        [--json [--after N]]
    python -m pbem.games.babel bench [--games N] [--seed N]

`play` prints the position after the turn as JSON and exits 0; an illegal
turn prints {"error": ..., "step": N} and an unreadable position
{"error": ...} naming the field, both with exit code 2. `random-game --json
--after N` prints the position after the game's first N decisions.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO

from .. import bench, commands
from ..commands import EXIT_OK, read, refuse
from ..errors import GameError, PositionError
from . import position as positions
from .game import GAME
from .notation import one_line, parse
from .randomplay import RandomGame, play_random_game
from .state import SUMERIANS_ALL, SUMERIANS_TOP_RUN
from .turn import play_from_position

NAMES = ["Player 1", "Player 2"]


def cmd_play(args: argparse.Namespace, out: IO[str]) -> int:
    try:
        pos = positions.loads(read(args.position, "position"))
    except GameError as error:
        return refuse(error, out)
    try:
        text = args.turn if args.turn is not None else read(args.turn_file, "turn")
    except PositionError as error:
        return refuse(error, out)
    state = pos.state.copy()
    try:
        if state.result is not None:
            raise GameError("the game is over; no turn can follow.", 1, None)
        play_from_position(state, text)
    except GameError as error:
        return refuse(error, out)
    pos.state = state
    print(positions.dumps(pos), file=out)
    return EXIT_OK


def record_lines(game: RandomGame) -> list[str]:
    """One line per turn: its seat and its steps, the discards due first."""
    lines: list[str] = []
    pending = ""
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


def cmd_random_game(args: argparse.Namespace, out: IO[str]) -> int:
    game = play_random_game(args.seed, args.sumerians, args.first)
    if args.after is not None:
        states = [GAME.start(args.seed, {"sumerians": game.sumerians}, 2, game.first)]
        for event in game.events:
            states.append(GAME.apply(states[-1], event))
        return commands.position_after(
            states, args.after, lambda s: positions.dumps(positions.Position(s, NAMES, True)), out)
    state, result = game.state, game.state.result
    assert result is not None, "a random game is played to its end"
    summary = {"outcome": {"winner": result.winner, "reason": result.reason},
               "scores": state.scores(), "turns": sum(e["type"] == "turn" for e in game.events)}
    if args.json:
        final = positions.to_json(positions.Position(state, NAMES, True))
        print(json.dumps({"seed": args.seed, "first": game.first, "sumerians": game.sumerians,
                          "events": game.events, **summary, "final": final}, indent=1), file=out)
        return EXIT_OK
    print(f"# babel random game: seed {args.seed}, seat {game.first} first, "
          f"sumerians {game.sumerians}", file=out)
    for line in record_lines(game):
        print(line, file=out)
    print(json.dumps(summary), file=out)
    return EXIT_OK


def cmd_bench(args: argparse.Namespace, out: IO[str]) -> int:
    """Random legal games per second, and replaying a finished game from its log."""
    play_times, replay_times, steps = [], [], 0
    games = []
    for i in range(args.games):
        game, seconds = bench.timed(play_random_game, args.seed + i)
        play_times.append(seconds)
        games.append(game)
    for game in games:
        final, seconds = bench.timed(GAME.replay, game.seed, {"sumerians": game.sumerians}, 2,
                                     game.first, game.events)
        replay_times.append(seconds)
        assert final == game.state, f"seed {game.seed}: replay differs from play"
        steps += sum(len(e.get("steps", "x").splitlines()) for e in game.events)
    report = bench.report(play_times, replay_times, sum(len(g.events) for g in games), steps)
    report.update(bench.playouts(GAME, args.games, args.seed, 2, {"sumerians": "top-run"}))
    print(json.dumps(report, indent=1), file=out)
    return EXIT_OK


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m pbem.games.babel", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    commands.add_play(sub, "the rest of a turn")
    rand = sub.add_parser("random-game", help="play a whole game of random legal steps")
    rand.add_argument("--seed", type=int, required=True)
    rand.add_argument("--sumerians", choices=(SUMERIANS_TOP_RUN, SUMERIANS_ALL), default=SUMERIANS_TOP_RUN)
    rand.add_argument("--first", type=int, choices=(0, 1), default=None)
    rand.add_argument("--json", action="store_true", help="the whole record and final position as JSON")
    commands.add_after(rand)
    bench = sub.add_parser("bench", help="measure random play and replay")
    bench.add_argument("--games", type=int, default=300)
    bench.add_argument("--seed", type=int, default=1)
    p.set_defaults(commands={"random-game": rand})
    return p


COMMANDS = {"play": cmd_play, "random-game": cmd_random_game, "bench": cmd_bench}


def main(argv: list[str] | None = None, out: IO[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "random-game":
        commands.check_after(args.commands["random-game"], args)
    return COMMANDS[args.command](args, out or sys.stdout)
