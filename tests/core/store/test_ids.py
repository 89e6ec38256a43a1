"""Ids people type at a command line (`pocha accounts disable ID`) never start with `-`,
which the command line would read as an option."""

from __future__ import annotations

import binascii

from core.store.keys import SLOT_STEP, new_id, plain_id


def test_ids_never_start_with_a_dash() -> None:
    # token_urlsafe starts one id in 64 with `-`: 2,000 of each would show it.
    assert not [i for i in (new_id() for _ in range(2000)) if i.startswith("-")]
    assert not [i for i in (plain_id() for _ in range(2000)) if i.startswith("-")]


def test_game_ids_keep_their_spread_slot_and_length() -> None:
    for game_id in (new_id() for _ in range(200)):
        assert len(game_id) == 16
        assert binascii.crc_hqx(game_id.encode(), 0) % SLOT_STEP == 0
