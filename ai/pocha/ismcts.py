"""ISMCTS: Information Set Monte Carlo Tree Search for one seat.
How it works: docs/internals.md, ``ai.pocha.ismcts``.
"""

from __future__ import annotations

import gc
import math
import random
import time
from bisect import bisect_right
from collections.abc import Callable

from ai import courtesy
from ai.bot import ActionStat, Budget, Decision, legal_actions, settled
from ai.pocha.hand_value import hand_estimate
from ai.pocha.location import LocationModel, LocationReading
from ai.pocha.location import reads as reads_locations
from ai.pocha.reading import (
    BidModel,
    BidModels,
    BidReading,
    as_models,
    cumulative_weights,
    modelled_bid,
)
from ai.pocha.student import StudentModel, shipped_student
from engine.pocha import bits
from engine.pocha.actions import BID_BASE
from engine.pocha.cards import CardSet
from engine.pocha.deals import DealSampler, state_from_observation
from engine.pocha.hand import HandState, hand_points, play_out
from engine.pocha.inference import Knowledge, infer
from engine.pocha.legality import legal_cards
from engine.pocha.observation import Observation
from engine.pocha.tricks import BEATERS

DEFAULT_ITERATIONS = 1000
EXPLORATION = 0.7
# Deals drawn once per decision for the reading of bids to weigh.
READING_POOL = 300


class Node:
    """A node of the shared tree: reached by ``action`` played by ``player``."""

    __slots__ = ("avail", "children", "n", "own", "w")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.n = 0
        self.w = 0.0
        self.avail = 1
        # With rivalry, the searching seat's own hand scores summed, without it; kept
        # on the root's children only, for the analysis's mean score.
        self.own = 0.0


# -- playout policies ---------------------------------------------------------


def playout_greedy(st: HandState, rand: Callable[[], float]) -> None:
    """Finish the hand with a cheap bid-aware policy: a seat short of its bid
    plays its strongest legal card that takes the trick, one that has made it
    plays under the winning card when it can; ties broken at random.  Seats
    still to bid bid what their hand looks worth (``quick_bid``)."""
    while st.bidding:
        st.apply_bid(quick_bid(st))
    hands = st.hands
    bids_ = st.bids
    tricks = st.tricks
    trump, montar, fallar, pisar = st.trump, st.montar, st.fallar, st.pisar
    beaters = BEATERS[trump]
    while st.tricks_left:
        seat = st.turn
        legal = legal_cards(hands[seat], st.lead, st.win, trump, montar, fallar, pisar)
        if legal & (legal - 1):
            want = tricks[seat] < bids_[seat]
            win = st.win
            if win < 0:
                # Leading: random card, the cheap and unbiased choice.
                count = bits.bit_count(legal)
                # The draw through a local, so that the compiled engine multiplies C doubles.
                draw = rand()
                k = int(draw * count)
                while k:
                    legal &= legal - 1
                    k -= 1
                st.apply_card(bits.bit_length(legal & -legal) - 1)
                continue
            # The table's mask first, then the &: C integers in the compiled engine.
            beat = beaters[win]
            beat &= legal
            if want:
                if beat:
                    # Highest card that takes the trick (last block = trumps
                    # when trumping is possible, which is what wins).
                    st.apply_card(bits.bit_length(beat) - 1)
                else:
                    st.apply_card(bits.bit_length(legal & -legal) - 1)
            else:
                under = legal & ~beat
                if under:
                    st.apply_card(bits.bit_length(under) - 1)
                else:
                    st.apply_card(bits.bit_length(beat & -beat) - 1)
        else:
            st.apply_card(bits.bit_length(legal) - 1)


def quick_bid(st: HandState) -> int:
    """A cheap bid for the seat to move: its hand's estimated tricks, rounded,
    moved off the dealer's forbidden number."""
    want = hand_estimate(st.hands[st.turn], st.trump)
    bid = min(st.cards, int(want + 0.5))
    if bid == st.forbidden_bid():
        bid = bid + 1 if (want > bid and bid < st.cards) or bid == 0 else bid - 1
    return bid


# The engine's own random playout is the uniform policy.
PLAYOUTS: dict[str, Callable[[HandState, Callable[[], float]], None]] = {
    "random": play_out,
    "greedy": playout_greedy,
}


# -- the leaf value ------------------------------------------------------------

