"""The one error of Poch's own: a suit that may not be chosen. Poch's other refusals are
the errors every game raises (``engine.errors``), so the HTTP API maps both games' to the
same error shape and codes; ``rule`` names the rule of docs/poch.md that was broken.
"""

from __future__ import annotations

from engine.errors import IllegalActionError


class InvalidSuitError(IllegalActionError):
    """A suit that may not be chosen now: one already played. A letter that is no suit
    is ``invalid_card`` (``engine.poch.cards.parse_suit``), as a code that is no card."""

    code = "invalid_suit"
