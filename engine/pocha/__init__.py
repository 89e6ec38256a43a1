"""Pocha (La Podrida, the Spanish Oh Hell): its rules as pure Python, no I/O. The names a
caller most needs are here; each module has one part: ``cards``, ``actions``, ``rules``,
``tricks``, ``bidding``, ``legality``, the fast ``hand``, the validated ``game``, one seat's
``observation``, ``inference`` and ``deals`` of what it cannot see, a client's ``position``.
"""

from engine.implementation import choose

# Before any other import, so that all of them get the implementation chosen.
choose("engine.pocha", ("tricks", "legality", "hand", "deals"), needs=("engine",))

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