#: The leaf value's inputs a seat (``expected_tricks``), after a constant one.
LEAF_FEATURES = 12
#: Its tables' cells: tricks left 0..10, the tricks still wanted (bid less taken) from -1 to
#: 11, and the expected tricks less those wanted in half tricks from -3 to +3.
LEAF_LEFT = 11
LEAF_NEEDS = 13
LEAF_BINS = 13


class LeafValue:
    """A learned value of a hand's end for every seat, read from a whole state (every hand
    known, as a playout sees it; ``ai.pocha.leaf_value``). The tricks a seat will still take
    are a linear function of its cards against the others' (``expected_tricks``); from
    those, the tricks left and the tricks it still wants, two tables give how often it makes
    its bid exactly and by how many tricks it misses on average (``leaf_value``). The search
    takes ``weight`` of it and the rest of the playout's score, from ``tricks`` tricks left
    up (``iterate``)."""

    __slots__ = ("exact", "miss", "off", "tricks", "weight", "weights")

    def __init__(
        self,
        weights: list[float],
        exact: list[float],
        off: list[float],
        weight: float = 1.0,
        tricks: int = 1,
        miss: float = 0.0,
    ) -> None:
        self.weights = weights
        # Flat tables, cell (left, needs + 1, bin): the share of exact bids, the mean miss.
        self.exact = exact
        self.off = off
        self.weight = weight
        self.tricks = tricks
        # A trick missed, in the search's scaled points (set by the search for its game).
        self.miss = miss


def expected_tricks(
    weights: list[float], st: HandState, seat: int, out: list[float] | None = None
) -> float:
    """The tricks ``seat`` will still take from ``st``, by ``weights`` (a constant's, then
    one per input); with ``out`` its inputs are appended there too (for fitting)."""
    hands = st.hands
    trump = st.trump
    mine = hands[seat]
    others = 0
    for s in range(st.n):
        if s != seat:
            # Through a local, so that the compiled engine ors C integers.
            h = hands[s]
            others |= h
    trump_top = 0
    side_top = 0
    trumps = 0
    their_trumps = 0
    side = 0
    voids = 0
    for u in range(4):
        m = mine >> (10 * u) & 1023
        o = others >> (10 * u) & 1023
        # My cards above every card of the suit the others hold: they win when played.
        top = bits.bit_count(m >> bits.bit_length(o))
        if u == trump:
            trump_top = top
            trumps = bits.bit_count(m)
            their_trumps = bits.bit_count(o)
        else:
            side_top += top
            side += bits.bit_count(m)
            if not m:
                voids += 1
    left = st.tricks_left
    need = st.bids[seat] - st.tricks[seat]
    winning = 1 if st.in_trick and st.winner == seat else 0
    played = 1 if (seat - st.leader + st.n) % st.n < st.in_trick else 0
    f1 = float(trump_top)
    f2 = float(side_top)
    f3 = float(trumps)
    f4 = float(their_trumps)
    f5 = float(side)
    f6 = float(voids if trumps else 0)
    f7 = hand_estimate(mine, trump)
    f8 = float(winning)
    f9 = float(played)
    f10 = float(left)
    f11 = float(min(max(need, 0), left))
    f12 = 1.0 if need <= 0 else 0.0
    if out is not None:
        out.extend((f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12))
    # The weights into locals one by one: C doubles in the compiled engine, so that the
    # sum is C's, in the same order as Python's.
    w0 = weights[0]
    w1 = weights[1]
    w2 = weights[2]
    w3 = weights[3]
    w4 = weights[4]
    w5 = weights[5]
    w6 = weights[6]
    w7 = weights[7]
    w8 = weights[8]
    w9 = weights[9]
    w10 = weights[10]
    w11 = weights[11]
    w12 = weights[12]
    return (
        w0 + w1 * f1 + w2 * f2 + w3 * f3 + w4 * f4 + w5 * f5 + w6 * f6
        + w7 * f7 + w8 * f8 + w9 * f9 + w10 * f10 + w11 * f11 + w12 * f12
    )  # fmt: skip


def leaf_cell(left: int, need: int, expected: float) -> int:
    """The tables' cell for ``left`` tricks left, ``need`` tricks still wanted and
    ``expected`` tricks still to take (clipped to what is left)."""
    if expected < 0.0:
        expected = 0.0
    if expected > left:
        expected = float(left)
    x = 2.0 * (expected - need) + 6.5
    if x < 0.0:
        x = 0.0
    b = int(x)
    if b > LEAF_BINS - 1:
        b = LEAF_BINS - 1
    k = need
    if k < -1:
        k = -1
    if k > LEAF_NEEDS - 2:
        k = LEAF_NEEDS - 2
    return (left * LEAF_NEEDS + k + 1) * LEAF_BINS + b


