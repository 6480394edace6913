"""Babel bot experiments: variants of the whole-turn search and of the evaluation, played
against `greedy` in the arena on fixed seeds (docs/games/computer-strength.md).

    python benchmarks/babel_bots.py VARIANT [VARIANT...] --games N --seed S [--b greedy]

A variant is a name from VARIANTS: the search's candidates, playouts, who answers in the
playouts (`reply`: the narrow beam; `greedy`: the arena's greedy itself), how many of the
opponent's turns (and ours between them) a playout plays, and the evaluation's weights.
Each prints one JSON line like `python -m pbem.bots arena --json`. The arena's own loop plays
the games (`arena.decide` is replaced for the measured side only).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from pbem.bots import arena, turns
from pbem.bots.models import model_for
from pbem.games.babel import evaluate
from pbem.games.babel.state import DRAW
from pbem.games.rng import Rng, SearchRng


@dataclass(frozen=True)
class Variant:
    candidates: int = 10
    playouts: int = 120
    #: who answers in the playouts: "reply" (narrow beam) or "greedy" (the full beam)
    opponent: str = "reply"
    #: turns of ours played after the opponent's answer before judging (0: judge at once)
    ours: int = 0
    #: final choice: "halving" (successive halving, today's) or "mean" (all candidates
    #: get equal playouts, best mean)
    choice: str = "halving"
    prior: float = 2.0
    #: evaluation weights patched into pbem.games.babel.evaluate while deciding
    weights: dict[str, float] = field(default_factory=dict)
    #: no search: the best candidate by the (patched) evaluation
    greedy_only: bool = False
    #: the candidates' beam: positions kept per place of the figure, steps deep
    per_place: int = evaluate.PER_PLACE
    depth: int = evaluate.DEPTH


VARIANTS: dict[str, Variant] = {
    "base": Variant(),
    "greedyopp": Variant(opponent="greedy"),
    "ours1": Variant(ours=1),
    "ours1-greedyopp": Variant(ours=1, opponent="greedy", playouts=60),
    "mean": Variant(choice="mean"),
    "prior0": Variant(prior=0.0),
    # the evaluation alone (greedy with other weights): cheap to screen
    "g-points": Variant(greedy_only=True, weights=dict(
        W_ROW=0, W_READY=0, W_BUILDABLE=0, W_RUN=0, W_DESTROY=0, W_ROB=0, W_HAND=0)),
    "g-wide": Variant(greedy_only=True, per_place=8, depth=14),
    # (g-next3/6/10, a term for the levels the side moving next can build from the column
    # tops it sees, were screened so and dropped: docs/games/computer-strength.md)
}


@contextlib.contextmanager
def patched(weights: dict[str, float]) -> Iterator[None]:
    saved = {k: getattr(evaluate, k) for k in weights}
    for k, v in weights.items():
        setattr(evaluate, k, v)
    try:
        yield
    finally:
        for k, v in saved.items():
            setattr(evaluate, k, v)


def answer(state: Any, seat: int, who: str) -> str:
    if who == "greedy" or state.phase == DRAW:
        return evaluate.turns(state, seat)[0].text
    return evaluate.reply(state, seat)


def playout(engine: Any, model: Any, state: Any, seat: int, text: str, rng: Rng,
            v: Variant) -> float | None:
    sample = engine.determinize(state, seat, rng)
    try:
        engine.apply_in_place(sample, engine.decide(sample, seat, text))
    except Exception:
        return None
    ours = 0
    for _ in range(20):
        owed = engine.to_act(sample)
        if not owed:
            break
        mover = owed[0].seat
        if mover == seat:
            if sample.phase != DRAW:
                if ours >= v.ours:
                    break
                ours += 1
            text = answer(sample, mover, "reply")
        else:
            text = answer(sample, mover, v.opponent)
        engine.apply_in_place(sample, engine.decide(sample, mover, text))
    return turns.reward(engine, model, sample, seat)


def search(engine: Any, state: Any, seat: int, rng: Rng, v: Variant) -> str:
    model = model_for(engine)
    sample = engine.determinize(state, seat, rng)
    candidates = list(evaluate.turns(sample, seat, v.per_place, v.depth)[:v.candidates])
    if v.greedy_only or len(candidates) == 1:
        return candidates[0].text
    prior = [v.prior / (1 + math.exp(-c.value / model.scale)) for c in candidates]
    totals = list(prior)
    played = [0] * len(candidates)
    alive = list(range(len(candidates)))
    if v.choice == "mean":
        each = max(1, v.playouts // len(candidates))
        seeds = [rng.next_u64() for _ in range(each)]
        for i in alive:
            for s in seeds:
                r = playout(engine, model, state, seat, candidates[i].text, Rng(s), v)
                totals[i] += r if r is not None else 0.0
                played[i] += 1
        best = max(alive, key=lambda i: totals[i] / (v.prior + played[i]))
        return candidates[best].text
    rounds = max(1, math.ceil(math.log2(len(candidates))))
    spent = 0
    while len(alive) > 1 and spent < v.playouts:
        each = max(1, (v.playouts // rounds) // len(alive))
        seeds = [rng.next_u64() for _ in range(each)]
        for i in list(alive):
            for s in seeds:
                r = playout(engine, model, state, seat, candidates[i].text, Rng(s), v)
                if r is None:
                    alive.remove(i)
                    break
                totals[i] += r
                played[i] += 1
                spent += 1
        alive.sort(key=lambda i: -totals[i] / (v.prior + played[i]))
        alive = alive[:max(1, (len(alive) + 1) // 2)]
    return candidates[alive[0]].text


def run(name: str, b: str, games: int, seed: int) -> dict[str, Any]:
    v = VARIANTS[name]
    original = arena.decide

    def decide(engine: Any, state: Any, seat: int, level: str, dseed: int) -> str:
        if level != arena.ORACLE:      # the measured side plays under the oracle's name
            return original(engine, state, seat, level, dseed)
        with patched(v.weights):
            return search(engine, state, seat, SearchRng.derived(dseed, f"bot:{seat}"), v)

    arena.decide = decide
    try:
        started = time.time()
        match = arena.play("babel", arena.ORACLE, b, games, seed)
    finally:
        arena.decide = original
    report = match.report()
    report["a"] = name
    report["wall"] = round(time.time() - started, 1)
    return report


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("variants", nargs="+")
    p.add_argument("--b", default="greedy")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=501)
    args = p.parse_args()
    for name in args.variants:
        print(json.dumps(run(name, args.b, args.games, args.seed)), flush=True)


if __name__ == "__main__":
    sys.exit(main())
