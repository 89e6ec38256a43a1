"""The yardsticks (`ai.pocha.yardstick`, `pocha yardstick`): master's search told the undealt cards
deals none of them to another seat, told every hand deals the real one and so bids
one-card hands without a miss, and neither is a bot that the arena or the service seats."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from ai.pocha.arena import parse_player
from ai.pocha.levels import BOTS, LEVELS
from ai.pocha.yardstick import ToldBot
from cli.main import pocha
from engine.pocha.actions import BID_BASE
from engine.pocha.deals import DealSampler
from engine.pocha.game import Game
from engine.pocha.inference import infer
from engine.pocha.observation import observe
from engine.pocha.rules import Rules
from engine.pocha.tricks import beats


def positions(schedule: list[int], games: int, steps: int) -> list[tuple[Game, int]]:
    """Games played at random for up to ``steps`` actions into their first hand (some
    mid-bidding, most mid-play), with the seat to move."""
    out = []
    rules = Rules.from_dict({"players": 4, "schedule": schedule})
    for seed in range(games):
        game = Game.new(rules, seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(steps)):
            if game.hand_number != 1 or game.phase == "finished":
                break
            seat = game.turn
            assert seat is not None
            game.apply(seat, rng.choice(game.legal_actions()))
        if game.hand_number == 1 and game.phase != "finished":
            seat = game.turn
            assert seat is not None
            out.append((game, seat))
    return out


def undealt(game: Game) -> int:
    dealt = 0
    for cards in game.dealt:
        dealt |= cards
    return game.rules.deck & ~dealt


def test_told_every_hand_it_deals_the_real_one() -> None:
    for game, seat in positions([5], 20, 20):
        obs = observe(game, seat)
        sampler = DealSampler(ToldBot("all", game).knowledge(obs))
        rng = random.Random(0)
        for _ in range(5):
            assert sampler.sample(obs.hand, rng) == game.state.hands


def test_told_the_undealt_cards_it_never_deals_one_to_another_seat() -> None:
    strayed = 0
    for game, seat in positions([5], 20, 20):
        obs = observe(game, seat)
        out_of_play = undealt(game) & ~(1 << game.trump_card)
        told = DealSampler(ToldBot("undealt", game).knowledge(obs))
        honest = DealSampler(infer(obs))
        rng = random.Random(1)
        for _ in range(20):
            hands = told.sample(obs.hand, rng)
            assert all(hands[s] & out_of_play == 0 for s in range(4) if s != seat)
            assert hands[seat] == obs.hand
            strayed += any(
                honest.sample(obs.hand, rng)[s] & out_of_play for s in range(4) if s != seat
            )
    # An honest seat deals the stock's cards into the other hands all the time.
    assert strayed > 100


def test_told_at_its_bids_or_its_plays_only_it_knows_there_alone() -> None:
    told = honest = 0
    for game, seat in positions([5], 30, 20):
        obs = observe(game, seat)
        for which, knows in (("undealt-bids", obs.bidding), ("undealt-plays", not obs.bidding)):
            k = ToldBot(which, game).knowledge(obs)
            plain = infer(obs)
            if knows:
                told += 1
                assert k.absent != plain.absent  # the undealt cards are barred from hands
            else:
                honest += 1
                assert k.absent == plain.absent and k.present == plain.present
    assert told and honest


def test_told_every_hand_it_bids_one_card_hands_without_a_miss() -> None:
    """With every card known a one-card hand holds no secret: la mano bids 1 exactly when
    its card takes the trick (the dealer alone may be barred from the right bid)."""
    rules = Rules.from_dict({"players": 4, "schedule": [1]})
    for seed in range(12):
        game = Game.new(rules, seed)
        seat = game.turn
        assert seat is not None and game.bids == [None] * 4
        decision = ToldBot("all", game).decide(observe(game, seat), seed=seed)
        # Every card of a one-card hand is forced: the trick is the hands in turn.
        winner = win = -1
        for s in [(game.mano + i) % 4 for i in range(4)]:
            card = game.state.hands[s].bit_length() - 1
            if win < 0 or beats(card, win, game.trump_suit):
                winner, win = s, card
        assert decision.action == BID_BASE + (1 if winner == seat else 0), seed


def test_no_bot_or_level_is_told() -> None:
    for name in ("master-told-all", "master-told-undealt", "told", "undealt"):
        assert name not in BOTS and name not in LEVELS
        with pytest.raises(ValueError):
            parse_player(name)


def test_pocha_yardstick_plays_told_seats_against_a_level() -> None:
    shown = CliRunner().invoke(
        pocha,
        ["yardstick", "--told", "undealt", "--against", "hard", "--rules",
         '{"schedule": [2, 3]}', "--games", "2", "--seed", "3", "--processes", "1", "--json"],
    )  # fmt: skip
    assert shown.exit_code == 0, shown.output
    result = json.loads(shown.output)
    assert result["lineup"] == ["master-told-undealt", "hard"] * 2
    assert result["games"] == 4  # two deals, two seatings each
    assert {bot["bot"] for bot in result["bots"]} == {"master-told-undealt", "hard"}
    assert result["difference"]["deals"] == 2

    refused = CliRunner().invoke(pocha, ["yardstick", "--told", "all", "--against", "oracle"])
    assert refused.exit_code == 1
    assert "unknown bot or level 'oracle'" in refused.output
