"""A duplicate match at OpenSpiel's ``oh_hell`` table: one of our bots against three of
OpenSpiel's ISMCTS bots, and the numbers that say which is stronger.
How it works: docs/internals.md, ``ai.pocha.openspiel_match``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ai.bot import Player
from ai.cores import on_cores
from ai.pocha.arena import decision_seed, parse_player
from ai.pocha.openspiel_bridge import card_of, decide, observation_of_state
from ai.stats import ci95
from engine.pocha.cards import BIT, CardSet
from engine.pocha.deals import DealSampler
from engine.pocha.inference import infer

#: The target table of issue 17: 4 players, 5 cards each from the 40-card deck, and
#: Pocha's scoring (10 for an exact bid plus 5 a trick, else -5 a trick of difference).
PARAMS: dict[str, Any] = {
    "players": 4,
    "num_suits": 4,
    "num_cards_per_suit": 10,
    "num_tricks_fixed": 5,
    "off_bid_penalty": True,
    "points_per_trick": 5,
}

#: The exploration constant: 2, the default of OpenSpiel's ``examples/mcts.py``
#: (``--uct_c``).  It is not scaled to the returns, which here are raw points (-25 to 35),
#: so OpenSpiel's bots explore little beside our ISMCTS's rewards scaled to about [-1, 1].
UCT_C = 2.0

OPPONENTS = ("stock", "honest")


def load_game(params: dict[str, Any] | None = None) -> Any:
    """OpenSpiel's ``oh_hell`` with ``params`` (default ``PARAMS``)."""
    import pyspiel

    return pyspiel.load_game("oh_hell", dict(params or PARAMS))