def leaf_value(leaf: LeafValue, st: HandState, seat: int, points: list[list[float]]) -> float:
    """The seat's expected hand score from ``st`` (bids all made), in the search's scaled
    points: how often it makes its bid times the bid's score, less its mean miss."""
    bid = st.bids[seat]
    need = bid - st.tricks[seat]
    cell = leaf_cell(st.tricks_left, need, expected_tricks(leaf.weights, st, seat))
    exact = leaf.exact[cell]
    off = leaf.off[cell]
    row = points[bid]
    score = row[bid]
    return exact * score + off * leaf.miss


# -- the search ----------------------------------------------------------------


class ISMCTSBot:
    """Single-observer ISMCTS over bids and cards, within a budget."""

    def __init__(
        self,
        playout: str = "greedy",
        exploration: float = EXPLORATION,
        name: str = "ismcts",
        reading: bool = False,
        modelled_bids: bool = False,
        rivalry: float = 0.0,
        bid_models: BidModels | None = None,
        locations: bool = False,
        location_bids: bool = False,
        location_model: LocationModel | None = None,
        student: float = 0.0,
        student_model: StudentModel | None = None,
    ) -> None:
        self.name = name
        self.playout = PLAYOUTS[playout]
        self.exploration = exploration
        # Deal from a pool weighted by the other seats' bids (ai.pocha.reading), not uniformly.
        self.reading = reading
        # In the tree, the other seats bid from their dealt hands by the reading's model
        # rather than by the tree's statistics, which pool all their possible hands.
        self.modelled_bids = modelled_bids
        # Weight of the other seats' mean hand score against the searcher's own.
        self.rivalry = rivalry
        # The reading's models of how seats bid: the shipped ones unless given.
        self.bid_models = bid_models
        # Deal from a pool weighted by the learned model of where the unseen cards are
        # (ai.pocha.location), on the games it reads; with location_bids, by the bids' reading
        # too, although the model has read the bids already.
        self.locations = locations
        self.location_bids = location_bids
        # The model of card locations: the shipped one unless given.
        self.location_model = location_model
        # The weight of the student's bid (ai.pocha.student) against the search's shares
        # when bidding: at 1 the student bids alone, without a search.
        self.student = student
        self.student_model = student_model

    def decide(
        self,
        obs: Observation,
        budget: Budget | None = None,
        seed: int | None = None,
        analyse: bool = False,
    ) -> Decision:
        actions = legal_actions(obs)
        if len(actions) == 1 and not analyse:
            return Decision(action=actions[0])
        taught: dict[int, float] = {}
        if self.student and obs.bidding:
            started = time.perf_counter()
            model = self.student_model or shipped_student()
            taught = {BID_BASE + b: p for b, p in model.bid_shares(obs).items()}
            if self.student >= 1.0 and not analyse:
                best = max(taught, key=lambda a: (taught[a], -a))
                return Decision(action=best, elapsed_ms=(time.perf_counter() - started) * 1000)
        budget = budget or Budget(iterations=DEFAULT_ITERATIONS)
        # Without analysis or the student's shares only the most visited move matters, so the
        # search may stop once no move can catch it up (``settled``).
        root, iterations, elapsed = self.search(
            obs, budget, seed, settle=not (analyse or taught), prior=self.root_prior(obs)
        )
        seat = obs.seat
        assert seat is not None
        stats = []
        for a in actions:
            child = root.children.get(a)
            visits = child.n if child else 0
            # Without rivalry the tree's reward for the seat is its own score already.
            own = (child.own if self.rivalry else child.w) if child else 0.0
            mean = own / child.n * reward_scale(obs) if child and child.n else 0.0
            stats.append((a, visits, mean))
        best = max(stats, key=lambda t: (t[1], t[2]))[0]
        total = sum(v for _, v, _ in stats) or 1
        if taught:
            # The search's shares and the student's, blended by the student's weight.
            w = self.student
            best = max(
                stats, key=lambda t: ((1 - w) * t[1] / total + w * taught.get(t[0], 0.0), t[2])
            )[0]
        analysis = tuple(ActionStat(a, v, v / total, m) for a, v, m in stats) if analyse else ()
        return Decision(
            action=best,
            analysis=analysis,
            iterations=iterations,
            elapsed_ms=elapsed * 1000,
        )

    def root_prior(self, obs: Observation) -> dict[int, float] | None:
        """The root's moves each with its weight in a PUCT term (``iterate``), for a bot
        that has a prior over its moves; none here."""
        return None

    def leaf(self, obs: Observation) -> LeafValue | None:
        """The learned value the search takes at its leaves (``iterate``), for a bot that
        has one; none here: every leaf is played out."""
        return None

    def knowledge(self, obs: Observation) -> Knowledge:
        """What the seat knows of the hidden hands, which every deal must fit: what
        ``engine.pocha.inference`` reads from its view."""
        return infer(obs)

    def search(
        self,
        obs: Observation,
        budget: Budget,
        seed: int | None,
        settle: bool = False,
        prior: dict[int, float] | None = None,
    ) -> tuple[Node, int, float]:
        """Run ISMCTS from ``obs``; the root, the iterations done and the time. With
        ``settle`` it stops early once the most visited move is the budget's whole run's
        (``settled``), so it plays what the whole run would, not its shares; with ``prior``
        the root's moves are chosen by it (``iterate``)."""
        # The budget's time covers the whole decision, the reading's deals included.
        start = time.perf_counter()
        deadline = start + budget.milliseconds / 1000.0 if budget.milliseconds is not None else None
        rng = random.Random(seed)
        c = self.exploration
        playout = self.playout
        rules = obs.rules
        n = rules.players
        scale = 1.0 / reward_scale(obs)
        points = [
            [hand_points(rules, b, w) * scale for w in range(obs.cards_per_player + 1)]
            for b in range(obs.cards_per_player + 1)
        ]
        knowledge = self.knowledge(obs)
        sampler = DealSampler(knowledge)
        own = obs.hand
        base = state_from_observation(obs, sampler.sample(own, rng))
        pool: list[list[CardSet]] = []
        cum: list[float] = []
        # With location_bids the bids are read by their own model, and the cards' model
        # joins it once cards have been played (before that it reads only the bids).
        if (
            self.locations
            and reads_locations(obs)
            and (obs.plays or (not self.location_bids and any(b is not None for b in obs.bids)))
        ):
            located = LocationReading(obs, knowledge, self.location_model)
            pool = [sampler.sample(own, rng) for _ in range(READING_POOL)]
            logs = [located.log_weight(h) for h in pool]
            if self.location_bids:
                reading = BidReading(obs, self.bid_models)
                logs = [lw + reading.log_weight(h) for lw, h in zip(logs, pool, strict=True)]
            cum = cumulative_weights(logs)
        elif self.reading:
            reading = BidReading(obs, self.bid_models)
            if reading.informative:
                pool = [sampler.sample(own, rng) for _ in range(READING_POOL)]
                cum = reading.cumulative_weights(pool)
        modelled = self.modelled_bids
        bid_model = as_models(self.bid_models).for_cards(obs.cards_per_player)
        rivalry = self.rivalry
        me = obs.seat
        assert me is not None
        whole_deck = obs.trump_holder is not None
        root = Node()
        max_iter = budget.iterations if budget.iterations is not None else 1 << 60
        # The search makes no reference cycle (the tree points only down), but its many
        # small lists and states set off the cyclic collector, which walks the growing tree
        # each time: a tenth of the compiled search's time. Off for the loop, if it was on.
        collecting = gc.isenabled()
        gc.disable()
        try:
            it = iterate(
                root, base, sampler, own, rng, pool, cum, points, playout, c, n,
                modelled, bid_model, whole_deck, rivalry, me, max_iter, deadline, settle,
                prior, self.leaf(obs),
            )  # fmt: skip
        finally:
            if collecting:
                gc.enable()
        return root, it, time.perf_counter() - start


