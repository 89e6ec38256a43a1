"""Fields and schemas every game's requests share: a strict boolean, numbers written in ASCII,
a known bot level, and how hard a bot thinks (a level or a custom budget).
"""

from __future__ import annotations

import re
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from ai.registry import levels_of
from core.jobs.queues import MAX_ITERATIONS, MAX_MILLISECONDS
from engine.i18n import _
from engine.registry import DEFAULT_GAME


class StrictBoolean(fields.Boolean):
    """`true` or `false` only: marshmallow's Boolean also takes 1, 0, "yes", "off"..., which
    the document (type boolean) does not allow, so a client's mistake would pass unseen."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class AsciiInteger(fields.Integer):
    """An integer that, given as text (a query parameter), is ASCII digits after an optional
    minus sign: `int()` also reads "1_0", " 7", "+3" and the digits of any script ("١"),
    none of which the document's `integer` allows, and a proxy's rule or a log would read
    them otherwise. A bound below zero refuses the minus with its own sentence."""

    _TEXT = re.compile(r"-?[0-9]+")

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str) and not self._TEXT.fullmatch(value):
            raise self.make_error("invalid", input=value)
        return super()._deserialize(value, attr, data, **kwargs)


class AsciiNumber(fields.Float):
    """A number that, given as text, is written in ASCII as JSON and JavaScript write one
    (`0.5`, `5`, `1e-05`): `float()` also reads "1_0", " 7", "inf" and any script's digits."""

    _TEXT = re.compile(r"-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?")

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str) and not self._TEXT.fullmatch(value):
            raise self.make_error("invalid", input=value)
        return super()._deserialize(value, attr, data, **kwargs)


def known_level(level: str, game: str = DEFAULT_GAME) -> None:
    """Refuse `level` unless it is one of `game`'s bot levels (read now)."""
    levels = levels_of(game)
    if level not in levels:
        raise ma.ValidationError(
            _(
                "Unknown level {level}; the levels are {levels}.",
                level=repr(level),
                levels=", ".join(levels),
            )
        )


def level_field(check: Any) -> fields.String:
    return fields.String(
        validate=check,
        metadata={
            "description": "A bot level (see GET /api/v1/rules): random, heuristic, easy, "
            "medium, hard, expert, master, ismcts-expert. The search levels come with an "
            "analysis.",
            "enum": list(levels_of(DEFAULT_GAME)),
            "example": "hard",
        },
    )


class ThinkingSchema(ma.Schema):
    """How hard the bot thinks: `level`, or a custom budget (`iterations` and/or
    `milliseconds`, whichever runs out first); default level `hard`."""

    level = level_field(known_level)
    iterations = fields.Integer(
        strict=True,
        validate=validate.Range(1, MAX_ITERATIONS),
        metadata={
            "description": f"A custom budget: ISMCTS iterations (at most {MAX_ITERATIONS}).",
            "example": 5000,
        },
    )
    milliseconds = fields.Integer(
        strict=True,
        validate=validate.Range(1, MAX_MILLISECONDS),
        metadata={
            "description": f"A custom budget: thinking time in ms (at most {MAX_MILLISECONDS}).",
            "example": 500,
        },
    )

    @ma.validates_schema
    def _level_or_budget(self, data: dict[str, Any], **kwargs: Any) -> None:
        if "level" in data and ("iterations" in data or "milliseconds" in data):
            raise ma.ValidationError(
                _("Give a level or a custom budget (iterations, milliseconds), not both."),
                "level",
            )
