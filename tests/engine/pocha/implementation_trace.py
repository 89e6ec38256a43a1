"""Everything the hot modules compute on thousands of seeded random hands, under every rule
option, digested section by section: legal moves, states after every action, trick winners,
scores, playouts, sampled deals, whole games and ISMCTS's decisions with their statistics
(by UCB, by PUCT at the root, and with a learned leaf value). ``test_implementations`` runs
it once per implementation (``POCHA_ENGINE``) and compares.

Run as ``python -m tests.engine.pocha.implementation_trace [--hands-per-case N]``; prints one
JSON object: the implementation active, and per section its record count and SHA-256.
"""

from __future__ import annotations

import argparse
import itertools
import random
from collections.abc import Callable, Iterator
from typing import Any

from ai.bot import Budget
from ai.pocha.ismcts import ISMCTSBot, playout_greedy, quick_bid
from ai.pocha.leaf_value import LeafValueBot
from ai.pocha.levels import STUDENT_PRIOR
from ai.pocha.student_play import PlayStudentBot
from engine.pocha import Game, Rules, observe
from engine.pocha.cards import SUIT_OF, cards_list
from engine.pocha.deals import DealSampler, state_from_observation
from engine.pocha.hand import HandState, deal, hand_points, play_out, random_card
from engine.pocha.inference import infer
from engine.pocha.legality import legal_cards
from engine.pocha.tricks import BEATERS, beats, trick_winner, winning_play
from tests.engine.digests import Section, print_report

#: montar, fallar, pisar and the dealer rule: all 16 combinations.
SWITCHES = list(itertools.product((False, True), repeat=4))


def all_rules(rng: random.Random) -> Iterator[Rules]:
    """Every player count with every combination of the switches, scoring drawn at random."""
    for players in range(3, 9):
        for montar, fallar, pisar, restrict in SWITCHES:
            yield Rules(
                players=players,
                montar=montar,
                fallar=fallar,
                pisar=pisar,
                dealer_restriction=restrict,
                exact_bonus=rng.randint(0, 20),
                per_trick=rng.randint(0, 5),
                penalty=rng.randint(0, 10),
            )


def snapshot(st: HandState) -> tuple[Any, ...]:
    return (
        tuple(st.hands), tuple(st.bids), st.bid_sum, tuple(st.tricks), st.turn, st.bidding,
        st.lead, st.win, st.winner, st.in_trick, st.leader, st.tricks_left, st.done, st.mano,
    )  # fmt: skip


