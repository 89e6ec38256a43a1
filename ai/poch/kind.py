"""Poch's bots as the registry (``ai.registry``) reaches them. An analysis calls an action's
mean score ``mean_chips``, as the API always has for Poch."""

from __future__ import annotations

import engine.poch.kind
from ai.kind import BotKind
from ai.poch.arena import ARENA
from ai.poch.levels import make_bot

KIND = BotKind(game=engine.poch.kind.KIND, arena=ARENA, make_bot=make_bot, score_name="mean_chips")
