"""Helpers shared by the engine and bot tests: worked-example setups, random games and
positions."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from engine.pocha import Game, Observation, Rules, observe
from engine.pocha.actions import Action, bid_action
from engine.pocha.cards import codes, parse_card, parse_cards


def worked(
    hands: list[list[str]],
    trump: str,
    *,
    dealer: int = 3,
    bids: list[int] | None = None,
    **options: Any,
) -> Game:
    """A 4-player (or ``players=``) game dealt ``hands``, with the bids made.

    The schedule is one hand of ``len(hands[0])`` cards.  By default every
    seat bids 0 (never the dealer's forbidden number, since that is the card
    count), so la mano (``dealer + 1``) is to lead the first trick.
    """
    players = options.pop("players", len(hands))
    rules = Rules(players=players, schedule=[len(hands[0])], **options)
    game = Game.with_deal(rules, hands=hands, trump=trump, dealer=dealer)
    for b in bids if bids is not None else [0] * players:
        game.bid(game.turn, b)  # type: ignore[arg-type]
    assert game.phase == "playing"
    return game


def play(game: Game, *cards: str) -> list[dict[str, Any]]:
    """Play ``cards`` in turn from whoever is to move; all events."""
    events: list[dict[str, Any]] = []
    for code in cards:
        seat = game.turn
        assert seat is not None
        events.extend(game.play(seat, code))
    return events


def bids(*tricks: int) -> list[Action]:
    """The actions of these bids."""
    return [bid_action(n) for n in tricks]


def cards(*card_codes: str) -> list[Action]:
    """The actions of these cards, in ascending order (as legal actions are listed)."""
    return sorted(parse_card(code) for code in card_codes)


def hand_codes(game: Game, seat: int) -> list[str]:
    return codes(game.hand_of(seat))


def mask(*card_codes: str) -> int:
    return parse_cards(card_codes)


def random_rules(rng: random.Random, *, long_games: bool = False) -> Rules:
    """Random players 3..8 and random options; short explicit schedules unless
    ``long_games`` (then sometimes 'classic' or 'pyramid')."""
    players = rng.randint(3, 8)
    top = (36 if players in (3, 6) else 40) // players
    schedule: str | list[int]
    if long_games and rng.random() < 0.5:
        schedule = rng.choice(["classic", "pyramid"])
    else:
        length = rng.randint(1, 4)
        schedule = [rng.choice([1, top, rng.randint(1, top)]) for _ in range(length)]
    return Rules(
        players=players,
        schedule=schedule,
        dealer_restriction=rng.random() < 0.8,
        montar=rng.random() < 0.8,
        fallar=rng.random() < 0.8,
        pisar=rng.random() < 0.8,
        exact_bonus=rng.choice([10, 10, 0, 7]),
        per_trick=rng.choice([5, 5, 0, 3]),
        penalty=rng.choice([5, 5, 0, 4]),
        tiebreak=rng.random() < 0.7,
    )


def random_action(game: Game, rng: random.Random) -> Action:
    return rng.choice(game.legal_actions())


def random_game_steps(rules: Rules, seed: int, rng: random.Random) -> Iterator[Game]:
    """A game from ``seed`` played with uniformly random legal actions; yields
    the game before every action and once more when it is over."""
    game = Game.new(rules, seed=seed)
    while not game.finished:
        yield game
        seat = game.turn
        assert seat is not None
        game.apply(seat, random_action(game, rng))
    yield game


def finish_hand_first_legal(game: Game, bids: list[int] | None = None) -> None:
    """Finish the current hand: the given bids (in bidding order) or the first
    legal bid, then always the first legal card."""
    queue = list(bids or [])
    start = game.hand_index
    while not game.finished and game.hand_index == start:
        seat = game.turn
        assert seat is not None
        if game.phase == "bidding":
            game.bid(seat, queue.pop(0) if queue else game.state.legal_bids()[0])
        else:
            game.play(seat, game.legal_actions()[0])


def random_positions(count: int, seed: int) -> list[tuple[Game, Observation]]:
    """Positions of random games at random points, with the seat to move."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        players = rng.randint(3, 8)
        top = (36 if players in (3, 6) else 40) // players
        rules = Rules(
            players=players,
            schedule=[rng.randint(1, top)],
            montar=rng.random() < 0.8,
            fallar=rng.random() < 0.8,
            pisar=rng.random() < 0.8,
            dealer_restriction=rng.random() < 0.8,
        )
        game = Game.new(rules, rng.randrange(1 << 30))
        steps = rng.randrange(players + rules.hand_sizes[0] * players)
        for _ in range(steps):
            seat = game.turn
            assert seat is not None
            game.apply(seat, rng.choice(game.legal_actions()))
        seat = game.turn
        assert seat is not None
        out.append((game, observe(game, seat)))
    return out
