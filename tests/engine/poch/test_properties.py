"""Properties of Poch over thousands of random seeded deals with random legal actions.

Random players (3-8) and options, small chip stacks so that players run short and
leave, and random decisions (mostly passes and small bets, so that showdowns, bluffs
and unbet deals all happen).  After every action: the chips on the table are
conserved and never negative, the cards are conserved, every event is public, the
listed legal actions are accepted and a random other action is refused without a
change.  At random moments: no seat's observation changes when a card it cannot
know is swapped between two other hands, the JSON round trip gives the same
game, which then plays on identically, and a search's quiet copy plays on to the same
states with the same events but its card plays.  Every game ends.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import GameError, IllegalActionError
from engine.poch.actions import HOLD, PASS, SUIT_BASE, bet_action, is_bet
from engine.poch.cards import parse_card
from engine.poch.game import Game
from engine.poch.observation import observe
from engine.poch.rules import Rules

# The keys an event may carry; cards appear only under "cards", "sets" and "card",
# which are the shown honours, the showdown and the played cards.
EVENT_KEYS = {
    "leave": {"seat", "chips"},
    "ante": {"deal", "dealer", "each"},
    "deal": {"counts", "trump"},
    "collect": {"seat", "plate", "cards", "chips"},
    "pass": {"seat", "amount", "pot"},
    "bet": {"seat", "amount", "pot"},
    "hold": {"seat", "amount", "pot"},
    "raise": {"seat", "amount", "pot"},
    "no_bet": {"pot"},
    "showdown": {"sets"},
    "no_set": {"seat", "pot"},
    "bluff": {"seat", "paid"},
    "take_pot": {"seat", "pot", "pocher"},
    "start": {"seat", "direction"},
    "choose": {"seat", "suit"},
    "play": {"seat", "card"},
    "deal_won": {"deal", "winner", "paid"},
    "game_over": {"chips", "winners"},
}
MAX_ACTIONS = 5_000


def choose(game: Game, rng: random.Random) -> int:
    legal = game.legal_actions()
    if game.phase != "betting":
        return rng.choice(legal)
    roll = rng.random()
    if roll < 0.55:
        return PASS
    if roll < 0.75 and HOLD in legal:
        return HOLD
    bets = [a for a in legal if is_bet(a)]
    return rng.choice(bets[:6]) if bets else PASS


def public_cards(game: Game) -> set[int]:
    shown = {parse_card(c) for e in game.collected for c in e["cards"]}
    return shown | {c for cs in game.showdown.values() for c in cs}


def check_secrecy(game: Game, rng: random.Random) -> None:
    """Swap a card hidden from the observer between two other hands: its view is the same."""
    public = public_cards(game)
    for seat in [None, *range(game.players)]:
        others = [s for s in range(game.players) if s != seat and game.hands[s] - public]
        if len(others) < 2:
            continue
        a, b = rng.sample(others, 2)
        ca = rng.choice(sorted(game.hands[a] - public))
        cb = rng.choice(sorted(game.hands[b] - public))
        before = observe(game, seat).to_dict()
        game.hands[a] = (game.hands[a] - {ca}) | {cb}
        game.hands[b] = (game.hands[b] - {cb}) | {ca}
        after = observe(game, seat).to_dict()
        game.hands[a] = (game.hands[a] - {cb}) | {ca}
        game.hands[b] = (game.hands[b] - {ca}) | {cb}
        assert before == after, (seat, a, b)
        json.dumps(after)


def check_round_trip(game: Game, rng: random.Random) -> None:
    stored = game.to_dict()
    copy = Game.from_dict(json.loads(json.dumps(stored)))
    assert copy.to_dict() == stored
    probe, twin = random.Random(0), random.Random(0)
    original = Game.from_dict(stored)
    for _ in range(20):
        if original.finished:
            break
        seat = original.turn
        action = choose(original, probe)
        assert choose(copy, twin) == action
        assert original.apply(seat, action) == copy.apply(seat, action)  # type: ignore[arg-type]
        assert original.to_dict() == copy.to_dict()


def check_quiet(game: Game) -> None:
    """A search's quiet game (``ai.poch.deals.fork``) goes through the same states to the end,
    with the same events but the card plays, and keeps the same state stored."""
    probe = random.Random(0)
    loud, quiet = Game.from_dict(game.to_dict()), Game.from_dict(game.to_dict())
    quiet.quiet = True
    while not loud.finished:
        seat = loud.turn
        action = choose(loud, probe)
        events = loud.apply(seat, action)  # type: ignore[arg-type]
        assert quiet.apply(seat, action) == [e for e in events if e["type"] != "play"]  # type: ignore[arg-type]
        assert quiet.to_dict() == loud.to_dict()
    assert quiet.finished


def play_game(seed: int) -> int:
    rng = random.Random(seed)
    players = rng.randint(3, 8)
    ante = rng.choice([1, 1, 1, 2])
    rules = Rules(
        players=players,
        ante=ante,
        chips=rng.randint(8 * ante, 60),
        deals=rng.choice([None, rng.randint(1, 6)]),
    )
    game = Game.new(rules, seed=seed)
    total = game.total_chips()
    assert total == players * rules.chips
    deals_seen = {game.deal_no}
    for _ in range(MAX_ACTIONS):
        if game.finished:
            break
        assert sum(len(h) for h in game.hands) + len(game.played) == 32
        seat = game.turn
        assert seat is not None and game.active[seat]
        legal = game.legal_actions()
        assert legal
        if rng.random() < 0.05:
            # Anything not listed is refused, and the game is untouched.
            wrong = rng.choice(
                [
                    PASS,
                    HOLD,
                    bet_action(rng.randint(1, 80)),
                    SUIT_BASE + rng.randrange(4),
                    *range(32),
                ]
            )
            if wrong not in legal:
                stored = game.to_dict()
                try:
                    game.apply(seat, wrong)
                except IllegalActionError as error:
                    assert error.code
                else:
                    raise AssertionError(f"{wrong} was accepted but not listed")
                assert game.to_dict() == stored
        if rng.random() < 0.03:
            check_secrecy(game, rng)
        if rng.random() < 0.01:
            check_round_trip(game, rng)
            check_quiet(game)
        events = game.apply(seat, choose(game, rng))
        for event in events:
            assert set(event) - {"type"} == EVENT_KEYS[event["type"]], event
        assert game.total_chips() == total
        assert min(game.chips) >= 0 and game.pot >= 0
        deals_seen.add(game.deal_no)
    assert game.finished, "the game did not end"
    assert game.total_chips() == total
    assert game.deal_no <= rules.deal_count
    result = game.result()
    assert result["winners"] == [s for s in range(players) if game.chips[s] == max(game.chips)]
    return len(deals_seen)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32))
def test_random_games_conserve_chips_keep_secrets_and_end(seed: int) -> None:
    play_game(seed)


def test_thousands_of_deals() -> None:
    deals = sum(play_game(seed) for seed in range(300))
    assert deals >= 1_500


def test_errors_are_typed() -> None:
    game = Game.new(Rules(players=3), seed=2)
    try:
        game.apply((game.turn + 1) % 3, PASS)  # type: ignore[operator]
    except GameError as error:
        assert error.code == "not_your_turn"
    assert Game.from_dict(game.to_dict()).to_dict() == game.to_dict()
