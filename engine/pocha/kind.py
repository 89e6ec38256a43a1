"""Pocha as the registry (``engine.registry``) reaches it: its rules, games, views and actions.

Pocha's stored JSON predates Poch and names no game; the registry reads such JSON as Pocha's.
"""

from __future__ import annotations

from typing import Any

from engine.pocha import actions, record, rules, view
from engine.pocha.game import Game
from engine.pocha.observation import observe
from engine.pocha.position import FIELDS, position_from_dict
from engine.protocols import GameKind


def _new(rules: Any, seed: int | None) -> Game:
    return Game.new(rules, seed)


KIND = GameKind(
    name=Game.kind,
    title="Pocha",
    min_players=rules.MIN_PLAYERS,
    max_players=rules.MAX_PLAYERS,
    rules_from_dict=rules.Rules.from_dict,
    describe_options=rules.describe_options,
    new=_new,
    from_dict=Game.from_dict,
    observation=observe,
    action_from_wire=actions.action_from_wire,
    action_to_wire=actions.action_to_wire,
    opening_events=lambda game: [game.hand_dealt_event()],
    view=view.view,
    decisions=view.DECISIONS,
    wrong_decision=view.wrong_decision,
    read_move=view.read_move,
    history=view.history,
    position_from_dict=position_from_dict,
    position_fields=FIELDS,
    decisions_per_game=view.decisions_per_game,
    record=record.record,
    replay_record=record.decisions,
    record_as_read=record.as_read,
    decision_events=record.DECISION_EVENTS,
)
