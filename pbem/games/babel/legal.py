"""Every legal next atomic step of a position, for the turn page's buttons and for bots.

Computed directly from the rules' conditions (no trial application), so it is
fast; tests/engine/test_legal.py proves it equal to trying every syntactically
possible step on many random positions. Settling is listed card by card; a
longer `settle` is a sequence of these. `pass` is the spelling of `End` for an
empty draft and is not listed.

A page offers fewer: `offered_steps` leaves out the steps after which phase 2 could never
end (`can_finish`), which only a first turn has (its starting card unbuilt, every card
spent). The random and greedy players keep drawing from `legal_steps` and throw such a turn
away, so the random games, and every record made of them, stay as they were.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from .cards import TRIBES
from .rules import ACTION_RULES, TEMPLE_RULES, check_end, starting_card_unbuilt
from .state import ACTIONS, DRAW, Player, State
from .steps import (
    COLUMNS,
    MINE,
    THEIRS,
    Build,
    Choice,
    Destroy,
    Discard,
    Emigrate,
    End,
    Halve,
    Jump,
    Migrate,
    Move,
    Rob,
    Settle,
    Step,
    Switch,
)

MOVES = [Move(t) for t in TRIBES]
SETTLES = [Settle((t,)) for t in TRIBES]
EMIGRATES = [Emigrate(t) for t in TRIBES]
HALVES = {t: Halve(t) for t in TRIBES}
BUILDS = {c: Build(c) for c in COLUMNS}
JUMPS = {c: Jump(c) for c in COLUMNS}
MIGRATES = {(x, y): Migrate(x, y) for x in TRIBES for y in TRIBES if x != y}
END = End()
DESTROY, ROB, SWITCH = Destroy(), Rob(), Switch()
BUILD_MINE, BUILD_THEIRS = BUILDS[MINE], BUILDS[THEIRS]
JUMP_MINE, JUMP_THEIRS = JUMPS[MINE], JUMPS[THEIRS]

# Listed for every bot playout step, so the lists are looked up rather than built, by a set of
# tribes (bit i: TRIBES[i]): the tribes held, the rows a migration may leave (three cards or
# more), the runs of three in the figure's row.
_HELD = range(1 << len(TRIBES))
MOVES_HELD = [[MOVES[i] for i in range(5) if held >> i & 1] for held in _HELD]
SETTLES_HELD = [[SETTLES[i] for i in range(5) if held >> i & 1] for held in _HELD]
MIGRATES_FULL = [[MIGRATES[x, y] for i, x in enumerate(TRIBES) if full >> i & 1
                  for y in TRIBES if y != x] for full in _HELD]
HALVES_RUNS = [[HALVES[t] for i, t in enumerate(TRIBES) if runs >> i & 1] for runs in _HELD]


def legal_steps(state: State) -> list[Choice]:
    if state.result is not None:
        return []
    if state.phase == DRAW:
        due = state.discards_due(state.to_move)
        return list(discard_options(state.mover.hand, due)) if due else []
    player = state.players[state.to_move]
    out: list[Choice] = [] if player.first_turn and starting_card_unbuilt(player) else [END]
    hand = player.hand
    # Bits by conditional expressions: adding exact ints is about twice as fast as shifting bools.
    held = ((1 if hand[0] else 0) + (2 if hand[1] else 0) + (4 if hand[2] else 0)
            + (8 if hand[3] else 0) + (16 if hand[4] else 0))
    out += MOVES_HELD[held]
    figure = player.figure
    if figure is not None:
        out += SETTLES_HELD[held]
        row = player.rows[figure]
        if row:   # every site step needs cards in the row (often none: just moved)
            _site_steps(out, player, state.players[1 - state.to_move], figure, row)
    if not state.migrated:
        rows = player.rows   # the rows of three cards or more, as bits (`held` above)
        full = ((1 if len(rows["A"]) >= 3 else 0) + (2 if len(rows["H"]) >= 3 else 0)
                + (4 if len(rows["M"]) >= 3 else 0) + (8 if len(rows["P"]) >= 3 else 0)
                + (16 if len(rows["S"]) >= 3 else 0))
        if full:
            out += MIGRATES_FULL[full]
    return out


def _site_steps(out: list[Choice], player: Player, opponent: Player, figure: str, row: str) -> None:
    have = len(row)
    temple = player.temples[figure]
    top = temple[-1] if temple else 0
    # The levels on top of the columns (0: nothing to take; the opponent's starting card is
    # his until his first turn is over). A level is at least 1, so 0 never fits.
    mine = player.column[-1] if player.column else 0
    theirs = opponent.column[-1] if opponent.column and not opponent.first_turn else 0
    if mine == top + 1 and have >= mine:
        out.append(BUILD_MINE)
    if theirs == top + 1 and have >= theirs:
        out.append(BUILD_THEIRS)
    if have < 3:
        return
    # Each tribe's run of three tested once, as a flag (no list of runs: this is listed at
    # every playout step); the halvings come from a table by the runs, in the order of TRIBES.
    a, h, m, p, s = "AAA" in row, "HHH" in row, "MMM" in row, "PPP" in row, "SSS" in row
    if a:
        out.append(DESTROY)
    if h:
        robbed = opponent.temples[figure]
        if robbed and top < robbed[-1] <= have:
            out.append(ROB)
    if m:
        out += EMIGRATES
    if s:
        out.append(SWITCH)
    if p:
        if mine == top + 2 and have >= mine:
            out.append(JUMP_MINE)
        if theirs == top + 2 and have >= theirs:
            out.append(JUMP_THEIRS)
    out += HALVES_RUNS[a | h << 1 | m << 2 | p << 3 | s << 4]


def discard_options(hand: list[int], due: int) -> list[Discard]:
    """Every choice of `due` cards from the hand, as multisets in canonical order."""
    return [Discard(combo) for combo in combinations_with_replacement(TRIBES, due)
            if all(combo.count(t) <= hand[i] for i, t in enumerate(TRIBES))]


def can_finish(state: State) -> bool:
    """Whether phase 2 can still end from here, by some steps of the mover's.

    Only the first-turn duty ever stands in the way (BABEL-RULINGS.md, "First turn": the
    starting level-1 card must leave the column in the first turn), and in a first turn that
    card is the whole column (phase 3 has not yet drawn onto it) and no end check can end the
    game (no score comes near 15). So the one way to end is `build mine`: a level 1 onto an
    own empty site, with the figure there and a card in the own row there. Own temples never
    shrink in the own turn, so the site must be empty now. For each such site, the figure is
    there, or a `move` there spends a card of its tribe; then the row needs a card: there
    already, or one left in hand to settle, or, while migration is unused, 3 of another own
    row to migrate. Cards reach a row or the hand no other way (a switch needs a run of three
    in the row already; drawing is phase 1). tests/engine/test_dead_ends.py holds this against
    a search of every sequence of steps.
    """
    if state.result is not None or state.phase != ACTIONS:
        return True
    player = state.players[state.to_move]
    if not starting_card_unbuilt(player):
        return True
    hand, rows, cards = player.hand, player.rows, player.hand_size
    for i, site in enumerate(TRIBES):
        if player.temples[site]:
            continue
        here = player.figure == site
        if not here and not hand[i]:
            continue
        if rows[site] or cards - (0 if here else 1) > 0:
            return True
        if not state.migrated and any(len(rows[x]) >= 3 for x in TRIBES if x != site):
            return True
    return False


def offered_steps(state: State) -> list[Choice]:
    """`legal_steps` after which phase 2 can still end: what a page offers. Each step is
    tried on a copy only while the first-turn duty is unmet (else every step leaves the
    ending legal: nothing else may refuse it)."""
    options = legal_steps(state)
    if state.result is not None or state.phase != ACTIONS or not starting_card_unbuilt(
            state.players[state.to_move]):
        return options
    return [o for o in options if isinstance(o, End) or can_finish(after(state, o))]


def after(state: State, step: Step) -> State:
    """The state after a listed phase-2 step, on a copy."""
    trial = state.copy()
    rule = ACTION_RULES[type(step)]
    rule(trial, step)
    if rule in TEMPLE_RULES:
        check_end(trial)
    return trial
