"""The capacity model's arithmetic on fixed inputs (no timing): tables, loads, the parts
they take, the first limit, and the `pocha capacity` command."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from cli.main import pocha
from core.jobs.tasks import RESULT_TTL
from engine.pocha.game import Game
from engine.pocha.rules import Rules
from tools.capacity import (
    Inputs,
    games_per_unit,
    load,
    report,
    table,
    turns_per_game,
    with_settings,
)

# Round figures, so that every expected number below can be worked out by hand.
FIXED = Inputs(
    api_us_per_move=1_000,
    store_us_per_move=100,
    store_us_per_bot_turn=300,
    queue_us_per_bot_turn=1_000,
    worker_us_per_bot_turn=10_000,
    queue_us_per_job=0,
    worker_us_per_job=0,
    queue_bytes_per_job=1_000,
    think_ms={"easy": 1, "hard": 9},
    players=4,
    bot_table_share=0.5,
    people_at_bot_table=1,
    person_seconds_per_move=6,
    bot_turns_per_job=1,
    bot_seconds_per_turn=0,
    api_us_per_event=100,
    level_mix={"easy": 0.5, "hard": 0.5},
    core_target=0.5,
    redis_target=0.5,
)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_turns_per_game_counts_every_bid_and_card_the_engine_asks_for(players: int) -> None:
    rng = random.Random(players)
    game = Game.new(Rules(players=players), 7)
    turns = 0
    while not game.finished:
        seat = game.turn
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions()))
        turns += 1
    assert turns_per_game(players) == turns


def test_turns_per_game_of_the_classic_four_player_game() -> None:
    # 28 hands (four of 1 card at each end, four of 10, 2..9 both ways): 28 bids and
    # 136 cards a seat.
    assert turns_per_game(4) == 4 * (28 + 136) == 656


def test_a_table_moves_as_fast_as_its_people_think() -> None:
    people = table(FIXED, 4)
    assert (people.moves_per_minute, people.person_moves_per_minute) == (10, 10)
    assert (people.bot_turns_per_minute, people.events_per_minute) == (0, 40)
    bots = table(FIXED, 1)
    assert (bots.moves_per_minute, bots.person_moves_per_minute) == (40, 10)
    assert (bots.bot_turns_per_minute, bots.events_per_minute) == (30, 40)


def test_load_of_six_thousand_games() -> None:
    x = load(FIXED, 6_000)
    # A game a minute: 10 moves of people, 15 bot turns (half the tables), 40 events.
    assert (x.person_moves, x.bot_turns, x.events) == (1_000, 1_500, 4_000)
    assert x.api_cpu == pytest.approx(1.4)  # 1,000 x 1 ms + 4,000 x 0.1 ms
    assert x.worker_cpu == pytest.approx(22.5)  # 1,500 x (10 ms + mean think 5 ms)
    assert x.store_cpu == pytest.approx(0.55)  # 1,000 x 0.1 ms + 1,500 x 0.3 ms
    assert x.queue_cpu == pytest.approx(1.5)  # 1,500 x 1 ms
    assert x.queue_memory == pytest.approx(1_500 * RESULT_TTL * 1_000)
    assert (x.api_cores, x.worker_cores, x.store_shards, x.queue_redises) == (3, 45, 2, 3)


def test_each_job_adds_its_cost_shared_by_the_turns_it_plays() -> None:
    runs = with_settings(
        FIXED, ["worker_us_per_job=3000", "queue_us_per_job=600", "bot_turns_per_job=3"]
    )
    x = load(runs, 6_000)
    # 1,500 bot turns a second in 500 jobs: each adds 3 ms of worker, 0.6 ms of queue Redis.
    assert x.worker_cpu == pytest.approx(22.5 + 500 * 0.003)
    assert x.queue_cpu == pytest.approx(1.5 + 500 * 0.0006)
    assert x.queue_memory == pytest.approx(500 * RESULT_TTL * 1_000)


def test_games_per_unit_and_the_first_limit() -> None:
    units = games_per_unit(FIXED)
    assert units["queue Redis"] == pytest.approx(2_000)  # 0.5 core / 0.25 ms a game-second
    assert units["store shard"] == pytest.approx(0.5 / (0.55 / 6_000))
    assert units["worker core"] == pytest.approx(0.5 / (22.5 / 6_000))
    lines = report(FIXED, [6_000])
    assert lines[-1].startswith("first limit: one queue Redis, at 2,000 concurrent games")
    assert "; then one store Redis, at 5,455" in lines[-1]
    cheap_queue = with_settings(FIXED, ["queue_us_per_bot_turn=10"])
    assert report(cheap_queue, [6_000])[-1].startswith("first limit: one store Redis, at 5,455")


def test_settings_replace_inputs_and_levels() -> None:
    changed = with_settings(FIXED, ["players=5", "think_ms.hard=19", "level_mix.easy=0"])
    assert changed.players == 5
    assert changed.mean_think_ms() == 19
    assert FIXED.think_ms["hard"] == 9  # the original is left as it was
    for wrong in ["nothing=1", "players", "think_ms=3", "queue_us_per_bot_turn.x=1"]:
        with pytest.raises(ValueError):
            with_settings(FIXED, [wrong])


def test_capacity_command_prints_the_table() -> None:
    result = CliRunner().invoke(
        pocha, ["capacity", "--games", "10000", "--set", "bot_table_share=0"]
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[2].split()[:3] == ["10,000", "1,667", "0"]  # 10 moves a minute a game
    bad = CliRunner().invoke(pocha, ["capacity", "--set", "nothing=1"])
    assert bad.exit_code != 0
    assert "unknown input" in bad.output
