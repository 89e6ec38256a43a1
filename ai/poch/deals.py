"""Deals consistent with one seat's observation, and a game to search them in.
How it works: docs/poch.md, ``ai.poch.deals``.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from engine import draws
from engine.poch.cards import (
    ACE,
    EIGHT,
    NINE,
    NUM_CARDS,
    SEVEN,
    SUITS,
    Card,
    card,
    parse_card,
    rank_of,
)
from engine.poch.game import Game
from engine.poch.observation import Observation
from engine.poch.rules import Rules

# How often the quick sampler may start again before the exact one takes over.
QUICK_TRIES = 40


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows of the cards of the deal in play; see the module."""

    seat: int
    trump: int
    hands: tuple[frozenset[Card], ...]  # cards known to be held now (the seat's own: all)
    played: tuple[frozenset[Card], ...]  # cards each seat has played this deal
    sizes: tuple[int, ...]  # cards held now
    unseen: tuple[Card, ...]  # cards held by someone the seat cannot name
    caps: tuple[tuple[int, ...], ...]  # per seat and rank: unseen cards of that rank it may hold
    dealer_needs_trump: int | None  # a seat that must be dealt an unseen trump
    no_sequence: bool  # nobody was dealt the trump 7, 8 and 9

    @property
    def players(self) -> int:
        return len(self.sizes)

    def room(self, seat: int) -> int:
        """How many unseen cards ``seat`` holds."""
        return self.sizes[seat] - len(self.hands[seat])

    def consistent(self, hands: list[set[Card]]) -> bool:
        """Whether ``hands`` (every seat's cards now) agrees with everything known."""
        n = self.players
        if sorted(c for h in hands for c in h) != sorted(
            {c for h in self.hands for c in h} | set(self.unseen)
        ):
            return False
        for s in range(n):
            if len(hands[s]) != self.sizes[s] or not self.hands[s] <= hands[s]:
                return False
            counts = [0] * 8
            for c in hands[s] - self.hands[s]:
                counts[rank_of(c)] += 1
            if any(counts[r] > self.caps[s][r] for r in range(8)):
                return False
        return self.dealt_alike(hands)

    def dealt_alike(self, hands: list[set[Card]]) -> bool:
        """Whether ``hands`` keeps the two bounds on the deal as a whole: the dealer's
        trump, and nobody dealt the trump sequence. Enough for hands that place each
        unseen card with a seat within its room and caps, as the quick deals do."""
        if self.dealer_needs_trump is not None and not any(
            c // 8 == self.trump for c in hands[self.dealer_needs_trump]
        ):
            return False
        if self.no_sequence:
            seq = {card(self.trump, r) for r in (SEVEN, EIGHT, NINE)}
            if any(seq <= (hands[s] | self.played[s]) for s in range(self.players)):
                return False
        return True


