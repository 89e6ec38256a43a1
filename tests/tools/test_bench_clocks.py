"""`pocha bench clocks` hears every game's changes: its listener's pattern matches each
game's change channel and reads the game's id back from it (hash tags and all)."""

from __future__ import annotations

from fnmatch import fnmatchcase

from core.store.keys import CHANGES_PATTERN, changes_channel, game_of_channel, new_id


def test_the_listener_reads_every_games_id_from_its_channel() -> None:
    for _ in range(100):
        game_id = new_id()
        channel = changes_channel(game_id)
        assert fnmatchcase(channel, CHANGES_PATTERN)
        assert game_of_channel(channel) == game_id
