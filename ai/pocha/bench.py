"""``pocha bench ismcts``: ISMCTS iterations per second, on the Python engine and search and
on the compiled ones (when built), side by side in one run.

The positions are the first card of a 4-player hand of 5 and of 10 cards
(bids made), from fixed seeds, searched with the default bot for a fixed
time; the figure is iterations done over time taken. Each implementation searches in a
process of its own, in rounds that take turns, so that both meet the same load.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from ai.bot import Budget
from ai.pocha.ismcts import ISMCTSBot
from engine.implementation import active, available, load_average, run_in
from engine.pocha.bench import openspiel_available
from engine.pocha.game import Game
from engine.pocha.observation import Observation, observe
from engine.pocha.rules import Rules


def first_card_position(cards: int, seed: int = 1, players: int = 4) -> Observation:
    """The observation of la mano at the first card of a hand of ``cards``."""
    game = Game.new(Rules(players=players, schedule=[cards]), seed)
    rng = random.Random(seed)
    while game.phase == "bidding":
        seat = game.turn
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions()))
    seat = game.turn
    assert seat is not None
    return observe(game, seat)


def iterations_per_second(seconds: float, seed: int, playout: str) -> dict[str, object]:
    """Search each position for ``seconds`` in this process: the implementation, the
    iterations a second per hand size, and the decisions of a 200-iteration search of each
    (the same on both implementations)."""
    bot = ISMCTSBot(playout=playout)
    rates = {}
    decisions = []
    for cards in (5, 10):
        obs = first_card_position(cards, seed)
        decisions.append(bot.decide(obs, Budget(iterations=200), seed).action)  # warms up too
        _, iterations, elapsed = bot.search(obs, Budget(milliseconds=seconds * 1000), seed)
        rates[str(cards)] = iterations / elapsed
    return {"implementation": active(), "rates": rates, "decisions": decisions}


#: OpenSpiel's ``oh_hell`` for the 5- and 10-card positions: 4 players; its trump is turned
#: from the undealt cards, so 10 cards each need a 52-card deck (13 a suit), 5 take ours.
OPENSPIEL_DECKS = {"5": 10, "10": 13}


def openspiel_iterations_per_second(seconds: float, seed: int) -> dict[str, object]:
    """OpenSpiel's C++ ISMCTS (``pyspiel.ISMCTSBot``, one random rollout a leaf, exploration
    2) at the first card of a random 4-player deal of 5 and of 10 cards, bids at random: its
    simulations a second, per hand size, for about ``seconds`` each."""
    import pyspiel

    rates = {}
    for cards, per_suit in OPENSPIEL_DECKS.items():
        game = pyspiel.load_game("oh_hell", {"players": 4, "num_suits": 4,
                                             "num_cards_per_suit": per_suit,
                                             "num_tricks_fixed": int(cards)})  # fmt: skip
        rng = random.Random(seed)
        state = game.new_initial_state()
        while True:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                continue
            legal = state.legal_actions()
            if legal[0] < 4 * per_suit:  # a card: the bids' actions come after the deck's
                break
            state.apply_action(legal[int(rng.random() * len(legal))])

        def search(simulations: int, state: Any = state) -> float:
            bot = pyspiel.ISMCTSBot(seed, pyspiel.RandomRolloutEvaluator(1, seed), 2.0,
                                    simulations, -1,
                                    pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                                    False, False)  # fmt: skip
            start = time.perf_counter()
            bot.step(state)
            return time.perf_counter() - start

        guess = 300 / search(300)  # warms up too
        simulations = max(300, int(guess * seconds))
        rates[cards] = simulations / search(simulations)
    return {"implementation": "openspiel", "rates": rates}


def run(
    seconds: float = 2.0, seed: int | None = None, playout: str = "greedy", rounds: int = 3
) -> list[str]:
    """Search for about ``seconds`` per position on each implementation, in ``rounds``
    alternating rounds; a line per implementation and hand size, then their ratios."""
    seed = 1 if seed is None else seed
    kinds = available()
    measured = [*kinds, "openspiel"] if openspiel_available() else kinds
    rates: dict[str, dict[str, list[float]]] = {k: {"5": [], "10": []} for k in measured}
    decisions = set()
    lines = [f"ismcts ({playout} playout), first card of 4-player hands, {rounds} rounds "
             f"each, {load_average()} at the start"]  # fmt: skip
    for _ in range(rounds):
        for kind in measured:
            if kind == "openspiel":
                got = run_in("python", "ai.pocha.bench:openspiel_iterations_per_second",
                             seconds=seconds / rounds, seed=seed)  # fmt: skip
            else:
                got = run_in(kind, "ai.pocha.bench:iterations_per_second",
                             seconds=seconds / rounds, seed=seed, playout=playout)  # fmt: skip
                decisions.add(tuple(got["decisions"]))
            if got["implementation"] != kind:
                raise RuntimeError(f"asked for the {kind} engine, ran {got['implementation']}")
            for cards, rate in got["rates"].items():
                rates[kind][cards].append(rate)
    if len(decisions) != 1:
        raise RuntimeError(f"the implementations decided differently: {sorted(decisions)}")
    for cards in ("5", "10"):
        for kind in measured:
            rounds_text = ", ".join(f"{r:.0f}" for r in rates[kind][cards])
            lines.append(f"ismcts {cards}-card, {kind}: "
                         f"{statistics.median(rates[kind][cards]):.0f} iterations/s "
                         f"(median of rounds {rounds_text})")  # fmt: skip
        if len(kinds) == 2:
            ratio = statistics.median(rates["compiled"][cards]) / statistics.median(
                rates["python"][cards]
            )
            lines.append(f"ismcts {cards}-card, compiled / python: {ratio:.2f}x")
        if "openspiel" in measured:
            theirs = statistics.median(rates["openspiel"][cards])
            for kind in kinds:
                ratio = statistics.median(rates[kind][cards]) / theirs
                lines.append(f"ismcts {cards}-card, {kind} / openspiel: {ratio:.2f}x")
    if len(kinds) == 1:
        lines.append("the compiled engine is not built here: the Python one alone")
    if "openspiel" in measured:
        lines.append(
            "openspiel: C++ pyspiel.ISMCTSBot, random rollouts, oh_hell of 4 players; "
            "its 10-card hands on a 52-card deck (it turns trump from the stock)"
        )
    else:
        lines.append("OpenSpiel is not installed (the research extra): no comparison with it")
    lines.append(f"{load_average()} at the end")
    return lines


def decision_times(
    level: str, games: int = 1, seed: int = 1, rules: Rules | None = None
) -> list[float]:
    """Milliseconds of every decision of ``level`` playing all seats of ``games`` games
    (the classic game by default): the whole spread, from forced cards to first leads of
    ten-card hands, so that its percentiles are those a player at the table meets."""
    from ai.pocha.arena import decision_seed
    from ai.pocha.levels import LEVELS, make_bot

    spec = LEVELS[level]
    times = []
    for g in range(games):
        game = Game.new(rules or Rules(), seed + g)
        bots = [make_bot(spec.bot) for _ in range(game.players)]
        step = 0
        while game.phase != "finished":
            seat = game.turn
            assert seat is not None
            obs = observe(game, seat)
            t0 = time.perf_counter()
            decision = bots[seat].decide(obs, spec.budget, decision_seed(seed + g, seat, step))
            times.append((time.perf_counter() - t0) * 1000.0)
            game.apply(seat, decision.action)
            step += 1
    return times


def percentiles(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return {
        "decisions": len(ordered),
        "mean": sum(ordered) / len(ordered),
        "p50": at(0.50),
        "p90": at(0.90),
        "p99": at(0.99),
        "max": ordered[-1],
    }
