"""Trio's bots, written to `ai.bot`'s protocol from outside the package: the shared random
bot, a greedy one, and a one-level ISMCTS, with an arena and the `BotKind` that joins them
to the service. No level or bot is called `heuristic`, as Pocha's and Poch's fallback is:
Trio's fallback is its own `greedy`.

The search is flat: each iteration deals the cards this seat cannot see at random among
the other hands (a determinization), picks a root action by UCB1 and plays the deal out
at random; an action's score is the tricks this seat takes this deal. `ai/`'s searches are
each game's own, so this small one lives beside the game.
"""

from __future__ import annotations

import math
import random
import time
import zlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ai.arena import Arena, ArenaGame, Roster
from ai.bot import ActionStat, Bot, Budget, Decision, Level, Player, legal_actions
from ai.kind import BotKind
from ai.random_bot import RandomBot
from tests.thirdgame import engine
from tests.thirdgame.engine import DECK, Game, Observation, Rules, observe, rank_of, suit_of

DEFAULT_ITERATIONS = 60

LEVELS: dict[str, Level] = {
    "random": Level("random", "random", Budget(), "a uniformly random legal card"),
    "greedy": Level("greedy", "greedy", Budget(), "wins a trick cheaply or sheds low"),
    # Named as no level of Pocha's or Poch's is: the API reads a seat's level against the
    # registered games' bots, not against a list of the service's own.
    "search": Level(
        "search", "ismcts", Budget(iterations=DEFAULT_ITERATIONS), "one-level ISMCTS, 60 iterations"
    ),
}


class GreedyBot:
    """The lowest card that wins the trick so far, else the lowest card."""

    name = "greedy"

    def decide(
        self, obs: Observation, budget: Budget | None = None, seed: int | None = None,
        analyse: bool = False,
    ) -> Decision:  # fmt: skip
        legal = sorted(legal_actions(obs), key=rank_of)
        if obs.trick:
            led = suit_of(obs.trick[0][1])
            best = max(rank_of(c) for _s, c in obs.trick if suit_of(c) == led)
            winning = [c for c in legal if suit_of(c) == led and rank_of(c) > best]
            if winning:
                return Decision(winning[0])
        return Decision(legal[0] if obs.trick else legal[-1])


def determinize(obs: Observation, rng: random.Random) -> Game:
    """A game this seat's observation could be: the unseen cards dealt at random to the
    other hands, in their sizes."""
    assert obs.seat is not None and obs.hand is not None and obs.turn is not None
    rules = Rules.from_dict(obs.rules)
    seen = set(obs.hand) | {c for _s, c in obs.played}
    unseen = [c for c in DECK if c not in seen]
    rng.shuffle(unseen)
    hands: list[list[int]] = []
    for seat, size in enumerate(obs.hand_sizes):
        if seat == obs.seat:
            hands.append(list(obs.hand))
        else:
            hands.append(unseen[:size])
            unseen = unseen[size:]
    # Only this deal matters to the search: a one-deal game from here.
    one = Rules(players=rules.players, deals=1)
    return Game(
        one, 0, 0, obs.dealer, hands, list(obs.played), list(obs.trick), obs.turn,
        list(obs.tricks), [0] * rules.players,
    )  # fmt: skip


