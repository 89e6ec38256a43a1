"""Invariant checks for the property tests, with reference rules written again
from docs/rules.md on card codes (independently of the engine's bitmasks)."""

from __future__ import annotations

import json
from typing import Any

from engine.pocha import Game, hand_points, infer, observe
from engine.pocha.actions import action_to_wire, bid_action
from engine.pocha.cards import BIT, card_code, codes, mask_of
from engine.pocha.hand import HandState
from engine.pocha.observation import Observation

STRENGTH = {r: 9 - i for i, r in enumerate([1, 3, 12, 11, 10, 7, 6, 5, 4, 2])}
ALL_CODES = frozenset(f"{s}{r}" for s in "OCEB" for r in STRENGTH)


def strength(code: str) -> int:
    return STRENGTH[int(code[1:])]


def ref_legal(
    hand: list[str], trick: list[str], trump: str, montar: bool, fallar: bool, pisar: bool
) -> set[str]:
    """docs/rules.md "Playing a trick", steps 1-5, on codes; ``trump`` is a suit letter."""
    if not trick:
        return set(hand)
    lead = trick[0][0]
    follow = [c for c in hand if c[0] == lead]
    table_trumps = [c for c in trick if c[0] == trump]
    if follow:
        if montar and (lead == trump or not table_trumps):
            best = max(strength(c) for c in trick if c[0] == lead)
            higher = [c for c in follow if strength(c) > best]
            if higher:
                return set(higher)
        return set(follow)
    mine = [c for c in hand if c[0] == trump]
    if fallar and mine:
        if pisar and table_trumps:
            best = max(strength(c) for c in table_trumps)
            higher = [c for c in mine if strength(c) > best]
            return set(higher) if higher else set(hand)
        return set(mine)
    return set(hand)


def ref_winner(trick: list[tuple[int, str]], trump: str) -> int:
    """Highest trump, else highest card of the lead suit."""
    lead = trick[0][1][0]

    def key(play: tuple[int, str]) -> tuple[int, int]:
        code = play[1]
        rank = 2 if code[0] == trump else 1 if code[0] == lead else 0
        return rank, strength(code)

    return max(trick, key=key)[0]


def ref_legal_bids(
    cards: int, bids_before: list[int], dealer_bids: bool, restrict: bool
) -> list[int]:
    forbidden = cards - sum(bids_before) if (dealer_bids and restrict) else -1
    return [b for b in range(cards + 1) if b != forbidden]


# -- the state of the hand in progress ------------------------------------------------------


def check_state(game: Game) -> None:
    """Cards conserved, trick structure, sizes, trump, whose turn, legal actions."""
    rules = game.rules
    n = rules.players
    st = game.state
    cards = st.cards
    assert cards == game.cards_per_player
    seen = 0
    for h in game.dealt:
        assert h.bit_count() == cards
        assert not h & seen
        seen |= h
    assert not seen & ~rules.deck
    played = mask_of(c for _, c in game.plays)
    assert len(game.plays) == played.bit_count()  # no card played twice
    held = 0
    for s in range(n):
        h = st.hands[s]
        assert not h & held
        held |= h
        mine = mask_of(c for p, c in game.plays if p == s)
        assert h | mine == game.dealt[s], "a seat's cards are its hand plus what it played"
        assert not h & mine
    assert held | played == seen and not held & played
    whole = cards * n == rules.deck_size
    assert game.trump_holder == (game.dealer if whole else None)
    if whole:
        assert BIT[game.trump_card] & game.dealt[game.dealer]
    else:
        assert not BIT[game.trump_card] & seen
        assert BIT[game.trump_card] & rules.deck
    won, next_seat = check_tricks(
        n, game.mano, "OCEB"[game.trump_suit], [(s, card_code(c)) for s, c in game.plays]
    )
    assert game.tricks_won == won
    if game.finished:
        assert game.turn is None and game.legal_actions() == []
        return
    assert game.turn == st.turn
    if game.phase == "bidding":
        made = [b for b in st.bids if b >= 0]
        k = len(made)
        assert not game.plays
        assert game.turn == (game.mano + k) % n
        assert game.legal_actions() == [
            bid_action(b)
            for b in ref_legal_bids(cards, made, game.turn == game.dealer, rules.dealer_restriction)
        ]
    else:
        assert all(b >= 0 for b in st.bids)
        assert game.turn == next_seat
        trick = [card_code(c) for _, c in game.trick]
        hand = codes(st.hands[st.turn])
        expected = ref_legal(
            hand, trick, "OCEB"[game.trump_suit], rules.montar, rules.fallar, rules.pisar
        )
        legal = game.legal_actions()
        assert {card_code(a) for a in legal} == expected
        assert legal == sorted(set(legal))
        assert mask_of(legal) == game.legal_mask()