def knowledge_of(obs: Observation) -> Knowledge:
    """What ``obs``'s seat knows of the cards; the observation must have a seat and a deal."""
    if obs.seat is None or obs.hand is None or obs.trump is None:
        raise ValueError("a deal in play, seen from a seat, is needed")
    n = len(obs.hand_sizes)
    seat = obs.seat
    trump = SUITS.index(obs.trump)
    played: list[set[Card]] = [set() for _ in range(n)]
    for s, c in obs.played:
        played[s].add(c)
    gone = {c for _, c in obs.played}
    shown: list[set[Card]] = [set() for _ in range(n)]
    for entry in obs.collected:
        shown[int(entry["seat"])].update(parse_card(code) for code in entry["cards"])
    for s, cs in obs.showdown.items():
        shown[s].update(cs)
    hands = [frozenset(shown[s] - gone) for s in range(n)]
    hands[seat] = frozenset(obs.hand)
    known = {c for h in hands for c in h} | gone
    unseen = tuple(c for c in range(NUM_CARDS) if c not in known)
    # Caps from the showdown: once anyone paid, every player at the table showed their best set.
    caps = [[4] * 8 for _ in range(n)]
    showdown_held = obs.phase != "betting" and any(b["amount"] > 0 for b in obs.bets)
    if showdown_held:
        for s in range(n):
            if s == seat or not obs.active[s]:
                continue
            cs = obs.showdown.get(s, ())
            if not cs:
                caps[s] = [1] * 8
                continue
            size, top = len(cs), rank_of(cs[0])
            for r in range(8):
                # A rank above the set's held fewer cards than the set; one below, no more.
                caps[s][r] = size if r == top else (size - 1 if r > top else size)
    for s in _passed_over(obs):
        caps[s][SEVEN] = caps[s][ACE] = 0
    for s in range(n):
        dealt_known = shown[s] | played[s] | (set(obs.hand) if s == seat else set())
        for r in range(8):
            caps[s][r] = max(0, caps[s][r] - sum(1 for c in dealt_known if rank_of(c) == r))
    caps[seat] = [0] * 8
    dealer = obs.dealer
    dealer_known = shown[dealer] | played[dealer] | (set(obs.hand) if dealer == seat else set())
    needs = None if any(c // 8 == trump for c in dealer_known) else dealer
    no_sequence = obs.phase in ("betting", "starting", "choosing") and not any(
        e["plate"] == "sequence" for e in obs.collected
    )
    return Knowledge(
        seat=seat,
        trump=trump,
        hands=tuple(hands),
        played=tuple(frozenset(p) for p in played),
        sizes=tuple(obs.hand_sizes),
        unseen=unseen,
        caps=tuple(tuple(c) for c in caps),
        dealer_needs_trump=needs,
        no_sequence=no_sequence,
    )


def _passed_over(obs: Observation) -> list[int]:
    """The seats that held no 7 and no ace: those before the one who started the shedding,
    going round from the winner of the betting (else Vorhand)."""
    if obs.phase == "starting":
        opener = obs.turn
    elif obs.phase == "choosing" and obs.played:
        opener = obs.played[0][0]
    else:
        return []
    n = len(obs.active)
    around = [s for s in ((obs.dealer + 1 + k) % n for k in range(n)) if obs.active[s]]
    first = obs.starter if obs.starter is not None else around[0]
    around = around[around.index(first) :] + around[: around.index(first)]
    return around[: around.index(opener)] if opener in around else []


class DealSampler:
    """Random deals of the unseen cards, each consistent with a ``Knowledge``."""

    def __init__(self, knowledge: Knowledge) -> None:
        self.k = knowledge
        n = knowledge.players
        self.others = [s for s in range(n) if knowledge.room(s) > 0]
        # With no cap below what a seat could hold of a rank, only the counts bind: a
        # shuffle serves.
        unseen_of = [sum(1 for c in knowledge.unseen if rank_of(c) == r) for r in range(8)]
        self.capped = any(
            knowledge.caps[s][r] < min(unseen_of[r], knowledge.room(s))
            for s in self.others
            for r in range(8)
        )

    def sample(self, rng: random.Random) -> list[set[Card]]:
        """Every seat's cards now, in a deal consistent with what the seat knows."""
        k = self.k
        for _ in range(QUICK_TRIES):
            # Both quick deals give each seat its room from the unseen cards, the greedy one
            # within the caps, the shuffle where no cap binds: the rest of ``consistent``
            # holds by construction (tests/ai/poch/test_deals.py checks every bound).
            hands = self._shuffled(rng) if not self.capped else self._greedy(rng)
            if hands is not None and k.dealt_alike(hands):
                return hands
        hands = self._exact(rng)
        if not k.consistent(hands):  # cannot happen: the search keeps every bound
            raise RuntimeError("no deal of the unseen cards agrees with the observation")
        return hands

    def _base(self) -> list[set[Card]]:
        return [set(h) for h in self.k.hands]

    def _shuffled(self, rng: random.Random) -> list[set[Card]]:
        cards = list(self.k.unseen)
        draws.shuffle(cards, rng)
        hands = self._base()
        i = 0
        for s in self.others:
            room = self.k.room(s)
            hands[s].update(cards[i : i + room])
            i += room
        return hands

    def _greedy(self, rng: random.Random) -> list[set[Card]] | None:
        """Each card, in random order, to a seat with room for it; None at a dead end."""
        k = self.k
        cards = list(k.unseen)
        draws.shuffle(cards, rng)
        room = {s: k.room(s) for s in self.others}
        caps = {s: list(k.caps[s]) for s in self.others}
        hands = self._base()
        for c in cards:
            r = rank_of(c)
            fits = [s for s in self.others if room[s] > 0 and caps[s][r] > 0]
            if not fits:
                return None
            total = sum(room[s] for s in fits)
            pick = draws.randbelow(total, rng)
            for s in fits:
                pick -= room[s]
                if pick < 0:
                    break
            hands[s].add(c)
            room[s] -= 1
            caps[s][r] -= 1
        return hands

    def _exact(self, rng: random.Random) -> list[set[Card]]:
        """An exact search: the unseen trumps first (they decide the dealer's trump and the
        sequence), each way in random order, then the rest card by card, each to a random
        seat that leaves the rest placeable (a flow check). Finds a deal whenever one
        exists."""
        k = self.k
        special = [c for c in k.unseen if c // 8 == k.trump]
        rest = [c for c in k.unseen if c // 8 != k.trump]
        ways = list(itertools.product(self.others, repeat=len(special)))
        draws.shuffle(ways, rng)
        for way in ways:
            room = {s: k.room(s) for s in self.others}
            caps = {s: list(k.caps[s]) for s in self.others}
            hands = self._base()
            for c, s in zip(special, way, strict=True):
                room[s] -= 1
                caps[s][rank_of(c)] -= 1
                hands[s].add(c)
            if min(room.values(), default=0) < 0 or any(
                v < 0 for s in self.others for v in caps[s]
            ):
                continue
            if k.dealer_needs_trump is not None and not any(
                c // 8 == k.trump for c in hands[k.dealer_needs_trump]
            ):
                continue
            if k.no_sequence:
                seq = {card(k.trump, r) for r in (SEVEN, EIGHT, NINE)}
                if any(seq <= (hands[s] | k.played[s]) for s in range(k.players)):
                    continue
            left = [0] * 8
            for c in rest:
                left[rank_of(c)] += 1
            if not _placeable(left, room, caps):
                continue
            cards = list(rest)
            draws.shuffle(cards, rng)
            for c in cards:
                r = rank_of(c)
                left[r] -= 1
                seats = [s for s in self.others if room[s] > 0 and caps[s][r] > 0]
                draws.shuffle(seats, rng)
                for s in seats:
                    room[s] -= 1
                    caps[s][r] -= 1
                    if _placeable(left, room, caps):
                        hands[s].add(c)
                        break
                    room[s] += 1
                    caps[s][r] += 1
                else:  # cannot happen: the rest was placeable before this card
                    break
            else:
                return hands
        raise RuntimeError("no deal of the unseen cards agrees with the observation")


def _placeable(left: list[int], room: dict[int, int], caps: dict[int, list[int]]) -> bool:
    """Whether ``left[r]`` cards of each rank fit the seats' room and caps (a max flow)."""
    need = sum(left)
    if need > sum(room.values()):
        return False
    seats = list(room)
    flow = {(r, s): 0 for r in range(8) for s in seats}
    sent = [0] * 8
    into = dict.fromkeys(seats, 0)
    total = 0
    while total < need:
        # Breadth-first search for an augmenting path: source -> rank -> seat -> ... -> sink.
        prev: dict[tuple[str, int], tuple[str, int] | None] = {}
        queue: list[tuple[str, int]] = []
        for r in range(8):
            if sent[r] < left[r]:
                prev[("r", r)] = None
                queue.append(("r", r))
        end = None
        while queue and end is None:
            kind, x = queue.pop(0)
            if kind == "r":
                for s in seats:
                    if ("s", s) not in prev and flow[(x, s)] < caps[s][x]:
                        prev[("s", s)] = (kind, x)
                        if into[s] < room[s]:
                            end = ("s", s)
                            break
                        queue.append(("s", s))
            else:
                for r in range(8):
                    if ("r", r) not in prev and flow[(r, x)] > 0:
                        prev[("r", r)] = (kind, x)
                        queue.append(("r", r))
        if end is None:
            return False
        into[end[1]] += 1
        node: tuple[str, int] = end
        while True:
            back = prev[node]
            if back is None:
                sent[node[1]] += 1
                break
            if node[0] == "s":
                flow[(back[1], node[1])] += 1
            else:
                flow[(node[1], back[1])] -= 1
            node = back
        total += 1
    return True


def game_for(obs: Observation, hands: list[set[Card]]) -> Game:
    """The game of ``obs`` with ``hands`` dealt, ending when the current deal ends.

    The copy's rules allow no deal after this one, so playing it out stops at the
    payout; its chips then are what the deal brought every seat.
    """
    rules = Rules.from_dict({**obs.rules, "deals": obs.deal})
    game = Game(rules, 0)
    game.chips = list(obs.chips)
    game.active = list(obs.active)
    game.plates = dict(obs.plates)
    game.pot = obs.pot
    game.deal_no = obs.deal
    game.dealer = obs.dealer
    game.phase = obs.phase
    game.turn = obs.turn
    game.hands = [set(h) for h in hands]
    assert obs.trump is not None
    game.trump = SUITS.index(obs.trump)
    game.collected = [dict(e) for e in obs.collected]
    game.bets = [dict(b) for b in obs.bets]
    game.order = [
        s for s in ((obs.dealer + 1 + k) % len(hands) for k in range(len(hands))) if obs.active[s]
    ]
    game.showdown = {s: sorted(cs) for s, cs in obs.showdown.items()}
    game.starter = obs.starter
    game.direction = {"up": 1, "down": -1}.get(obs.direction or "", 0)
    game.suit = None if obs.suit is None else SUITS.index(obs.suit)
    game.suits_done = [SUITS.index(s) for s in obs.suits_done]
    game.played = list(obs.played)
    game.deal_results = [dict(r) for r in obs.deal_results]
    return game


def fork(game: Game, hands: list[set[Card]]) -> Game:
    """A copy of ``game`` (one ``game_for`` made) with other hands, for a search to play out:
    cheaper than ``clone``, and quiet (its card plays report no events)."""
    copy = Game(game.rules, game.seed)
    copy.chips = list(game.chips)
    copy.active = list(game.active)
    copy.plates = dict(game.plates)
    copy.pot = game.pot
    copy.deal_no = game.deal_no
    copy.dealer = game.dealer
    copy.phase = game.phase
    copy.turn = game.turn
    copy.hands = [set(h) for h in hands]
    copy.trump = game.trump
    copy.collected = list(game.collected)
    copy.bets = list(game.bets)
    copy.order = list(game.order)
    copy.showdown = dict(game.showdown)
    copy.starter = game.starter
    copy.direction = game.direction
    copy.suit = game.suit
    copy.suits_done = list(game.suits_done)
    copy.played = list(game.played)
    copy.quiet = True
    return copy
