"""The command line of Babel Tower, like Babel's:

    python -m pbem.games.babel_tower random-game --seed N [--draft pick|random] [--json]

plays a whole game of random legal steps and prints it, one step per line, and the outcome
as the last line (JSON).
"""

from __future__ import annotations

import argparse
import json
import sys

from ..rng import Rng
from .game import GAME
from .state import PICK, RANDOM


def random_game(seed: int, draft: str = PICK, first: int | None = None):
    """(events, final state) of a game of random legal steps."""
    rng = Rng.derived(seed, "random-player")
    state = GAME.start(seed, {"draft": draft}, 2, first)
    events = []
    while (owed := GAME.to_act(state)):
        seat = owed[0].seat
        event = GAME.decide(state, seat, GAME.random_submission(state, seat, rng))
        state = GAME.apply(state, event)
        events.append(event)
    return events, state


def main(argv=None, out=None) -> int:
    out = out or sys.stdout
    parser = argparse.ArgumentParser(prog="python -m pbem.games.babel_tower")
    sub = parser.add_subparsers(dest="command", required=True)
    rand = sub.add_parser("random-game", help="play a whole game of random legal steps")
    rand.add_argument("--seed", type=int, required=True)
    rand.add_argument("--draft", choices=(PICK, RANDOM), default=PICK)
    rand.add_argument("--first", type=int, choices=(0, 1), default=None)
    rand.add_argument("--json", action="store_true", help="the events and the final view as JSON")
    args = parser.parse_args(argv)
    events, state = random_game(args.seed, args.draft, args.first)
    outcome = GAME.outcome(state)
    summary = {"outcome": {"winner": outcome.winner, "reason": outcome.reason},
               "placed": GAME.scores(state), "steps": len(events)}
    if args.json:
        print(json.dumps({"seed": args.seed, "draft": args.draft, "events": events, **summary,
                          "final": GAME.view(state, None)}, indent=1), file=out)
        return 0
    print(f"# babel tower random game: seed {args.seed}, draft {args.draft}", file=out)
    for number, event in enumerate(events, 1):
        print(f"{number}. seat {event['seat']}: {event['step']}", file=out)
    print(json.dumps(summary), file=out)
    return 0
