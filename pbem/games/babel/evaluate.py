"""Babel judged from the rules, and the whole turns worth considering (the bots' `greedy`
level and the search's candidates: pbem/bots/turns.py).

`value(state, seat)` is the seat's lead in temple points, plus what builds the next ones
and what the other side threatens, a little each (BABEL-RULINGS.md):
- a temple is worth its top level; a point more counts most;
- a row counts toward its temple's next level (it must hold at least that many cards), and
  more when the next level lies on top of a column it may take from;
- a run of three in a row is a skill (destroy, rob, jump ...) and a halving;
- a run of the Assyrians or Hittites on the other side of a territory threatens the temple
  there (destroy, rob);
- cards in hand build later (beyond eight, a halving costs half of them);
- the end: 15 with the other below 10 wins at once, 20 in the end phase wins, below 10 in
  the end phase loses; a decided game is worth far more than any lead.

`turns(state, seat)` lists whole turns: a beam over the steps of phase 2, ranked by
`value` after each step, keeping the best distinct positions (grouped by where the figure
stands, so that a move, which costs a card now and builds later, survives to its build).
No turn it lists throws a card away: a move is never followed by another move nor ends the
turn, and the figure never moves to where it stands.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rng import Rng
from . import legal, randomplay, rules
from .cards import TRIBES
from .state import DRAW, Player, State
from .steps import Discard, End, Move

#: A won or lost game, in points of lead.
DECIDED = 100.0
#: Beam widths: nodes kept per place of the figure, and steps deep (a long turn: move,
#: five settles, build, migrate, a skill...).
PER_PLACE, DEPTH = 3, 12
#: The widest beam tried before the rules' own random player stands in.
WIDEST = 12
#: The search levels' beam (`wide_turns`): `greedy` with this beam instead of its own beat
#: `greedy` 0.71 over 60 games (docs/games/computer-strength.md): good turns fall out of the
#: narrow beam.
WIDE_PER_PLACE, WIDE_DEPTH = 8, 14
RUNS = tuple(t * 3 for t in TRIBES)
#: What a side's position promises beyond its points, in temple points (`_side`): a card in
#: a row toward its temple's next level, a row ready for it, the next level on top of a
#: column, a run of three, the other side's Assyrians and Hittites against a temple (per
#: level), a card in hand.
W_ROW, W_READY, W_BUILDABLE, W_RUN = 0.08, 0.15, 0.2, 0.25
W_DESTROY, W_ROB, W_HAND = 0.35, 0.25, 0.2


def _side(me: Player, other: Player) -> float:
    """What one side's position promises beyond its points."""
    mine = me.column[-1] if me.column else 0
    theirs = other.column[-1] if other.column and not other.first_turn else 0
    value = 0.0
    for t in TRIBES:
        row = me.rows[t]
        have = len(row)
        temple = me.temples[t]
        top = temple[-1] if temple else 0
        need = top + 1
        if have:
            value += W_ROW * (have if have < need else need)
            if have >= need:
                value += W_READY
                if mine == need or theirs == need:
                    value += W_BUILDABLE
            if have >= 3:
                for run in RUNS:
                    if run in row:
                        value += W_RUN
        # the other side's runs here threaten this temple
        if top:
            against = other.rows[t]
            if "AAA" in against:
                value -= W_DESTROY * top
            if "HHH" in against and len(against) >= top > other.temple_top(t):
                value -= W_ROB * top
    hand = me.hand_size
    value += W_HAND * (hand if hand <= 8 else 8 + (hand - 8) * 0.5)
    return value


def value(state: State, seat: int) -> float:
    """The seat's lead, in temple points and what promises more of them."""
    result = state.result
    if result is not None:
        if result.winner is None:
            return 0.0
        return DECIDED if result.winner == seat else -DECIDED
    me, other = state.players[seat], state.players[1 - seat]
    mine, theirs = me.score(), other.score()
    lead = float(mine - theirs)
    # the end conditions pull: 15 against below 10 wins, 20 wins in the end phase
    if mine >= 13 and theirs < 10:
        lead += 0.5 * (mine - 12)
    if theirs >= 13 and mine < 10:
        lead -= 0.5 * (theirs - 12)
    if state.end_phase:
        lead += 0.3 * (max(mine - 17, 0) - max(theirs - 17, 0))
    due = state.discards_due(seat) - state.discards_due(1 - seat)
    return lead + _side(me, other) - _side(other, me) - 0.2 * due


