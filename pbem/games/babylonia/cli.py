"""The command line of Babylonia, like Babel's:

    python -m pbem.games.babylonia random-game --seed N [--players 2|3|4]
        [--cards basic|advanced] [--first SEAT] [--greedy] [--json]
    python -m pbem.games.babylonia bench [--games N] [--seed N] [--players 2|3|4]
        [--cards basic|advanced]

`random-game` plays a whole game of random legal steps and prints it, one event a line
(a turn in full notation, or a ziggurat card owed by a seat while a turn paused), and the
outcome as the last line (JSON). `--greedy` draws steps weighted towards fields, cities and
ziggurats, so that scoring, cards and pauses come up often. `bench` measures random play
(the engine's uniform `random_submission`) and replaying.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from .. import bench
from ..base import StepOption
from ..rng import Rng
from .game import ADVANCED, BASIC, CARD, GAME
from .notation import parse
from .state import State
from .turn import apply_step

EXIT_OK = 0
MAX_EVENTS = 2_000      # a safety net far above any real game (about 30 to 90 events)


@dataclass
class RandomGame:
    seed: int
    players: int
    cards: str
    first: int                              # the seat that began
    events: list[dict] = field(default_factory=list)
    state: State | None = None


def _weight(state: State, option: StepOption) -> int:
    """How much the greedy player likes a step: fields, and closing in on cities and ziggurats."""
    if option.ends:
        return 4
    head, _, hex = option.notation.partition(" ")
    if head in ("score", "card", "extra"):
        return 5
    b = state.board
    if hex in state.tiles:
        return 40
    weight = 1
    for n in b.neighbours[hex]:
        if ((b.hexes[n].kind == "ziggurat" and n not in state.scored)
                or state.tiles.get(n, "").startswith("city")):
            weight += 8
            free = [m for m in b.neighbours[n] if b.hexes[m].kind == "land"
                    and m not in state.tokens and m not in state.tiles]
            if free == [hex]:
                weight += 60      # this token surrounds it
    return weight


def greedy_submission(state: State, seat: int, rng: Rng) -> str:
    """Like `GAME.random_submission`, but weighted (`_weight`), so that fields are taken and
    cities and ziggurats surrounded far more often: scoring, cards and pauses come up often."""
    trial, steps = state.copy(), []
    while True:
        options = GAME.legal_steps(trial, seat)
        weights = [_weight(trial, o) for o in options]
        r = rng.below(sum(weights))
        for option, w in zip(options, weights):
            if r < w:
                break
            r -= w
        if option.ends:
            return "\n".join(steps)
        if trial.card_due == seat and trial.turn.submitted:
            return option.notation
        apply_step(trial, seat, parse(option.notation)[0])
        steps.append(option.notation)


def walk(seed: int, players: int = 2, cards: str = BASIC, first: int | None = None,
         greedy: bool = False) -> Iterator[tuple[dict | None, State]]:
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
    game = None
    for event, state in walk(seed, players, cards, first, greedy):
        if event is None:
            game = RandomGame(seed, players, cards, state.to_move)
        else:
            game.events.append(event)
        game.state = state
    return game


def event_line(event: dict) -> str:
    """An event as the whole record shows it (every kind in full: nothing is hidden here)."""
    return GAME.notation(event, event["seat"])


def record_lines(game: RandomGame) -> list[str]:
    return [f"{n}. seat {e['seat']}: {event_line(e)}" for n, e in enumerate(game.events, 1)]


def summary(game: RandomGame) -> dict:
    outcome = GAME.outcome(game.state)
    return {"outcome": {"winner": outcome.winner, "winners": list(outcome.winners),
                        "reason": outcome.reason},
            "scores": GAME.scores(game.state),
            "cities": [len(c) for c in game.state.cities],
            "turns": sum(e["type"] != CARD for e in game.events),
            "owed_cards": sum(e["type"] == CARD for e in game.events)}


def cmd_random_game(args, out) -> int:
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


def cmd_bench(args, out) -> int:
    """Random legal games per second, and replaying a finished game from its log."""
    play_times, replay_times, games = [], [], []
    for i in range(args.games):
        t0 = time.perf_counter()
        game = random_game(args.seed + i, args.players, args.cards)
        play_times.append(time.perf_counter() - t0)
        games.append(game)
    for game in games:
        t0 = time.perf_counter()
        final = GAME.replay(game.seed, {"ziggurat_cards": game.cards}, game.players, game.first,
                            game.events)
        replay_times.append(time.perf_counter() - t0)
        assert final == game.state, f"seed {game.seed}: replay differs from play"
    steps = sum(len(e["steps"].splitlines()) if e["type"] != CARD else 1
                for g in games for e in g.events)
    report = bench.report(play_times, replay_times, sum(len(g.events) for g in games), steps,
                          players=args.players, ziggurat_cards=args.cards)
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


def positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"at least 1, not {n}")
    return n


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m pbem.games.babylonia",
                                description="Babylonia's engine: random games and a benchmark.")
    sub = p.add_subparsers(dest="command", required=True)
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
    bench = sub.add_parser("bench", help="measure random play and replay")
    bench.add_argument("--games", type=positive, default=20)
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--players", type=players_count, default=2, metavar="2|3|4")
    bench.add_argument("--cards", choices=(BASIC, ADVANCED), default=BASIC)
    p.set_defaults(commands={"random-game": rand, "bench": bench})
    return p


COMMANDS = {"random-game": cmd_random_game, "bench": cmd_bench}


def main(argv=None, out=None) -> int:
    args = parser().parse_args(argv)
    if getattr(args, "first", None) is not None and not 0 <= args.first < args.players:
        args.commands[args.command].error(f"argument --first: a seat from 0 to {args.players - 1} "
                f"for {args.players} players, not {args.first}")
    return COMMANDS[args.command](args, out or sys.stdout)
