"""Each game's forms on the wire, where the published document names them: its rules'
schema and its AI move's request, found by the game's name (`forms_of`), so that the
generic service names no game. `service.api.wire.games` registers the service's own games'
(the app imports it); a game without forms here is read from its `GameKind` alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import marshmallow as ma


@dataclass(frozen=True)
class WireForms:
    """One game's request schemas the document names."""

    #: The game's name (`GameKind.name`).
    game: str
    #: Its rule options at creation (`rules`), each optional.
    rules: type[ma.Schema]
    #: `POST /api/v1/ai/move`'s body for one of its positions: the position's fields, `game`
    #: and how hard to think.
    ai_move_request: type[ma.Schema]


#: Each game's forms, by the game's name.
FORMS: dict[str, WireForms] = {}


def register(forms: WireForms) -> None:
    FORMS[forms.game] = forms


def forms_of(game: str) -> WireForms | None:
    """The forms of the game called `game`, if the document names any."""
    return FORMS.get(game)
