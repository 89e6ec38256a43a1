"""Master whose plays near the hand's end are solved (ai.pocha.endgame): the solver plays
max-n exactly, each seat for its own score; the bot solves only there, and bids and plays
as master everywhere else."""

from __future__ import annotations

import random

from ai.bot import Budget
from ai.pocha.endgame import EndgameBot, card_scores, solve
from ai.pocha.levels import BOTS, make_bot
from engine.pocha.cards import COPAS, OROS, card
from engine.pocha.deals import state_from_observation
from engine.pocha.game import Game
from engine.pocha.hand import HandState, hand_points
from engine.pocha.observation import observe
from engine.pocha.rules import Rules
from tests.engine.pocha.engine_support import random_positions


def _points(st: HandState, rules: Rules) -> list[list[int]]:
    return [[hand_points(rules, b, w) for w in range(st.cards + 1)] for b in st.bids]


def _every_card(st: HandState, points: list[list[int]]) -> list[int]:
    """max-n without the solver's cut: every card of every seat tried."""
    if not st.tricks_left:
        return st.tricks
    seat = st.turn
    best: list[int] = []
    best_v = -1 << 30
    for play in st.legal_actions():
        nxt = st.copy()
        nxt.apply_card(play)
        result = _every_card(nxt, points)
        if points[seat][result[seat]] > best_v:
            best_v = points[seat][result[seat]]
            best = result
    return best


def _endgames(count: int, seed: int, tricks: int) -> list[tuple[Game, HandState]]:
    """Random games played at random to a card play with at most ``tricks`` tricks left,
    with the true state of the hand."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        players = rng.randint(3, 6)
        rules = Rules(
            players=players,
            schedule=[rng.randint(1, (36 if players in (3, 6) else 40) // players)],
            montar=rng.random() < 0.8,
            fallar=rng.random() < 0.8,
            pisar=rng.random() < 0.8,
        )
        game = Game.new(rules, rng.randrange(1 << 30))
        while game.turn is not None:
            obs = observe(game, game.turn)
            if not obs.bidding and obs.hand.bit_count() <= tricks and rng.random() < 0.5:
                break
            game.apply(game.turn, rng.choice(game.legal_actions()))
        if game.turn is None:
            continue
        obs = observe(game, game.turn)
        if obs.bidding or obs.hand.bit_count() > tricks:
            continue
        hands = [observe(game, s).hand for s in range(players)]
        out.append((game, state_from_observation(obs, hands)))
    return out


def test_the_solver_plays_as_max_n_over_every_card() -> None:
    for game, st in _endgames(100, seed=5, tricks=3):
        points = _points(st, game.rules)
        assert solve(st.copy(), points) == _every_card(st.copy(), points)


def test_a_seat_short_of_its_bid_takes_the_trick_and_one_that_made_it_ducks() -> None:
    # Four seats, two cards each, oros trumps, no obligation to beat the trick (montar off).
    # Seats 0 to 2 have played the five, four and six of copas; seat 3 holds the seven and
    # the two of copas. Taking the trick with the seven, it must lead the two, which any of
    # the others' oros beats: one trick. Ducking with the two, the six wins, the six's
    # seat leads its oros, and seat 3's seven of copas loses to them: no trick.
    rules = Rules(players=4, schedule=[2], montar=False, dealer_restriction=False)
    seven, two = card(COPAS, 7), card(COPAS, 2)
    hands = [
        _cards(card(COPAS, 5), card(OROS, 1)),
        _cards(card(COPAS, 4), card(OROS, 2)),
        _cards(card(COPAS, 6), card(OROS, 3)),
        _cards(seven, two),
    ]
    for bid, best in ((1, seven), (0, two)):
        st = HandState(rules, hands, trump=OROS, dealer=3, cards=2)
        for b in (1, 0, 0, bid):
            st.apply_bid(b)
        for c in (card(COPAS, 5), card(COPAS, 4), card(COPAS, 6)):
            st.apply_card(c)
        scores = card_scores(st, tuple(st.hands), _points(st, rules))
        assert scores == {
            seven: hand_points(rules, bid, 1),
            two: hand_points(rules, bid, 0),
        }
        assert max(scores, key=scores.__getitem__) == best


def _cards(*cards: int) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


def test_the_bot_solves_only_short_plays_and_is_master_elsewhere() -> None:
    assert "ismcts-endgame" in BOTS
    bot = make_bot("ismcts-endgame")
    assert isinstance(bot, EndgameBot)
    master = make_bot("ismcts-modelled")
    budget = Budget(iterations=40)
    solved = searched = 0
    for i, (game, obs) in enumerate(random_positions(120, seed=23)):
        if len(game.legal_actions()) < 2:
            continue
        mine = bot.decide(obs, budget, seed=i)
        assert mine.action in game.legal_actions()
        if not obs.bidding and obs.hand.bit_count() <= bot.endgame_tricks:
            solved += 1
            # Each of its deals solved, however many iterations the budget gives a search.
            assert mine.iterations == bot.endgame_deals
        else:
            searched += 1
            theirs = master.decide(obs, budget, seed=i)
            assert (mine.action, mine.iterations) == (theirs.action, theirs.iterations)
    assert solved >= 5 and searched >= 5
