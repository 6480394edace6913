"""What a seat cannot see, drawn anew (`Engine.determinize`): the search players' samples.

Hidden from a seat (`view.py`): the other stands, every supply's order (its own supply's
contents it can count), the kinds of the others' face-down river tokens, and the cards the
mover named for after a pause. Another seat's unseen tokens are one pool (its 30 tokens but
those face up on the board): the sample gives each of its face-down tokens a kind from it,
fills its stand to the size everyone sees, and stacks the rest as its supply. Pools are
sorted before they are shuffled, so the sample depends on what the seat sees and the
generator only.
"""

from __future__ import annotations

from ..rng import Rng
from .state import KIND_INDEX, KINDS, State, Token


def determinize(state: State, seat: int, rng: Rng) -> State:
    sample = state.copy()
    sample.free = None
    sample.supplies[seat] = "".join(rng.shuffled(sorted(state.supplies[seat])))
    for other in range(state.players):
        if other != seat:
            _deal_unseen(sample, other, rng)
    turn = sample.turn
    if turn is not None and state.to_move != seat:
        # The mover's river tokens this turn show no kind to others: they follow the tokens.
        turn.placed = [(sample.tokens[hex].kind, hex) for _, hex in turn.placed]
        if turn.cards:
            # Decision: how many cards he named is known from the rules (one per ziggurat of
            # his still to score, as far as cards are left); which ones is his secret.
            picks = rng.shuffled(sorted(sample.available))
            turn.cards = picks[:len(turn.cards)]
    return sample


def _deal_unseen(sample: State, other: int, rng: Rng) -> None:
    down = sorted(h for h, t in sample.tokens.items() if t.seat == other and t.down)
    stand = sample.stands[other]
    letters = [k for k, n in zip(KINDS, stand) for _ in range(n)]
    pool = rng.shuffled(sorted(letters + list(sample.supplies[other])
                               + [sample.tokens[h].kind for h in down]))
    for hex in down:
        sample.tokens[hex] = Token(other, pool.pop(), True)
    counts = [0] * len(KINDS)
    for _ in range(len(letters)):
        counts[KIND_INDEX[pool.pop()]] += 1
    sample.stands[other] = counts
    sample.supplies[other] = "".join(pool)