def deal_of(game: Any, seed: int) -> list[int]:
    """The chance actions of one deal (tricks, dealer, the cards, the trump card), each
    outcome drawn uniformly (as OpenSpiel's are) from an RNG seeded with ``seed``."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        action = outcomes[rng.randrange(len(outcomes))][0]
        out.append(action)
        state.apply_action(action)
    return out


# -- the honest resampler ------------------------------------------------------------


class HonestResampler:
    """``ISMCTSBot.set_resampler``'s callback: a new state that ``player`` cannot tell
    from ``state``, its hidden cards dealt from every card it has not seen.

    The player's view is read through the bridge, ``engine.pocha.inference`` works out what it
    knows of the other hands (their sizes, and the suits they showed they lack), and
    ``engine.pocha.deals.DealSampler`` (the sampler our ISMCTS deals from) deals the unseen
    cards, the undealt stock taking the rest.  The state is rebuilt from the chance
    actions (tricks, dealer, the cards in OpenSpiel's order, the same trump card) and
    then the same bids and plays.  What is worked out for one root is kept while the
    search asks again from it."""

    def __init__(self, game: Any, params: dict[str, Any], seed: int | None = None) -> None:
        self.game = game
        self.params = params
        self.rng = random.Random(seed)
        self._key: tuple[int, tuple[int, ...]] | None = None
        self._sampler: DealSampler | None = None
        self._own: CardSet = 0
        self._chance: list[int] = []
        self._moves: list[int] = []
        self._played: list[CardSet] = []
        deck = int(params["num_suits"]) * int(params["num_cards_per_suit"])
        # OpenSpiel's card action of each of our cards.
        self._action = {card_of(a, params): a for a in range(deck)}

    def _prepare(self, state: Any, player: int) -> None:
        n = int(self.params["players"])
        obs = observation_of_state(state, self.params)
        self._sampler = DealSampler(infer(obs))
        self._own = obs.hand
        history = [(h.player, h.action) for h in state.full_history()]
        self._chance = [a for p, a in history if p < 0]
        self._moves = [a for p, a in history if p >= 0]
        played = [0] * n
        for seat, card in obs.plays:
            played[seat] |= BIT[card]
        self._played = played
        self._key = (player, tuple(state.history()))

    def __call__(self, state: Any, player: int) -> Any:
        if player != state.current_player():
            raise ValueError("the resampler deals for the player to move only")
        if self._key != (player, tuple(state.history())):
            self._prepare(state, player)
        assert self._sampler is not None
        n = int(self.params["players"])
        hands = self._sampler.sample(self._own, self.rng)
        chance = self._chance
        cards = (len(chance) - 3) // n
        # Each seat's cards as dealt: what it holds now and what it has played.
        dealt: list[list[int]] = []
        for seat in range(n):
            if seat == player:
                dealt.append([chance[2 + k * n + seat] for k in range(cards)])
            else:
                mask = hands[seat] | self._played[seat]
                own = []
                while mask:
                    low = mask & -mask
                    own.append(self._action[low.bit_length() - 1])
                    mask ^= low
                dealt.append(own)
        new = self.game.new_initial_state()
        new.apply_action(chance[0])
        new.apply_action(chance[1])
        for k in range(cards):
            for seat in range(n):
                new.apply_action(dealt[seat][k])
        new.apply_action(chance[2 + cards * n])
        for a in self._moves:
            new.apply_action(a)
        return new


def hidden_cards(state: Any, player: int, params: dict[str, Any]) -> set[int]:
    """The OpenSpiel cards dealt to the other seats of ``state`` (as dealt, played or
    not): what a resampler had to guess."""
    n = int(params["players"])
    chance = [h.action for h in state.full_history() if h.player < 0]
    cards = (len(chance) - 3) // n
    return {chance[2 + i] for i in range(cards * n) if i % n != player}


def undealt_cards(state: Any, params: dict[str, Any]) -> set[int]:
    """The OpenSpiel cards of ``state`` dealt to nobody, the trump card excepted."""
    n = int(params["players"])
    deck = int(params["num_suits"]) * int(params["num_cards_per_suit"])
    chance = [h.action for h in state.full_history() if h.player < 0]
    cards = (len(chance) - 3) // n
    return set(range(deck)) - set(chance[2 : 2 + cards * n]) - {chance[2 + cards * n]}


# -- OpenSpiel's bots ---------------------------------------------------------------


class RolloutEvaluator:
    """OpenSpiel's ``RandomRolloutEvaluator`` with one rollout (uniform prior, the returns
    of one uniformly random playout), for the Python bot: the C++ evaluator has no Python
    methods and OpenSpiel's Python one draws with ``numpy`` at every step, several times
    slower; the playouts are the same."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]

    def evaluate(self, state: Any) -> Any:
        import numpy as np

        st = state.clone()
        rand = self.rng.random
        while not st.is_terminal():
            if st.is_chance_node():
                outcomes = st.chance_outcomes()
                st.apply_action(outcomes[int(rand() * len(outcomes))][0])
            else:
                legal = st.legal_actions()
                st.apply_action(legal[int(rand() * len(legal))])
        return np.array(st.returns())


