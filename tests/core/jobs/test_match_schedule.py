"""The order a match's games are played in (`MatchSpec.first_games`, `next_game`) and which
of them are rated: an account never plays two rotations of one deal at once, and only the
first it plays of each deal moves its rating."""

from __future__ import annotations

import random

import pytest

from ai.arena import tasks_for
from core.jobs.matches import AT_TABLES_AT_ONCE, MatchRefused, MatchSpec, at_tables, check_match

ACCOUNT = "account:abcDEF123"


def _played(spec: MatchSpec) -> list[list[int]]:
    """Each chain of games, as they follow one another from the games queued first."""
    chains = []
    for first in spec.first_games():
        chain = [first]
        while (following := spec.next_game(chain[-1])) is not None:
            chain.append(following)
        chains.append(chain)
    return chains


def test_levels_alone_play_every_game_at_once() -> None:
    spec = check_match(["hard", "easy", "medium"], 6, {}, 1, True)
    assert spec.first_games() == list(range(6))
    assert all(spec.next_game(i) is None for i in range(6))


def test_an_account_plays_a_deals_rotations_one_after_another() -> None:
    spec = check_match([ACCOUNT, "hard", "hard"], 9, {}, None, True, rated=True)
    assert spec.rotations == 3 and spec.one_rotation_at_a_time
    chains = _played(spec)
    # Every game once; each chain one deal, begun at rotation (deal mod 3).
    assert sorted(i for chain in chains for i in chain) == list(range(9))
    assert chains == [[0, 1, 2], [4, 5, 3], [8, 6, 7]]
    # Only each deal's first play is rated: its seat goes round with the deals.
    assert [i for i in range(9) if spec.is_rated_game(i)] == [0, 4, 8]
    assert spec.deal_ended(5, {3, 4, 5}) and not spec.deal_ended(5, {4, 5})


def test_without_duplicate_deals_every_game_is_rated() -> None:
    spec = check_match([ACCOUNT, "hard", "hard"], 4, {}, None, False, rated=True)
    assert spec.first_games() == [0, 1, 2, 3]
    assert all(spec.is_rated_game(i) for i in range(4))
    assert not check_match([ACCOUNT, "hard", "hard"], 4, {}, 1, False).is_rated_game(0)


def test_at_tables_a_few_deals_at_a_time_and_never_two_games_of_one_deal() -> None:
    spec = at_tables(check_match([ACCOUNT, "easy", "medium"], 3 * 7, {}, 1, True))
    chains = _played(spec)
    assert len(chains) == AT_TABLES_AT_ONCE
    assert sorted(i for chain in chains for i in chain) == list(range(21))
    deals_in_play = [{i // 3 for i in chain} for chain in chains]
    # A deal belongs to one chain: its games are played one after another.
    assert sum(len(d) for d in deals_in_play) == 7
    alone = at_tables(check_match([ACCOUNT, "easy", "easy"], 6, {}, 1, False))
    assert _played(alone) == [[0, 4], [1, 5], [2], [3]]


def test_a_rated_matchs_seed_is_never_chosen() -> None:
    with pytest.raises(MatchRefused) as refused:
        check_match([ACCOUNT, "hard", "hard"], 4, {}, 1, False, rated=True)
    assert refused.value.field == "seed"


def test_a_rated_matchs_deal_seeds_are_not_one_twisters_outputs() -> None:
    # The arena draws its deals' seeds in turn from random.Random(seed), whose later
    # outputs a few hundred earlier ones give away; a rated match's records show each
    # finished game's seed while the rest are still to be played.
    spec = check_match([ACCOUNT, "hard", "hard"], 9, {}, None, True, rated=True)
    drawn = random.Random(spec.seed)
    twister = [drawn.randrange(1 << 53) for _deal in range(spec.deals)]
    seeds = [task.seed for task in spec.tasks()]
    by_deal = [seeds[d * spec.rotations] for d in range(spec.deals)]
    assert not set(by_deal) & set(twister)
    assert all(0 <= s < 1 << 53 for s in seeds)
    # A deal's rotations still play the same cards, and the match plays the same deals
    # each time it asks.
    assert all(len(set(seeds[d * 3 : d * 3 + 3])) == 1 for d in range(spec.deals))
    assert [t.seed for t in spec.tasks()] == seeds
    # An unrated match's are the arena's, to replay with `pocha arena`.
    unrated = check_match([ACCOUNT, "hard", "hard"], 9, {}, 7, True)
    arena = tasks_for(unrated.rules, unrated.lineup, unrated.deals, 7, True)
    assert unrated.tasks() == arena
