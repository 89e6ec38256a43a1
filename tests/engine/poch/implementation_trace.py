"""Everything Poch's hot modules compute on thousands of seeded random games, under every rule
option, digested section by section: legal actions, the events and the whole state after
every decision, refused decisions, the payouts; best sets and card codes; sampled deals, the
heuristic's calls and the search's playout policy; ISMCTS's decisions with their statistics.
``test_implementations`` runs it once per implementation (``POCHA_ENGINE``) and compares.

Run as ``python -m tests.engine.poch.implementation_trace [--games N]``; prints one JSON
object: the implementations active, and per section its record count and SHA-256.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
from collections.abc import Iterator

from ai.bot import Budget
from ai.poch.deals import DealSampler, fork, game_for, knowledge_of
from ai.poch.heuristic import HeuristicBot, bet_call, shed_choice, table_strength
from ai.poch.ismcts import ISMCTSBot, policy, search_actions
from engine.errors import GameError
from engine.poch.cards import NUM_CARDS, best_set, card, card_code, rank_of, suit_of
from engine.poch.game import Game
from engine.poch.observation import observe
from engine.poch.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from tests.engine.digests import Section, print_report


def all_rules(rng: random.Random) -> Iterator[Rules]:
    """Every player count with small and large stacks and antes, some deals each."""
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        for chips, ante in itertools.product((8, 50, 400), (1, 3)):
            if chips < 8 * ante:
                continue
            yield Rules(players=players, chips=chips, ante=ante, deals=rng.randint(1, 3))


def state(game: Game) -> str:
    return json.dumps(game.to_dict(), sort_keys=True)


def trace_games(out: Section, refused: Section, rules: Rules, rng: random.Random) -> None:
    """A whole game of random legal decisions: each step's legal actions, events and state;
    now and then an action it must refuse, with the error it raises."""
    game = Game.new(rules, rng.getrandbits(32))
    out.add("opening", game.opening_events, state(game))
    while game.phase != "over":
        seat = game.turn
        assert seat is not None
        acts = game.legal_actions()
        out.add(seat, acts)
        if rng.random() < 0.2:
            wrong = rng.choice([-1, 0, 5, 31, 40, 101, 150, 9999])
            who = seat if rng.random() < 0.7 else (seat + 1) % rules.players
            if wrong not in acts or who != seat:
                probe = Game.from_dict(game.to_dict())
                try:
                    probe.apply(who, wrong)
                    refused.add("accepted", who, wrong, state(probe))
                except GameError as exc:
                    refused.add(type(exc).__name__, getattr(exc, "rule", None), str(exc))
        events = game.apply(seat, acts[rng.randrange(len(acts))])
        out.add(events, state(game))
    out.add("result", game.result(), game.finished, game.total_chips())


def trace_cards(out: Section, rng: random.Random, count: int) -> None:
    """Best sets of random hands, and every card's code, suit and rank."""
    out.add([(card_code(c), suit_of(c), rank_of(c), card(suit_of(c), rank_of(c)))
              for c in range(NUM_CARDS)])  # fmt: skip
    for _ in range(count):
        hand = rng.sample(range(NUM_CARDS), rng.randint(0, 12))
        trump = rng.randrange(4)
        out.add(best_set(hand, trump), best_set(set(hand), trump), table_strength(hand, trump, 4))


def trace_bots(out: Section, rules: Rules, rng: random.Random) -> None:
    """From positions of a random game: sampled deals, forks, the search's menu and the
    playout policy, the heuristic's betting calls and its decision."""
    game = Game.new(rules, rng.getrandbits(32))
    step = 0
    while game.phase != "over":
        seat = game.turn
        assert seat is not None
        acts = game.legal_actions()
        if len(acts) > 1 and step % 3 == 0:
            obs = observe(game, seat)
            sampler = DealSampler(knowledge_of(obs))
            deal_rng = random.Random(step)
            base = game_for(obs, sampler.sample(deal_rng))
            for _ in range(3):
                hands = sampler.sample(deal_rng)
                copy = fork(base, hands)
                out.add("deal", [sorted(h) for h in hands], search_actions(copy))
                out.add("policy", [policy(copy, s, deal_rng) for s in copy.order])
            strength = rng.random()
            out.add(
                "bet",
                bet_call(strength, rng.randrange(3), rng.randint(0, 20), rng.randrange(30),
                         rng.randrange(10), deal_rng),
                shed_choice(set(obs.hand or ()), acts, game.direction) if game.phase != "betting"
                else None,
                HeuristicBot(samples=20).decide(obs, seed=step).action,
            )  # fmt: skip
        game.apply(seat, acts[rng.randrange(len(acts))])
        step += 1


def trace_search(out: Section, iterations: int, positions: int) -> None:
    """ISMCTS's decision and statistics, for a seed and an iteration count."""
    rng = random.Random(7)
    rules_list = list(all_rules(rng))
    done = 0
    p = 0
    while done < positions:
        rules = rules_list[(p * 7) % len(rules_list)]
        game = Game.new(rules, p)
        steps = rng.randrange(12)
        for _ in range(steps):
            if game.phase == "over":
                break
            seat = game.turn
            assert seat is not None
            game.apply(seat, rng.choice(game.legal_actions()))
        p += 1
        if game.phase == "over" or game.turn is None or len(game.legal_actions()) < 2:
            continue
        obs = observe(game, game.turn)
        decision = ISMCTSBot().decide(obs, Budget(iterations=iterations), seed=p, analyse=True)
        stats = [(s.action, s.visits, s.share, s.mean_score) for s in decision.analysis]
        out.add(p, game.phase, decision.action, decision.iterations, stats)
        done += 1


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=80, help="Per rule set.")
    parser.add_argument("--iterations", type=int, default=150)
    parser.add_argument("--positions", type=int, default=60)
    args = parser.parse_args()
    rng = random.Random(2025)
    names = ("games", "refused", "cards", "bots", "search")
    sections = {name: Section() for name in names}
    for rules in all_rules(rng):
        for _ in range(args.games):
            trace_games(sections["games"], sections["refused"], rules, rng)
        trace_bots(sections["bots"], rules, rng)
    trace_cards(sections["cards"], rng, 20000)
    trace_search(sections["search"], args.iterations, args.positions)
    print_report(sections)


if __name__ == "__main__":
    main()
