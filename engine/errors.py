"""Typed errors of every game's engine, each with a stable machine code (``code``) for the
HTTP API and, where an obligation was broken, its ``rule``. Every refused action raises
one of these before anything changes, so its message can be shown to a person as it is
and the game is untouched. A game may add its own beneath them (Poch's ``InvalidSuitError``).
"""

from __future__ import annotations


class GameError(Exception):
    """Base of every error a game's engine raises on purpose."""

    code = "game_error"

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule


class InvalidRulesError(GameError, ValueError):
    """A rule option has a value that is not allowed; the message names it."""

    code = "invalid_rules"

    def __init__(self, message: str, *, option: str) -> None:
        super().__init__(message)
        self.option = option


class InvalidCardError(GameError, ValueError):
    """A string that is not a card code."""

    code = "invalid_card"


class IllegalActionError(GameError):
    """An action the rules do not allow now."""

    code = "illegal_move"


class NotYourTurnError(IllegalActionError):
    code = "not_your_turn"


class WrongPhaseError(IllegalActionError):
    """An action of another phase (a bid while cards are being played, a card during
    bidding), or any action after the game is over."""

    code = "wrong_phase"


class InvalidBidError(IllegalActionError):
    code = "invalid_bid"


class IllegalCardError(IllegalActionError):
    """A card the player does not hold or may not play now."""

    code = "illegal_move"


class InvalidStateError(GameError, ValueError):
    """A stored or submitted state that cannot be a position of the game."""

    code = "invalid_state"
