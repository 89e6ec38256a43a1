"""Training the model of how seats bid (ai.pocha.reading_training): the self-play bids and
the fit."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import numpy as np
import pytest

from ai.pocha.reading import HAND_FEATURES, SITUATION_FEATURES, BidModel, BidModels
from ai.pocha.reading_training import CARD_RANGES, features, fit, log_likelihood, play_game
from engine.pocha.cards import NUM_CARDS
from engine.pocha.rules import Rules


def test_self_play_keeps_every_bid_with_what_its_bidder_saw() -> None:
    rules = Rules(schedule=[3, 1], tiebreak=False)
    bids = play_game(5, rules)
    assert len(bids) == 2 * 4
    for b in bids:
        assert b["game"] == 5
        assert b["bid"] in b["allowed"]
        assert b["hand"].bit_count() == b["cards"]
        assert 0 <= b["trump"] < 4
    # La mano bids first, with no bids before it; the dealer last.
    assert bids[0]["earlier"] == 0 and not bids[0]["dealer"]
    assert bids[3]["dealer"]
    assert play_game(5, rules) == bids


def synthetic_bids(
    weights: dict[str, float],
    spread: float,
    n: int,
    small: dict[str, float] | None = None,
) -> list[dict]:
    """Bids drawn from a known model, for the fit to find it again; hands of one or
    two cards from ``small``'s when given."""
    rng = random.Random(1)
    # Made once: a model tables its hand features at construction.
    large = BidModel(weights, spread)
    short = BidModel(small, spread) if small else large
    out = []
    for i in range(n):
        cards = rng.randint(1, 10)
        model = short if cards <= 2 else large
        hand = sum(1 << c for c in rng.sample(range(NUM_CARDS), cards))
        record = {
            "game": i // 50,
            "hand": hand,
            "trump": rng.randrange(4),
            "cards": cards,
            "earlier": rng.randint(0, cards),
            "dealer": rng.random() < 0.25,
            "holds_trump_card": False,
            "allowed": list(range(cards + 1)),
        }
        mu = model.hand_mean(hand, record["trump"]) + model.situation_mean(
            cards, record["earlier"], record["dealer"], False
        )
        k = -0.5 / spread**2
        w = [math.exp(k * (b - mu) ** 2) for b in record["allowed"]]
        record["bid"] = rng.choices(record["allowed"], weights=w)[0]
        out.append(record)
    return out


def test_the_fit_finds_the_model_the_bids_were_drawn_from() -> None:
    weights = {name: 0.0 for name in (*HAND_FEATURES, *SITUATION_FEATURES)}
    weights.update({"estimate": 1.0, "trump_9": 0.5, "bias": 0.1, "earlier_bids_per_card": -0.3})
    bids = synthetic_bids(weights, 0.4, 6000)
    model = fit(bids)
    # Bids are whole and cut at 0 and the cards, so the fit is close, not exact; the
    # features overlap (the estimate counts aces too), so it is the means that must agree.
    assert model["spread"] == pytest.approx(0.4, abs=0.1)
    truth, fitted = BidModel(weights, 0.4), BidModel(model["weights"], model["spread"])

    def mean(m: BidModel, r: dict) -> float:
        return m.hand_mean(r["hand"], r["trump"]) + m.situation_mean(
            r["cards"], r["earlier"], r["dealer"], False
        )

    errors = [mean(truth, r) - mean(fitted, r) for r in bids]
    assert math.sqrt(sum(e * e for e in errors) / len(errors)) < 0.1
    report = model["report"]
    assert report["bids"] == 6000
    assert report["validation_bids"] + report["train_bids"] == 6000
    # The model explains the bids better than the estimate alone can: trump_9 is in it.
    alone = report["estimate_alone"]
    assert report["validation_log_likelihood"] > alone["validation_log_likelihood"]
    assert len(features(bids[0])) == len(HAND_FEATURES) + len(SITUATION_FEATURES)


def test_hand_sizes_read_by_their_own_model_where_seats_bid_them_differently() -> None:
    weights = {name: 0.0 for name in (*HAND_FEATURES, *SITUATION_FEATURES)}
    weights["estimate"] = 1.0
    # Seats that bid a card or two from its trump alone, the rest from the estimate.
    small = {name: 0.0 for name in weights}
    small.update({"trump_length": 1.0, "bias": -0.2})
    bids = synthetic_bids(weights, 0.3, 8000, small)
    model = fit(bids)
    report = model["report"]
    ranged = report["by_cards"]
    assert [r["cards_from"] for r in ranged] == list(CARD_RANGES)
    assert sum(r["validation_bids"] for r in ranged) == report["validation_bids"]
    assert report["by_cards_validation_log_likelihood"] > report["validation_log_likelihood"] + 0.05
    first = ranged[0]
    assert first["validation_log_likelihood"] > first["whole_fit_validation_log_likelihood"]
    # On the hands of one card the range's model reads the bids about as well as the
    # model they were drawn from, and the whole fit does not.
    ones = [r for r in bids if r["cards"] == 1]

    def means(m: BidModel) -> np.ndarray:
        return np.array(
            [
                m.hand_mean(r["hand"], r["trump"])
                + m.situation_mean(1, r["earlier"], r["dealer"], False)
                for r in ones
            ]
        )

    truth = log_likelihood(means(BidModel(small, 0.3)), ones, 0.3)
    ranged_model = BidModels.load_data(model).for_cards(1)
    ranged_ll = log_likelihood(means(ranged_model), ones, ranged_model.spread)
    whole_ll = log_likelihood(
        means(BidModel(model["weights"], model["spread"])), ones, model["spread"]
    )
    assert truth - 0.03 < ranged_ll
    assert whole_ll < ranged_ll - 0.05