def check_tricks(
    n: int, mano: int, trump: str, plays: list[tuple[int, str]]
) -> tuple[list[int], int]:
    """Every trick has one card per player in seat order from its leader; la
    mano leads the first, each winner the next.  The tricks each seat won and
    the seat to play next."""
    leader = mano
    won = [0] * n
    for start in range(0, len(plays), n):
        trick = plays[start : start + n]
        assert [s for s, _ in trick] == [(leader + i) % n for i in range(len(trick))]
        assert len({c for _, c in trick}) == len(trick)
        if len(trick) == n:
            leader = ref_winner(trick, trump)
            won[leader] += 1
    return won, (leader + len(plays) % n) % n


def check_hand_end(game: Game, before: dict[str, Any], plays: list[tuple[int, str]]) -> None:
    """After the last card of a hand: the whole hand's tricks and its scoring.

    ``before`` is the game (as ``to_dict``) before the last card, ``plays``
    the whole hand's cards, the last one included."""
    rules = game.rules
    n = rules.players
    entry = game.history[-1]
    cards = entry["cards"]
    assert len(plays) == n * cards
    assert sorted(c for _, c in plays) == sorted(c for h in before["hand"]["dealt"] for c in h)
    assert entry["hands"] == before["hand"]["dealt"]
    assert entry["trump"]["card"] == before["hand"]["trump"]
    shell = Game.from_dict(before)
    won, _ = check_tricks(n, shell.mano, "OCEB"[shell.trump_suit], plays)
    assert entry["tricks"] == won
    assert sum(entry["tricks"]) == cards
    # bids are stored by seat; the stored hand lists them in bidding order
    order = [(shell.mano + i) % n for i in range(n)]
    assert [entry["bids"][s] for s in order] == before["hand"]["bids"]
    assert entry["points"] == [hand_points(rules, entry["bids"][s], won[s]) for s in range(n)]
    assert entry["totals"] == [before["scores"][s] + entry["points"][s] for s in range(n)]
    assert game.scores == entry["totals"]
    assert entry["dealer"] == shell.dealer
    assert entry["hand_number"] == len(game.history)
    assert entry["tiebreak"] == shell.in_tiebreak
    if game.finished:
        best = max(game.scores)
        leaders = [s for s in range(n) if game.scores[s] == best]
        assert game.winners == leaders
        assert len(leaders) == 1 or not rules.tiebreak or game.extra_hands == 5
        assert game.hand_index == shell.hand_index
    else:
        assert game.hand_index == shell.hand_index + 1
        assert game.dealer == (shell.dealer + 1) % n
        if game.in_tiebreak:
            assert game.cards_per_player == 1
            assert rules.tiebreak
            top = max(game.scores)
            assert [s for s in range(n) if game.scores[s] == top][1:], "a tiebreak needs a tie"


# -- views and inference ------------------------------------------------------------------------


def view_codes(data: Any) -> set[str]:
    """Every card code in a JSON value (compared as whole strings, never substrings)."""
    found: set[str] = set()
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            stack.extend(x.values())
            stack.extend(k for k in x if isinstance(k, str))
        elif isinstance(x, list):
            stack.extend(x)
        elif isinstance(x, str) and x in ALL_CODES:
            found.add(x)
    return found


