"""The student: the teacher's data (master's search told the undealt cards) from a seed,
the student's inputs from the bidder's view alone, its bids legal, training from a seed,
and the bots that bid with it."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ai.bot import Budget
from ai.pocha.bid_model import situation_features
from ai.pocha.ismcts import ISMCTSBot
from ai.pocha.levels import BOTS, make_bot
from ai.pocha.student import BIDS, INPUTS, MODEL_PATH, StudentModel, inputs_of
from ai.pocha.student_training import agreement, fit, generate
from engine.pocha.actions import bid_action, bid_of
from engine.pocha.game import Game
from engine.pocha.observation import observe
from engine.pocha.rules import Rules


def _tiny() -> dict[str, np.ndarray]:
    return generate(hands=20, seed=3, iterations=30, processes=1)


def test_the_teachers_bids_come_again_from_their_seed_with_shares_over_legal_bids() -> None:
    first, again = _tiny(), _tiny()
    assert first.keys() == again.keys()
    assert all(np.array_equal(first[k], again[k]) for k in first)
    x, shares, legal = first["x"], first["shares"], first["legal"]
    assert x.shape == (len(shares), INPUTS) and shares.shape == (len(x), BIDS) and len(x) >= 20
    assert np.allclose(shares.sum(axis=1), 1.0, atol=1e-3)
    assert not (shares[~legal] > 0).any()  # no share on a bid the seat may not make


def test_the_students_inputs_are_the_bidders_view_alone() -> None:
    # Two deals alike in the bidder's hand and the face-up card, the other hands swapped
    # between two seats: the told teacher may tell them apart, the student cannot.
    rules = Rules(players=4, schedule=[5])
    game = Game.new(rules, 11)
    seat = game.turn
    assert seat is not None
    others = [s for s in range(4) if s != seat]
    swapped = Game.from_dict(game.to_dict())
    hands = swapped.state.hands
    hands[others[0]], hands[others[1]] = hands[others[1]], hands[others[0]]
    assert swapped.state.hands != game.state.hands
    mine = inputs_of(situation_features(observe(game, seat)))
    theirs = inputs_of(situation_features(observe(swapped, seat)))
    assert np.array_equal(mine, theirs)


def test_training_comes_again_from_its_seed_and_bids_only_legal_bids(tmp_path: Path) -> None:
    data = _tiny()
    weights, report = fit(data, seed=1, epochs=3)
    again, _ = fit(data, seed=1, epochs=3)
    assert all(np.array_equal(weights[k], again[k]) for k in weights)
    assert 0.0 <= report["teacher_bid_is_likeliest"] <= 1.0 and report["samples"] > 0
    np.savez(tmp_path / "student.npz", **weights)  # type: ignore[arg-type]
    model = StudentModel.load(tmp_path / "student.npz")
    # The dealer, after the others bid 1 each of 4 cards: 1 is forbidden.
    rules = Rules(players=4, schedule=[4])
    game = Game.new(rules, 5)
    for _ in range(3):
        turn = game.turn
        assert turn is not None
        game.apply(turn, bid_action(1))
    dealer = game.turn
    assert dealer is not None
    obs = observe(game, dealer)
    shares = model.bid_shares(obs)
    assert set(shares) == {bid_of(a) for a in obs.legal_actions} and 1 not in shares
    assert abs(sum(shares.values()) - 1.0) < 1e-6
    bot = ISMCTSBot(student=1.0, student_model=model)
    decision = bot.decide(obs, Budget(iterations=50), seed=2)
    assert decision.action in obs.legal_actions and decision.iterations == 0
    blended = ISMCTSBot(student=0.5, student_model=model).decide(obs, Budget(iterations=50), 2)
    assert blended.action in obs.legal_actions and blended.iterations == 50


def test_the_shipped_student_bids_in_the_student_bots() -> None:
    assert MODEL_PATH.exists()
    assert {"ismcts-student", "ismcts-student-bids"} <= set(BOTS)
    game = Game.new(Rules(players=4, schedule=[6]), 8)
    seat = game.turn
    assert seat is not None
    obs = observe(game, seat)
    decision = make_bot("ismcts-student-bids").decide(obs, Budget(iterations=1000), seed=1)
    assert decision.action in obs.legal_actions and decision.iterations == 0


def test_the_agreement_with_the_teacher_counts_every_bid_with_a_choice() -> None:
    model = StudentModel.load(MODEL_PATH)
    found = agreement(model, hands=3, iterations=20, blends=(0.5,))
    assert found["bids"] > 0
    assert set(found) == {"bids", "master", "student", "blend 0.5"}
    for name in ("master", "student", "blend 0.5"):
        assert 0.0 <= found[name]["teachers_bid"] <= 1.0
        assert 0.0 <= found[name]["teachers_share"] <= 1.0
