"""The student of the plays: the teacher's plays (master's search told the undealt cards)
from a seed, the student's inputs from the player's view alone, its cards legal, training
from a seed, and the bots that play with it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ai.bot import Budget
from ai.pocha.levels import BOTS, make_bot
from ai.pocha.location import relative_card
from ai.pocha.student_play import (
    INPUTS,
    MODEL_PATH,
    OUTPUTS,
    PlayStudentBot,
    PlayStudentModel,
    legal_cards_of,
    play_features,
)
from ai.pocha.student_training import fit, generate_plays, play_agreement
from engine.pocha.actions import bid_action
from engine.pocha.game import Game
from engine.pocha.observation import observe
from engine.pocha.rules import Rules


def _tiny() -> dict[str, np.ndarray]:
    return generate_plays(hands=10, seed=3, iterations=30, processes=1)


def _mid_trick(cards: int = 5, seed: int = 11, played: int = 5) -> Game:
    """A classic four-player hand, each seat's bid its highest legal one, with ``played``
    cards played (by default the first trick over and one card of the second on the
    table)."""
    game = Game.new(Rules(players=4, schedule=[cards]), seed)
    while game.phase == "bidding":
        turn = game.turn
        assert turn is not None
        game.apply(turn, observe(game, turn).legal_actions[-1])
    for _ in range(played):
        turn = game.turn
        assert turn is not None
        game.apply(turn, observe(game, turn).legal_actions[0])
    return game


def test_the_teachers_plays_come_again_from_their_seed_with_shares_over_legal_cards() -> None:
    first, again = _tiny(), _tiny()
    assert first.keys() == again.keys()
    assert all(np.array_equal(first[k], again[k]) for k in first)
    x, shares, legal = first["x"], first["shares"], first["legal"]
    assert x.shape == (len(shares), INPUTS) and shares.shape == (len(x), OUTPUTS)
    assert len(x) >= 20
    assert np.allclose(shares.sum(axis=1), 1.0, atol=1e-3)
    assert not (shares[~legal] > 0).any()  # no share on a card the seat may not play
    assert (legal.sum(axis=1) >= 2).all()  # only plays with a choice are kept


def test_the_students_inputs_are_the_players_view_alone() -> None:
    # Mid-trick, the hands of the two seats that have not played to it swapped: the told
    # teacher may tell the two deals apart, the student cannot.
    game = _mid_trick()
    seat = game.turn
    assert seat is not None
    obs = observe(game, seat)
    on_table = {s for s, _ in obs.trick}
    others = [s for s in range(4) if s != seat and s not in on_table]
    assert len(others) == 2
    swapped = Game.from_dict(game.to_dict())
    hands = swapped.state.hands
    hands[others[0]], hands[others[1]] = hands[others[1]], hands[others[0]]
    assert swapped.state.hands != game.state.hands
    theirs = observe(swapped, seat)
    assert np.array_equal(play_features(obs), play_features(theirs))
    # A seat whose own hand the swap changed sees it.
    mine = play_features(observe(game, others[0]))
    assert not np.array_equal(mine, play_features(observe(swapped, others[0])))


def test_training_comes_again_from_its_seed_and_plays_only_legal_cards(tmp_path: Path) -> None:
    data = _tiny()
    weights, report = fit(data, seed=1, hidden=(16,), epochs=3)
    again, _ = fit(data, seed=1, hidden=(16,), epochs=3)
    assert weights.keys() == again.keys()
    assert all(np.array_equal(weights[k], again[k]) for k in weights)
    assert 0.0 <= report["teacher_bid_is_likeliest"] <= 1.0 and report["samples"] > 0
    np.savez(tmp_path / "student_play.npz", **weights)  # type: ignore[arg-type]
    model = PlayStudentModel.load(tmp_path / "student_play.npz")
    game = _mid_trick()
    seat = game.turn
    assert seat is not None
    obs = observe(game, seat)
    shares = model.card_shares(obs)
    assert set(shares) == set(obs.legal_actions)
    assert abs(sum(shares.values()) - 1.0) < 1e-6
    p = model.probabilities(play_features(obs)[None, :], legal_cards_of(obs)[None, :])[0]
    illegal = [c for c in range(OUTPUTS) if not legal_cards_of(obs)[c]]
    assert illegal and (p[illegal] == 0.0).all()
    assert all(p[relative_card(c, obs.trump)] == shares[c] for c in shares)


def test_the_student_alone_plays_without_a_search_and_the_blend_searches() -> None:
    game = _mid_trick(cards=6, seed=4, played=0)  # the first lead: any card
    seat = game.turn
    assert seat is not None
    obs = observe(game, seat)
    assert len(obs.legal_actions) == 6
    alone = PlayStudentBot(student_play=1.0, reading=True, modelled_bids=True)
    decision = alone.decide(obs, Budget(iterations=50), seed=2)
    assert decision.action in obs.legal_actions and decision.iterations == 0
    blended = PlayStudentBot(student_play=0.5, reading=True, modelled_bids=True)
    decision = blended.decide(obs, Budget(iterations=50), seed=2, analyse=True)
    assert decision.action in obs.legal_actions and decision.iterations == 50
    assert {s.action for s in decision.analysis} == set(obs.legal_actions)


def test_the_student_play_bots_play_whole_hands_legally() -> None:
    names = ("ismcts-student-play", "ismcts-student-cards", "ismcts-student-prior")
    assert set(names) <= set(BOTS)
    assert MODEL_PATH.exists()
    for name in names:
        # The classic game, which the student was taught, and two it was not (the search
        # plays there): three players, and four without montar.
        games = (
            (Rules(players=4, schedule=[7]), True),
            (Rules(players=3, schedule=[5]), False),
            (Rules(players=4, schedule=[6], montar=False), False),
        )
        for rules, classic in games:
            bot = make_bot(name)
            game = Game.new(rules, 21)
            step = 0
            searched = 0
            while game.phase != "finished":
                turn = game.turn
                assert turn is not None
                obs = observe(game, turn)
                decision = bot.decide(obs, Budget(iterations=40), seed=step)
                assert decision.action in obs.legal_actions
                searched += decision.iterations > 0 and not obs.bidding
                game.apply(turn, decision.action)
                step += 1
            assert (searched == 0) == (name == "ismcts-student-cards" and classic)


def test_the_students_prior_leads_the_roots_visits_where_it_points() -> None:
    # A lead in the classic game: a prior all on one legal card, and then all on
    # another, each draws the root's visits to its card; without a prior (the student's
    # weight nought) the search is master's own, to the visit.
    game = _mid_trick(cards=7, played=4)
    turn = game.turn
    assert turn is not None
    obs = observe(game, turn)
    assert len(obs.legal_actions) >= 2
    budget = Budget(iterations=400)

    def visits(prior: dict[int, float] | None) -> dict[int, int]:
        bot = PlayStudentBot(student_play=0.0, reading=True, modelled_bids=True)
        bot.root_prior = lambda _obs: prior  # type: ignore[method-assign]
        decision = bot.decide(obs, budget, seed=4, analyse=True)
        assert decision.iterations == 400
        return {s.action: s.visits for s in decision.analysis}

    plain = visits(None)
    master = make_bot("ismcts-modelled").decide(obs, budget, seed=4, analyse=True)
    assert plain == {s.action: s.visits for s in master.analysis}
    for card in obs.legal_actions[:2]:
        led = visits({card: 20.0})
        assert led[card] > plain[card] and led[card] == max(led.values()), (card, led, plain)
    # The bot's own prior is the student's probabilities times its constant.
    bot = make_bot("ismcts-student-prior")
    assert isinstance(bot, PlayStudentBot)
    prior = bot.root_prior(obs)
    assert prior is not None and set(prior) == set(obs.legal_actions)
    assert abs(sum(prior.values()) - bot.student_prior) < 1e-4


def test_the_agreement_with_the_teacher_counts_every_play_with_a_choice() -> None:
    model = PlayStudentModel.load(MODEL_PATH)
    found = play_agreement(model, hands=2, iterations=20, blends=(0.5,))
    assert found["plays"] > 0
    assert set(found) == {"plays", "master", "student", "blend 0.5"}
    for name in ("master", "student", "blend 0.5"):
        assert 0.0 <= found[name]["teachers_card"] <= 1.0
        assert 0.0 <= found[name]["teachers_share"] <= 1.0


def test_a_bid_is_the_searchs_own() -> None:
    game = Game.new(Rules(players=4, schedule=[5]), 9)
    turn = game.turn
    assert turn is not None
    obs = observe(game, turn)
    decision = make_bot("ismcts-student-cards").decide(obs, Budget(iterations=30), seed=1)
    assert decision.iterations > 0 and decision.action in obs.legal_actions
    assert decision.action in {bid_action(b) for b in range(6)}


def test_pocha_train_student_play_writes_weights_and_their_report(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from cli.main import pocha

    out = tmp_path / "student_play.npz"
    data = tmp_path / "plays.npz"
    args = ["train-student", "--play", "--hands", "10", "--iterations", "20", "--epochs", "2"]
    args += ["--processes", "1", "--data", str(data), "--out", str(out), "--compare", "1"]
    done = CliRunner().invoke(pocha, args)
    assert done.exit_code == 0, done.output
    assert "plays with a choice" in done.output and "master's" in done.output
    report = json.loads(out.with_suffix(".json").read_text())
    assert (
        report["decisions"] == "plays" and report["epochs"] == 2 and report["hidden"] == [128, 128]
    )
    model = PlayStudentModel.load(out)
    assert model.layers[-1][0].shape[1] == OUTPUTS and model.mean.shape == (INPUTS,)
    # Fitted again from the kept plays, the weights are the same to the bit.
    again = tmp_path / "again.npz"
    args[args.index(str(out))] = str(again)
    assert CliRunner().invoke(pocha, args).exit_code == 0
    with np.load(out) as first, np.load(again) as second:
        assert all(np.array_equal(first[k], second[k]) for k in first.files)
