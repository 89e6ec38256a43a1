"""Typed errors of the Poch engine, each with a stable machine code.

They are the Pocha engine's errors (``engine.errors``) under Poch's names, so
the HTTP API maps both games' refusals to the same error shape and codes.  Every
refused action raises before anything changes; ``rule`` names the rule of
docs/poch.md that was broken, where one was.
"""

from __future__ import annotations

from engine.errors import (
    IllegalActionError,
    IllegalCardError,
    InvalidBidError,
    InvalidCardError,
    InvalidRulesError,
    InvalidStateError,
    NotYourTurnError,
    PochaError,
    WrongPhaseError,
)


class InvalidSuitError(IllegalActionError):
    """A suit that may not be chosen now (already played, or not a suit)."""

    code = "invalid_suit"


__all__ = [
    "IllegalActionError",
    "IllegalCardError",
    "InvalidBidError",
    "InvalidCardError",
    "InvalidRulesError",
    "InvalidStateError",
    "InvalidSuitError",
    "NotYourTurnError",
    "PochaError",
    "WrongPhaseError",
]
