"""Master whose bids search longer (ai.pocha.deep_bids): its bids get the factor times the
budget, its plays are master's own."""

from __future__ import annotations

from ai.bot import Budget
from ai.pocha.deep_bids import DeepBidBot, deeper
from ai.pocha.levels import make_bot
from tests.engine.pocha.engine_support import random_positions


def test_deeper_multiplies_both_limits() -> None:
    assert deeper(Budget(iterations=1000, milliseconds=150), 20) == Budget(
        iterations=20000, milliseconds=3000
    )
    assert deeper(Budget(iterations=50), 3) == Budget(iterations=150)
    assert deeper(Budget(milliseconds=10), 2) == Budget(milliseconds=20)


def test_bids_search_the_factor_times_the_budget_and_plays_are_masters() -> None:
    deep = make_bot("ismcts-deep-bids")
    assert isinstance(deep, DeepBidBot)
    master = make_bot("ismcts-modelled")
    budget = Budget(iterations=40)
    bids = plays = 0
    for i, (game, obs) in enumerate(random_positions(80, seed=21)):
        if len(game.legal_actions()) < 2:
            continue
        mine = deep.decide(obs, budget, seed=i, analyse=True)
        theirs = master.decide(obs, budget, seed=i, analyse=True)
        assert mine.action in game.legal_actions()
        if obs.bidding:
            bids += 1
            assert mine.iterations == 40 * deep.bid_factor
            assert theirs.iterations == 40
        else:
            plays += 1
            assert (mine.action, mine.analysis) == (theirs.action, theirs.analysis)
    assert bids >= 5 and plays >= 5
