"""Players for filling a benchmark database with legal Babel games, without a server.

`random_game` plays uniformly random legal steps for a random number of
decisions (so some games are over, most are running). `feud_game` plays the
"Assyrian feud": both players build in the Assyrians territory and destroy
each other's temple there, which puts temple cards back on the supply, so a
legal game can go on for any number of turns (the benchmark's long games).
"""

from __future__ import annotations

from pbem.games.babel.legal import legal_steps
from pbem.games.babel.notation import format_steps
from pbem.games.babel.rules import act, finish_turn
from pbem.games.babel.state import DRAW, deal
from pbem.games.babel.steps import Build, Discard, End, Move, Pass, Settle
from pbem.games.babel.turn import begin_turn
from pbem.games.rng import Rng


def _uniform(state, options, rng):
    return rng.choice(options)


def _feud(state, options, rng):
    player, opponent = state.mover, state.opponent
    if isinstance(options[0], Discard):
        return rng.choice(options)
    named = {str(s): s for s in options}
    end = next((s for s in options if isinstance(s, End)), None)
    if player.figure == "A":
        if "destroy" in named and opponent.temples["A"]:
            return named["destroy"]
        for wanted in ("build mine", "build theirs", "settle A"):
            if wanted in named:
                return named[wanted]
        return end or rng.choice(options)
    if "move A" in named and (player.figure is None or not player.first_turn):
        return named["move A"]
    for kind in (Build, Settle, Move):   # a first turn away from the Assyrians: build the starting card
        for step in options:
            if isinstance(step, kind) and (kind is not Settle or not player.rows[player.figure]):
                return step
    return end or rng.choice(options)


def play(seed: int, decisions: int, policy=_uniform) -> tuple[int, list[dict], object]:
    """(first seat, events, final state) of a game of at most `decisions` decisions."""
    rng = Rng.derived(seed, "bench-player")
    state = deal(seed, None)
    first = state.to_move
    begin_turn(state)
    events, steps, start = [], [], state.copy()
    while state.result is None and len(events) < decisions:
        options = legal_steps(state)
        if not options:                      # a first-turn dead end: play that turn again
            state, steps = start.copy(), []
            continue
        step = policy(state, options, rng)
        seat = state.to_move
        if isinstance(step, Discard):
            act(state, step)
            begin_turn(state)
            events.append({"v": 1, "type": "discard", "seat": seat, "cards": "".join(step.tribes)})
        elif isinstance(step, End) or step is None:
            events.append({"v": 1, "type": "turn", "seat": seat, "steps": format_steps(steps or [Pass()])})
            steps = []
            finish_turn(state)
            begin_turn(state)
        else:
            act(state, step)
            steps.append(step)
            if state.result is not None:
                events.append({"v": 1, "type": "turn", "seat": seat, "steps": format_steps(steps)})
        if state.phase == DRAW or not steps:
            start = state.copy()
    return first, events, state


def random_game(seed: int, decisions: int):
    return play(seed, decisions, _uniform)


def feud_game(seed: int, decisions: int):
    return play(seed, decisions, _feud)
