"""What a seat cannot see, drawn anew (`Engine.determinize`): the search players' samples.

Hidden from a seat (docs/games/babel-rulings.md, "Public and hidden information"): the other hand, the
order of the tribe supply, the temple supply below the cards whose identity became public,
and the seed of later reshuffles. The other hand and the tribe supply are one pool of unseen
cards; the sample deals the hand's size from it and stacks the rest. Pools are sorted before
they are shuffled, so the sample depends on what the seat sees and the generator only.
"""

from __future__ import annotations

from ..rng import Rng
from .state import State, hand_counts


def determinize(state: State, seat: int, rng: Rng) -> State:
    sample = state.copy()
    other = sample.players[1 - seat]
    unseen = rng.shuffled(sorted(other.hand_letters() + state.tribe_supply))
    size = other.hand_size
    other.hand = hand_counts("".join(unseen[:size]))
    sample.tribe_supply = "".join(unseen[size:])
    supply, known = state.temple_supply, state.temple_known
    hidden = len(supply) - known
    sample.temple_supply = tuple(rng.shuffled(sorted(supply[:hidden]))) + supply[hidden:]
    sample.seed = rng.next_u64()
    return sample
