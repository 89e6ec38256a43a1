"""How a bot plays a turn (`play_bot_turn`), and the `BotRunner` interface of who plays
it (the runners are in `core.play.turns`).
How it works: docs/internals.md, `core.play.bots`.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol

from ai.registry import bot_kind, decide_in, levels_of
from core.errors import Conflict, GameNotFound, StaleVersion
from core.jobs.admission import ThinkPurse
from core.play.bot_advice import advice_of
from core.play.bot_metrics import record_decision
from core.store import account_turns
from core.store.records import OwedTask, OwedTaskMaker, StoredGame
from core.store.store import GameStore
from engine.errors import GameError
from engine.protocols import Action
from engine.registry import kind_of

log = logging.getLogger(__name__)


class BotRunner(Protocol):
    """Hands a bot's turn to whatever plays it."""

    #: Whether `game_changed` returns only once the bots have played (so the caller reads
    #: the game again to show their moves), or as soon as the turn is handed over.
    plays_inline: bool

    def game_changed(
        self, game_id: str, version: int, payer: str | None = None, long: bool = False
    ) -> None:
        """Game `game_id` (made by `payer`, `StoredGame.payer`; `long`: its bots think long,
        `StoredGame.thinks_long`) is now at `version` and a bot must act."""

    def owed_turn(
        self, game_id: str, version: int, deadline: float | None, payer: str | None = None,
        long: bool = False,
    ) -> OwedTask | None:  # fmt: skip
        """What to write with a change that leaves a bot to act at `version`, or a person
        on the clock until `deadline` (or None), in a game `payer` made."""

    def person_moving(self, game_id: str) -> AbstractContextManager[None]:
        """Around a person's move in game `game_id`: long thinking on this machine gives
        way while it is checked and written (`core.jobs.courtesy`)."""