def check_views(game: Game) -> None:
    """No view shows another seat's unplayed card; views round-trip."""
    n = game.players
    st = game.state
    trump = card_code(game.trump_card)
    played = {card_code(c) for _, c in game.plays}
    history = json.loads(json.dumps(game.history))
    for seat in [None, *range(n)]:
        obs = observe(game, seat)
        text = obs.to_json()
        assert Observation.from_json(text) == obs
        d = json.loads(text)
        assert d["history"] == history
        assert d["hand_sizes"] == [h.bit_count() for h in st.hands]
        assert d["turn"] == game.turn and d["phase"] == game.phase
        assert d["bids"] == game.bids and d["tricks_won"] == game.tricks_won
        assert d["scores"] == game.scores and d["winners"] == game.winners
        assert d["trick"] == [{"seat": s, "card": card_code(c)} for s, c in game.trick]
        assert d["plays"] == [{"seat": s, "card": card_code(c)} for s, c in game.plays]
        assert d["trump"] == {"card": trump, "holder": game.trump_holder}
        assert (d["dealer"], d["mano"], d["hand_number"]) == (
            game.dealer,
            game.mano,
            game.hand_number,
        )
        # The past hands (history) were played out in full: public.  The last
        # trick is public too; it may be the previous hand's, so its cards can
        # be in hands again, which is why it is looked at separately.
        current = {k: v for k, v in d.items() if k not in ("history", "last_trick")}
        shown = view_codes(current)
        own = set(codes(st.hands[seat])) if seat is not None else set()
        assert shown <= own | played | {trump}, shown - own - played - {trump}
        for other in range(n):
            if other != seat:
                hidden = set(codes(st.hands[other])) - {trump}
                assert not shown & hidden
        last = [(p["seat"], p["card"]) for p in d["last_trick"]]
        if len(game.plays) >= n:
            k = len(game.plays) // n * n
            assert last == [(s, card_code(c)) for s, c in game.plays[k - n : k]]
        elif last:
            assert {c for _, c in last} <= {c for h in game.history[-1]["hands"] for c in h}
        if seat is None:
            assert "you" not in d
            assert obs.hand == 0 and obs.legal_actions == ()
        else:
            assert d["you"]["hand"] == codes(st.hands[seat])
            if game.turn == seat:
                # the same actions, bids as numbers and cards as codes
                legal = game.legal_actions()
                assert d["you"]["legal"] == [action_to_wire(a) for a in legal]
                assert obs.legal_actions == tuple(legal)
            else:
                assert d["you"]["legal"] == []


def check_inference(game: Game, seat: int) -> None:
    """Everything ``seat`` infers about the hidden hands is true."""
    rules = game.rules
    n = rules.players
    st = game.state
    k = infer(observe(game, seat))
    assert k.observer == seat
    played = mask_of(c for _, c in game.plays)
    whole = st.cards * n == rules.deck_size
    turned = 0 if whole else BIT[game.trump_card]
    assert k.unseen == rules.deck & ~played & ~st.hands[seat] & ~turned
    assert k.stock_size == rules.deck_size - st.cards * n - (0 if whole else 1)
    for s in range(n):
        real = st.hands[s]
        assert k.hand_sizes[s] == real.bit_count()
        assert not k.present[s] & ~real, "a card said to be there is not"
        assert not k.absent[s] & real, "a card said to be absent is there"
        assert not real & ~k.possible(s)
        if s == seat:
            assert k.present[s] == real
        else:
            assert not real & ~k.unseen
    if whole and BIT[game.trump_card] & st.hands[game.dealer] and seat != game.dealer:
        assert k.present[game.dealer] & BIT[game.trump_card]


# -- the fast path --------------------------------------------------------------------------------


class RecordingHandState(HandState):
    """A HandState that records every card and bid it is given."""

    __slots__ = ("log",)

    log: list[tuple[str, int]]

    @classmethod
    def of(cls, state: HandState) -> RecordingHandState:
        new = cls.__new__(cls)
        for name in HandState.__slots__:
            setattr(new, name, getattr(state, name))
        new.hands = list(state.hands)
        new.bids = list(state.bids)
        new.tricks = list(state.tricks)
        new.log = []
        return new

    def apply_bid(self, bid: int) -> None:
        self.log.append(("bid", bid))
        super().apply_bid(bid)

    def apply_card(self, card: int) -> int:
        self.log.append(("card", card))
        return super().apply_card(card)


def feed(game: Game, log: list[tuple[str, int]]) -> None:
    """Give the validated game the fast path's choices, one by one."""
    for kind, value in log:
        seat = game.turn
        assert seat is not None
        if kind == "bid":
            game.bid(seat, value)
        else:
            game.play(seat, value)
