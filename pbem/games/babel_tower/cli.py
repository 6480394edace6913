"""The command line of Babel Tower, like Babel's (`pbem.games.commands`):

    python -m pbem.games.babel_tower play --position FILE (--turn TEXT | --turn-file FILE|-)
    python -m pbem.games.babel_tower random-game --seed N [--draft pick|random] [--first 0|1]
        [--json [--after N]]
    python -m pbem.games.babel_tower bench [--games N] [--seed N] [--draft pick|random]

`play` plays the one step the position waits for (`pick 3`, `place 3 SW UNE`, by the seat to
move) and prints the position after it (`position.py`). `random-game` plays a whole game of
random legal steps and prints it, one step per line, and the outcome as the last line (JSON);
`--json` prints the events and the final view, `--after N` the position after N steps.
`bench` measures random play and replaying.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any

from .. import bench, commands
from ..rng import Rng
from . import position
from .game import GAME
from .state import PICK, RANDOM, Tower


def random_states(seed: int, draft: str = PICK,
                  first: int | None = None) -> tuple[list[dict[str, Any]], list[Tower]]:
    """(events, states) of a game of random legal steps: states[0] is the deal, states[i] the
    state after event i."""
    rng = Rng.derived(seed, "random-player")
    state = GAME.start(seed, {"draft": draft}, 2, first)
    events, states = [], [state]
    while to_act := GAME.to_act(state):
        seat = to_act[0].seat
        event = GAME.decide(state, seat, GAME.random_submission(state, seat, rng))
        state = GAME.apply(state, event)
        events.append(event)
        states.append(state)
    return events, states


def random_game(seed: int, draft: str = PICK,
                first: int | None = None) -> tuple[list[dict[str, Any]], Tower]:
    """(events, final state) of a game of random legal steps."""
    events, states = random_states(seed, draft, first)
    return events, states[-1]


def cmd_play(args: argparse.Namespace, out: IO[str]) -> int:
    return commands.play(args, out, position.loads,
                         lambda state, text: commands.decide_owed(GAME, state, text),
                         position.dumps)


def cmd_random_game(args: argparse.Namespace, out: IO[str]) -> int:
    events, states = random_states(args.seed, args.draft, args.first)
    if args.after is not None:
        return commands.position_after(states, args.after, position.dumps, out)
    state = states[-1]
    outcome = GAME.outcome(state)
    assert outcome is not None
    summary = {"outcome": {"winner": outcome.winner, "reason": outcome.reason},
               "placed": GAME.scores(state), "steps": len(events)}
    if args.json:
        print(json.dumps({"seed": args.seed, "draft": args.draft, "events": events, **summary,
                          "final": GAME.view(state, None)}, indent=1), file=out)
        return commands.EXIT_OK
    print(f"# babel tower random game: seed {args.seed}, draft {args.draft}", file=out)
    for number, event in enumerate(events, 1):
        print(f"{number}. seat {event['seat']}: {event['step']}", file=out)
    print(json.dumps(summary), file=out)
    return commands.EXIT_OK


def cmd_bench(args: argparse.Namespace, out: IO[str]) -> int:
    """Random legal games per second, and replaying a finished game from its log."""
    play_times, replay_times, games = [], [], []
    for i in range(args.games):
        (events, state), seconds = bench.timed(random_game, args.seed + i, args.draft)
        play_times.append(seconds)
        games.append((args.seed + i, events, state))
    for seed, events, state in games:
        final, seconds = bench.timed(GAME.replay, seed, {"draft": args.draft}, 2, None, events)
        replay_times.append(seconds)
        assert final == state, f"seed {seed}: replay differs from play"
    steps = sum(len(events) for _, events, _ in games)
    report = bench.report(play_times, replay_times, steps, steps, draft=args.draft)
    report.update(bench.playouts(GAME, args.games, args.seed, 2, {"draft": args.draft}))
    print(json.dumps(report, indent=1), file=out)
    return commands.EXIT_OK


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m pbem.games.babel_tower",
                                description="Babel Tower's engine: play from a position, random "
                                            "games and a benchmark.")
    sub = p.add_subparsers(dest="command", required=True)
    commands.add_play(sub, "the step a position waits for")
    rand = sub.add_parser("random-game", help="play a whole game of random legal steps")
    rand.add_argument("--seed", type=int, required=True)
    rand.add_argument("--draft", choices=(PICK, RANDOM), default=PICK)
    rand.add_argument("--first", type=int, choices=(0, 1), default=None)
    rand.add_argument("--json", action="store_true", help="the events and the final view as JSON")
    commands.add_after(rand)
    bench = sub.add_parser("bench", help="measure random play and replay")
    bench.add_argument("--games", type=commands.positive, default=200)
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--draft", choices=(PICK, RANDOM), default=PICK)
    p.set_defaults(commands={"random-game": rand})
    return p


COMMANDS = {"play": cmd_play, "random-game": cmd_random_game, "bench": cmd_bench}


def main(argv: list[str] | None = None, out: IO[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "random-game":
        commands.check_after(args.commands["random-game"], args)
    return COMMANDS[args.command](args, out or sys.stdout)
