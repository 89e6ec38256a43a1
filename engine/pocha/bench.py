"""``pocha bench engine``: how many random hands a second the fast path plays, on the Python
engine and on the compiled one (when built), side by side in one run.

Each hand is complete: shuffle (the engine's own, as its deals do) and deal 10 cards to each
of 4 players, random legal bids with the dealer rule, 40 random legal cards under all four
obligations, and scoring.  Each implementation plays in a process of its own, in rounds
that take turns (python, compiled, python, ...) so that both meet the same load; where
OpenSpiel is installed (the research extra) its C++ ``oh_hell`` plays random hands in
rounds of its own.
"""

from __future__ import annotations

import random
import statistics
import time

from engine import draws
from engine.implementation import active, available, load_average, run_in
from engine.pocha.cards import SUIT_OF, cards_list
from engine.pocha.hand import HandState, deal, hand_points, play_out
from engine.pocha.rules import Rules


def play_random_hands(count: int, seed: int = 0, players: int = 4, cards: int = 10) -> int:
    """Play ``count`` random hands; returns the total points scored (a checksum)."""
    rules = Rules(players=players)
    rng = random.Random(seed)
    rand = rng.random
    deck = cards_list(rules.deck)
    total = 0
    dealer = 0
    for _ in range(count):
        # rng.shuffle(deck), as the engine's deals draw it (compiled: in C).
        draws.shuffle(deck, rng)
        hands, trump_card, _ = deal(deck, players, cards, dealer)
        state = HandState(rules, hands, SUIT_OF[trump_card], dealer, cards)
        play_out(state, rand)
        for seat in range(players):
            total += hand_points(rules, state.bids[seat], state.tricks[seat])
        dealer = (dealer + 1) % players
    return total


def hands_per_second(seconds: float, seed: int) -> dict[str, object]:
    """Play hands for about ``seconds`` in this process: the implementation, the rate and
    the checksum of the first batch (the same on both implementations)."""
    checksum = play_random_hands(200, seed)  # warm up
    hands = 0
    batch = 500
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        play_random_hands(batch, seed + hands)
        hands += batch
        now = time.perf_counter()
        if now >= deadline:
            break
    return {"implementation": active(), "rate": hands / (now - start), "checksum": checksum}


def openspiel_hands_per_second(seconds: float, seed: int) -> dict[str, object]:
    """OpenSpiel's C++ ``oh_hell`` playing random hands for about ``seconds``: 4 players, 10
    cards each from a 52-card deck (it turns trump from the undealt cards, so 40 cannot deal
    10 each), every deal, bid and card drawn in C++ (``pyspiel.evaluate_bots`` with uniform
    random bots, one call a hand)."""
    import pyspiel

    settings = {"players": 4, "num_suits": 4, "num_cards_per_suit": 13, "num_tricks_fixed": 10}
    game = pyspiel.load_game("oh_hell", settings)
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(4)]
    for i in range(200):  # warm up
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + i)
    hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for i in range(500):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + hands + i)
        hands += 500
        now = time.perf_counter()
        if now >= deadline:
            break
    return {"implementation": "openspiel", "rate": hands / (now - start)}


def openspiel_available() -> bool:
    """Whether OpenSpiel (``pyspiel``, the research extra) is installed here."""
    import importlib.util

    return importlib.util.find_spec("pyspiel") is not None


def run(seconds: float = 3.0, seed: int | None = None, rounds: int = 3) -> list[str]:
    """Play hands for about ``seconds`` on each implementation (and OpenSpiel's, where
    installed), in ``rounds`` alternating rounds; a line per implementation (``engine, NAME:
    N hands/s``), then their ratios."""
    seed = 0 if seed is None else seed
    kinds = available()
    measured = [*kinds, "openspiel"] if openspiel_available() else kinds
    rates: dict[str, list[float]] = {kind: [] for kind in measured}
    checksums = set()
    lines = [f"random hands of 10 cards for 4 players, {rounds} rounds each, "
             f"{load_average()} at the start"]  # fmt: skip
    for _ in range(rounds):
        for kind in measured:
            if kind == "openspiel":
                got = run_in("python", "engine.pocha.bench:openspiel_hands_per_second",
                             seconds=seconds / rounds, seed=seed)  # fmt: skip
                rates[kind].append(got["rate"])
                continue
            got = run_in(kind, "engine.pocha.bench:hands_per_second",
                         seconds=seconds / rounds, seed=seed)  # fmt: skip
            if got["implementation"] != kind:
                raise RuntimeError(f"asked for the {kind} engine, ran {got['implementation']}")
            rates[kind].append(got["rate"])
            checksums.add(got["checksum"])
    if len(checksums) != 1:
        raise RuntimeError(f"the implementations scored differently: {sorted(checksums)}")
    for kind in measured:
        rounds_text = ", ".join(f"{r:.0f}" for r in rates[kind])
        lines.append(f"engine, {kind}: {statistics.median(rates[kind]):.0f} hands/s "
                     f"(median of rounds {rounds_text})")  # fmt: skip
    if len(kinds) == 2:
        ratio = statistics.median(rates["compiled"]) / statistics.median(rates["python"])
        lines.append(f"compiled / python: {ratio:.2f}x")
    else:
        lines.append("the compiled engine is not built here: the Python one alone")
    if "openspiel" in measured:
        theirs = statistics.median(rates["openspiel"])
        for kind in kinds:
            lines.append(f"{kind} / openspiel: {statistics.median(rates[kind]) / theirs:.2f}x")
        lines.append("openspiel: C++ oh_hell of 4 players, uniform random bots "
                     "(pyspiel.evaluate_bots, a hand a call); its 10-card hands on a 52-card "
                     "deck (it turns trump from the stock)")  # fmt: skip
    else:
        lines.append("OpenSpiel is not installed (the research extra): no comparison with it")
    lines.append(f"{load_average()} at the end")
    return lines


if __name__ == "__main__":
    for line in run():
        print(line)
