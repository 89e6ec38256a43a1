"""The match at OpenSpiel's oh_hell table (optional extra ``pocha[research]``): the honest
resampler deals states the player cannot tell from the real one, from every card it has
not seen; the stock C++ bot's search knows which cards are out of play; a tiny match runs
end to end, rotating our bot through the seats on the same deal."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ai.pocha.openspiel_bridge import rules_of
from engine.pocha.hand import hand_points
from engine.pocha.rules import Rules

pyspiel = pytest.importorskip("pyspiel")

from ai.pocha.openspiel_match import (  # noqa: E402 - after the skip: it needs OpenSpiel
    PARAMS,
    HonestResampler,
    deal_of,
    hidden_cards,
    load_game,
    make_opponent,
    run_match,
    undealt_cards,
)

N = PARAMS["players"]


def positions(game: Any, deals: int, seed: int) -> list[Any]:
    """Every decision of ``deals`` random games (random moves), as states."""
    rng = random.Random(seed)
    out = []
    for d in range(deals):
        state = game.new_initial_state()
        for a in deal_of(game, seed * 1000 + d):
            state.apply_action(a)
        while not state.is_terminal():
            out.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return out


def replays_legally(state: Any, game: Any) -> bool:
    """Every bid and card of ``state`` was legal in its own deal (so no seat was dealt a
    card of a suit it later showed it lacked)."""
    fresh = game.new_initial_state()
    for h in state.full_history():
        if h.player >= 0 and h.action not in fresh.legal_actions():
            return False
        fresh.apply_action(h.action)
    return True


def test_the_honest_resampler_deals_what_the_player_cannot_tell_from_the_real_state() -> None:
    game = load_game()
    for i, state in enumerate(positions(game, 12, 1)):
        player = state.current_player()
        resample = HonestResampler(game, PARAMS, seed=i)
        for _ in range(3):
            new = resample(state, player)
            assert new.information_state_string(player) == state.information_state_string(player)
            assert new.history()[23:] == state.history()[23:]  # the same bids and plays
            assert replays_legally(new, game)


def test_the_honest_resampler_draws_from_undealt_cards_and_the_stock_one_does_not() -> None:
    game = load_game()
    honest = stock = draws = 0
    for i, state in enumerate(positions(game, 4, 2)):
        player = state.current_player()
        undealt = undealt_cards(state, PARAMS)
        resample = HonestResampler(game, PARAMS, seed=i)
        for _ in range(5):
            draws += 1
            honest += bool(hidden_cards(resample(state, player), player, PARAMS) & undealt)
            theirs = state.resample_from_infostate(
                player, pyspiel.UniformProbabilitySampler(0.0, 1.0)
            )
            stock += bool(hidden_cards(theirs, player, PARAMS) & undealt)
    # 15 hidden cards of 34 unseen: almost every honest deal takes some undealt ones.
    assert honest > 0.9 * draws
    assert stock == 0


def test_the_stock_bot_knows_which_cards_are_out_of_play_and_the_honest_one_does_not() -> None:
    """Two states seat 0 cannot tell apart: in one the other seats hold the five top
    trumps, in the other those trumps are undealt.  The stock C++ bot bids more when they
    are out of play; the honest bot, seeded alike, bids the same in both."""
    game = load_game()
    mine = [16, 12, 37, 38, 39]  # trumps (suit 0) of rank 4 and 3, and the other aces
    top_trumps = [36, 32, 28, 24, 20]
    low = [a for a in range(40) if a % 4 != 0 and a // 4 <= 5 and a not in mine]

    def state(others: list[int]) -> Any:
        hands = [mine] + [others[i * 5 : (i + 1) * 5] for i in range(3)]
        st = game.new_initial_state()
        st.apply_action(5)  # tricks (fixed)
        st.apply_action(3)  # the dealer: seat 0 bids first
        for k in range(5):
            for s in range(N):
                st.apply_action(hands[s][k])
        st.apply_action(0)  # the trump card: the lowest of suit 0
        return st

    held, out = state(top_trumps + low[:10]), state(low[:15])
    assert held.current_player() == 0
    assert held.information_state_string(0) == out.information_state_string(0)

    def bids(kind: str, st: Any, simulations: int) -> list[int]:
        return [int(make_opponent(kind, game, simulations, s).step(st)) - 40 for s in range(3)]

    assert sum(bids("stock", out, 500)) > sum(bids("stock", held, 500)) + 3
    assert bids("honest", out, 100) == bids("honest", held, 100)


def test_a_tiny_match_runs_rotating_our_bot_on_the_same_deal() -> None:
    rules = Rules.from_dict({**rules_of(PARAMS), "schedule": [5]})
    for opponent in ("stock", "honest"):
        stats, records = run_match("ismcts:30", opponent, 20, deals=2, seed=3, processes=1)
        assert len(records) == 8 and stats.deals == 2 and stats.games == 8
        for deal in (0, 1):
            games = [r for r in records if r["deal"] == deal]
            assert [r["seat"] for r in games] == [0, 1, 2, 3]
            assert len({(r["dealer"], tuple(r["cards"]), r["trump"]) for r in games}) == 1
            for r in games:
                assert r["seats"][r["seat"]] == "ismcts:30"
                assert r["seats"].count(f"openspiel-{opponent}:20") == 3
                # OpenSpiel's returns are Pocha's hand scores of the bids and tricks.
                assert sum(r["tricks"]) == 5
                assert r["returns"] == [
                    hand_points(rules, b, t) for b, t in zip(r["bids"], r["tricks"], strict=True)
                ]
        ours = [r["returns"][r["seat"]] for r in records]
        theirs = [p for r in records for s, p in enumerate(r["returns"]) if s != r["seat"]]
        assert stats.ours.mean_score == pytest.approx(sum(ours) / 8)
        assert stats.theirs.mean_score == pytest.approx(sum(theirs) / 24)
        assert stats.difference == pytest.approx(sum(ours) / 8 - sum(theirs) / 24)
        assert stats.ours.hands == 8 and stats.theirs.hands == 24


def test_a_match_does_not_depend_on_the_number_of_processes() -> None:
    """With the honest bot (Python, seeded) games replay exactly; the stock C++ bot does
    not: the same seed at the same state can give different moves."""

    def played(processes: int) -> list[dict[str, Any]]:
        _stats, records = run_match("ismcts:20", "honest", 10, deals=1, seed=5, processes=processes)
        return [{k: v for k, v in r.items() if not k.endswith("_ms")} for r in records]

    assert played(1) == played(2)


def test_cli_arena_openspiel_times_both_sides_and_prints_json(tmp_path: Any) -> None:
    import json

    from click.testing import CliRunner

    from cli.main import pocha

    records = tmp_path / "games.jsonl"
    args = [
        "arena-openspiel",
        "--opponent",
        "stock",
        "--simulations",
        "5",
        "--uct-c",
        "25",
        "--deals",
        "1",
        "--timing-deals",
        "1",
        "--processes",
        "1",
        "--records",
        str(records),
        "--json",
    ]
    result = CliRunner().invoke(pocha, args)
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    timing = out["timing"]
    assert out["bot"] == f"ismcts:{timing['iterations']}" and timing["opponent_cpu_ms"] > 0
    assert out["deals"] == 1 and out["games"] == 4
    assert out["ours"]["hands"] == 4 and out["theirs"]["label"] == "openspiel-stock:5"
    assert len(records.read_text().splitlines()) == 4
    assert out["uct_c"] == 25


def test_the_exploration_constant_reaches_the_honest_bot() -> None:
    from ai.pocha.openspiel_match import UCT_C, load_game, make_opponent

    game = load_game()
    assert make_opponent("honest", game, 10, 1)._uct_c == UCT_C
    assert make_opponent("honest", game, 10, 1, uct_c=25.0)._uct_c == 25.0


def test_cli_arena_openspiel_refuses_an_unknown_bot() -> None:
    from click.testing import CliRunner

    from cli.main import pocha

    result = CliRunner().invoke(pocha, ["arena-openspiel", "--bot", "nobody", "--deals", "1"])
    assert result.exit_code != 0
    assert "unknown bot" in result.output


def test_our_bots_sit_at_openspiels_table_with_the_shipped_models_only() -> None:
    from ai.pocha.reading import MODEL_PATH

    with pytest.raises(ValueError, match="shipped models only"):
        run_match(f"master@{MODEL_PATH}", "honest", 10, 1, processes=1)
