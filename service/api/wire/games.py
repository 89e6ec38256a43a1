"""The service's own games' wire forms (Pocha's and Poch's), registered in
`service.api.wire` when this module is imported (the app does), and what the published
document names of them by reference only: each game's view as `oneOf` its phases', its
rules, events, score sheet, AI move request and a match's records and figures.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma

from service.api.games_schemas import by_phase
from service.api.wire import FORMS, MoveBody, poch, pocha, register
from service.api.wire.poch import (
    POCH_PHASE_VIEWS,
    PochAiMoveRequestSchema,
    PochBotStatsSchema,
    PochEventSchema,
    PochGameRecordSchema,
    PochHistorySchema,
    PochRulesInForceSchema,
    PochRulesSchema,
)
from service.api.wire.pocha import (
    POCHA_PHASE_VIEWS,
    AiMoveRequestSchema,
    BotStatsSchema,
    EventSchema,
    GameRecordSchema,
    HistorySchema,
    RulesInForceSchema,
    RulesSchema,
)

__all__ = ["FORMS", "documented_by_reference", "move_body", "views_by_phase"]

for _forms in (pocha.FORMS, poch.FORMS):
    register(_forms)


def move_body(endpoint: str) -> MoveBody:
    """The body of the move endpoint `endpoint` (`bids`), as its game's wire forms give it."""
    (found,) = [
        forms.move_bodies[endpoint] for forms in FORMS.values() if endpoint in forms.move_bodies
    ]
    return found


def views_by_phase() -> dict[str, dict[str, Any]]:
    """Each game's view as the document names it (`GameView`, `PochGameView`): `oneOf` its
    phases' views, told apart by `phase`; for the app to register as they are."""
    return {
        "GameView": by_phase(
            "A Pocha game's view, a seat's (with `you`) or the spectator's (without); "
            "each phase's own, told apart by `phase`.",
            POCHA_PHASE_VIEWS,
        ),
        "PochGameView": by_phase(
            "A Poch game's view, a seat's (with `you`) or the spectator's (without); each "
            "phase's own, told apart by `phase`.",
            POCH_PHASE_VIEWS,
        ),
    }


def documented_by_reference() -> dict[str, type[ma.Schema]]:
    """The schemas the OpenAPI document names only by reference (`oneOf` the two games'),
    by component name, for the app to register before its routes."""
    return {
        "Rules": RulesSchema,
        "PochRules": PochRulesSchema,
        "RulesInForce": RulesInForceSchema,
        "PochRulesInForce": PochRulesInForceSchema,
        **{name: view for name, view in POCHA_PHASE_VIEWS.values()},
        **{name: view for name, view in POCH_PHASE_VIEWS.values()},
        "Event": EventSchema,
        "PochEvent": PochEventSchema,
        "History": HistorySchema,
        "PochHistory": PochHistorySchema,
        "AiMoveRequest": AiMoveRequestSchema,
        "PochAiMoveRequest": PochAiMoveRequestSchema,
        "BotStats": BotStatsSchema,
        "PochBotStats": PochBotStatsSchema,
        "GameRecord": GameRecordSchema,
        "PochGameRecord": PochGameRecordSchema,
    }
