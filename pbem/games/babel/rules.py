"""The rules of Babel: each step, the end of the game, phase 3.

Every function here changes the state it is given, in place, or raises
`IllegalStep` with one sentence that says what is wrong and why, before it has
changed anything. Rule texts: ../shared/rules/ (German original wins);
rulings: ../shared/design/BABEL-RULINGS.md. Points the rulings leave open are
settled here, each marked "Decision:" and tested in tests/engine/test_decisions.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..errors import IllegalStep
from .cards import DRAW_TEMPLES, NAMES, TRIBE_INDEX, TRIBES, plural
from .state import ACTIONS, DRAW, SUMERIANS_ALL, Player, Result, State
from .steps import (
    MINE,
    Build,
    Destroy,
    Discard,
    Emigrate,
    Halve,
    Jump,
    Migrate,
    Move,
    Pass,
    Rob,
    Settle,
    Step,
    Switch,
)

FIFTEEN, TEN, TWENTY = 15, 10, 20


def where(territory: str) -> str:
    return f"the {NAMES[territory]} territory"


def cards(n: int, tribe: str | None = None) -> str:
    return plural(n, f"{NAMES[tribe]} card" if tribe else "card")


def tribe_cards(n: int) -> str:
    return plural(n, "tribe card")


# -- pieces shared by several steps ----------------------------------------

def _figure(state: State, action: str) -> str:
    figure = state.mover.figure
    if figure is None:
        raise IllegalStep(f"your figure is still on the quarry; move to a territory before you {action}.")
    return figure


def _take_from_hand(player: Player, tribes: Sequence[str], verb: str) -> None:
    """Check that the hand holds these cards, then remove them."""
    hand = player.hand
    if len(tribes) == 1 and hand[TRIBE_INDEX[tribes[0]]]:   # one card, held: most steps
        hand[TRIBE_INDEX[tribes[0]]] -= 1
        return
    for t in dict.fromkeys(tribes):   # in the order written, so the message is always the same
        wanted, held = tribes.count(t), hand[TRIBE_INDEX[t]]
        if wanted > held:
            raise IllegalStep(f"you hold {cards(held, t)} but {verb} {wanted}.")
    for t in tribes:
        hand[TRIBE_INDEX[t]] -= 1


def _column_top(state: State, column: str) -> tuple[Player, int, str]:
    """The player whose column it is, its top level, and how to name it."""
    if column == MINE:
        owner, whose = state.mover, "your column"
    else:
        owner, whose = state.opponent, "your opponent's column"
        if owner.first_turn:
            raise IllegalStep("your opponent's column holds his starting card, reserved for him "
                              "until he has played his first turn.")
    if not owner.column:
        raise IllegalStep(f"{whose} is empty.")
    return owner, owner.column[-1], whose


def longest_run(row: str, tribe: str) -> int:
    best = run = 0
    for card in row:
        run = run + 1 if card == tribe else 0
        best = max(best, run)
    return best


def _run(state: State, tribe: str, action: str) -> tuple[str, str, int]:
    """The figure's territory, the own row there, and where its top run of three `tribe` starts.

    Decision: with two runs of three or more of the same tribe in one row, the
    card is discarded from the topmost run (the most recently settled).
    """
    figure = _figure(state, action)
    row = state.mover.rows[figure]
    at = row.rfind(tribe * 3)
    if at < 0:
        have = longest_run(row, tribe)
        raise IllegalStep(f"{action} needs three {NAMES[tribe]} cards in a row in {where(figure)}; "
                          f"you have {have} in a row there.")
    return figure, row, at


def _spend(state: State, figure: str, row: str, at: int) -> None:
    """Using a skill discards one card of its run."""
    state.mover.rows[figure] = row[:at] + row[at + 1:]
    state.discard += row[at]


def _raise(player: Player, territory: str, owner: Player, level: int) -> None:
    player.temples[territory] += (level,)
    owner.column = owner.column[:-1]


# -- the steps of phase 2 ---------------------------------------------------

def move(state: State, step: Move) -> None:
    # Not `state.mover` in the steps a playout takes most: a property call costs a frame.
    player, t = state.players[state.to_move], step.tribe
    if not player.hand[TRIBE_INDEX[t]]:
        raise IllegalStep(f"you hold no {NAMES[t]} card to move with.")
    player.hand[TRIBE_INDEX[t]] -= 1
    state.discard += t
    player.figure = t


def settle(state: State, step: Settle) -> None:
    figure = _figure(state, "settle")
    player = state.mover
    _take_from_hand(player, step.tribes, "settle")
    player.rows[figure] += "".join(step.tribes)


def build(state: State, step: Build) -> None:
    figure = _figure(state, "build")
    player = state.mover
    owner, level, whose = _column_top(state, step.column)
    top = player.temple_top(figure)
    if level != top + 1:
        if top:
            raise IllegalStep(f"your temple in {where(figure)} is level {top}, so it takes level "
                              f"{top + 1} next; the top card of {whose} is level {level}.")
        raise IllegalStep(f"an empty site in {where(figure)} takes level 1 first; the top card of "
                          f"{whose} is level {level}.")
    have = len(player.rows[figure])
    if have < level:
        raise IllegalStep(f"you need {tribe_cards(level)} in {where(figure)} to build level {level}; "
                          f"you have {have}.")
    _raise(player, figure, owner, level)


def migrate(state: State, step: Migrate) -> None:
    if state.migrated:
        raise IllegalStep("you have already migrated this turn; migration is allowed once per turn.")
    source, target = step.source, step.target
    if source == target:
        raise IllegalStep(f"migration moves cards to another territory; both are {where(source)}.")
    rows = state.mover.rows
    row = rows[source]
    if len(row) < 3:
        raise IllegalStep(f"migration moves exactly 3 cards; you have {len(row)} in {where(source)}.")
    rows[source] = row[:-3]
    rows[target] += row[-3:]
    state.migrated = True


def destroy(state: State, step: Destroy) -> None:
    figure, row, at = _run(state, "A", "destroy")
    _spend(state, figure, row, at)
    opponent = state.opponent
    temple = opponent.temples[figure]
    if temple:
        # Top card first onto the supply: the highest lands first, the lowest ends on top.
        state.temple_supply += temple[::-1]
        state.temple_known += len(temple)
        opponent.temples[figure] = ()


def rob(state: State, step: Rob) -> None:
    """The opponent's top temple card here goes onto the own temple here.

    Decision: with no opposing temple here there is nothing to rob, so the skill
    is illegal (unlike destroy, which the rulings allow on an empty site): the
    stolen level must be higher than the own top card, and there is no level.
    """
    figure, row, at = _run(state, "H", "rob")
    player, opponent = state.mover, state.opponent
    theirs = opponent.temples[figure]
    if not theirs:
        raise IllegalStep(f"your opponent has no temple in {where(figure)} to rob.")
    level, mine = theirs[-1], player.temple_top(figure)
    if level <= mine:
        raise IllegalStep(f"you can rob only a level higher than your own temple in {where(figure)} "
                          f"(level {mine}); their top card is level {level}.")
    if len(row) < level:   # counted before the Hittite card is discarded
        raise IllegalStep(f"you need {tribe_cards(level)} in {where(figure)} to hold the robbed level "
                          f"{level}; you have {len(row)}, the Hittites card you discard included.")
    _spend(state, figure, row, at)
    opponent.temples[figure] = theirs[:-1]
    player.temples[figure] += (level,)


def emigrate(state: State, step: Emigrate) -> None:
    figure, row, at = _run(state, "M", "emigrate")
    _spend(state, figure, row, at)
    opponent, t = state.opponent, step.tribe
    theirs = opponent.rows[figure]
    gone = theirs.count(t)
    if gone:
        opponent.rows[figure] = theirs.replace(t, "")
        state.discard += t * gone


def switch(state: State, step: Switch) -> None:
    """The opponent's top card here and the unbroken run of equal cards beneath it change sides.

    Decision: with an empty opposing row the skill takes nothing but is legal,
    as destroy without a temple is (BABEL-RULINGS.md).
    """
    figure, row, at = _run(state, "S", "switch")
    _spend(state, figure, row, at)
    opponent = state.opponent
    theirs = opponent.rows[figure]
    if not theirs:
        return
    top = theirs[-1]
    if state.sumerians == SUMERIANS_ALL:
        taken, kept = top * theirs.count(top), theirs.replace(top, "")
    else:
        kept = theirs.rstrip(top)
        taken = theirs[len(kept):]
    opponent.rows[figure] = kept
    state.mover.rows[figure] += taken


def jump(state: State, step: Jump) -> None:
    figure, row, at = _run(state, "P", "jump")
    player = state.mover
    owner, level, whose = _column_top(state, step.column)
    top = player.temple_top(figure)
    if level != top + 2:
        raise IllegalStep(f"a jump on your temple in {where(figure)} (level {top}) builds level "
                          f"{top + 2}; the top card of {whose} is level {level}.")
    if len(row) < level:   # counted before the Persian card is discarded
        raise IllegalStep(f"you need {tribe_cards(level)} in {where(figure)} to jump to level {level}; "
                          f"you have {len(row)}, the Persians card you discard included.")
    _spend(state, figure, row, at)
    _raise(player, figure, owner, level)


def halve(state: State, step: Halve) -> None:
    """The opponent owes half his hand, rounded down; he discards at the start of his turn.

    Halvings add up on the hand as it will be: 7 cards owe 3, then 4 owe 2 more.
    Decision: halving a hand of one card or none is legal and owes nothing.
    """
    figure, row, at = _run(state, step.tribe, f"halve with {NAMES[step.tribe]}")
    _spend(state, figure, row, at)
    seat = 1 - state.to_move
    due = state.discards_due(seat)
    more = (state.players[seat].hand_size - due) // 2
    if more:
        state.pending_discard = (seat, due + more)


def discard(state: State, step: Discard) -> None:
    due = state.discards_due(state.to_move) if state.phase == DRAW else 0
    if not due:
        raise IllegalStep("you owe no discards now; discards answer halvings at the start of "
                          "your turn, before you draw.")
    if len(step.tribes) != due:
        raise IllegalStep(f"you owe {cards(due)} from halvings; you discard {len(step.tribes)}.")
    _take_from_hand(state.mover, step.tribes, "discard")
    state.discard += "".join(step.tribes)
    state.pending_discard = None


def pass_(state: State, step: Pass) -> None:
    pass


#: Each phase-2 step's rule (it takes that step's class: hence Any for the step).
ACTION_RULES: dict[type[Step], Callable[[State, Any], None]] = {
    Move: move, Settle: settle, Build: build, Migrate: migrate, Destroy: destroy, Rob: rob,
    Emigrate: emigrate, Switch: switch, Jump: jump, Halve: halve, Pass: pass_,
}


def act(state: State, step: Step) -> None:
    """One step of phase 2, then the end checks."""
    if state.phase != ACTIONS:
        if isinstance(step, Discard):
            return discard(state, step)
        raise IllegalStep("you have not drawn yet: first discard what you owe from halvings.")
    rule = ACTION_RULES.get(type(step))
    if rule is None:
        raise IllegalStep("discards answer halvings only at the start of your turn, before you "
                          "draw; you have drawn already.")
    rule(state, step)
    if rule in TEMPLE_RULES:
        check_end(state)


#: The steps that change a temple, so the scores. The end checks follow every action
#: (BABEL-RULINGS.md), but after any other step they would find the scores the last check
#: found (after the step that last changed them, or after phase 3) and decide nothing new.
TEMPLE_RULES = frozenset({build, destroy, rob, jump})


# -- the end of the game ----------------------------------------------------

def check_end(state: State, after_phase3: bool = False) -> None:
    """The end checks of the rulings, in their order; sets `state.result`."""
    scores = state.scores()
    seats = (state.to_move, 1 - state.to_move)
    if not state.end_phase:
        for seat in seats:
            if scores[seat] >= FIFTEEN:
                if scores[1 - seat] < TEN:
                    state.result = Result(seat, "fifteen-ten")
                    return
                state.end_phase = True
    if state.end_phase:
        for seat in seats:
            if scores[seat] >= TWENTY:
                state.result = Result(seat, "twenty")
                return
        for seat in seats:
            if scores[seat] < TEN:
                state.result = Result(1 - seat, "below-ten")
                return
    if after_phase3 and not state.temple_supply:
        state.result = Result(_supply_empty_winner(state, scores), "supply-empty")


def _supply_empty_winner(state: State, scores: list[int]) -> int | None:
    if scores[0] != scores[1]:
        return 0 if scores[0] > scores[1] else 1
    hands = [p.hand_size - state.discards_due(seat) for seat, p in enumerate(state.players)]
    if hands[0] != hands[1]:
        return 0 if hands[0] > hands[1] else 1
    return None


def starting_card_unbuilt(player: Player) -> bool:
    """First-turn duty: the starting level-1 card must leave the column in the first turn."""
    return player.first_turn and bool(player.column) and player.column[0] == 1


def draw_temples(state: State) -> tuple[int, ...]:
    """Phase 3: two temple cards onto the own column, the higher first (the lower ends on top)."""
    supply = state.temple_supply
    drawn = supply[-DRAW_TEMPLES:]
    state.temple_supply = supply[:len(supply) - len(drawn)]
    state.temple_known = max(0, state.temple_known - len(drawn))
    state.players[state.to_move].column += tuple(sorted(drawn, reverse=True))
    return drawn


def finish_turn(state: State) -> tuple[int, ...]:
    """Phase 3, the end checks after it, and the turn passes (the next draw is not made)."""
    drawn = draw_temples(state)
    check_end(state, after_phase3=True)
    pass_turn(state)
    return drawn


def pass_turn(state: State) -> None:
    """The turn is over: the other player is to move, before his draw."""
    state.players[state.to_move].first_turn = False
    state.migrated = False
    state.to_move = 1 - state.to_move
    state.phase = DRAW


def end(state: State, loser: int | None, reason: str) -> None:
    """The game ends off the board: `loser` resigned or ran out of time, and the other wins;
    with no loser (an abort) nobody does."""
    state.result = Result(None if loser is None else 1 - loser, reason)


__all__ = ["act", "check_end", "finish_turn", "draw_temples", "end", "starting_card_unbuilt",
           "longest_run", "where", "TRIBES"]
