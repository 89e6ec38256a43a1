"""The rules of Pocha (La Podrida, the Spanish Oh Hell) as pure Python.

No I/O here: cards and card sets (``engine.cards``), the one action space of
bids and cards (``engine.actions``), rule options (``engine.rules``), who wins
a trick (``engine.tricks``), the bidding order and the dealer rule
(``engine.bidding``), the four play obligations (``engine.legality``), the
fast one-hand state for search (``engine.hand``), the validated whole game
(``engine.game``), what one seat may see (``engine.observation``), what it may
infer about the others (``engine.inference``) and the deals of their hidden
cards that fit it (``engine.deals``), and a position sent by a client checked
into that seat's view (``engine.position``).
"""

from engine.actions import (
    BID_BASE,
    Action,
    action_from_wire,
    action_name,
    action_to_wire,
    bid_action,
    bid_of,
    is_bid,
)
from engine.cards import card_code, card_name, codes, parse_card, parse_cards
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
from engine.game import Game
from engine.hand import HandState, hand_points, play_out
from engine.inference import Knowledge, infer
from engine.observation import Observation, observe
from engine.rules import OPTIONS, Rules, describe_options

__all__ = [
    "BID_BASE",
    "OPTIONS",
    "Action",
    "Game",
    "HandState",
    "IllegalActionError",
    "IllegalCardError",
    "InvalidBidError",
    "InvalidCardError",
    "InvalidRulesError",
    "InvalidStateError",
    "Knowledge",
    "NotYourTurnError",
    "Observation",
    "PochaError",
    "Rules",
    "WrongPhaseError",
    "action_from_wire",
    "action_name",
    "action_to_wire",
    "bid_action",
    "bid_of",
    "card_code",
    "card_name",
    "codes",
    "describe_options",
    "hand_points",
    "infer",
    "is_bid",
    "observe",
    "parse_card",
    "parse_cards",
    "play_out",
]
