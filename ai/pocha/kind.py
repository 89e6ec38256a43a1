"""Pocha's bots as the registry (``ai.registry``) reaches them."""

from __future__ import annotations

import engine.pocha.kind
from ai.kind import BotKind
from ai.pocha.arena import ARENA
from ai.pocha.levels import make_bot

KIND = BotKind(game=engine.pocha.kind.KIND, arena=ARENA, make_bot=make_bot)
