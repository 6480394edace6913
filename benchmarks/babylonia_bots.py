"""Babylonia bot experiments: `greedy` and the whole-turn search with other candidate beams,
played against `greedy` in the arena on fixed seeds, with 2, 3 or 4 players
(docs/games/computer-strength.md).

    python benchmarks/babylonia_bots.py VARIANT [VARIANT...] --players K --games N --seed S

A variant is a name from VARIANTS: the beam its candidates come from (plays kept after each
token, tokens looked at, plays judged at a glance per token) and whether it searches (a level's
budget from `pbem.bots.BUDGETS`, through `turns.search` itself) or plays the best candidate
(`greedy`'s way), with other playouts (rounds, seats answering, counts) or other weights of
the evaluation (`Variant.weights`: for the measured side's decisions only, with memos of its
own). Each prints one JSON line like `python -m pbem.bots arena --json`. The
arena's own loop plays the games (`arena.decide` is replaced for the measured side only, which
plays under the oracle's name and sees only what its seat may see).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from dataclasses import dataclass
from typing import Any

from pbem.bots import BUDGETS, arena, turns
from pbem.bots.models import model_for
from pbem.games.babylonia import evaluate
from pbem.games.rng import Rng, SearchRng


@dataclass(frozen=True)
class Variant:
    #: the candidates' beam: plays kept after each token, tokens looked at, plays judged
    beam: int = evaluate.BEAM
    tokens: int = evaluate.TOKENS
    plays: int = evaluate.PLAYS
    #: the level whose search budget is spent on the candidates; None: the best candidate
    level: str | None = None
    #: candidates the search compares (None: the level's own)
    candidates: int | None = None
    #: the search judges rivals one by one (`evaluate.chance`); False: the lead over the
    #: best other seat (before 2026-11-29)
    rivals: bool = True
    #: the playouts' answers: a beam of one over this many tokens, judging this many plays
    #: at a glance (None: `evaluate.reply`, 3 and 4)
    reply: tuple[int, int] | None = None
    #: the level's playouts times this
    more: float = 1.0
    #: `greedy` only: its best candidate by `evaluate.chance` (the races with each rival),
    #: not by `value` (the lead over the best other seat)
    by_chance: bool = False
    #: the most other seats that answer in a playout (None: every one, a whole round)
    answers: int | None = None
    #: the level's CPU-time cap (None: its own), to screen more playouts than fit it today
    seconds: float | None = None
    #: the evaluation's weights changed for this side's decisions only (`evaluate.CLOSE`,
    #: `CITY_CHANCE`, `CITY`, `CITY_HELD`, `NOBLE`, `ZIGGURAT_TOUCH`, `ZIGGURAT_CARD`,
    #: `FIELD`): its candidates, its playouts' answers and its judging
    weights: tuple[tuple[str, object], ...] = ()
    #: rounds of answers in a playout (None: the game's, 1): 2 plays the seat's own next turn
    #: and the answers to it too
    rounds: int | None = None
    #: virtual playouts at a candidate's own value (None: `turns.PRIOR`, 2): more trusts
    #: `greedy`'s ranking more
    prior: int | None = None


VARIANTS: dict[str, Variant] = {
    "g-base": Variant(),                                # `greedy` itself (a check)
    "g-chance": Variant(by_chance=True),
    # the evaluation's weights (greedy, then the search levels with the better ones)
    "g-city13": Variant(weights=(("CITY", 1.95), ("CITY_HELD", 1.56))),
    "g-city07": Variant(weights=(("CITY", 1.05), ("CITY_HELD", 0.84))),
    "g-zig15": Variant(weights=(("ZIGGURAT_CARD", 4.5), ("ZIGGURAT_TOUCH", 1.05))),
    "g-zig05": Variant(weights=(("ZIGGURAT_CARD", 1.5), ("ZIGGURAT_TOUCH", 0.35))),
    "g-field2": Variant(weights=(("FIELD", 0.5),)),
    "g-noble1": Variant(weights=(("NOBLE", 1.0),)),
    "g-noble3": Variant(weights=(("NOBLE", 3.0),)),
    "g-tie": Variant(weights=(("CITY_CHANCE", (0.85, 0.65, 0.15, 0.05)),)),
    "g-lead": Variant(weights=(("CITY_CHANCE", (0.9, 0.5, 0.2, 0.05)),)),
    # playouts cut short: only the next seat answers; more playouts (measured with the
    # level's share 0.5 with 4 players, before `ANSWERS` and the share 1.5 were adopted)
    "strong-a1": Variant(level="strong", answers=1, more=3.0),
    "strong-a1x": Variant(level="strong", answers=1, more=1.5),
    "strong-a1y": Variant(level="strong", answers=1, more=2.0),
    # every seat answers (before 2026-11-29)
    "strong-all": Variant(level="strong", answers=9, more=1 / 3),   # 4 players: as before
    "g-wide": Variant(beam=8, plays=16),
    "g-wider": Variant(beam=12, plays=20),
    "g-deep": Variant(beam=8, tokens=5, plays=16),
    "strong": Variant(level="strong"),                  # today's `strong`
    "strong-max": Variant(level="strong", rivals=False),   # before: lead over the best other
    "normal-max": Variant(level="normal", rivals=False),
    "normal": Variant(level="normal"),
    # cheaper answers in the playouts, and more playouts
    "strong-rp2": Variant(level="strong", reply=(2, 3), more=1.6),
    "strong-rp2x": Variant(level="strong", reply=(2, 3), more=1.0),
    # more playouts (the cheaper glances made room)
    "strong-m14": Variant(level="strong", more=1.4),
    "strong-m2": Variant(level="strong", more=2.0),
    "strong-m2x": Variant(level="strong", more=2.0, seconds=3.0),     # no cap in the way
    "strong-max-m14": Variant(level="strong", rivals=False, more=1.4),
    "strong-wide": Variant(level="strong", beam=8, plays=16),
    "normal-wide": Variant(level="normal", beam=8, plays=16),
    # fewer candidates, so that the same playouts tell them apart better
    "strong-c5": Variant(level="strong", candidates=5),
    "strong-c3": Variant(level="strong", candidates=3),
    # more playouts change no decision (14 of 14 positions the same at twice the playouts):
    # deeper playouts, fewer of them
    "strong-r2": Variant(level="strong", rounds=2, more=0.5),
    "strong-r2a9": Variant(level="strong", rounds=2, answers=9, more=0.5),
    # more candidates, as many playouts each; two seats answering with 4 players
    "strong-c20": Variant(level="strong", candidates=20, more=2.0),
    "strong-a2": Variant(level="strong", answers=2),
    "strong-p20": Variant(level="strong", prior=20),
}


#: The measured side's own memos when its weights differ (the evaluation's are the others').
_MEMOS: dict[tuple[object, ...], Any] = {}


def decide(engine: Any, state: Any, seat: int, rng: Rng, v: Variant) -> str:
    if not v.weights:
        return _decide(engine, state, seat, rng, v)
    kept = {name: getattr(evaluate, name) for name, _ in v.weights}
    memos = evaluate._MEMOS
    try:
        for name, value in v.weights:
            setattr(evaluate, name, value)
        evaluate._MEMOS = _MEMOS
        return _decide(engine, state, seat, rng, v)
    finally:
        for name, value in kept.items():
            setattr(evaluate, name, value)
        evaluate._MEMOS = memos


def _decide(engine: Any, state: Any, seat: int, rng: Rng, v: Variant) -> str:
    def wide(sample: Any, s: int) -> Any:
        return evaluate.turns(sample, s, v.beam, v.tokens, v.plays)

    model = dataclasses.replace(model_for(engine), turns=wide, wide=None)
    if not v.rivals:
        model = dataclasses.replace(model, chance=None)
    if v.reply is not None:
        few, plays = v.reply

        def reply(sample: Any, s: int) -> str:
            return evaluate.turns(sample, s, beam=1, tokens=few, plays=plays)[0].text
        model = dataclasses.replace(model, reply=reply)
    if v.answers is not None:
        model = dataclasses.replace(model, answers={k: v.answers for k in (2, 3, 4)})
    if v.rounds is not None:
        model = dataclasses.replace(model, rounds=v.rounds)
    if v.level is None and v.by_chance:
        sample = engine.determinize(state, seat, rng)
        return max(wide(sample, seat), key=lambda t: evaluate.chance(t.state, seat)).text
    if v.level is None:
        return turns.greedy(engine, model, state, seat, rng)
    if v.prior is not None:
        kept, turns.PRIOR = turns.PRIOR, v.prior
        try:
            return _search(engine, model, state, seat, rng, v)
        finally:
            turns.PRIOR = kept
    return _search(engine, model, state, seat, rng, v)


def _search(engine: Any, model: Any, state: Any, seat: int, rng: Rng, v: Variant) -> str:
    assert v.level is not None
    budget = BUDGETS[v.level]
    if v.more != 1.0:
        budget = dataclasses.replace(budget, playouts=round(budget.playouts * v.more))
    if v.seconds is not None:
        budget = dataclasses.replace(budget, seconds=v.seconds)
    if v.candidates is not None:
        budget = dataclasses.replace(budget, candidates=v.candidates)
    return turns.search(engine, model, state, seat, budget, rng)


def run(name: str, b: str, players: int, games: int, first: int) -> dict[str, Any]:
    v = VARIANTS[name]
    original = arena.decide

    def measured(engine: Any, state: Any, seat: int, level: str, seed: int) -> str:
        if level != arena.ORACLE:      # the measured side plays under the oracle's name
            return original(engine, state, seat, level, seed)
        return decide(engine, state, seat, SearchRng.derived(seed, f"bot:{seat}"), v)

    arena.decide = measured
    try:
        started = time.time()
        match = arena.play("babylonia", arena.ORACLE, b, games, first, players)
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
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=1002)
    args = p.parse_args()
    for name in args.variants:
        print(json.dumps(run(name, args.b, args.players, args.games, args.seed)), flush=True)


if __name__ == "__main__":
    main()
