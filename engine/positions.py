"""What every game's reading of a client's position shares: the checks of its object and
fields. A position is untrusted JSON: the object may hold no unknown field (a typo is
refused, not ignored) and must hold the required ones, and each field is read as a whole
number, a seat or a list, every refusal an ``InvalidStateError`` naming the field.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.errors import InvalidStateError
from engine.i18n import _, as_json


def position_fields(data: Any, fields: Sequence[str], required: Iterable[str]) -> Mapping[str, Any]:
    """``data`` as a position: a JSON object with no field but ``fields`` and every one of
    ``required``."""
    if not isinstance(data, Mapping):
        raise InvalidStateError(_("a position is a JSON object"))
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise InvalidStateError(
            _(
                "unknown field {field} in the position; the fields are {fields}",
                field=as_json(unknown[0]),
                fields=", ".join(fields),
            )
        )
    for field in required:
        if field not in data:
            raise InvalidStateError(_("the position has no {field}", field=as_json(field)))
    return data


def int_field(value: Any, what: Any) -> int:
    """``value`` as a whole number (never a bool)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidStateError(
            _("{what} must be a whole number, not {value}", what=what, value=as_json(value))
        )
    return value


def seat_field(value: Any, what: Any, players: int) -> int:
    """``value`` as a seat of a game of ``players``."""
    seat = int_field(value, what)
    if not 0 <= seat < players:
        raise InvalidStateError(
            _(
                "{what} must be a seat from 0 to {last} in a game of {players}, not {seat}",
                what=what,
                last=players - 1,
                players=players,
                seat=seat,
            )
        )
    return seat


def list_field(value: Any, what: Any) -> list[Any]:
    """``value`` as a list."""
    if not isinstance(value, list):
        raise InvalidStateError(
            _("{what} must be a list, not {value}", what=what, value=as_json(value))
        )
    return value