def iterate(
    root: Node,
    base: HandState,
    sampler: DealSampler,
    own: CardSet,
    rng: random.Random,
    pool: list[list[CardSet]],
    cum: list[float],
    points: list[list[float]],
    playout: Callable[[HandState, Callable[[], float]], None],
    c: float,
    n: int,
    modelled: bool,
    bid_model: BidModel,
    whole_deck: bool,
    rivalry: float,
    me: int,
    max_iter: int,
    deadline: float | None,
    settle: bool = False,
    prior: dict[int, float] | None = None,
    leaf: LeafValue | None = None,
) -> int:
    """ISMCTS's iterations from ``root`` over deals from ``pool`` (weighted by ``cum``) or
    ``sampler``, until ``max_iter`` or ``deadline`` or, with ``settle``, until the root's
    most visited move is ``settled``; the iterations done. With ``prior`` the root's moves,
    once each is tried, are chosen by PUCT (AlphaZero's: mean plus the move's weight in
    ``prior`` times the square root of its availability over one more than its visits),
    every other node's by UCB. With ``leaf`` a leaf with ``leaf.tricks`` tricks or more
    left is scored by its learned value, ``leaf.weight`` of it and the rest of the
    playout's score (none past a weight of 1). A function of its own, apart from
    ``ISMCTSBot.search``, so that the compiled engine can type its locals
    (ai/pocha/_compiled/ismcts.pxd)."""
    rand = rng.random
    log = math.log
    sqrt = math.sqrt
    total = cum[-1] if cum else 0.0
    wait = courtesy.wait
    it = 0
    while it < max_iter:
        if wait is not None and it & 3 == 0:
            wait()  # a quick turn beside this search goes first (ai.courtesy)
        if it & 15 == 0:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            # Only past half the budget can a lead exceed the iterations left.
            if settle and 2 * it > max_iter and settled(root, max_iter - it):
                break
        it += 1
        hands = pool[bisect_right(cum, rand() * total)][:] if pool else sampler.sample(own, rng)
        st = base.copy()
        st.hands = hands
        node = root
        path = [root]
        movers = [-1]
        # Selection and expansion.
        while not st.done:
            seat = st.turn
            if modelled and st.bidding and seat != me:
                a = BID_BASE + modelled_bid(st, rand, whole_deck, bid_model)
                child = node.children.get(a)
                st.apply_bid(a - BID_BASE)
                movers.append(seat)
                if child is None:
                    child = node.children[a] = Node()
                    path.append(child)
                    break
                node = child
                path.append(node)
                continue
            acts = st.legal_actions()
            children = node.children
            # One look-up a move: each child already made was available, whether the search
            # tries a new move here or picks among the children by UCB.
            untried = []
            best_a = -1
            best_v = -1e9
            best_child = None
            for a in acts:
                ch = children.get(a)
                if ch is None:
                    untried.append(a)
                    continue
                ch.avail += 1
                if not untried:
                    if node is root and prior is not None:
                        v = ch.w / ch.n + prior.get(a, 0.0) * sqrt(ch.avail) / (1 + ch.n)
                    else:
                        v = ch.w / ch.n + c * sqrt(log(ch.avail) / ch.n)
                    if v > best_v:
                        best_v = v
                        best_a = a
                        best_child = ch
            if untried:
                draw = rand()
                a = untried[int(draw * len(untried))]
                child = Node()
                children[a] = child
                st.apply_action(a)
                path.append(child)
                movers.append(seat)
                break
            assert best_child is not None
            st.apply_action(best_a)
            node = best_child
            path.append(node)
            movers.append(seat)
        valued = None
        lam = 0.0
        if leaf is not None and not st.done:
            # The learned value of the leaf's whole state, once every seat has bid.
            while st.bidding:
                st.apply_bid(quick_bid(st))
            if st.tricks_left >= leaf.tricks:
                valued = [leaf_value(leaf, st, s, points) for s in range(n)]
                lam = leaf.weight
        if valued is not None and lam >= 1.0:
            rewards = valued
        else:
            # Playout to the hand's end.
            if not st.done:
                playout(st, rand)
            bids = st.bids
            tricks = st.tricks
            rewards = [points[bids[s]][tricks[s]] for s in range(n)]
            if valued is not None:
                rewards = [(1.0 - lam) * rewards[s] + lam * valued[s] for s in range(n)]
        if rivalry:
            path[1].own += rewards[me]
            rewards[me] -= rivalry * (sum(rewards) - rewards[me]) / (n - 1)
        for node_, mover in zip(path, movers, strict=True):
            node_.n += 1
            if mover >= 0:
                node_.w += rewards[mover]
    return it


def reward_scale(obs: Observation) -> float:
    """The most a seat can score in this hand: a search's rewards are its scores over this."""
    rules = obs.rules
    return float(max(1, rules.exact_bonus + rules.per_trick * obs.cards_per_player))
