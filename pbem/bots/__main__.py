"""python -m pbem.bots arena --game G --a LEVEL --b LEVEL --games N --seed S [--players K] [--json]
python -m pbem.bots ladder --game G --games N --seed S [--players K] [--levels L1,L2,...]

Plays N games between two bot levels (`arena.py`) and prints A's wins, losses and draws, its
score with a 95% interval, and the CPU seconds per decision of each side; `--json` prints
them as one object. `ladder` plays a round robin of levels, N games per pair, and prints
their ratings with intervals (`ladder.py`). Bad arguments (an unknown game or level, players
out of range) print a message naming the argument and exit with code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any

from . import LEVELS
from .arena import ArenaError, Match, check, play
from .ladder import round_robin

EXIT_OK, EXIT_USAGE = 0, 2


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m pbem.bots", description=__doc__.split("\n\n")[1])
    sub = p.add_subparsers(dest="command", required=True)
    arena = sub.add_parser("arena", help="play two bot levels against each other")
    arena.add_argument("--game", required=True)
    arena.add_argument("--a", required=True, help="the level measured")
    arena.add_argument("--b", required=True, help="its opponent (every other seat)")
    arena.add_argument("--games", type=int, default=10)
    arena.add_argument("--seed", type=int, default=1)
    arena.add_argument("--players", type=int, default=None)
    arena.add_argument("--json", action="store_true")
    arena.add_argument("--progress", action="store_true", help="a line per game on stderr")
    ladder = sub.add_parser("ladder", help="a round robin of levels and their ratings")
    ladder.add_argument("--game", required=True)
    ladder.add_argument("--games", type=int, default=10, help="games per pair of levels")
    ladder.add_argument("--seed", type=int, default=1)
    ladder.add_argument("--players", type=int, default=None)
    ladder.add_argument("--levels", default=",".join(LEVELS))
    return p


def text_report(report: dict[str, Any], players: int) -> str:
    lo, hi = report["ci95"]
    plo, phi = report["pair_ci95"]
    pairs = [] if players == 2 else [
        f"A against each B seat (the leagues' points, fair 0.5): {report['pair_wins_a']} ahead, "
        f"{report['pair_losses_a']} behind, {report['pair_draws_a']} level; "
        f"score {report['pair_score_a']:.3f} (95% CI {plo:.3f} to {phi:.3f})"]
    return "\n".join([
        f"{report['game']} ({players} players): {report['a']} (A) against {report['b']} (B), "
        f"{report['games']} games",
        f"A: {report['wins_a']} won, {report['wins_b']} lost, {report['draws']} drawn or shared",
        f"A's score (wins; fair {1 / players:.2f}): {report['score_a']:.3f} "
        f"(95% CI {lo:.3f} to {hi:.3f})",
        *pairs,
        f"seconds per decision: A {report['seconds_per_decision_a']:.3f}, "
        f"B {report['seconds_per_decision_b']:.3f}",
    ])


def main(argv: list[str] | None = None, out: IO[str] | None = None) -> int:
    out = out or sys.stdout
    try:
        args = parser().parse_args(argv)
    except SystemExit as exit:          # argparse has printed its message
        return int(exit.code or 0)

    if args.command == "ladder":
        return _ladder(args, out)

    def progress(i: int, match: Match) -> None:
        print(f"game {i + 1}: A scored {match.scores[-1]:.2f}; "
              f"A's mean {sum(match.scores) / len(match.scores):.3f}", file=sys.stderr, flush=True)

    try:
        match = play(args.game, args.a, args.b, args.games, args.seed, args.players,
                     progress if args.progress else None)
    except ArenaError as error:
        print(f"python -m pbem.bots arena: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    report = match.report()
    print(json.dumps(report) if args.json else text_report(report, match.players), file=out)
    return EXIT_OK


def _ladder(args: argparse.Namespace, out: IO[str]) -> int:
    levels = [level.strip() for level in args.levels.split(",") if level.strip()]
    try:
        if len(levels) < 2:
            raise ArenaError(f"--levels needs two levels or more, not {args.levels!r}")
        for level in levels:
            check(args.game, level, levels[0], args.games, args.players)
    except ArenaError as error:
        print(f"python -m pbem.bots ladder: error: {error}", file=sys.stderr)
        return EXIT_USAGE

    def progress(match: Match) -> None:
        report = match.report()
        print(f"{match.a} vs {match.b}: {report['score_a']:.3f} of {report['games']}",
              file=sys.stderr, flush=True)

    ladder = round_robin(args.game, levels, args.games, args.seed, args.players, progress)
    print(ladder.table(), file=out)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
