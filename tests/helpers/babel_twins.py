"""Babel states that differ from a given one only in what a seat may not know (its "twins";
docs/games/babel-rulings.md, "Public and hidden information"): the other hand (same size), the order of
the tribe supply, the order of the unknown part of the temple supply, the seed.

Used by tests/engine/test_views.py and by the contract every game keeps (tests/contract).
Each change works in place on the state it is given.
"""

from __future__ import annotations

from pbem.games.babel.state import State, hand_counts
from pbem.games.rng import Rng


def swap_hand_with_supply(state: State, seat: int, rng: Rng) -> bool:
    """Swap one hand card of `seat` with a tribe supply card of another tribe; the size stays."""
    player = state.players[seat]
    hand = player.hand_letters()
    pairs = [(i, j) for i in range(len(hand)) for j in range(len(state.tribe_supply))
             if hand[i] != state.tribe_supply[j]]
    if not pairs:
        return False
    i, j = pairs[rng.below(len(pairs))]
    supply = list(state.tribe_supply)
    card, supply[j] = supply[j], hand[i]
    player.hand = hand_counts(hand[:i] + hand[i + 1:] + card)
    state.tribe_supply = "".join(supply)
    return True


def redeal_hand(state: State, seat: int, rng: Rng) -> None:
    """The seat's hand and the tribe supply pooled, shuffled and dealt anew: same hand size."""
    player = state.players[seat]
    pool = rng.shuffled(player.hand_letters() + state.tribe_supply)
    n = player.hand_size
    player.hand = hand_counts("".join(pool[:n]))
    state.tribe_supply = "".join(pool[n:])


def shuffle_tribe_supply(state: State, rng: Rng) -> None:
    state.tribe_supply = "".join(rng.shuffled(state.tribe_supply))


def unknown_temple_part(state: State) -> int:
    """How many cards at the bottom of the temple supply nobody knows."""
    return len(state.temple_supply) - state.temple_known


def shuffle_unknown_temples(state: State, rng: Rng) -> None:
    cut = unknown_temple_part(state)
    supply = state.temple_supply
    state.temple_supply = tuple(rng.shuffled(supply[:cut])) + supply[cut:]


def swap_unknown_temples(state: State, rng: Rng) -> bool:
    cut = unknown_temple_part(state)
    supply = list(state.temple_supply)
    pairs = [(i, j) for i in range(cut) for j in range(i + 1, cut) if supply[i] != supply[j]]
    if not pairs:
        return False
    i, j = pairs[rng.below(len(pairs))]
    supply[i], supply[j] = supply[j], supply[i]
    state.temple_supply = tuple(supply)
    return True


def hide_all(state: State, seat: int, rng: Rng) -> None:
    """Everything `seat` may not know, changed at once."""
    redeal_hand(state, 1 - seat, rng)
    shuffle_tribe_supply(state, rng)
    shuffle_unknown_temples(state, rng)
    state.seed = rng.next_u64()


def twin(state: State, seat: int | None, rng: Rng) -> State:
    """A copy with everything `seat` may not know changed (None: a spectator, who knows
    neither hand)."""
    other = state.copy()
    hide_all(other, 0 if seat is None else seat, rng)
    if seat is None:
        redeal_hand(other, 0, rng)
    return other
