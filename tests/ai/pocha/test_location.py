"""The learned model of where the unseen cards are (ai.pocha.location) and its training
(ai.pocha.location_training)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np

from ai.bot import Budget
from ai.pocha.ismcts import ISMCTSBot
from ai.pocha.location import (
    CARDS,
    FEATURES,
    LOCATIONS,
    MODEL_PATH,
    UNDEALT,
    LocationModel,
    LocationReading,
    location_features,
    location_mask,
    reads,
    relative_card,
    seat_counts,
    side_suit_orders,
)
from ai.pocha.location_training import evaluate, fit, play_game
from engine.pocha.deals import DealSampler
from engine.pocha.game import Game
from engine.pocha.inference import infer
from engine.pocha.observation import observe
from engine.pocha.rules import Rules

SHORT = Rules(schedule=[3, 5, 1], tiebreak=False)
# Self-play for the tests: a cheap search, not the expert's.
CHEAP = (50, 20)


def random_model(seed: int = 0) -> LocationModel:
    rng = np.random.default_rng(seed)
    return LocationModel(
        {
            "mean": np.zeros(FEATURES),
            "scale": np.ones(FEATURES),
            "w0": rng.standard_normal((FEATURES, 16)) * 0.3,
            "b0": np.zeros(16),
            "w1": rng.standard_normal((16, CARDS * LOCATIONS)),
            "b1": np.zeros(CARDS * LOCATIONS),
        }
    )


def midway(seed: int, moves: int) -> Game:
    """A classic game ``moves`` random legal moves in (past the bids of the first hands)."""
    rng = random.Random(seed)
    game = Game.new(Rules(), seed)
    for _ in range(moves):
        seat = game.turn
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions()))
    return game


def test_a_deals_weight_is_the_sum_of_its_cards_log_probabilities() -> None:
    model = random_model()
    for seed, moves in ((1, 3), (2, 40), (3, 75), (4, 130)):
        game = midway(seed, moves)
        seat = game.turn
        assert seat is not None
        obs = observe(game, seat)
        knowledge = infer(obs)
        reading = LocationReading(obs, knowledge, model)
        target, where = location_mask(obs, knowledge)
        logp = model.log_probabilities(location_features(obs, knowledge), where)
        sampler = DealSampler(knowledge)
        rng = random.Random(seed)
        for _ in range(5):
            hands = sampler.sample(obs.hand, rng)
            expected = 0.0
            for card in range(CARDS):
                c = relative_card(card, obs.trump)
                if not target[c]:
                    continue
                holders = [s for s in range(4) if s != seat and hands[s] >> card & 1]
                loc = (holders[0] - seat) % 4 - 1 if holders else UNDEALT
                assert where[c, loc], "the deal puts a card where the mask says it cannot be"
                expected += float(logp[c, loc])
            assert abs(reading.log_weight(hands) - expected) < 1e-6 * max(1.0, abs(expected))


def test_the_mask_leaves_out_what_the_seat_sees_and_what_cannot_be() -> None:
    game = midway(5, 60)
    seat = game.turn
    assert seat is not None
    obs = observe(game, seat)
    knowledge = infer(obs)
    target, where = location_mask(obs, knowledge)
    seen = obs.hand
    for _, card in obs.plays:
        seen |= 1 << card
    for card in range(CARDS):
        c = relative_card(card, obs.trump)
        if seen >> card & 1:
            assert not target[c]
        for s in range(4):
            if s != seat and knowledge.absent[s] >> card & 1:
                assert not where[c, (s - seat) % 4 - 1]
    assert (
        target.sum()
        == (
            knowledge.unseen & ~sum(knowledge.present[s] for s in range(4) if s != seat)
        ).bit_count()
    )


def test_self_play_keeps_every_seats_view_with_where_its_unseen_cards_are() -> None:
    data = play_game(3, SHORT, CHEAP)
    assert data["x"].shape[1] == FEATURES
    rows = len(data["x"])
    # Every decision of the three hands, seen by each of the four seats.
    assert rows == 4 * sum(4 + 4 * cards for cards in (3, 5, 1))
    truth = data["truth"].astype(np.int64)
    allowed = np.take_along_axis(data["where"], truth[:, :, None], axis=2)[:, :, 0]
    assert not (data["target"] & ~allowed).any(), "a card is really where the mask forbids"
    again = play_game(3, SHORT, CHEAP)
    assert all(np.array_equal(data[k], again[k]) for k in data)


def test_the_fit_reads_the_locations_better_than_the_hand_sizes_alone() -> None:
    parts = [play_game(seed, SHORT, CHEAP) for seed in range(20)]
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    weights, report = fit(data, hidden=(16,), epochs=4, batch=64, learning_rate=3e-3)
    assert report["cards"] > 0
    # On the held-out games: the hand sizes alone beat a uniform guess over the four
    # places (most of a short hand's deck is never dealt), and the model beats them.
    assert report["hand_sizes_log_likelihood"] > report["uniform_log_likelihood"] + 0.3
    assert report["log_likelihood"] > report["hand_sizes_log_likelihood"] + 0.005
    held_out = np.flatnonzero(data["game"] % 10 == 9)
    assert evaluate(weights, data, held_out) == {k: v for k, v in report.items() if k != "epoch"}


def test_the_hand_sizes_read_back_from_the_features_are_the_inferences() -> None:
    for seed, moves in ((1, 0), (2, 40), (3, 75), (4, 130), (6, 301)):
        game = midway(seed, moves)
        seat = game.turn
        assert seat is not None
        obs = observe(game, seat)
        knowledge = infer(obs)
        counts = seat_counts(location_features(obs, knowledge)[None, :])[0]
        for s in range(4):
            if s != seat:
                need = knowledge.hand_sizes[s] - knowledge.present[s].bit_count()
                assert counts[(s - seat) % 4 - 1] == need
        assert counts[UNDEALT] == knowledge.stock_size


def test_the_side_suit_orders_move_every_card_part_alike() -> None:
    feature_orders, card_orders = side_suit_orders()
    game = midway(7, 90)
    seat = game.turn
    assert seat is not None
    obs = observe(game, seat)
    x = location_features(obs, infer(obs))
    assert (feature_orders[0] == np.arange(FEATURES)).all()
    for f, c in zip(feature_orders, card_orders, strict=True):
        moved = x[f]
        # The trump suit stays first; a side suit's cards move as one.
        assert (c[:10] == np.arange(10)).all()
        assert sorted(c.tolist()) == list(range(CARDS))
        assert moved.sum() == x.sum()
        assert (moved[:CARDS] == x[:CARDS][c]).all()
        assert seat_counts(moved[None, :]).tolist() == seat_counts(x[None, :]).tolist()


def test_the_model_reads_only_the_classic_four_player_game() -> None:
    assert reads(observe(Game.new(Rules(), 1), 0))
    assert not reads(observe(Game.new(Rules(players=5), 1), 0))
    assert not reads(observe(Game.new(Rules(players=3), 1), 0))


def test_a_bot_reading_the_locations_plays_legal_moves_to_the_end() -> None:
    bot = ISMCTSBot(reading=True, modelled_bids=True, locations=True, location_model=random_model())
    game = Game.new(SHORT, 8)
    rng = random.Random(8)
    while not game.finished:
        seat = game.turn
        assert seat is not None
        obs = observe(game, seat)
        decision = bot.decide(obs, Budget(iterations=40), rng.getrandbits(32))
        assert decision.action in obs.legal_actions
        game.apply(seat, decision.action)


def test_the_shipped_model_reads_fresh_games_better_than_the_hand_sizes() -> None:
    rules = Rules(schedule=[5, 7, 10], tiebreak=False)
    parts = [play_game(seed, rules, CHEAP) for seed in (101, 102)]
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    weights = dict(np.load(MODEL_PATH))
    report = evaluate(weights, data, np.arange(len(data["x"])))
    assert report["log_likelihood"] > report["hand_sizes_log_likelihood"] + 0.005


def test_train_location_fits_kept_views_and_writes_the_model(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from cli.main import pocha

    parts = [play_game(seed, SHORT, CHEAP) for seed in range(10)]
    data = tmp_path / "views.npz"
    np.savez(data, **{k: np.concatenate([p[k] for p in parts]) for k in parts[0]})  # type: ignore[arg-type]
    out = tmp_path / "location.npz"
    result = CliRunner().invoke(
        pocha, ["train-location", "--data", str(data), "--out", str(out), "--epochs", "1"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(out.with_suffix(".json").read_text())
    assert report["self_play_seconds"] is None  # read, not played
    assert report["views"] == sum(len(p["x"]) for p in parts)
    model = LocationModel.load(out)
    assert len(model.layers) == 3