def make_opponent(
    kind: str,
    game: Any,
    simulations: int,
    seed: int,
    params: dict[str, Any] | None = None,
    uct_c: float = UCT_C,
) -> Any:
    """An OpenSpiel ISMCTS bot (``stock`` or ``honest``) with ``simulations`` per decision:
    exploration ``uct_c`` (default ``UCT_C``), one random rollout per leaf, unlimited world
    samples (a fresh deal every simulation) and the most visited action played (both
    OpenSpiel bots can sample their move in proportion to the visits instead, the C++ bot's
    default; the most visited is the stronger play, and the one our ISMCTS makes)."""
    import pyspiel

    seed &= 0x7FFFFFFF
    if kind == "stock":
        return pyspiel.ISMCTSBot(
            seed,
            pyspiel.RandomRolloutEvaluator(1, seed),
            uct_c,
            simulations,
            -1,
            pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            False,
            False,
        )
    if kind == "honest":
        import numpy as np
        from open_spiel.python.algorithms import ismcts

        bot = ismcts.ISMCTSBot(
            game,
            RolloutEvaluator(seed),
            uct_c,
            simulations,
            max_world_samples=ismcts.UNLIMITED_NUM_WORLD_SAMPLES,
            random_state=np.random.RandomState(seed),
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        bot.set_resampler(HonestResampler(game, dict(params or PARAMS), seed))
        return bot
    raise ValueError(f"unknown opponent {kind!r}; the opponents are {', '.join(OPPONENTS)}")


# -- the match -----------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """What a match plays: the game's parameters, our bot, the opponent and its search."""

    ours: Player
    opponent: str
    simulations: int
    params: tuple[tuple[str, Any], ...] = tuple(PARAMS.items())
    uct_c: float = UCT_C

    @property
    def label(self) -> str:
        return f"openspiel-{self.opponent}:{self.simulations}"


@dataclass(frozen=True)
class _Task:
    table: Table
    deal: int
    seed: int
    # Our seats: one in a match; none or all to time one side.
    ours: tuple[int, ...]


def play_seating(table: Table, deal: int, seed: int, ours: tuple[int, ...]) -> dict[str, Any]:
    """Play deal ``seed`` with our bot in the seats ``ours`` (in a match, one) and
    OpenSpiel's in the others; the game's record.  Each seat's thinking is timed on the
    wall clock and in CPU time (``time.process_time``: what the process itself spent,
    whatever else the machine runs)."""
    params = dict(table.params)
    game = load_game(params)
    n = int(params["players"])
    chance = deal_of(game, seed)
    state = game.new_initial_state()
    for a in chance:
        state.apply_action(a)
    seat = ours[0] if len(ours) == 1 else None
    tag = -1 if seat is None else seat
    bots = {
        s: make_opponent(
            table.opponent,
            game,
            table.simulations,
            decision_seed(seed, tag, s, 1),
            params,
            table.uct_c,
        )
        for s in range(n)
        if s not in ours
    }
    decisions = [0] * n
    forced = [0] * n
    think = [0.0] * n
    cpu = [0.0] * n
    step = 0
    while not state.is_terminal():
        s = state.current_player()
        if len(state.legal_actions()) == 1:
            forced[s] += 1
        t0 = time.perf_counter()
        c0 = time.process_time()
        if s in ours:
            action = decide(
                state, params, table.ours.bot, decision_seed(seed, tag, s, step), table.ours.budget
            )
        else:
            action = int(bots[s].step(state))
        cpu[s] += (time.process_time() - c0) * 1000.0
        think[s] += (time.perf_counter() - t0) * 1000.0
        decisions[s] += 1
        state.apply_action(action)
        step += 1
    moves = [(h.player, h.action) for h in state.full_history() if h.player >= 0]
    deck = int(params["num_suits"]) * int(params["num_cards_per_suit"])
    bids = [0] * n
    for p, a in moves:
        if a >= deck:
            bids[p] = a - deck
    returns = [float(r) for r in state.returns()]
    return {
        "deal": deal,
        "seed": seed,
        "seat": seat,
        "seats": [table.ours.label if s in ours else table.label for s in range(n)],
        "dealer": chance[1],
        "cards": [card_of(a, params) for a in chance[2:-1]],
        "trump": card_of(chance[-1], params),
        "bids": bids,
        "tricks": _tricks(state),
        "returns": returns,
        "decisions": decisions,
        "forced": forced,
        "think_ms": [round(t, 3) for t in think],
        "cpu_ms": [round(t, 3) for t in cpu],
    }


def _tricks(state: Any) -> list[int]:
    """Tricks won per seat of a finished game, as OpenSpiel's state prints them."""
    for line in str(state).splitlines():
        if line.startswith("Tricks Won:"):
            return [int(x) for x in line.split(":", 1)[1].split()]
    raise ValueError("no tricks in the state's text")


def _run_task(task: _Task) -> dict[str, Any]:
    return play_seating(task.table, task.deal, task.seed, task.ours)


def deal_seeds(deals: int, seed: int) -> list[int]:
    """The seed of every deal of a match: the same whatever the number of processes."""
    rng = random.Random(seed)
    return [rng.randrange(1 << 53) for _ in range(deals)]


def _run(
    tasks: Sequence[_Task],
    processes: int | None,
    progress: Callable[[int, int], None] | None,
    on_record: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    for rec in on_cores(_run_task, tasks, processes, ordered=False):
        records.append(rec)
        if on_record:
            on_record(rec)
        if progress:
            progress(len(records), len(tasks))
    records.sort(key=lambda r: (r["deal"], -1 if r["seat"] is None else r["seat"]))
    return records


def _cpu_ms(table: Table, ours: tuple[int, ...], deals: int, seed: int) -> float:
    """Mean CPU milliseconds per decision that is not forced, of every seat of ``deals``
    timing deals (seeded apart from a match's), ours in the seats ``ours``."""
    seeds = deal_seeds(deals, seed ^ 0x5EED)
    records = _run([_Task(table, d, s, ours) for d, s in enumerate(seeds)], 1, None)
    free: int = sum(sum(r["decisions"]) - sum(r["forced"]) for r in records)
    spent: float = sum(sum(r["cpu_ms"]) for r in records)
    return spent / max(1, free)


def time_opponent(
    opponent: str, simulations: int, deals: int = 3, seed: int = 0, uct_c: float = UCT_C
) -> float:
    """OpenSpiel's bot's mean CPU milliseconds per decision that is not forced, with it
    in every seat of ``deals`` deals."""
    table = Table(parse_player("random"), opponent, simulations, uct_c=uct_c)
    return _cpu_ms(table, (), deals, seed)


@dataclass
class Timing:
    """Equal time per decision, in CPU time: OpenSpiel's bot's milliseconds per decision,
    ours at two iteration counts, and the iterations that should take us as long."""

    opponent_ms: float
    probes: tuple[tuple[int, float], ...]
    iterations: int


def equal_iterations(
    bot: str,
    opponent: str,
    simulations: int,
    deals: int = 3,
    seed: int = 0,
    probes: tuple[int, int] = (250, 2000),
    uct_c: float = UCT_C,
) -> Timing:
    """The iterations of our ``bot`` (a bot that takes an iteration budget) whose CPU time
    per decision equals OpenSpiel's bot's at ``simulations``: both timed on the same
    ``deals`` deals, every seat theirs and then every seat ours at the two ``probes``, a
    straight line through ours (a fixed cost per decision and one per iteration).  CPU
    time, not the wall clock, so that a machine busy with other work does not shift the
    balance; and a fixed count rather than a time budget for the same reason."""
    theirs = time_opponent(opponent, simulations, deals, seed, uct_c)
    timed = []
    for k in probes:
        table = Table(parse_player(f"{bot}:{k}"), opponent, simulations, uct_c=uct_c)
        timed.append((k, _cpu_ms(table, (0, 1, 2, 3), deals, seed)))
    (k0, t0), (k1, t1) = timed
    per_iteration = max(1e-6, (t1 - t0) / (k1 - k0))
    fixed = t0 - per_iteration * k0
    return Timing(theirs, tuple(timed), max(1, int((theirs - fixed) / per_iteration)))


def run_match(
    ours: str,
    opponent: str,
    simulations: int,
    deals: int,
    seed: int = 0,
    processes: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    params: dict[str, Any] | None = None,
    on_record: Callable[[dict[str, Any]], None] | None = None,
    uct_c: float = UCT_C,
) -> tuple[MatchStats, list[dict[str, Any]]]:
    """Play ``deals`` deals, each with our bot ``ours`` (a bot or level, as the arena
    reads it) in each seat in turn against three OpenSpiel bots; the figures and the
    game records (each also given to ``on_record`` as its game ends)."""
    if opponent not in OPPONENTS:
        raise ValueError(f"unknown opponent {opponent!r}; the opponents are {', '.join(OPPONENTS)}")
    player = parse_player(ours)
    if player.reading_model is not None:
        # The bridge decides by level or bot name, as the service does.
        raise ValueError(
            f"{ours!r}: at OpenSpiel's table our bots read the bids by the shipped models only"
        )
    table = Table(player, opponent, simulations, tuple((params or PARAMS).items()), uct_c)
    n = int(dict(table.params)["players"])
    tasks = [
        _Task(table, d, s, (seat,))
        for d, s in enumerate(deal_seeds(deals, seed))
        for seat in range(n)
    ]
    records = _run(tasks, processes, progress, on_record)
    return summarize(records), records


# -- the figures ---------------------------------------------------------------------


@dataclass
class Side:
    """One side's figures: mean score per hand (one game is one hand), its 95% interval
    over deals, exact bids, and milliseconds per decision that was not forced, in CPU
    time and on the wall clock."""

    label: str
    hands: int
    mean_score: float
    ci95: float | None
    exact_rate: float
    decisions: int
    forced: int
    cpu_ms_per_decision: float
    ms_per_decision: float


@dataclass
class MatchStats:
    """Our bot against OpenSpiel's: the difference per deal (our mean over the seatings
    less theirs) with its 95% interval over deals, and each side's figures."""

    deals: int
    games: int
    difference: float
    ci95: float | None
    ours: Side
    theirs: Side

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)

        def rounded(v: Any) -> Any:
            if isinstance(v, float):
                return round(v, 4)
            if isinstance(v, dict):
                return {k: rounded(x) for k, x in v.items()}
            return v

        return {k: rounded(v) for k, v in d.items()}


def summarize(records: Sequence[dict[str, Any]]) -> MatchStats:
    """The match's figures from its game records (those with our bot in a seat)."""
    by_deal: dict[int, tuple[list[float], list[float]]] = {}
    counts = {"ours": [0.0] * 6, "theirs": [0.0] * 6}
    labels = {"ours": "", "theirs": ""}
    for rec in records:
        seat = rec["seat"]
        if seat is None:
            continue
        ours, theirs = by_deal.setdefault(rec["deal"], ([], []))
        for s, points in enumerate(rec["returns"]):
            who = "ours" if s == seat else "theirs"
            (ours if s == seat else theirs).append(points)
            labels[who] = rec["seats"][s]
            c = counts[who]
            c[0] += 1
            c[1] += rec["bids"][s] == rec["tricks"][s]
            c[2] += rec["decisions"][s]
            c[3] += rec["forced"][s]
            c[4] += rec["think_ms"][s]
            c[5] += rec["cpu_ms"][s]
    ours_means = [sum(o) / len(o) for o, _ in by_deal.values()]
    theirs_means = [sum(t) / len(t) for _, t in by_deal.values()]
    diffs = [o - t for o, t in zip(ours_means, theirs_means, strict=True)]

    def side(name: str, means: list[float], points: list[float]) -> Side:
        hands, exact, decisions, forced, think, cpu = counts[name]
        free = int(decisions) - int(forced)
        return Side(
            label=labels[name],
            hands=int(hands),
            mean_score=sum(points) / max(1, len(points)),
            ci95=ci95(means),
            exact_rate=exact / hands if hands else 0.0,
            decisions=int(decisions),
            forced=int(forced),
            cpu_ms_per_decision=cpu / free if free else 0.0,
            ms_per_decision=think / free if free else 0.0,
        )

    return MatchStats(
        deals=len(by_deal),
        games=sum(1 for r in records if r["seat"] is not None),
        difference=sum(diffs) / max(1, len(diffs)),
        ci95=ci95(diffs),
        ours=side("ours", ours_means, [p for o, _ in by_deal.values() for p in o]),
        theirs=side("theirs", theirs_means, [p for _, t in by_deal.values() for p in t]),
    )
