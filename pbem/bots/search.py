"""The search player: information-set Monte Carlo tree search over one decision's steps.

Single-observer ISMCTS (Cowling, Powley, Whitehouse 2012), its tree limited to the decision
the bot's seat owes now. Each iteration
1. samples a full state the seat cannot tell from the real one (`Engine.determinize`),
2. walks the tree of this decision's steps: in every node the legal next steps of that
   sample (`Engine.draft` of the steps so far, then `Engine.legal_steps`), the option that
   `ends` the decision among them; a child is chosen by UCB1 over the times it was
   *available* (ISMCTS's fix for steps that some samples allow and others do not), and the
   first child never tried is expanded (with `Engine.search_width`: only the likeliest
   steps compete, more as the node's visits grow: progressive widening),
3. completes the decision by the game's weights (`GamePlan.draw`), submits it to the sample
   (`decide`, then the event), and plays on (`GamePlan.playout`: the game's playout player,
   maybe stopped after some rounds),
4. scores the end for the seat (a win 1, a shared win or draw split, a stopped position by
   the game's `worth`) and backs that up the path.
The decision submitted is the most visited path of steps while it is visited often enough,
completed as the iterations completed theirs. Everything the search reads comes from the
samples, which depend only on what the seat sees: the bot cannot read a hidden card.

A decision ends (`_Walk.options` finds it done) when its `ends` option is chosen, or when the
draft is done and the seat no longer owes a decision of the kind it owed (a one-step
decision: a pick, a placement, an owed card, discards owed).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from ..games.base import Engine, StepOption
from ..games.errors import GameError
from ..games.rng import Rng
from .plans import GamePlan, plan_for

#: UCB1's exploration constant for rewards in [0, 1].
EXPLORATION = 0.7
#: The visits below which a step of the best path is noise, not a finding.
CONFIDENT = 4


class SearchError(RuntimeError):
    """The search found no complete decision (never expected: the engines always have one)."""


@dataclass(frozen=True)
class Budget:
    """How hard a level searches: iterations (each one playout) and a CPU-time cap for safety
    (seconds of the thinking thread; the iterations decide on every machine alike, the cap
    only guards a slow one)."""
    playouts: int
    seconds: float


@dataclass
class Node:
    """The steps of the decision so far; children by the next step's notation."""
    visits: int = 0
    total: float = 0.0       # the seat's rewards summed over the visits
    available: int = 0       # iterations in which this step was legal here
    ends: bool = False       # this step submits the decision
    children: dict[str, Node] = field(default_factory=dict)
    #: with progressive widening: the next steps, the game's likeliest (`step_weight`) first,
    #: in the order they are let in
    ranked: list[str] = field(default_factory=list)

    def ucb(self) -> float:
        if self.visits == 0:
            return math.inf
        return self.total / self.visits + EXPLORATION * math.sqrt(
            math.log(max(self.available, 1)) / self.visits)


@dataclass
class _Walk:
    """One sample and the decision's steps applied to it so far."""
    engine: Engine[Any]
    sample: Any
    seat: int
    kind: str
    steps: list[str] = field(default_factory=list)
    done: bool = False
    now: Any = None             # the sample after the steps so far (set by `options`)

    def options(self) -> list[StepOption]:
        """The legal next steps (empty: the decision is complete, or a dead end)."""
        if self.done:
            return []
        self.now = self.sample
        if self.steps:
            draft = self.engine.draft(self.sample, self.seat, self.engine.submission(self.steps))
            if draft.error is not None:
                raise SearchError(f"step {self.steps[-1]!r} was listed as legal, then refused: "
                                  f"{draft.error}")
            if draft.done and self.engine.decision_kind(draft.state, self.seat) != self.kind:
                self.done = True
                return []
            self.now = draft.state
        return self.engine.legal_steps(self.now, self.seat)

    def take(self, option: StepOption) -> None:
        if option.ends:
            self.done = True
        else:
            self.steps.append(option.notation)

    def finish(self, plan: GamePlan, rng: Rng) -> bool:
        """Complete the decision: steps drawn by the plan's weights (`GamePlan.weight`, ending
        among them), or, if the plan says `end_at_once`, ending as soon as it may. False: a
        dead end.

        The submitted decision is completed the same way where the tree's knowledge stops,
        so a node's value is the value of what is finally played from it."""
        while not self.done:
            options = self.options()
            if self.done:
                return True
            if not options:
                return False
            ends = [o for o in options if o.ends]
            self.take(ends[0] if ends and plan.end_at_once else plan.draw(self.now, options, rng))
        return True

    def text(self) -> str:
        return self.engine.submission(self.steps)


