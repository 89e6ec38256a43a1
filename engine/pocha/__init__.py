"""Pocha (La Podrida, the Spanish Oh Hell): its rules as pure Python, no I/O.

Cards and card sets (``cards``), the one action space of bids and cards (``actions``),
the options (``rules``), tricks, the bidding order and the four play obligations
(``tricks``, ``bidding``, ``legality``), the fast one-hand state for search (``hand``), the
validated whole game (``game``), one seat's view (``observation``), what it may infer and
the deals that fit it (``inference``, ``deals``), and a client's position (``position``).
"""

from engine.pocha.actions import (
    BID_BASE,
    Action,
    action_from_wire,
    action_name,
    action_to_wire,
    bid_action,
    bid_of,
    is_bid,
)
from engine.pocha.cards import card_code, card_name, codes, parse_card, parse_cards
from engine.pocha.game import Game
from engine.pocha.hand import HandState, hand_points, play_out
from engine.pocha.inference import Knowledge, infer
from engine.pocha.observation import Observation, observe
from engine.pocha.rules import OPTIONS, Rules, describe_options

__all__ = [
    "BID_BASE",
    "OPTIONS",
    "Action",
    "Game",
    "HandState",
    "Knowledge",
    "Observation",
    "Rules",
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
