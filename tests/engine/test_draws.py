"""The searches' random draws (engine.draws): each the generator's own method's, draw for
draw, on either engine; another kind of generator keeps its own."""

from __future__ import annotations

import random

import pytest

from engine import draws


class Halving(random.Random):
    """A generator of another kind: its own ``random``, so its own draws."""

    def random(self) -> float:
        return super().random() / 2


KINDS = [random.Random, Halving]


@pytest.mark.parametrize("kind", KINDS)
def test_randbelow_is_the_generators_randrange(kind: type[random.Random]) -> None:
    for seed in range(100):
        mine, its = kind(seed), kind(seed)
        for n in (1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 64, 65, 1000, 1 << 40):
            assert draws.randbelow(n, mine) == its.randrange(n), (seed, n)
        assert mine.getstate() == its.getstate()
    with pytest.raises(ValueError):
        draws.randbelow(0, random.Random(1))


@pytest.mark.parametrize("kind", KINDS)
def test_shuffle_is_the_generators_own(kind: type[random.Random]) -> None:
    for seed in range(200):
        for size in (0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 30, 31, 32, 33, 36, 40, 64, 65):
            ours, theirs = list(range(size)), list(range(size))
            mine, its = kind(seed), kind(seed)
            draws.shuffle(ours, mine)
            its.shuffle(theirs)
            assert ours == theirs, (seed, size)
            assert mine.getstate() == its.getstate()


def test_shuffle_takes_any_items() -> None:
    ways = [(0, 1), (1, 0), (2, 2), (3, 1)]
    theirs = ways[:]
    draws.shuffle(ways, random.Random(4))
    random.Random(4).shuffle(theirs)
    assert ways == theirs


@pytest.mark.parametrize("kind", KINDS)
def test_sample_is_the_generators_own(kind: type[random.Random]) -> None:
    # Both of random.Random.sample's ways: a pool for short lists or many draws, a set of
    # positions for few draws from a long list (past 21 cards, up to 5 draws); past 64
    # cards, random's own.
    for seed in range(60):
        for size in (0, 1, 2, 5, 8, 13, 20, 21, 22, 27, 33, 36, 40, 48, 63, 64, 65, 90):
            cards = list(range(3, 3 + size))
            for k in sorted({0, 1, 2, 5, 6, 9, size // 2, size}):
                if k > size:
                    continue
                mine, its = kind(seed), kind(seed)
                assert draws.sample(cards, k, mine) == its.sample(cards, k), (seed, size, k)
                assert mine.getstate() == its.getstate()
    with pytest.raises(ValueError):
        draws.sample([1, 2], 3, random.Random(1))
