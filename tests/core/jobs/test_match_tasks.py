"""One game of a match made alone (`MatchSpec.task`, what a slice plays) is the game the
match lists (`MatchSpec.tasks`), field for field, for every game of every kind of match the
API accepts: Pocha and Poch, levels, bots and budgets, accounts, duplicate deals and not,
rated, at tables, any seed, up to the largest match."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import fields

import pytest

from ai.arena import ArenaGame
from ai.registry import BOT_KINDS
from core.jobs.matches import MAX_GAMES, MatchSpec, at_tables, check_match

ACCOUNT = "account:abcDEF123"
OTHER_ACCOUNT = "account:xyz-789_Q"
#: The API's largest seed (`service.api.games_schemas.MAX_SEED`).
MAX_SEED = 2**53 - 1


def _seat_texts(game: str) -> list[str]:
    """Every sort of seat a match of `game` may have: its levels, bots, budgets."""
    kind = BOT_KINDS[game]
    return [*kind.levels, "random", "heuristic", "ismcts:300", "ismcts:50ms", "ismcts"]


def _specs() -> Iterator[tuple[str, MatchSpec]]:
    """Matches of every kind, each as made and as a slice loads it (stored and read back)."""
    draw = random.Random(20261207)
    made: list[tuple[str, MatchSpec]] = []

    def add(name: str, seats: list[str], per_deal: int, rules: dict[str, object] | None = None,
            seed: int | None = 7, duplicate: bool = True, game: str = "pocha",
            rated: bool = False, tables: bool = False) -> None:  # fmt: skip
        kind = BOT_KINDS[game]
        rotations = kind.seatings(seats) if duplicate else 1
        games = min(rotations * per_deal, MAX_GAMES - MAX_GAMES % rotations)
        spec = check_match(seats, games, rules, seed, duplicate, game=game, rated=rated,
                           max_cpu_hours=1e9)  # fmt: skip
        made.append((name, at_tables(spec) if tables else spec))

    for game in BOT_KINDS:
        kind = BOT_KINDS[game]
        texts = _seat_texts(game)
        for players in range(kind.game.min_players, kind.game.max_players + 1):
            for duplicate in (True, False):
                seats = [draw.choice(texts) for _ in range(players)]
                add(f"{game} {players} drawn", seats, 3, duplicate=duplicate, game=game,
                    seed=draw.randrange(MAX_SEED + 1))  # fmt: skip
        levels = list(kind.levels)
        # Repeated line-ups: fewer distinct rotations than seats.
        add(f"{game} abab", ["hard", "easy", "hard", "easy"], 5, game=game)
        add(f"{game} abcabc", ["hard", "easy", "medium"] * 2, 4, game=game)
        add(f"{game} aaaa", ["easy"] * 4, 6, game=game)
        add(f"{game} seed 0", levels[:3], 4, seed=0, game=game)
        add(f"{game} largest seed", levels[:3], 4, seed=MAX_SEED, game=game)
        add(f"{game} random seed", levels[:4], 4, seed=None, game=game)
        # Accounts, rated or not, with rotations one at a time.
        add(f"{game} account", [ACCOUNT, "hard", "ismcts:300"], 4, game=game)
        add(f"{game} rated dup", [ACCOUNT, "hard", "hard", "easy"], 5, seed=None, game=game,
            rated=True)  # fmt: skip
        add(f"{game} rated", [ACCOUNT, "medium", "easy"], 9, seed=None, duplicate=False,
            game=game, rated=True)  # fmt: skip
        add(f"{game} rated abab", [ACCOUNT, "hard", ACCOUNT, "hard"], 5, seed=None, game=game,
            rated=True)  # fmt: skip
        # At tables: levels by name and accounts moving over their streams.
        add(f"{game} tables", [ACCOUNT, "easy", "medium"], 7, game=game, tables=True)
        add(f"{game} tables 2 accounts", [ACCOUNT, OTHER_ACCOUNT, "hard", "hard"], 3,
            duplicate=False, game=game, tables=True)  # fmt: skip
        add(f"{game} tables rated", [ACCOUNT, "hard", "easy"], 4, seed=None, game=game,
            rated=True, tables=True)  # fmt: skip
        # The largest matches: every deal its own, and duplicate.
        add(f"{game} largest", ["easy", "medium", "hard"], MAX_GAMES, duplicate=False,
            game=game)  # fmt: skip
        add(f"{game} largest rated dup", [ACCOUNT, "easy", "medium", "hard"], MAX_GAMES,
            seed=None, game=game, rated=True)  # fmt: skip
    add("pocha rules", ["hard", "easy", "medium", "heuristic"], 3,
        rules={"schedule": "classic", "montar": False, "turn_seconds": 30})  # fmt: skip
    add("poch rules", ["hard", "easy", "medium"], 3, rules={"chips": 20, "ante": 2},
        game="poch")  # fmt: skip
    # A seat's text with spaces about it is the same player as without.
    add("spaced seats", [" hard", "easy", "hard", "easy "], 3)
    add("spaced seats, one bot", ["easy", " easy", "easy ", "easy"], 3)
    for name, spec in made:
        yield name, spec
        yield f"{name}, stored", MatchSpec.from_dict(json.loads(json.dumps(spec.stored())))


SPECS = list(_specs())


def _assert_same(alone: ArenaGame, listed: ArenaGame, where: str) -> None:
    assert type(alone) is type(listed), where
    for field in fields(ArenaGame):
        assert getattr(alone, field.name) == getattr(listed, field.name), f"{where}: {field.name}"
    assert alone == listed, where


@pytest.mark.parametrize(("name", "spec"), SPECS, ids=[name for name, _spec in SPECS])
def test_a_game_made_alone_is_the_game_the_match_lists(name: str, spec: MatchSpec) -> None:
    listed = spec.tasks()
    assert len(listed) == spec.games
    for index, task in enumerate(listed):
        _assert_same(spec.task(index), task, f"{name}, game {index}")
    for outside in (-1, spec.games):
        with pytest.raises(IndexError):
            spec.task(outside)


def test_the_specs_cover_every_kind_of_match() -> None:
    specs = [spec for _name, spec in SPECS]
    for game in BOT_KINDS:
        of_game = [s for s in specs if s.game == game]
        assert any(s.rated and s.one_rotation_at_a_time for s in of_game)
        assert any(s.rated and not s.duplicate for s in of_game)
        assert any(s.at_tables and s.rated for s in of_game)
        assert any(s.at_tables and not s.duplicate for s in of_game)
        assert any(s.accounts and not s.rated and not s.at_tables for s in of_game)
        assert any(s.duplicate and 1 < s.rotations < len(s.seats) for s in of_game)
        assert any(s.duplicate and s.rotations == 1 for s in of_game)
        assert any(s.games == MAX_GAMES and s.deals == MAX_GAMES for s in of_game)
        assert any(s.games == MAX_GAMES and s.rated and s.duplicate for s in of_game)
        players = {len(s.seats) for s in of_game}
        kind = BOT_KINDS[game]
        assert players == set(range(kind.game.min_players, kind.game.max_players + 1))
