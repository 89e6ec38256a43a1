"""The rules of Pocha (La Podrida, the Spanish Oh Hell) as pure Python.

No I/O here: cards and card sets (``engine.cards``), rule options
(``engine.rules``), the four play obligations (``engine.legality``), the fast
one-hand state for search (``engine.hand``), the validated whole game
(``engine.game``), what one seat may see (``engine.observation``) and what it
may infer about the others (``engine.inference``).
"""

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
    "OPTIONS",
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
    "card_code",
    "card_name",
    "codes",
    "describe_options",
    "hand_points",
    "infer",
    "observe",
    "parse_card",
    "parse_cards",
    "play_out",
]
