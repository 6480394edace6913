"""The project's own seeded randomness.

Every chance event of every game (deals, shuffles, reshuffles) comes from this
generator, never from `random`: Python may change `random.shuffle`'s algorithm,
and a stored game must replay to the same state on every Python version and
every later release of this project. The output is fixed by this file alone:
SplitMix64 (Steele, Lea, Flood 2014), unbiased bounded integers by rejection,
and a Fisher-Yates shuffle. Golden values in tests/engine/test_rng.py pin it.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _limit(n: int) -> int:
    """The multiples of n below 2**64: a draw at or above this is rejected (no modulo bias)."""
    if n <= 0:
        raise ValueError(f"below() needs a positive bound, not {n}")
    return (1 << 64) - ((1 << 64) % n)


_SMALL = 1024   # bounds of choices and shuffles, drawn in every playout step: computed once
_LIMITS = [0] + [_limit(n) for n in range(1, _SMALL)]


class Rng:
    """SplitMix64: a 64-bit state, one 64-bit output per step."""

    __slots__ = ("state",)

    def __init__(self, seed: int):
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an int, not {type(seed).__name__}")
        self.state = seed & _MASK

    @classmethod
    def derived(cls, seed: int, label: str) -> Rng:
        """An independent stream for another purpose (say, a random player) from the same seed."""
        digest = hashlib.sha256(f"{seed & _MASK}:{label}".encode()).digest()
        return cls(int.from_bytes(digest[:8], "big"))

    def next_u64(self) -> int:
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        limit = _LIMITS[n] if 0 < n < _SMALL else _limit(n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def choice(self, items: Sequence[T]) -> T:
        n = len(items)    # `below(n)` written out: a bot's playouts draw a choice at every step
        limit = _LIMITS[n] if 0 < n < _SMALL else _limit(n)
        while True:
            x = self.next_u64()
            if x < limit:
                return items[x % n]

    def weighted(self, items: Sequence[T], weights: Sequence[int]) -> T:
        """One item, each as likely as its (positive integer) weight: one draw below their sum."""
        r = self.below(sum(weights))
        for item, weight in zip(items, weights):
            if r < weight:
                return item
            r -= weight
        raise AssertionError("unreachable: r is below the sum of the weights")

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A new list: Fisher-Yates from the last position down."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


class SearchRng(Rng):
    """The search players' own draws (which step a playout takes, which hidden cards a sample
    deals): never a game's chance, which stays with `Rng` and its pinned stream. The same
    methods over Python's Mersenne Twister, seeded from the seed given, because a playout
    draws at every step, and SplitMix64 in Python's big integers cost a fifth of a playout;
    the twister's 64 bits come from C. Deterministic for a seed (a bot
    decides the same again), though no golden test pins this stream across releases: a bot's
    decision is kept as the event it made, never drawn again on replay."""

    __slots__ = ("_twister",)

    def __init__(self, seed: int):
        super().__init__(seed)
        self._twister = random.Random(self.state)

    def next_u64(self) -> int:
        return self._twister.getrandbits(64)
