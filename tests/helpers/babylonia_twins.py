"""Babylonia states that differ from a given one only in what a seat may not know (its
"twins"; docs/games/babylonia-rulings.md, "Hidden information"): the other stands' tokens (same counts),
every supply's order, the other supplies' tokens (same sizes), the kinds of the other seats'
face-down river tokens, the cards the mover named for after a pause (when the seat is not the
mover), the seed; and events that differ only in what a seat may not read in the record.

Used by tests/babylonia/test_views.py and by the contract every game keeps (tests/contract).
The changes work in place on the state they are given.
"""

from __future__ import annotations

from pbem.games.babylonia.board import board
from pbem.games.babylonia.notation import Card, Play, Step, parse_steps
from pbem.games.babylonia.state import KIND_INDEX, KINDS, State, Token
from pbem.games.babylonia.turn import apply_step
from pbem.games.rng import Rng


def letters(stand) -> str:
    return "".join(k * n for k, n in zip(KINDS, stand))


def counts(text) -> list[int]:
    return [text.count(k) for k in KINDS]


def redeal(state, seat, rng) -> None:
    """The seat's stand and supply pooled, shuffled and dealt anew: the same sizes."""
    size = state.stand_size(seat)
    pool = rng.shuffled(letters(state.stands[seat]) + state.supplies[seat])
    state.stands[seat] = counts("".join(pool[:size]))
    state.supplies[seat] = "".join(pool[size:])


def swap_stand_and_supply(state, seat, rng) -> bool:
    """One token of the stand for one of another kind from the supply: the same sizes."""
    stand, supply = letters(state.stands[seat]), state.supplies[seat]
    pairs = [(a, j) for a in set(stand) for j, b in enumerate(supply) if a != b]
    if not pairs:
        return False
    kind, j = pairs[rng.below(len(pairs))]
    state.stands[seat][KIND_INDEX[kind]] -= 1
    state.stands[seat][KIND_INDEX[supply[j]]] += 1
    state.supplies[seat] = supply[:j] + kind + supply[j + 1:]
    return True


def shuffle_supply(state, seat, rng) -> None:
    state.supplies[seat] = "".join(rng.shuffled(state.supplies[seat]))


def turn_down_token(state, seat, rng) -> bool:
    """A face-down river token of the seat gets another kind, swapped with its stand or supply
    (so that 30 tokens stay 30); a draft's record of the play follows."""
    down = [h for h, t in state.tokens.items() if t.down and t.seat == seat]
    pool = letters(state.stands[seat]) + state.supplies[seat]
    choices = [(h, k) for h in down for k in set(pool) if k != state.tokens[h].kind]
    if not choices:
        return False
    hex, kind = choices[rng.below(len(choices))]
    old = state.tokens[hex].kind
    state.tokens[hex] = Token(seat, kind, down=True)
    if state.stands[seat][KIND_INDEX[kind]]:
        state.stands[seat][KIND_INDEX[kind]] -= 1
        state.stands[seat][KIND_INDEX[old]] += 1
    else:
        j = state.supplies[seat].index(kind)
        state.supplies[seat] = state.supplies[seat][:j] + old + state.supplies[seat][j + 1:]
    if state.turn is not None:
        state.turn.placed = [(kind if h == hex else k, h) for k, h in state.turn.placed]
    return True


def rename_cards(state, rng) -> bool:
    """The mover's cards named for after a pause: others of the same number."""
    turn = state.turn
    if turn is None or not turn.cards:
        return False
    others = [c for c in range(1, 10) if c not in turn.cards]
    turn.cards = [others[rng.below(len(others))]] + turn.cards[1:]
    return True


def hide_all(state, seat, rng) -> None:
    """Everything `seat` may not know, changed at once (None: a spectator)."""
    for other in range(state.players):
        if other != seat:
            turn_down_token(state, other, rng)
            redeal(state, other, rng)
        shuffle_supply(state, other, rng)
    if seat != state.to_move:
        rename_cards(state, rng)
    state.seed = rng.next_u64()


def twin(state: State, seat: int | None, rng: Rng) -> State:
    """A copy with everything `seat` may not know changed (None: a spectator)."""
    other = state.copy()
    hide_all(other, seat, rng)
    return other


def named_for_later(before: State, event: dict) -> list[int]:
    """The 1-based numbers of a turn's `card N` steps that the mover named for after a pause
    (`turn.cards`), found by playing the steps again on the state before the turn."""
    trial, named = before.copy(), []
    for number, (step, _) in enumerate(parse_steps(event["steps"]), 1):
        waiting = len(trial.turn.cards)
        apply_step(trial, event["seat"], step)
        if len(trial.turn.cards) > waiting:
            named.append(number)
    return named


def twin_event(before: State, event: dict, seat: int | None, rng: Rng) -> dict:
    """The event with what `seat` may not read of it changed: the kinds of another seat's
    river plays and the cards he named for after a pause."""
    if event["type"] != "turn" or seat == event["seat"]:
        return event
    named = named_for_later(before, event)
    steps: list[Step] = []
    for number, (step, _) in enumerate(parse_steps(event["steps"]), 1):
        if isinstance(step, Play) and board(4).is_river(step.hex):
            step = Play(KINDS[rng.below(len(KINDS))], step.hex)
        elif isinstance(step, Card) and number in named:
            step = Card(rng.choice([c for c in range(1, 10) if c != step.number]))
        steps.append(step)
    return {**event, "steps": "\n".join(map(str, steps))}
