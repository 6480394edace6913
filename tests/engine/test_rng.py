"""The project's seeded generator, pinned (docs/games/babel-rulings.md, "Randomness").

Every stored game replays through `pbem.games.rng.Rng`: if any value below
changes, every stored game of every server changes with it. Do not "update"
these numbers to make a test pass; a change here is a breaking change.
"""

from collections import Counter

import pytest

from pbem.games.rng import Rng


def outputs(seed, n):
    rng = Rng(seed)
    return [rng.next_u64() for _ in range(n)]


# -- next_u64: SplitMix64 -------------------------------------------------------

def test_seed_0_matches_the_published_splitmix64_reference():
    # Vigna's splitmix64.c with x = 0: the first outputs quoted everywhere.
    assert outputs(0, 3) == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_seed_1234567_matches_the_published_splitmix64_reference():
    assert outputs(1234567, 5) == [
        6457827717110365317, 3203168211198807973, 9817491932198370423,
        4593380528125082431, 16408922859458223821,
    ]


def test_golden_outputs_of_more_seeds():
    assert outputs(42, 3) == [13679457532755275413, 2949826092126892291, 5139283748462763858]
    assert outputs(2**64 - 1, 2) == [16490336266968443936, 16834447057089888969]


def test_seeds_are_taken_modulo_2_to_the_64():
    assert outputs(-1, 4) == outputs(2**64 - 1, 4)
    assert outputs(2**64, 4) == outputs(0, 4)
    assert outputs(2**64 + 42, 4) == outputs(42, 4)


@pytest.mark.parametrize("seed", [True, 1.0, "1", None])
def test_a_seed_must_be_an_int(seed):
    with pytest.raises(TypeError):
        Rng(seed)


def test_outputs_are_64_bit():
    rng = Rng(5)
    assert all(0 <= rng.next_u64() < 2**64 for _ in range(1000))


# -- below ------------------------------------------------------------------------

def test_golden_below():
    rng = Rng(7)
    assert [rng.below(10) for _ in range(12)] == [7, 4, 6, 3, 4, 5, 8, 2, 5, 5, 3, 6]
    rng = Rng(7)
    assert [rng.below(1000003) for _ in range(5)] == [291423, 625217, 913369, 465503, 301666]
    # A bound just above 2**63 rejects almost half the outputs: the rejection path is pinned too.
    assert Rng(7).below(2**63 + 1) == 7191089600892374487


def test_choice_is_below_over_the_sequence():
    assert Rng(99).choice("AHMPS") == "P"
    assert Rng(99).choice("AHMPS") == "AHMPS"[Rng(99).below(5)]


@pytest.mark.parametrize("n", [1, 2, 3, 5, 7, 10, 100, 2**32 + 1, 2**63 + 1, 2**64 - 1])
def test_below_stays_within_its_bound(n):
    rng = Rng(n)
    assert all(0 <= rng.below(n) < n for _ in range(500))


@pytest.mark.parametrize("n", [0, -1])
def test_below_needs_a_positive_bound(n):
    with pytest.raises(ValueError):
        Rng(1).below(n)


def chi_square(counts: Counter, cells: int, total: int) -> float:
    expected = total / cells
    return sum((counts.get(i, 0) - expected) ** 2 / expected for i in range(cells))


@pytest.mark.parametrize("n, seed", [(2, 11), (6, 12), (10, 13), (37, 14)])
def test_below_is_roughly_uniform(n, seed):
    rng = Rng(seed)
    total = 400 * n
    counts = Counter(rng.below(n) for _ in range(total))
    assert set(counts) == set(range(n))
    # The 99.9% point of chi-square with n - 1 degrees of freedom is below 3n + 11 for these n.
    assert chi_square(counts, n, total) < 3 * n + 11


def test_below_with_a_bound_above_2_to_the_63_is_roughly_uniform_in_halves():
    n = 2**63 + 12345
    rng = Rng(3)
    counts = Counter(rng.below(n) * 2 // n for _ in range(4000))
    assert chi_square(counts, 2, 4000) < 10.83   # 99.9% point, 1 degree of freedom


# -- shuffled ------------------------------------------------------------------------

def test_golden_shuffles():
    assert Rng(2024).shuffled("ABCDEFGHIJ") == ["J", "A", "G", "D", "E", "C", "F", "H", "I", "B"]
    assert Rng(2024).shuffled(list(range(8))) == [4, 7, 1, 2, 6, 3, 0, 5]


def test_shuffled_returns_a_new_list_and_keeps_the_multiset():
    items = list("AAAHHMPPSSSS") + [1, 2, 2, 3]
    for seed in range(200):
        out = Rng(seed).shuffled(items)
        assert out is not items
        assert Counter(map(str, out)) == Counter(map(str, items))
    assert items == list("AAAHHMPPSSSS") + [1, 2, 2, 3]


def test_shuffled_of_short_sequences():
    assert Rng(1).shuffled([]) == []
    assert Rng(1).shuffled("A") == ["A"]
    # Nothing is drawn for zero or one item: the stream is left where it was.
    rng = Rng(1)
    rng.shuffled("A")
    assert rng.next_u64() == outputs(1, 1)[0]


def test_shuffles_of_three_are_roughly_uniform():
    rng = Rng(77)
    total = 6000
    counts = Counter("".join(rng.shuffled("abc")) for _ in range(total))
    assert len(counts) == 6
    cells = {p: i for i, p in enumerate(sorted(counts))}
    assert chi_square(Counter({cells[p]: c for p, c in counts.items()}), 6, total) < 20.52


def test_shuffled_is_fisher_yates_from_the_last_position_down():
    items = list(range(10))
    expected = items[:]
    rng = Rng(31337)
    for i in range(len(expected) - 1, 0, -1):
        j = rng.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert Rng(31337).shuffled(items) == expected


# -- derived -------------------------------------------------------------------------------

def test_golden_derived_streams():
    derived = Rng.derived(5, "random-player")
    assert derived.state == 638493293196510387
    assert derived.next_u64() == 5706375069342480532
    assert Rng.derived(5, "x").state == 5264356733623464590


def test_derived_streams_are_fixed_by_seed_and_label():
    assert Rng.derived(5, "a").state == Rng.derived(5, "a").state
    assert Rng.derived(5, "a").state != Rng.derived(5, "b").state
    assert Rng.derived(5, "a").state != Rng.derived(6, "a").state
    assert Rng.derived(-1, "a").state == Rng.derived(2**64 - 1, "a").state
    # A derived stream is not the seed's own stream.
    assert Rng.derived(5, "random-player").state != 5


def test_weighted_draws_once_below_the_sum_and_walks_the_weights():
    """`weighted` is one `below(sum)`: item i is chosen when the draw falls in its share."""
    items, weights = ["a", "b", "c"], [1, 3, 2]
    for seed in range(50):
        r = Rng(seed).below(6)
        expected = "a" if r < 1 else "b" if r < 4 else "c"
        assert Rng(seed).weighted(items, weights) == expected


def test_weighted_never_draws_a_weight_of_zero():
    rng = Rng(7)
    assert {rng.weighted(["never", "always"], [0, 5]) for _ in range(200)} == {"always"}
