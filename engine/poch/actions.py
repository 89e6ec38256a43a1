"""One action space for every decision of Poch: an ``int``, as in every game
(``engine.protocols``).
How it works: docs/poch.md, ``engine.poch.actions``.
"""

from __future__ import annotations

from engine.errors import InvalidBidError
from engine.i18n import _
from engine.poch.cards import SUITS, card_code, parse_card, parse_suit

# The action types every game shares, named here too for Poch's modules.
from engine.protocols import Action as Action
from engine.protocols import WireAction as WireAction

SUIT_BASE = 32
PASS = 40
HOLD = 41
BET_BASE = 64


def bet_action(amount: int) -> Action:
    return BET_BASE + amount


def is_card(action: Action) -> bool:
    return 0 <= action < SUIT_BASE


def is_suit(action: Action) -> bool:
    return SUIT_BASE <= action < SUIT_BASE + 4


def is_bet(action: Action) -> bool:
    return action > BET_BASE


def amount_of(action: Action) -> int:
    return action - BET_BASE


def action_to_wire(action: Action) -> WireAction:
    if action == PASS:
        return "pass"
    if action == HOLD:
        return "hold"
    if is_bet(action):
        return amount_of(action)
    if is_suit(action):
        return SUITS[action - SUIT_BASE]
    if is_card(action):
        return card_code(action)
    raise InvalidBidError(_("{value} is not a Poch action", value=repr(action)))


def action_from_wire(wire: object) -> Action:
    """The action of a JSON form; raises a typed error for anything else."""
    if wire == "pass":
        return PASS
    if wire == "hold":
        return HOLD
    if isinstance(wire, int) and not isinstance(wire, bool):
        if wire < 1:
            raise InvalidBidError(
                _("a bet is at least 1 chip, not {value}", value=wire), rule="bet_minimum"
            )
        return bet_action(wire)
    if isinstance(wire, str) and len(wire) == 1:
        return SUIT_BASE + parse_suit(wire)
    return parse_card(wire)