class ISMCTSBot:
    name = "ismcts"

    def decide(
        self, obs: Observation, budget: Budget | None = None, seed: int | None = None,
        analyse: bool = False,
    ) -> Decision:  # fmt: skip
        legal = legal_actions(obs)
        budget = budget or Budget(iterations=DEFAULT_ITERATIONS)
        if budget.iterations is None and budget.milliseconds is None:
            budget = Budget(iterations=DEFAULT_ITERATIONS)
        rng = random.Random(seed)
        visits = dict.fromkeys(legal, 0)
        totals = dict.fromkeys(legal, 0.0)
        start = time.perf_counter()
        done = 0
        seat = obs.seat
        assert seat is not None
        while True:
            if budget.iterations is not None and done >= budget.iterations:
                break
            elapsed_ms = (time.perf_counter() - start) * 1000
            if budget.milliseconds is not None and done and elapsed_ms >= budget.milliseconds:
                break
            unvisited = [a for a in legal if not visits[a]]
            if unvisited:
                action = unvisited[0]
            else:
                action = max(
                    legal,
                    key=lambda a: totals[a] / visits[a] + math.sqrt(2 * math.log(done) / visits[a]),
                )
            game = determinize(obs, rng)
            game.apply(seat, action)
            while not game.finished:
                turn = game.turn
                assert turn is not None
                game.apply(turn, rng.choice(game.legal_actions()))
            visits[action] += 1
            totals[action] += game.scores[seat]
            done += 1
        best = max(legal, key=lambda a: (visits[a], totals[a]))
        analysis = tuple(
            ActionStat(a, visits[a], visits[a] / done, totals[a] / visits[a] if visits[a] else 0.0)
            for a in legal
        ) if analyse else ()  # fmt: skip
        return Decision(best, analysis, done, (time.perf_counter() - start) * 1000)


_MAKERS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot, "ismcts": ISMCTSBot}
BOTS = tuple(_MAKERS)


def make_bot(name: str) -> Bot[Any]:
    if name not in _MAKERS:
        raise ValueError(f"unknown Trio bot {name!r}; the bots are {', '.join(BOTS)}")
    bot: Bot[Any] = _MAKERS[name]()
    return bot


def decision_seed(seed: int, *parts: int) -> int:
    return zlib.crc32(repr((engine.NAME, seed, *parts)).encode())


def game_record(
    game: Game, seed: int, players: Sequence[Player], deal: int,
    decisions: Sequence[int], think: Sequence[float],
) -> dict[str, Any]:  # fmt: skip
    """A finished game's record, as the arena and a match's workers keep it."""
    return {
        "game": engine.NAME,
        "seed": seed,
        "deal": deal,
        "rules": game.rules.to_dict(),
        "seats": [p.label for p in players],
        "scores": list(game.scores),
        "decisions": list(decisions),
        "think_ms": [round(t, 3) for t in think],
    }


def play_game(task: ArenaGame) -> dict[str, Any]:
    game = Game.new(task.rules, task.seed)
    bots = [make_bot(p.bot) for p in task.players]
    decisions = [0] * task.rules.players
    think = [0.0] * task.rules.players
    step = 0
    while not game.finished:
        seat = game.turn
        assert seat is not None
        t0 = time.perf_counter()
        decision = bots[seat].decide(
            observe(game, seat), task.players[seat].budget, decision_seed(task.seed, seat, step)
        )
        think[seat] += (time.perf_counter() - t0) * 1000
        decisions[seat] += 1
        game.apply(seat, decision.action)
        step += 1
    return game_record(game, task.seed, task.players, task.deal, decisions, think)


@dataclass
class TrioStats:
    bot: str
    games: int
    points_per_game: float

    def to_dict(self) -> dict[str, Any]:
        return {"bot": self.bot, "games": self.games, "points_per_game": self.points_per_game}


def summarize(records: Sequence[dict[str, Any]]) -> list[TrioStats]:
    """Each bot's points per game (over its seats), best first."""
    points: dict[str, list[int]] = defaultdict(list)
    for record in records:
        for seat, bot in enumerate(record["seats"]):
            points[bot].append(record["scores"][seat])
    stats = [TrioStats(bot, len(p), round(sum(p) / len(p), 4)) for bot, p in points.items()]
    return sorted(stats, key=lambda s: -s.points_per_game)


ROSTER = Roster(
    levels=LEVELS,
    bots=BOTS,
    unknown="unknown Trio bot or level {spec}: the levels are {levels}; the bots are {bots}",
    bad_budget="bad budget in {spec}: ismcts:300 or ismcts:50ms",
)
ARENA = Arena(ROSTER, play_game, summarize)

BOT_KIND = BotKind(
    game=engine.GAME_KIND,
    arena=ARENA,
    make_bot=make_bot,
    decision_seed=decision_seed,
    record=game_record,
    searches=lambda bot: bot == "ismcts",
    default_iterations=DEFAULT_ITERATIONS,
    iterations_per_second=2_000,
    fallback_level="greedy",
)