def bot_seed(game_seed: int, version: int) -> int:
    """The seed of the bot decision taken at `version` of a game: reproducible, and
    different at every turn."""
    digest = hashlib.sha256(f"pocha-bot:{game_seed}:{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def fallback_level(record: StoredGame) -> str:
    """The level that plays in `record`'s game when a seat's level is unknown now or its
    bot fails, and on a turn's last try: its game's own (`BotKind.fallback_level`)."""
    return bot_kind(kind_of(record.game)).fallback_level


def level_of(record: StoredGame, seat: int, level: str | None = None) -> str:
    """The level the bot in `seat` thinks at: `level` if given, else its own (the table's
    stand-in's for a person's seat), else the fallback (a level removed since the game
    began)."""
    level = level or record.seats[seat].bot or record.table.stand_in
    return level if level in levels_of(kind_of(record.game)) else fallback_level(record)


def _searches(record: StoredGame, level: str) -> bool:
    """Whether the level thinks for a while (a search), rather than answering at once."""
    budget = levels_of(kind_of(record.game))[level].budget
    return budget.iterations is not None or budget.milliseconds is not None


def bot_decision(
    record: StoredGame, seat: int, level: str | None = None
) -> tuple[Action, dict[str, Any] | None]:
    """What the bot in `seat` does now, decided from that seat's observation only, at its
    own level or at `level` (a worker's last resort plays the fallback level), and what it
    thought (`core.play.bot_advice`): only a level that searches, and with a choice to make,
    since a search's analysis costs nothing more but a forced move is not searched."""
    level = level_of(record, seat, level)
    fallback = fallback_level(record)
    game = record.game
    seed = bot_seed(game.seed, record.version)
    analyse = _searches(record, level) and len(game.legal_actions()) > 1
    try:
        decided = decide_in(game, seat, level, seed=seed, analyse=analyse)
    except Exception:
        # A broken bot must not hang a game: the fallback plays instead.
        if level == fallback:
            raise
        log.exception("bot level %s failed; playing %s instead", level, fallback)
        return decide_in(game, seat, fallback, seed=seed).action, None
    kind = kind_of(game)
    return decided.action, advice_of(kind, seat, level, decided.action, decided.analysis)


def _apply_answer(
    store: GameStore,
    game_id: str,
    seat: int,
    action: Action,
    version: int,
    record: StoredGame,
    owed_task: OwedTaskMaker | None,
) -> StoredGame | None:
    """Play the action a webhook bot answered (checked legal already), as any move is."""
    try:
        return store.apply_action(
            game_id, seat, action, expected_version=version, record=record,
            owed_task=owed_task, stand_in=False,
        ).record  # fmt: skip
    except (Conflict, StaleVersion, GameNotFound):
        return None


def play_bot_turn(
    store: GameStore,
    game_id: str,
    version: int,
    record: StoredGame | None = None,
    level: str | None = None,
    owed_task: OwedTaskMaker | None = None,
    clock_ran_out: bool = False,
    purse: ThinkPurse | None = None,
    fallback: bool = False,
    ask: Callable[[StoredGame, int], Action | None] | None = None,
) -> StoredGame | None:
    """Play the bot turn of `game_id` at `version`; the game after it, or None when there
    is nothing to do (the game moved on, ended, was deleted, or a person is to act).

    `record`: the game as last seen at `version`, to skip reading it again (the write
    still checks the version, so a stale record only costs a dropped turn). A person's
    turn is played by the table's stand-in when they are away or have left, or, with
    `clock_ran_out`, when it is still the turn whose clock ran out. `owed_task`: what the
    move owes (the next bot's turn, the next person's clock), written with it. `purse`:
    the think budgets, of which a game with a `payer` spends its maker's (its webhooks'
    calls too, by their wall time); once that is spent, the fallback level plays until it
    comes back, and a webhook bot's seat is the stand-in's without a call. `fallback`: the
    game's fallback level plays this turn, whatever `level` says (a turn's last try). `ask`:
    asks the webhook of a bot account's seat (`core.play.webhooks`) for its action; None
    (or no answer) and the table's stand-in plays that seat's turn."""
    if record is None or record.id != game_id:
        try:
            record = store.load(game_id)
        except GameNotFound:
            return None
    seat = record.bot_to_move
    if clock_ran_out and seat is None and record.deadline is not None:
        seat = record.game.turn
    if record.version != version or seat is None:
        return None
    hooked = record.seats[seat].webhook and record.seats[seat].account is not None
    # Unless its webhook answers, the stand-in plays a webhook bot's seat, and its move
    # says so; the failures are counted on the bot's account (and pause it), not as a
    # person's missed turns (`GameStore.apply_action`).
    stand_in = record.seats[seat].bot is None
    if hooked and not fallback and ask is not None:
        # The call holds this worker until the webhook answers, up to its deadline: thinking
        # the game's maker pays for, as for its levels; with that spent, the stand-in plays.
        payer = record.payer if purse is not None else None
        if payer is None or purse is None or purse.may_think(payer):
            started = time.perf_counter()
            answered = ask(record, seat)
            if payer is not None and purse is not None:
                purse.spend(payer, time.perf_counter() - started)
            if answered is not None:
                return _apply_answer(store, game_id, seat, answered, version, record, owed_task)
    level = fallback_level(record) if fallback else level_of(record, seat, level)
    payer = record.payer if purse is not None and _searches(record, level) else None
    if payer is not None and purse is not None and not purse.may_think(payer):
        level, payer = fallback_level(record), None
    started = time.perf_counter()
    action, advice = bot_decision(record, seat, level)
    thought = time.perf_counter() - started
    if payer is not None and purse is not None:
        purse.spend(payer, thought)
    try:
        applied = store.apply_action(
            game_id, seat, action, expected_version=version, record=record,
            owed_task=owed_task, stand_in=stand_in, advice=advice,
        ).record  # fmt: skip
    except (Conflict, StaleVersion, GameNotFound):
        record_decision(store.redis, "turn", level, thought)
        return None
    except GameError:
        # The bot chose a move the engine refuses: a bot bug, so log it and let the
        # fallback bot play this turn rather than leave the game stuck.
        log.exception("bot in seat %s of game %s chose a refused move", seat, game_id)
        record = store.load(game_id)
        if record.version != version:
            return None
        fallback_action = decide_in(record.game, seat, fallback_level(record), seed=version).action
        try:
            return store.apply_action(
                game_id, seat, fallback_action, expected_version=version, record=record,
                owed_task=owed_task, stand_in=stand_in,
            ).record  # fmt: skip
        except (Conflict, StaleVersion, GameNotFound):
            return None
    record_decision(store.redis, "turn", level, thought, applied=True)
    account = record.seats[seat].account
    if clock_ran_out and stand_in and not hooked and account and record.seats[seat].bot_account:
        account_turns.count_clock_ran_out(store.redis, account)
    return applied
