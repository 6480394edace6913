"""The rules of Babel: each step, the end of the game, phase 3.

Every function here changes the state it is given, in place, or raises
`IllegalStep` with one sentence that says what is wrong and why, before it has
changed anything. Rule texts: ../shared/rules/ (German original wins);
rulings: docs/games/babel-rulings.md. Points the rulings leave open are
settled here, each marked "Decision:" and tested in tests/engine/test_decisions.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..errors import IllegalStep
from ..phrases import Phrase, phrase, phrase_n
from .cards import DRAW_TEMPLES, NAMES, TRIBE_INDEX, TRIBES
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


# -- the tribes' names in the places a sentence puts them ----------------------
# One phrase each, so every language says the whole piece in the case its sentence needs
# (German "am Ort der Hethiter", Czech "ve městě Chetitů"); the English is what it was.

#: "the Hittites territory": a territory named on its own.
TERRITORY = {
    "A": phrase("the Assyrians territory"), "H": phrase("the Hittites territory"),
    "M": phrase("the Medes territory"), "P": phrase("the Persians territory"),
    "S": phrase("the Sumerians territory"),
}
#: "in the Hittites territory": where something is.
IN_TERRITORY = {
    "A": phrase("in the Assyrians territory"), "H": phrase("in the Hittites territory"),
    "M": phrase("in the Medes territory"), "P": phrase("in the Persians territory"),
    "S": phrase("in the Sumerians territory"),
}
#: "of the Hittites territory": what a tribe is driven out of.
OUT_OF_TERRITORY = {
    "A": phrase("of the Assyrians territory"), "H": phrase("of the Hittites territory"),
    "M": phrase("of the Medes territory"), "P": phrase("of the Persians territory"),
    "S": phrase("of the Sumerians territory"),
}
#: "to the Hittites": where the figure or a migration goes.
TO_TRIBE = {
    "A": phrase("to the Assyrians"), "H": phrase("to the Hittites"), "M": phrase("to the Medes"),
    "P": phrase("to the Persians"), "S": phrase("to the Sumerians"),
}
#: "from the Hittites": where a migration comes from.
FROM_TRIBE = {
    "A": phrase("from the Assyrians"), "H": phrase("from the Hittites"),
    "M": phrase("from the Medes"), "P": phrase("from the Persians"),
    "S": phrase("from the Sumerians"),
}


def where(territory: str) -> Phrase:
    """"the Hittites territory"."""
    return TERRITORY[territory]


def in_where(territory: str) -> Phrase:
    """"in the Hittites territory"."""
    return IN_TERRITORY[territory]


def cards(n: int, tribe: str) -> Phrase:
    """"3 Hittites cards"."""
    match tribe:
        case "A":
            return phrase_n("{n} Assyrians card", "{n} Assyrians cards", n)
        case "H":
            return phrase_n("{n} Hittites card", "{n} Hittites cards", n)
        case "M":
            return phrase_n("{n} Medes card", "{n} Medes cards", n)
        case "P":
            return phrase_n("{n} Persians card", "{n} Persians cards", n)
    return phrase_n("{n} Sumerians card", "{n} Sumerians cards", n)


def tribe_cards(n: int) -> Phrase:
    return phrase_n("{n} tribe card", "{n} tribe cards", n)


def tribe_count(n: int, tribe: str) -> Phrase:
    """"2 Persians" (cards of one tribe settled or discarded: the English has no singular)."""
    match tribe:
        case "A":
            return phrase_n("{n} Assyrians", "{n} Assyrians", n)
        case "H":
            return phrase_n("{n} Hittites", "{n} Hittites", n)
        case "M":
            return phrase_n("{n} Medes", "{n} Medes", n)
        case "P":
            return phrase_n("{n} Persians", "{n} Persians", n)
    return phrase_n("{n} Sumerians", "{n} Sumerians", n)


def listed(items: Sequence[Phrase]) -> Phrase:
    """"a, b and c" in every language, each item a phrase of its own."""
    if len(items) == 1:
        return items[0]
    joined = items[0]
    for item in items[1:-1]:
        joined = phrase("{earlier}, {next}", earlier=joined, next=item)
    return phrase("{earlier} and {last}", earlier=joined, last=items[-1])


def commas(items: Sequence[Phrase]) -> Phrase:
    """"a, b, c": a list of counted cards."""
    joined = items[0]
    for item in items[1:]:
        joined = phrase("{earlier}, {next}", earlier=joined, next=item)
    return joined


def _no_figure(action: str, tribe: str | None) -> Phrase:
    """Why a step needs the figure on the board, for each step that does."""
    match action:
        case "settle":
            return phrase("your figure is still on the quarry; move to a territory before you settle.")
        case "build":
            return phrase("your figure is still on the quarry; move to a territory before you build.")
        case "destroy":
            return phrase("your figure is still on the quarry; move to a territory before you destroy.")
        case "rob":
            return phrase("your figure is still on the quarry; move to a territory before you rob.")
        case "emigrate":
            return phrase("your figure is still on the quarry; move to a territory before you emigrate.")
        case "switch":
            return phrase("your figure is still on the quarry; move to a territory before you switch.")
        case "jump":
            return phrase("your figure is still on the quarry; move to a territory before you jump.")
    return phrase("your figure is still on the quarry; move to a territory before you halve with "
                  "{tribe}.", tribe=NAMES[tribe or "A"])


def _no_run(action: str, tribe: str, figure: str, have: int) -> Phrase:
    """Why a skill needs a run of three of its tribe where the figure stands."""
    place = in_where(figure)
    match action:
        case "destroy":
            return phrase("destroy needs three Assyrians cards in a row {place}; you have {have} "
                          "in a row there.", place=place, have=have)
        case "rob":
            return phrase("rob needs three Hittites cards in a row {place}; you have {have} "
                          "in a row there.", place=place, have=have)
        case "emigrate":
            return phrase("emigrate needs three Medes cards in a row {place}; you have {have} "
                          "in a row there.", place=place, have=have)
        case "switch":
            return phrase("switch needs three Sumerians cards in a row {place}; you have {have} "
                          "in a row there.", place=place, have=have)
        case "jump":
            return phrase("jump needs three Persians cards in a row {place}; you have {have} "
                          "in a row there.", place=place, have=have)
    return phrase("halve with {tribe} needs three {tribe} cards in a row {place}; you have {have} "
                  "in a row there.", tribe=NAMES[tribe], place=place, have=have)


# -- pieces shared by several steps ----------------------------------------

def _figure(state: State, action: str, tribe: str | None = None) -> str:
    figure = state.mover.figure
    if figure is None:
        raise IllegalStep(_no_figure(action, tribe))
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
            if verb == "settle":
                raise IllegalStep(phrase("you hold {cards} but settle {wanted}.",
                                         cards=cards(held, t), wanted=wanted))
            raise IllegalStep(phrase("you hold {cards} but discard {wanted}.",
                                     cards=cards(held, t), wanted=wanted))
    for t in tribes:
        hand[TRIBE_INDEX[t]] -= 1


def _column_top(state: State, column: str) -> tuple[Player, int, str]:
    """The player whose column it is, its top level, and which column it is."""
    if column == MINE:
        owner = state.mover
    else:
        owner = state.opponent
        if owner.first_turn:
            raise IllegalStep(phrase("your opponent's column holds his starting card, reserved "
                                     "for him until he has played his first turn."))
    if not owner.column:
        raise IllegalStep(phrase("your column is empty.") if column == MINE
                          else phrase("your opponent's column is empty."))
    return owner, owner.column[-1], column


def _top_card_of(column: str) -> Phrase:
    """"the top card of your column" (the sentences below end with its level)."""
    return (phrase("the top card of your column") if column == MINE
            else phrase("the top card of your opponent's column"))


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
    figure = _figure(state, action, tribe)
    row = state.mover.rows[figure]
    at = row.rfind(tribe * 3)
    if at < 0:
        raise IllegalStep(_no_run(action, tribe, figure, longest_run(row, tribe)))
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
        raise IllegalStep(phrase("you hold no {tribe} card to move with.", tribe=NAMES[t]))
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
            raise IllegalStep(phrase(
                "your temple {place} is level {top}, so it takes level {next} next; {source} is "
                "level {level}.", place=in_where(figure), top=top, next=top + 1,
                source=_top_card_of(whose), level=level))
        raise IllegalStep(phrase("an empty site {place} takes level 1 first; {source} is level "
                                 "{level}.", place=in_where(figure), source=_top_card_of(whose),
                                 level=level))
    have = len(player.rows[figure])
    if have < level:
        raise IllegalStep(phrase("you need {cards} {place} to build level {level}; you have "
                                 "{have}.", cards=tribe_cards(level), place=in_where(figure),
                                 level=level, have=have))
    _raise(player, figure, owner, level)


def migrate(state: State, step: Migrate) -> None:
    if state.migrated:
        raise IllegalStep(phrase("you have already migrated this turn; migration is allowed once "
                                 "per turn."))
    source, target = step.source, step.target
    if source == target:
        raise IllegalStep(phrase("migration moves cards to another territory; both are "
                                 "{territory}.", territory=where(source)))
    rows = state.mover.rows
    row = rows[source]
    if len(row) < 3:
        raise IllegalStep(phrase("migration moves exactly 3 cards; you have {have} {place}.",
                                 have=len(row), place=in_where(source)))
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
        raise IllegalStep(phrase("your opponent has no temple {place} to rob.",
                                 place=in_where(figure)))
    level, mine = theirs[-1], player.temple_top(figure)
    if level <= mine:
        raise IllegalStep(phrase("you can rob only a level higher than your own temple {place} "
                                 "(level {mine}); their top card is level {level}.",
                                 place=in_where(figure), mine=mine, level=level))
    if len(row) < level:   # counted before the Hittite card is discarded
        raise IllegalStep(phrase("you need {cards} {place} to hold the robbed level {level}; you "
                                 "have {have}, the Hittites card you discard included.",
                                 cards=tribe_cards(level), place=in_where(figure), level=level,
                                 have=len(row)))
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
    as destroy without a temple is (docs/games/babel-rulings.md).
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
        raise IllegalStep(phrase("a jump on your temple {place} (level {top}) builds level "
                                 "{next}; {source} is level {level}.", place=in_where(figure),
                                 top=top, next=top + 2, source=_top_card_of(whose), level=level))
    if len(row) < level:   # counted before the Persian card is discarded
        raise IllegalStep(phrase("you need {cards} {place} to jump to level {level}; you have "
                                 "{have}, the Persians card you discard included.",
                                 cards=tribe_cards(level), place=in_where(figure), level=level,
                                 have=len(row)))
    _spend(state, figure, row, at)
    _raise(player, figure, owner, level)


def halve(state: State, step: Halve) -> None:
    """The opponent owes half his hand, rounded down; he discards at the start of his turn.

    Halvings add up on the hand as it will be: 7 cards owe 3, then 4 owe 2 more.
    Decision: halving a hand of one card or none is legal and owes nothing.
    """
    figure, row, at = _run(state, step.tribe, "halve")
    _spend(state, figure, row, at)
    seat = 1 - state.to_move
    due = state.discards_due(seat)
    more = (state.players[seat].hand_size - due) // 2
    if more:
        state.pending_discard = (seat, due + more)


def discard(state: State, step: Discard) -> None:
    due = state.discards_due(state.to_move) if state.phase == DRAW else 0
    if not due:
        raise IllegalStep(phrase("you owe no discards now; discards answer halvings at the start "
                                 "of your turn, before you draw."))
    if len(step.tribes) != due:
        raise IllegalStep(phrase_n("you owe {n} card from halvings; you discard {discarding}.",
                                   "you owe {n} cards from halvings; you discard {discarding}.",
                                   due, discarding=len(step.tribes)))
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
        raise IllegalStep(phrase("you have not drawn yet: first discard what you owe from "
                                 "halvings."))
    rule = ACTION_RULES.get(type(step))
    if rule is None:
        raise IllegalStep(phrase("discards answer halvings only at the start of your turn, "
                                 "before you draw; you have drawn already."))
    rule(state, step)
    if rule in TEMPLE_RULES:
        check_end(state)


#: The steps that change a temple, so the scores. The end checks follow every action
#: (docs/games/babel-rulings.md), but after any other step they would find the scores the last check
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
           "longest_run", "where", "in_where", "listed", "commas", "tribe_count", "TRIBES"]
