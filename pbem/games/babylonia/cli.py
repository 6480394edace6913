"""The command line of Babylonia, like Babel's (`pbem.games.commands`):

    python -m pbem.games.babylonia play --position FILE (--turn TEXT | --turn-file FILE|-)
    python -m pbem.games.babylonia random-game --seed N [--players 2|3|4]
        [--cards basic|advanced] [--first SEAT] [--greedy] [--json [--after N]]
    python -m pbem.games.babylonia bench [--games N] [--seed N] [--players 2|3|4]
        [--cards basic|advanced]

`play` plays the decision the position waits for (a whole turn of the seat to move, or the
ziggurat card owed while a turn pauses) and prints the position after it (`position.py`).
`random-game` plays a whole game of random legal steps and prints it, one event a line
(a turn in full notation, or a ziggurat card owed by a seat while a turn paused), and the
outcome as the last line (JSON); `--json` prints the events, the outcome and the final
position, `--after N` only the position after N decisions. `--greedy` draws steps weighted
towards fields, cities and ziggurats, so that scoring, cards and pauses come up often.
`bench` measures random play (the engine's uniform `random_submission`) and replaying.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from .. import bench, commands
from ..rng import Rng
from . import bot, position
from .game import ADVANCED, BASIC, CARD, GAME
from .notation import parse
from .state import State
from .turn import apply_step

EXIT_OK = 0
MAX_EVENTS = 2_000      # a safety net far above any real game (about 30 to 90 events)


Event = dict[str, Any]


@dataclass
class RandomGame:
    seed: int
    players: int
    cards: str
    first: int                              # the seat that began
    state: State                            # the end
    events: list[Event] = field(default_factory=list)


def greedy_submission(state: State, seat: int, rng: Rng) -> str:
    """Like `GAME.random_submission`, but weighted (`bot.weight`), so that fields are taken and
    cities and ziggurats surrounded far more often: scoring, cards and pauses come up often."""
    trial = state.copy()
    steps: list[str] = []
    while True:
        options = GAME.legal_steps(trial, seat)
        option = rng.weighted(options, [bot.weight(trial, o) for o in options])
        if option.ends:
            return "\n".join(steps)
        if trial.card_due == seat and trial.current.submitted:
            return option.notation
        apply_step(trial, seat, parse(option.notation)[0])
        steps.append(option.notation)


def walk(seed: int, players: int = 2, cards: str = BASIC, first: int | None = None,
         greedy: bool = False) -> Iterator[tuple[Event | None, State]]:
    """(event, state after it) for every event of a random legal game; first (None, the deal).

    Each decision is `GAME.random_submission` (or `greedy_submission`) of the seat owing it,
    drawn from a stream derived from the seed, so a game is fixed by its arguments.
    """
    rng = Rng.derived(seed, "greedy-player" if greedy else "random-player")
    submission = greedy_submission if greedy else GAME.random_submission
    state = GAME.start(seed, {"ziggurat_cards": cards}, players, first)
    yield None, state
    for _ in range(MAX_EVENTS):
        owed = GAME.to_act(state)
        if not owed:
            return
        seat = owed[0].seat
        event = GAME.decide(state, seat, submission(state, seat, rng))
        state = GAME.apply(state, event)
        yield event, state
    raise RuntimeError(f"seed {seed}: no end after {MAX_EVENTS} events")


def random_game(seed: int, players: int = 2, cards: str = BASIC, first: int | None = None,
                greedy: bool = False) -> RandomGame:
    """A whole game of random legal play, with its log of events and its final state."""
    walked = list(walk(seed, players, cards, first, greedy))
    events = [event for event, _ in walked if event is not None]
    return RandomGame(seed, players, cards, walked[0][1].to_move, walked[-1][1], events)


def event_line(event: Event) -> str:
    """An event as the whole record shows it (every kind in full: nothing is hidden here)."""
    return GAME.notation(event, event["seat"])


def record_lines(game: RandomGame) -> list[str]:
    return [f"{n}. seat {e['seat']}: {event_line(e)}" for n, e in enumerate(game.events, 1)]


def summary(game: RandomGame) -> dict[str, Any]:
    outcome = GAME.outcome(game.state)
    assert outcome is not None, "a random game is played to its end"
    return {"outcome": {"winner": outcome.winner, "winners": list(outcome.winners),
                        "reason": outcome.reason},
            "scores": GAME.scores(game.state),
            "cities": [len(c) for c in game.state.cities],
            "turns": sum(e["type"] != CARD for e in game.events),
            "owed_cards": sum(e["type"] == CARD for e in game.events)}


def cmd_play(args: argparse.Namespace, out: IO[str]) -> int:
    return commands.play(args, out, position.loads,
                         lambda state, text: commands.decide_owed(GAME, state, text),
                         position.dumps)


def cmd_random_game(args: argparse.Namespace, out: IO[str]) -> int:
    if args.after is not None:
        states = [state for _, state in walk(args.seed, args.players, args.cards, args.first,
                                             args.greedy)]
        return commands.position_after(states, args.after, position.dumps, out)
    game = random_game(args.seed, args.players, args.cards, args.first, args.greedy)
    start = GAME.start(args.seed, {"ziggurat_cards": args.cards}, args.players, args.first)
    if args.json:
        print(json.dumps({"seed": args.seed, "players": args.players, "first": game.first,
                          "ziggurat_cards": args.cards, "greedy": args.greedy,
                          "events": game.events, **summary(game),
                          "final": GAME.snapshot(game.state)}, indent=1), file=out)
        return EXIT_OK
    print(f"# babylonia random game: seed {args.seed}, {args.players} players, "
          f"seat {game.first} first, ziggurat cards {args.cards} "
          f"({' '.join(map(str, start.available))}){', greedy' if args.greedy else ''}",
          file=out)
    for line in record_lines(game):
        print(line, file=out)
    print(json.dumps(summary(game)), file=out)
    return EXIT_OK


def cmd_bench(args: argparse.Namespace, out: IO[str]) -> int:
    """Random legal games per second, and replaying a finished game from its log."""
    play_times, replay_times, games = [], [], []
    for i in range(args.games):
        game, seconds = bench.timed(random_game, args.seed + i, args.players, args.cards)
        play_times.append(seconds)
        games.append(game)
    for game in games:
        final, seconds = bench.timed(GAME.replay, game.seed, {"ziggurat_cards": game.cards},
                                     game.players, game.first, game.events)
        replay_times.append(seconds)
        assert final == game.state, f"seed {game.seed}: replay differs from play"
    steps = sum(len(e["steps"].splitlines()) if e["type"] != CARD else 1
                for g in games for e in g.events)
    report = bench.report(play_times, replay_times, sum(len(g.events) for g in games), steps,
                          players=args.players, ziggurat_cards=args.cards)
    report.update(bench.playouts(GAME, args.games, args.seed, args.players, {"ziggurat_cards": args.cards}))
    print(json.dumps(report, indent=1), file=out)
    return EXIT_OK


def players_count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of players") from None
    if not GAME.min_seats <= n <= GAME.max_seats:
        raise argparse.ArgumentTypeError(
            f"Babylonia is a game for {GAME.min_seats} to {GAME.max_seats} players, not {n}")
    return n


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m pbem.games.babylonia",
                                description="Babylonia's engine: play from a position, random "
                                            "games and a benchmark.")
    sub = p.add_subparsers(dest="command", required=True)
    commands.add_play(sub, "the decision a position waits for")
    rand = sub.add_parser("random-game", help="play a whole game of random legal steps")
    rand.add_argument("--seed", type=int, required=True)
    rand.add_argument("--players", type=players_count, default=2, metavar="2|3|4")
    rand.add_argument("--cards", choices=(BASIC, ADVANCED), default=BASIC,
                      help="the ziggurat_cards option")
    rand.add_argument("--first", type=int, default=None, metavar="SEAT",
                      help="the seat that begins (0 to players - 1); default: drawn")
    rand.add_argument("--greedy", action="store_true",
                      help="a random player that prefers fields, cities and ziggurats")
    rand.add_argument("--json", action="store_true",
                      help="the events, the outcome and the final state's snapshot as JSON")
    commands.add_after(rand)
    bench = sub.add_parser("bench", help="measure random play and replay")
    bench.add_argument("--games", type=commands.positive, default=20)
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--players", type=players_count, default=2, metavar="2|3|4")
    bench.add_argument("--cards", choices=(BASIC, ADVANCED), default=BASIC)
    p.set_defaults(commands={"random-game": rand, "bench": bench})
    return p


COMMANDS = {"play": cmd_play, "random-game": cmd_random_game, "bench": cmd_bench}


def main(argv: list[str] | None = None, out: IO[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if getattr(args, "first", None) is not None and not 0 <= args.first < args.players:
        args.commands[args.command].error(f"argument --first: a seat from 0 to {args.players - 1} "
                f"for {args.players} players, not {args.first}")
    if args.command == "random-game":
        commands.check_after(args.commands["random-game"], args)
    return COMMANDS[args.command](args, out or sys.stdout)
