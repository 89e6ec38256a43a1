"""Reading the other seats' hands from their bids (ai.pocha.reading), the search that deals
from it, and ismcts-rival's search, which also plays against the other seats' scores."""

from __future__ import annotations

import random
from bisect import bisect_right

import pytest

from ai.bot import Budget, Decision
from ai.pocha.hand_value import hand_estimate
from ai.pocha.ismcts import ISMCTSBot
from ai.pocha.reading import BidReading, modelled_bid
from engine.pocha.actions import bid_action
from engine.pocha.cards import BIT, parse_card, parse_cards
from engine.pocha.deals import DealSampler, state_from_observation
from engine.pocha.game import Game
from engine.pocha.inference import infer
from engine.pocha.observation import observe
from engine.pocha.rules import Rules

RULES = Rules(players=4, schedule=[3], tiebreak=False)
ACE_OF_TRUMPS = parse_card("O1")


def strong_bidder_game() -> Game:
    """Seat 0 (la mano) holds the three top trumps and bids all three tricks; seat 1
    is to bid next, with nothing."""
    game = Game.with_deal(
        RULES,
        [["O1", "O3", "O12"], ["C4", "E5", "B6"], ["C2", "E2", "B2"], ["C5", "E6", "B7"]],
        trump="O4",
        dealer=3,
    )
    game.bid(0, 3)
    return game