def ismcts(engine: Engine[Any], state: Any, seat: int, budget: Budget, rng: Rng,
           plan: GamePlan | None = None) -> str:
    """The decision `seat` owes in `state`, as notation text, after `budget` iterations."""
    plan = plan or plan_for(engine)
    kind = engine.decision_kind(state, seat)
    if kind is None:
        raise SearchError(f"seat {seat} owes no decision now")
    root = Node()
    deadline = time.thread_time() + budget.seconds    # this thread's CPU: a safety net only
    for done in range(max(1, round(budget.playouts * plan.playouts))):
        if done and time.thread_time() > deadline:
            break
        _iterate(engine, state, seat, kind, root, plan, rng)
    return _best(engine, state, seat, kind, root, plan, rng)


def _iterate(engine: Engine[Any], state: Any, seat: int, kind: str, root: Node,
             plan: GamePlan, rng: Rng) -> None:
    walk = _Walk(engine, engine.determinize(state, seat, rng), seat, kind)
    path = [root]
    node = root
    expanded = False
    while not expanded:
        options = walk.options()
        if walk.done:
            break
        if not options:
            _backup(path, 0.0)          # a dead end of this sample: the worst outcome
            return
        for option in options:
            child = node.children.get(option.notation)
            if child is None:
                child = node.children[option.notation] = Node(ends=option.ends)
            child.available += 1
        width = engine.search_width
        if width is not None:
            options = _widened(node, options, width, plan, walk, rng)
        untried = [o for o in options if node.children[o.notation].visits == 0]
        if width is not None and untried:
            untried = untried[:1]       # the likeliest step not tried yet, as ranked
        if untried:
            option = untried[rng.below(len(untried))]
            expanded = True
        else:
            option = max(options, key=lambda o: node.children[o.notation].ucb())
        node = node.children[option.notation]
        path.append(node)
        walk.take(option)
    if not walk.finish(plan, rng):
        _backup(path, 0.0)
        return
    sample = walk.sample
    engine.apply_in_place(sample, engine.decide(sample, seat, walk.text()))
    plan.playout(sample, rng)
    _backup(path, plan.reward(sample, seat))


def _widened(node: Node, options: list[StepOption], width: float, plan: GamePlan, walk: _Walk,
             rng: Rng) -> list[StepOption]:
    """Progressive widening: of a node visited n times, only the first `width` * sqrt(n + 1)
    steps in the game's order of likelihood compete. A decision with hundreds of legal first
    steps (every token onto every hex) would otherwise spend the whole budget trying each
    once; this way the likeliest are searched deeper, and more come in as visits grow.
    Steps first met in this sample are ranked as they come (weights, ties at random)."""
    known = set(node.ranked)
    new = [o for o in options if o.notation not in known]
    if new:
        keyed = [(-plan.engine.step_weight(walk.now, o), rng.below(1 << 30), o.notation)
                 for o in new]
        node.ranked += [notation for *_, notation in sorted(keyed)]
    allowed = set(node.ranked[:max(1, math.ceil(width * math.sqrt(node.visits + 1)))])
    by_notation = {o.notation: o for o in options}
    return [by_notation[n] for n in node.ranked if n in allowed and n in by_notation] or options


def _backup(path: list[Node], reward: float) -> None:
    for node in path:
        node.visits += 1
        node.total += reward


def _best(engine: Engine[Any], state: Any, seat: int, kind: str, root: Node, plan: GamePlan,
          rng: Rng) -> str:
    """The most visited path while it is visited often enough to mean something
    (`CONFIDENT`), then completed as the iterations completed theirs (`_Walk.finish`),
    checked on a sample of its own. A random decision stands in if a sample refuses it
    (never expected)."""
    walk = _Walk(engine, engine.determinize(state, seat, rng), seat, kind)
    node = root
    while not walk.done:
        options = walk.options()
        if walk.done or not options:
            break
        known = [o for o in options if o.notation in node.children]
        option = max(known, key=lambda o: node.children[o.notation].visits, default=None)
        if option is None or node.children[option.notation].visits < CONFIDENT:
            break
        node = node.children[option.notation]
        walk.take(option)
    if walk.finish(plan, rng):
        try:
            engine.decide(walk.sample, seat, walk.text())
            return walk.text()
        except GameError:
            pass
    return engine.random_submission(engine.determinize(state, seat, rng), seat, rng)