def test_each_hand_size_finds_the_model_of_its_range() -> None:
    a, b, c = (
        BidModel({n: v for n in (*HAND_FEATURES, *SITUATION_FEATURES)}, 0.4)
        for v in (0.1, 0.2, 0.3)
    )
    models = BidModels({1: a, 3: b, 9: c})
    assert [models.for_cards(k) for k in (1, 2, 3, 8, 9, 13)] == [a, a, b, b, c, c]
    # One model serves every hand size.
    assert BidModels({1: a}).for_cards(10) is a


def test_a_file_of_one_model_serves_every_hand_size(tmp_path: Path) -> None:
    weights = {name: 0.0 for name in (*HAND_FEATURES, *SITUATION_FEATURES)}
    weights["estimate"] = 0.9
    path = tmp_path / "one.json"
    path.write_text(json.dumps({"weights": weights, "spread": 0.5}))
    models = BidModels.load(path)
    assert models.for_cards(1) is models.for_cards(10)
    assert models.for_cards(7).weights == weights and models.for_cards(7).spread == 0.5


def test_the_shipped_model_loads_and_reads_a_strong_hand_as_a_high_bid() -> None:
    from ai.pocha.reading import shipped_model
    from engine.pocha.cards import parse_cards

    model = shipped_model().for_cards(5)
    strong = parse_cards(["O1", "O3", "O12", "C1", "E1"])
    weak = parse_cards(["O2", "C4", "C5", "E6", "B7"])
    trump = 0  # oros
    situation = model.situation_mean(5, 0, False, False)
    assert model.hand_mean(strong, trump) + situation > 3
    assert model.hand_mean(weak, trump) + situation < 1


def test_the_situation_mean_is_the_weighted_features() -> None:
    from ai.pocha.reading import shipped_model, situation_features

    for args in ((5, 3, True, False), (1, 0, False, False), (10, 7, True, True)):
        model = shipped_model().for_cards(args[0])
        x = situation_features(*args)
        expected = sum(model.weights[n] * v for n, v in zip(SITUATION_FEATURES, x, strict=True))
        assert model.situation_mean(*args) == pytest.approx(expected)


def test_pocha_train_reading_fits_kept_bids_into_a_model_the_reading_loads(
    tmp_path: Path,
) -> None:
    from click.testing import CliRunner

    from ai.pocha.reading import BidReading
    from cli.main import pocha
    from engine.pocha.game import Game
    from engine.pocha.observation import observe

    weights = {name: 0.0 for name in (*HAND_FEATURES, *SITUATION_FEATURES)}
    weights["estimate"] = 1.0
    data = tmp_path / "bids.jsonl"
    data.write_text("".join(json.dumps(b) + "\n" for b in synthetic_bids(weights, 0.5, 2000)))
    out = tmp_path / "model.json"
    result = CliRunner().invoke(pocha, ["train-reading", "--data", str(data), "--out", str(out)])
    assert result.exit_code == 0, result.output
    model = json.loads(out.read_text())
    assert model["report"]["bids"] == 2000
    assert model["report"]["self_play_seconds"] is None  # read, not played
    assert sum(row["bids"] for row in model["report"]["calibration"]) == 400  # a fifth held out
    loaded = BidModels.load(out)
    assert sorted(loaded.by_cards) == list(CARD_RANGES)
    game = Game.new(Rules(schedule=[4]), seed=1)
    game.apply(game.turn, game.legal_actions()[1])
    reading = BidReading(observe(game, game.turn), loaded)
    assert reading.informative


def test_the_tabled_hand_mean_is_the_weighted_hand_features() -> None:
    from ai.pocha.reading import hand_features, shipped_model

    rng = random.Random(4)
    for model in shipped_model().by_cards.values():
        for _ in range(100):
            cards = rng.randint(1, 12)
            hand = sum(1 << c for c in rng.sample(range(NUM_CARDS), cards))
            trump = rng.randrange(4)
            x = hand_features(hand, trump)
            expected = sum(model.weights[n] * v for n, v in zip(HAND_FEATURES, x, strict=True))
            assert model.hand_mean(hand, trump) == pytest.approx(expected)