def test_a_high_bid_makes_deals_that_give_the_bidder_strong_cards_likelier() -> None:
    obs = observe(strong_bidder_game(), 1)
    reading = BidReading(obs)
    assert reading.informative
    sampler = DealSampler(infer(obs))
    rng = random.Random(1)
    deals = [sampler.sample(obs.hand, rng) for _ in range(3000)]
    cum = reading.cumulative_weights(deals)
    assert max(b - a for a, b in zip([0.0, *cum], cum, strict=False)) == pytest.approx(1.0)
    drawn = [deals[bisect_right(cum, rng.random() * cum[-1])] for _ in range(3000)]
    uniform = sum(1 for h in deals if h[0] & BIT[ACE_OF_TRUMPS]) / len(deals)
    weighted = sum(1 for h in drawn if h[0] & BIT[ACE_OF_TRUMPS]) / len(drawn)
    # Uniformly seat 0 holds 3 of the 36 unseen cards; a bid of 3 of 3 says it is strong.
    assert uniform < 0.12
    assert weighted > 3 * uniform
    strong = [h for h in deals if hand_estimate(h[0], obs.trump) > 2]
    weak = [h for h in deals if hand_estimate(h[0], obs.trump) < 0.5]
    assert strong and weak
    # The learned model need not order hands as the heuristic's estimate does (three side
    # aces and no trump rarely bid 3 of 3), so not every strong deal outweighs every weak
    # one; but the typical strong deal outweighs the heaviest weak one.
    strong_weights = sorted(map(reading.log_weight, strong))
    assert strong_weights[len(strong_weights) // 2] > max(map(reading.log_weight, weak))


def test_the_first_seat_to_bid_reads_nothing() -> None:
    game = Game.with_deal(
        RULES,
        [["O1", "O3", "O12"], ["C4", "E5", "B6"], ["C2", "E2", "B2"], ["C5", "E6", "B7"]],
        trump="O4",
        dealer=3,
    )
    assert not BidReading(observe(game, 0)).informative


def test_the_reading_reads_the_hand_held_at_the_bid_cards_played_included() -> None:
    game = strong_bidder_game()
    for seat, bid in ((1, 0), (2, 0), (3, 1)):
        game.bid(seat, bid)
    game.play(0, "O1")  # the ace of trumps is on the table now, no longer in a hand
    obs = observe(game, 1)
    reading = BidReading(obs)
    sampler = DealSampler(infer(obs))
    rng = random.Random(2)
    deals = [sampler.sample(obs.hand, rng) for _ in range(2000)]
    # With the ace it played, seat 0 is read as it bid: strong deals still weigh more.
    strong = [h for h in deals if h[0] & parse_cards(["O3", "O12"]) == parse_cards(["O3", "O12"])]
    other = [h for h in deals if not h[0] & parse_cards(["O3", "O12", "O11", "O10"])]
    assert strong and other

    def mean(hs: list[list[int]]) -> float:
        return sum(map(reading.log_weight, hs)) / len(hs)

    # Other seats' bids weigh in too, so on average: far likelier, by a factor over 10.
    assert mean(strong) > mean(other) + 2.5


def test_a_modelled_bid_is_legal_and_follows_the_hand() -> None:
    game = strong_bidder_game()
    game.bid(1, 0)
    game.bid(2, 0)
    # The dealer (seat 3) may not bid 0: the bids would add up to the 3 cards.
    st = state_from_observation(observe(game, 3), game.state.hands)
    rng = random.Random(3)
    bids = [modelled_bid(st, rng.random, whole_deck=False) for _ in range(500)]
    assert 0 not in bids
    assert set(bids) <= set(st.legal_bids())
    st.hands[3] = parse_cards(["O1", "O3", "O12"])
    strong = [modelled_bid(st, rng.random, whole_deck=False) for _ in range(500)]
    assert sum(strong) / 500 > sum(bids) / 500 + 1


@pytest.mark.parametrize("name", ["ismcts-reading", "ismcts-modelled", "ismcts-rival"])
def test_the_reading_search_decides_legally_from_the_view_alone(name: str) -> None:
    from ai.pocha.levels import make_bot

    bot = make_bot(name)
    game = Game.new(Rules(schedule=[5, 3]), seed=11)
    while game.phase != "finished":
        seat = game.turn
        assert seat is not None
        obs = observe(game, seat)
        decision = bot.decide(obs, Budget(iterations=60), seed=seat)
        assert decision.action in obs.legal_actions
        game.apply(seat, decision.action)


def test_the_reading_search_bids_the_same_for_the_same_seed() -> None:
    obs = observe(strong_bidder_game(), 1)
    bot = ISMCTSBot(reading=True, modelled_bids=True)
    a = bot.decide(obs, Budget(iterations=200), seed=5)
    b = bot.decide(obs, Budget(iterations=200), seed=5)
    assert a.action == b.action
    assert a.action in {bid_action(0), bid_action(1), bid_action(2), bid_action(3)}


def forcing_bid_game() -> Game:
    """A one-card hand: seat 0 bid 1 and seat 1 bid 0, so if seat 2 (holding the 2 of
    trumps, which takes the trick about half the time) bids 0 the dealer may not bid 0
    and must claim the one trick, which seat 0's bid says it will likely not take."""
    rules = Rules(players=4, schedule=[1], tiebreak=False)
    game = Game.with_deal(rules, [["E2"], ["B2"], ["O2"], ["C2"]], trump="O7", dealer=3)
    game.bid(0, 1)
    game.bid(1, 0)
    return game


def test_rivalry_gives_up_some_of_its_own_score_to_make_another_seat_miss() -> None:
    obs = observe(forcing_bid_game(), 2)
    budget = Budget(iterations=2000)
    # Dealt uniformly, not read, so that the chance of the trick does not hang on the
    # learned model: the dealer's bid is modelled, which is where the rivalry bites.
    own = ISMCTSBot(modelled_bids=True)
    rival = ISMCTSBot(modelled_bids=True, rivalry=1.0)
    own_bids = [own.decide(obs, budget, seed=s, analyse=True) for s in range(12)]
    rival_bids = [rival.decide(obs, budget, seed=s, analyse=True) for s in range(12)]
    # For its own score alone bidding the trick is worth more; against the others,
    # bidding 0 and forcing the dealer to claim it is.
    assert sum(d.action == bid_action(1) for d in own_bids) >= 7
    assert sum(d.action == bid_action(1) for d in rival_bids) <= 3

    def mean_score(decisions: list[Decision], bid: int) -> float:
        stats = [a for d in decisions for a in d.analysis if a.action == bid_action(bid)]
        return sum(a.mean_score for a in stats) / len(stats)

    # The analysis reports the seat's own mean hand score, rivalry or not: the trick
    # taken with chance p, bidding 1 scores 15p - 5(1 - p) and bidding 0 10(1 - p) - 5p.
    # The plain search knows p from its bids of 1, the rival's from its bids of 0.
    take = (mean_score(own_bids, 1) + 5) / 20
    assert 0.2 < take < 0.8
    assert mean_score(rival_bids, 0) == pytest.approx(10 - 15 * take, abs=1.5)
