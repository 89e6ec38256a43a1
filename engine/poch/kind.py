"""Poch as the registry (``engine.registry``) reaches it: its rules, games, views and actions.

Poch's options are listed in the shape Pocha's are (``GET /api/v1/rules``), and a new game
without a seed draws one as Pocha's does.
"""

from __future__ import annotations

from typing import Any

from engine.i18n import _
from engine.poch import actions, record, rules, view
from engine.poch.game import Game
from engine.poch.observation import observe
from engine.poch.position import FIELDS, position_from_dict
from engine.protocols import GameKind
from engine.seeds import new_seed


def _new(rules: Any, seed: int | None) -> Game:
    return Game.new(rules, new_seed() if seed is None else seed)


def _describe_options() -> dict[str, dict[str, Any]]:
    """Poch's options in the shape Pocha's `Option.describe` gives them."""
    described: dict[str, dict[str, Any]] = {}
    for name, low, high, default, doc in rules.OPTIONS:
        described[name] = {
            "default": default,
            "allowed": _("an integer from {low} to {high}", low=low, high=high),
            "doc": doc,
            "kind": "int",
            "minimum": low,
            "maximum": high,
        }
    return described


KIND = GameKind(
    name=Game.kind,
    title="Poch",
    min_players=rules.MIN_PLAYERS,
    max_players=rules.MAX_PLAYERS,
    rules_from_dict=rules.Rules.from_dict,
    describe_options=_describe_options,
    new=_new,
    from_dict=Game.from_dict,
    observation=observe,
    action_from_wire=actions.action_from_wire,
    action_to_wire=actions.action_to_wire,
    opening_events=lambda game: list(game.opening_events),
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