@dataclass
class Turn:
    """A whole decision: its steps as written, the position after them, its value."""
    steps: list[str]
    state: State
    value: float

    @property
    def text(self) -> str:
        return "\n".join(self.steps) or "pass"


def _key(state: State) -> tuple[object, ...]:
    me, other = state.players[state.to_move], state.players[1 - state.to_move]
    return (me.figure, tuple(me.hand), tuple(me.rows.values()), tuple(me.temples.values()),
            me.column, tuple(other.rows.values()), tuple(other.temples.values()), other.column,
            state.migrated, state.pending_discard, state.temple_supply, state.result)


def turns(state: State, seat: int, per_place: int = PER_PLACE, depth: int = DEPTH) -> list[Turn]:
    """The whole decisions of `seat` (the mover) worth considering, best first."""
    if state.phase == DRAW:
        return discards(state, seat)
    done: dict[tuple[object, ...], Turn] = {}
    frontier = [Turn([], state, value(state, seat))]
    last_moved = {id(state): False}
    seen: set[tuple[object, ...]] = {_key(state)}
    for _ in range(depth + 1):
        grown: dict[tuple[object, ...], tuple[Turn, bool]] = {}
        for node in frontier:
            moved = last_moved[id(node.state)]
            figure = node.state.players[seat].figure
            for step in legal.legal_steps(node.state):
                if isinstance(step, End):
                    if not moved:
                        _keep(done, node)
                    continue
                if isinstance(step, Move) and (moved or step.tribe == figure):
                    continue            # a card thrown away
                after = node.state.copy()
                rules.act(after, step)
                turn = Turn([*node.steps, str(step)], after, value(after, seat))
                if after.result is not None:
                    _keep(done, turn)   # the game ended in phase 2: nothing may follow
                    continue
                key = _key(after)
                if key in seen:
                    continue
                old = grown.get(key)
                if old is None or old[0].value < turn.value:
                    grown[key] = (turn, isinstance(step, Move))
        seen.update(grown)
        frontier = _beam(grown, seat, per_place)
        last_moved = {id(t.state): moved for t, moved in grown.values()}
        if not frontier:
            break
    ranked = sorted(done.values(), key=lambda t: -t.value)
    if ranked:
        return ranked
    if per_place < WIDEST:
        # a first turn must build its starting card: a narrow beam may lose the way there
        return turns(state, seat, per_place * 2 + 2, depth + 4)
    text = randomplay.random_decision(state, Rng(0))    # never expected: the rules' own player
    return [Turn(text.split("\n"), state.copy(), value(state, seat))]


def _keep(done: dict[tuple[object, ...], Turn], turn: Turn) -> None:
    key = _key(turn.state)
    old = done.get(key)
    if old is None or old.value < turn.value or (
            old.value == turn.value and len(turn.steps) < len(old.steps)):
        done[key] = turn


def _beam(grown: dict[tuple[object, ...], tuple[Turn, bool]], seat: int,
          per_place: int) -> list[Turn]:
    """The best few positions for each place of the figure (a move pays off later)."""
    by_place: dict[str | None, list[Turn]] = {}
    for turn, _ in grown.values():
        by_place.setdefault(turn.state.players[seat].figure, []).append(turn)
    kept: list[Turn] = []
    for group in by_place.values():
        group.sort(key=lambda t: -t.value)
        kept += group[:per_place]
    return kept


def discards(state: State, seat: int) -> list[Turn]:
    """The halving discards due, each choice judged by what is left."""
    out = []
    for option in legal.legal_steps(state):
        assert isinstance(option, Discard)
        after = state.copy()
        rules.act(after, option)
        out.append(Turn([str(option)], after, value(after, seat) + _hand_fit(after, seat)))
    return sorted(out, key=lambda t: -t.value)


def _hand_fit(state: State, seat: int) -> float:
    """Cards that build where the seat's rows wait are worth keeping; pairs toward a run too."""
    me = state.players[seat]
    fit = 0.0
    for i, t in enumerate(TRIBES):
        n = me.hand[i]
        if n and me.rows[t]:
            fit += 0.1 * min(n, 3)
        if n >= 2:
            fit += 0.05
    return fit



def wide_turns(state: State, seat: int) -> list[Turn]:
    """The search levels' candidates: the same beam, wider and deeper."""
    return turns(state, seat, WIDE_PER_PLACE, WIDE_DEPTH)


def reply(state: State, seat: int) -> str:
    """A quick greedy decision (the search's playouts): the best of a narrower beam."""
    return turns(state, seat, per_place=1, depth=8)[0].text


#: The lead that makes about 73% for the search (pbem/bots/models.py).
SCALE = 2.0
