"""Properties over thousands of random seeded games and hands.

Random players (3-8) and random rule options, mostly short explicit
schedules, played with uniformly random legal actions.  After every action:
cards are conserved, every trick has one card per player from the right
leader and goes to the right seat, the listed legal actions are those of the
rules (an independent re-implementation on card codes), and at each hand's
end the tricks add up and the scores follow the formula.  Some runs also try
every card and bid on a copy (the listed actions are exactly the accepted
ones), round-trip the game through JSON, check every view and inference, or
replay the fast path's choices through the validated game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import IllegalActionError, NotYourTurnError
from engine.pocha import Game, Rules, play_out
from engine.pocha.actions import Action, bid_action, is_bid
from engine.pocha.cards import NUM_CARDS, SUIT_OF, card_code, cards_list, codes
from engine.pocha.hand import HandState, deal
from tests.engine.pocha.engine_checks import (
    RecordingHandState,
    check_hand_end,
    check_inference,
    check_state,
    check_views,
    feed,
    ref_legal,
    ref_legal_bids,
)
from tests.engine.pocha.engine_support import random_rules


@dataclass
class Checks:
    views: bool = False
    inference: bool = False
    json: bool = False
    accepts: bool = False
    fast: bool = False
    # fraction of steps at which the optional checks run
    rate: float = 1.0


@dataclass
class Tally:
    games: int = 0
    hands: int = 0
    actions: int = 0
    tiebreaks: int = 0


def drive(rules: Rules, seed: int, rng: random.Random, checks: Checks, tally: Tally) -> Game:
    """Play a whole random game, checking after every action."""
    game = Game.new(rules, seed=seed)
    n = rules.players
    while True:
        check_state(game)
        if rng.random() < checks.rate:
            if checks.views:
                check_views(game)
            if checks.inference:
                for seat in range(n):
                    check_inference(game, seat)
            if checks.json:
                assert Game.from_json(game.to_json()) == game
            if checks.accepts and not game.finished:
                check_accepts(game, rng)
            if checks.fast and not game.finished:
                check_fast_path(game, rng)
        if game.finished:
            break
        seat = game.turn
        assert seat is not None
        action = rng.choice(game.legal_actions())
        st_ = game.state
        last_card = not st_.bidding and st_.tricks_left == 1 and st_.in_trick == n - 1
        before = game.to_dict() if last_card else None
        plays = [(s, card_code(c)) for s, c in game.plays]
        events = game.apply(seat, action)
        tally.actions += 1
        assert events[0]["seat"] == seat
        if before is not None:
            assert not is_bid(action)
            assert [e["type"] for e in events][:3] == ["card_played", "trick_won", "hand_scored"]
            check_hand_end(game, before, [*plays, (seat, card_code(action))])
            tally.hands += 1
            tally.tiebreaks += game.history[-1]["tiebreak"]
        else:
            assert not any(e["type"] == "hand_scored" for e in events)
    assert events[-1]["type"] == "game_over"
    assert events[-1]["winners"] == game.winners
    totals = [0] * n
    for entry in game.history:
        totals = [t + p for t, p in zip(totals, entry["points"], strict=True)]
        assert entry["totals"] == totals
    assert game.scores == totals
    assert len(game.history) == game.hands_total
    tally.games += 1
    return game


def check_accepts(game: Game, rng: random.Random) -> None:
    """The listed legal actions are exactly those the engine accepts, and a
    refused action leaves the game as it was."""
    d = game.to_dict()
    seat = game.turn
    assert seat is not None
    legal = game.legal_actions()
    copy = Game.from_dict(d)
    candidates: list[Action]
    if game.phase == "bidding":
        # A card action while bidding is refused too.
        candidates = [rng.randrange(NUM_CARDS), *map(bid_action, range(game.state.cards + 2))]
    else:
        held = cards_list(game.hand_of(seat))
        others = cards_list(game.rules.deck & ~game.hand_of(seat))
        candidates = [*held, *rng.sample(others, min(3, len(others))), bid_action(0)]
    for action in candidates:
        try:
            copy.apply(seat, action)
        except IllegalActionError:
            assert action not in legal, action
            assert copy.to_dict() == d
            continue
        assert action in legal, action
        copy = Game.from_dict(d)
    accepted = sum(1 for a in candidates if a in legal)
    assert accepted == len(legal)
    other = (seat + 1 + rng.randrange(game.players - 1)) % game.players
    try:
        copy.apply(other, legal[0])
    except NotYourTurnError:
        pass
    else:
        raise AssertionError("a seat played out of turn")
    assert copy.to_dict() == d


def check_fast_path(game: Game, rng: random.Random) -> None:
    """play_out on a copy of the hand state finishes the hand legally, leaves
    the game untouched, and the validated game accepts the same choices and
    ends with the same bids and tricks."""
    d = game.to_dict()
    rec = RecordingHandState.of(game.state)
    play_out(rec, random.Random(rng.random()).random)
    assert game.to_dict() == d
    assert rec.done
    assert not any(rec.hands)
    assert sum(rec.tricks) == rec.cards
    copy = Game.from_dict(d)
    hand = copy.hand_number
    feed(copy, rec.log)
    entry = copy.history[hand - 1]
    assert entry["bids"] == rec.bids
    assert entry["tricks"] == rec.tricks
    # HandState.copy is as independent as the recording copy
    twin = game.state.copy()
    play_out(twin, random.Random(1).random)
    assert game.to_dict() == d


SEEDS = 0xC0FFEE


def test_random_games_rules_and_scores() -> None:
    """Many short random games: every step against the reference rules."""
    rng = random.Random(SEEDS)
    tally = Tally()
    for i in range(700):
        drive(random_rules(rng), seed=i, rng=rng, checks=Checks(), tally=tally)
    assert tally.games == 700
    assert tally.hands > 1500
    assert tally.tiebreaks > 0


def test_random_long_games() -> None:
    """A few whole classic and pyramid games."""
    rng = random.Random(SEEDS + 1)
    tally = Tally()
    for players in range(3, 9):
        schedule = "classic" if players % 2 else "pyramid"
        rules = Rules(players=players, schedule=schedule)
        drive(rules, seed=players, rng=rng, checks=Checks(), tally=tally)
    assert (
        tally.hands
        == sum(
            len(Rules(players=p, schedule="classic" if p % 2 else "pyramid").hand_sizes)
            for p in range(3, 9)
        )
        + tally.tiebreaks
    )


def test_listed_actions_are_exactly_the_accepted_ones() -> None:
    rng = random.Random(SEEDS + 2)
    tally = Tally()
    for i in range(90):
        drive(random_rules(rng), seed=1000 + i, rng=rng, checks=Checks(accepts=True), tally=tally)
    assert tally.actions > 1500


def test_views_hide_other_hands_and_round_trip() -> None:
    rng = random.Random(SEEDS + 3)
    tally = Tally()
    for i in range(80):
        drive(
            random_rules(rng),
            seed=2000 + i,
            rng=rng,
            checks=Checks(views=True, rate=0.4),
            tally=tally,
        )


def test_inferences_are_true() -> None:
    rng = random.Random(SEEDS + 4)
    tally = Tally()
    for i in range(200):
        drive(random_rules(rng), seed=3000 + i, rng=rng, checks=Checks(inference=True), tally=tally)


def test_game_json_round_trip_at_every_step() -> None:
    rng = random.Random(SEEDS + 5)
    tally = Tally()
    for i in range(90):
        drive(random_rules(rng), seed=4000 + i, rng=rng, checks=Checks(json=True), tally=tally)


def test_fast_path_agrees_with_the_validated_game() -> None:
    rng = random.Random(SEEDS + 6)
    tally = Tally()
    for i in range(120):
        drive(
            random_rules(rng),
            seed=5000 + i,
            rng=rng,
            checks=Checks(fast=True, rate=0.15),
            tally=tally,
        )


@pytest.mark.parametrize("players", range(3, 9))
def test_fast_path_random_deals(players: int) -> None:
    """Random deals through engine.pocha.hand.deal and play_out, every card checked
    against the reference rules, for every player count and option mix."""
    rng = random.Random(SEEDS + players)
    deck = cards_list(Rules(players=players).deck)
    top = len(deck) // players
    for _ in range(1000):
        rules = random_rules(rng)
        rules = Rules(**{**rules.to_dict(), "players": players, "schedule": [top]})
        cards = rng.randint(1, top)
        dealer = rng.randrange(players)
        rng.shuffle(deck)
        hands, trump_card, whole = deal(deck, players, cards, dealer)
        assert whole == (cards * players == len(deck))
        assert sum(h.bit_count() for h in hands) == cards * players
        state = RecordingHandState.of(HandState(rules, hands, SUIT_OF[trump_card], dealer, cards))
        play_out(state, rng.random)
        replay_against_reference(rules, hands, SUIT_OF[trump_card], dealer, cards, state.log)
        assert sum(state.tricks) == cards
        assert not any(state.hands)


def replay_against_reference(
    rules: Rules,
    hands: list[int],
    trump: int,
    dealer: int,
    cards: int,
    log: list[tuple[str, int]],
) -> None:
    n = rules.players
    held = [codes(h) for h in hands]
    bids: list[int] = []
    trick: list[tuple[int, str]] = []
    seat = (dealer + 1) % n
    trump_letter = "OCEB"[trump]
    from tests.engine.pocha.engine_checks import ref_winner

    for kind, value in log:
        if kind == "bid":
            assert value in ref_legal_bids(cards, bids, seat == dealer, rules.dealer_restriction)
            bids.append(value)
            seat = (seat + 1) % n
            continue
        assert len(bids) == n
        code = card_code(value)
        allowed = ref_legal(
            held[seat], [c for _, c in trick], trump_letter, rules.montar, rules.fallar, rules.pisar
        )
        assert code in allowed
        held[seat].remove(code)
        trick.append((seat, code))
        if len(trick) == n:
            seat = ref_winner(trick, trump_letter)
            trick = []
        else:
            seat = (seat + 1) % n
    assert not any(held)


# -- hypothesis ---------------------------------------------------------------------------------


@st.composite
def rules_strategy(draw: st.DrawFn) -> Rules:
    players = draw(st.integers(3, 8))
    top = (36 if players in (3, 6) else 40) // players
    schedule = draw(st.lists(st.integers(1, top), min_size=1, max_size=3))
    return Rules(
        players=players,
        schedule=schedule,
        dealer_restriction=draw(st.booleans()),
        montar=draw(st.booleans()),
        fallar=draw(st.booleans()),
        pisar=draw(st.booleans()),
        exact_bonus=draw(st.integers(0, 20)),
        per_trick=draw(st.integers(0, 10)),
        penalty=draw(st.integers(0, 10)),
        tiebreak=draw(st.booleans()),
    )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy(), seed=st.integers(0, 2**53), play_seed=st.integers(0, 2**32))
def test_hypothesis_games(rules: Rules, seed: int, play_seed: int) -> None:
    rng = random.Random(play_seed)
    drive(rules, seed, rng, Checks(views=True, inference=True, json=True, rate=0.2), Tally())


@settings(max_examples=60, deadline=None)
@given(rules=rules_strategy(), seed=st.integers(0, 2**53), play_seed=st.integers(0, 2**32))
def test_hypothesis_accepts_and_fast_path(rules: Rules, seed: int, play_seed: int) -> None:
    rng = random.Random(play_seed)
    drive(rules, seed, rng, Checks(accepts=True, fast=True, rate=0.3), Tally())
