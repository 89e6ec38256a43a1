"""One action space for every move of Pocha: a bid and a card are both an ``int``.
How it works: docs/internals.md, ``engine.pocha.actions``.

>>> action_to_wire(bid_action(2)), action_to_wire(parse_card("O1"))
(2, 'O1')
>>> action_from_wire("O1") == parse_card("O1"), bid_of(action_from_wire(3))
(True, 3)
"""

from __future__ import annotations

from engine.errors import InvalidBidError
from engine.i18n import _
from engine.pocha.cards import card_code, card_name, parse_card

# The action types every game shares, named here too for Pocha's modules.
from engine.protocols import Action as Action
from engine.protocols import WireAction as WireAction

#: A bid of ``n`` tricks is the action ``BID_BASE + n``; every card action is below it.
BID_BASE = 64


def bid_action(tricks: int) -> Action:
    """The action of bidding ``tricks`` tricks."""
    return BID_BASE + tricks


def is_bid(action: Action) -> bool:
    """Whether ``action`` is a bid (else it is meant as a card)."""
    return action >= BID_BASE


def bid_of(action: Action) -> int:
    """The number of tricks a bid action bids."""
    return action - BID_BASE


def action_to_wire(action: Action) -> WireAction:
    """The JSON form of ``action``: a bid's number of tricks, or a card's code."""
    return action - BID_BASE if action >= BID_BASE else card_code(action)


def action_from_wire(value: WireAction) -> Action:
    """The action a client's JSON names: an ``int`` is a bid, a ``str`` a card code.

    Raises ``InvalidCardError`` for a string that is no card and ``InvalidBidError``
    (rule ``bid_range``) for anything else that is not a number of tricks.
    """
    if isinstance(value, str):
        return parse_card(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidBidError(
            _("a bid is a whole number of tricks from 0, not {value}", value=repr(value)),
            rule="bid_range",
        )
    return BID_BASE + value


def action_name(action: Action) -> str:
    """A readable name: ``bid 2``, or ``as de oros (O1)`` for a card."""
    if action >= BID_BASE:
        return f"bid {action - BID_BASE}"
    return f"{card_name(action)} ({card_code(action)})"