def trace_hands(out: Section, rules: Rules, rng: random.Random, per_case: int) -> None:
    """Random hands step by step: legal actions and the state after each, and the scores."""
    deck = cards_list(rules.deck)
    top = rules.top
    for i in range(per_case):
        cards = (1, max(1, top // 2), top)[i % 3]
        dealer = rng.randrange(rules.players)
        rng.shuffle(deck)
        hands, trump_card, whole = deal(deck, rules.players, cards, dealer)
        out.add("deal", hands, trump_card, whole)
        st = HandState(rules, hands, SUIT_OF[trump_card], dealer, cards)
        while not st.done:
            acts = st.legal_actions()
            out.add(acts, st.forbidden_bid(), st.legal_bids() if st.bidding else st.legal_mask())
            won = st.apply_action(acts[rng.randrange(len(acts))])
            out.add(won, snapshot(st))
        scores = [hand_points(rules, b, w) for b, w in zip(st.bids, st.tricks, strict=True)]
        out.add(st.legal_actions(), scores)


def trace_playouts(out: Section, rules: Rules, rng: random.Random, per_case: int) -> None:
    """Both playout policies and the cheap bid, from random points of random hands."""
    deck = cards_list(rules.deck)
    rand = rng.random
    for i in range(per_case):
        cards = rng.randint(1, rules.top)
        rng.shuffle(deck)
        hands, trump_card, _ = deal(deck, rules.players, cards, i % rules.players)
        st = HandState(rules, hands, SUIT_OF[trump_card], i % rules.players, cards)
        for _ in range(rng.randrange(rules.players + cards * rules.players)):
            acts = st.legal_actions()
            st.apply_action(acts[rng.randrange(len(acts))])
        if st.bidding:
            out.add("quick_bid", quick_bid(st))
        greedy = st.copy()
        playout_greedy(greedy, rand)
        play_out(st, rand)
        out.add(snapshot(greedy), snapshot(st), random_card(rules.deck, rand))


def trace_obligations(out: Section, rng: random.Random, count: int) -> None:
    """legal_cards and the trick's winner on random hands and tricks."""
    for _ in range(count):
        hand = rng.getrandbits(40)
        trump = rng.randrange(4)
        trick = [(s, c) for s, c in enumerate(rng.sample(range(40), rng.randint(1, 8)))]
        seat, win = winning_play(trick, trump)
        lead = SUIT_OF[trick[0][1]]
        switches = itertools.product((False, True), repeat=3)
        legal = [legal_cards(hand, lead, win, trump, *sw) for sw in switches]
        out.add(legal, legal_cards(hand, -1, -1, trump, True, True, True), seat, win)
        out.add(trick_winner(trick, trump), beats(trick[-1][1], win, trump), BEATERS[trump][win])


def random_position(rules: Rules, seed: int, steps: int) -> Game:
    game = Game.new(rules, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.phase == "finished":
            break
        seat = game.turn
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions()))
    return game


def trace_games(out: Section, rules: Rules, rng: random.Random) -> None:
    """A whole game with random legal moves, and deals sampled from positions of it."""
    seed = rng.getrandbits(32)
    game = Game.new(rules, seed)
    moves = 0
    while game.phase != "finished":
        seat = game.turn
        assert seat is not None
        acts = game.legal_actions()
        if moves % 7 == 3 and game.phase == "playing":
            obs = observe(game, seat)
            sampler = DealSampler(infer(obs))
            deal_rng = random.Random(moves)
            for _ in range(3):
                hands = sampler.sample(obs.hand, deal_rng)
                out.add("deal", hands, snapshot(state_from_observation(obs, hands)))
        out.add(acts)
        game.apply(seat, acts[rng.randrange(len(acts))])
        moves += 1
    out.add("scores", game.scores)


#: The searches compared: every playout and every reading the levels use.
SEARCHES: dict[str, Callable[[], ISMCTSBot]] = {
    "greedy": ISMCTSBot,
    "random": lambda: ISMCTSBot(playout="random"),
    "reading": lambda: ISMCTSBot(reading=True),
    "modelled": lambda: ISMCTSBot(reading=True, modelled_bids=True),
    "rival": lambda: ISMCTSBot(reading=True, modelled_bids=True, rivalry=0.3),
    "located": lambda: ISMCTSBot(reading=True, modelled_bids=True, locations=True),
    "located-bids": lambda: ISMCTSBot(
        reading=True, modelled_bids=True, locations=True, location_bids=True
    ),
}


def trace_prior(out: Section, iterations: int, positions: int) -> None:
    """The root's PUCT with the student of the plays as its prior: decisions and statistics
    at card plays of the classic game, the one the student reads."""
    rules = Rules(players=4, schedule=[8])
    done = p = 0
    while done < positions:
        p += 1
        game = random_position(rules, p, 4 + p % 20)
        if game.phase != "playing" or game.turn is None:
            continue
        obs = observe(game, game.turn)
        bot = PlayStudentBot(
            student_play=0.0, student_prior=STUDENT_PRIOR, reading=True, modelled_bids=True
        )
        assert bot.root_prior(obs) is not None
        decision = bot.decide(obs, Budget(iterations=iterations), seed=p, analyse=True)
        stats = [(s.action, s.visits, s.share, s.mean_score) for s in decision.analysis]
        out.add("student-prior", p, decision.action, decision.iterations, stats)
        played = bot.decide(obs, Budget(iterations=iterations), seed=p)
        out.add("student-prior", p, "played", played.action, played.iterations)
        done += 1


def trace_leaf(out: Section, iterations: int, positions: int) -> None:
    """The search with the student as its leaf value, mixed with the playouts and alone
    from two tricks left: decisions and statistics at bids and card plays of the classic
    game, the one the value was taught."""
    rules = Rules(players=4, schedule=[8])
    for p in range(positions):
        game = random_position(rules, p, p % 20)
        if game.phase == "finished" or game.turn is None:
            continue
        obs = observe(game, game.turn)
        for weight, tricks in ((0.5, 1), (1.0, 2)):
            bot = LeafValueBot(
                leaf_weight=weight, leaf_tricks=tricks, reading=True, modelled_bids=True
            )
            assert bot.leaf(obs) is not None
            decision = bot.decide(obs, Budget(iterations=iterations), seed=p, analyse=True)
            stats = [(s.action, s.visits, s.share, s.mean_score) for s in decision.analysis]
            out.add("leaf", weight, tricks, p, decision.action, decision.iterations, stats)


def trace_search(out: Section, iterations: int, positions: int) -> None:
    """Each search's decision and statistics, for a seed and an iteration count."""
    rng = random.Random(7)
    rules_list = list(all_rules(rng))
    for p in range(positions):
        rules = rules_list[(p * 37) % len(rules_list)]
        game = random_position(rules, p, rng.randrange(4 * rules.players))
        if game.phase == "finished" or game.turn is None:
            continue
        obs = observe(game, game.turn)
        for name, make in SEARCHES.items():
            decision = make().decide(obs, Budget(iterations=iterations), seed=p, analyse=True)
            stats = [(s.action, s.visits, s.share, s.mean_score) for s in decision.analysis]
            out.add(name, p, decision.action, decision.iterations, stats)
            # Unanalysed, the search stops once its choice is settled: where is traced too.
            played = make().decide(obs, Budget(iterations=iterations), seed=p)
            out.add(name, p, "played", played.action, played.iterations)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands-per-case", type=int, default=30)
    parser.add_argument("--iterations", type=int, default=150)
    parser.add_argument("--positions", type=int, default=40)
    args = parser.parse_args()
    rng = random.Random(2024)
    sections = {name: Section() for name in ("hands", "playouts", "obligations", "games", "search")}
    for rules in all_rules(rng):
        trace_hands(sections["hands"], rules, rng, args.hands_per_case)
        trace_playouts(sections["playouts"], rules, rng, args.hands_per_case)
        short = Rules.from_dict({**rules.to_dict(), "schedule": [1, 3]})
        trace_games(sections["games"], short, rng)
    trace_obligations(sections["obligations"], rng, 20000)
    trace_search(sections["search"], args.iterations, args.positions)
    trace_prior(sections["search"], args.iterations, args.positions // 2)
    trace_leaf(sections["search"], args.iterations, args.positions // 2)
    print_report(sections)


if __name__ == "__main__":
    main()
