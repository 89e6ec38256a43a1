"""A bridge to OpenSpiel's ``oh_hell``: any of our bots can sit at an OpenSpiel table.
How it works: docs/internals.md, ``ai.pocha.openspiel_bridge``.
"""

from __future__ import annotations

from typing import Any

from ai.bot import Budget
from ai.pocha.kind import KIND
from engine.pocha.actions import BID_BASE, Action
from engine.pocha.cards import card_code
from engine.pocha.observation import Observation
from engine.pocha.position import position_from_dict

SUITS = 4


def _deck(params: dict[str, Any]) -> tuple[int, int]:
    """(cards per suit, strength offset) of a game our deck can stand for."""
    players = int(params["players"])
    per_suit = int(params["num_cards_per_suit"])
    ours = 9 if players in (3, 6) else 10
    if int(params["num_suits"]) != SUITS or per_suit != ours:
        raise ValueError(
            f"only oh_hell with 4 suits of {ours} cards is Pocha's deck for {players} players"
        )
    return per_suit, 10 - per_suit


def rules_of(params: dict[str, Any]) -> dict[str, Any]:
    """Pocha rules for an oh_hell game's parameters (follow suit only)."""
    per_trick = int(params["points_per_trick"])
    return {
        "players": int(params["players"]),
        "montar": False,
        "fallar": False,
        "pisar": False,
        # OpenSpiel too forbids the last bid that makes the bids add up to the tricks.
        "dealer_restriction": True,
        "exact_bonus": 10,
        "per_trick": per_trick,
        # Without the off-bid penalty OpenSpiel does not take points for a miss.
        "penalty": per_trick if params["off_bid_penalty"] else 0,
        "tiebreak": False,
    }


def card_of(action: int, params: dict[str, Any]) -> int:
    """Our card for an OpenSpiel card action."""
    _, offset = _deck(params)
    return (action % SUITS) * 10 + action // SUITS + offset


def action_of(action: Action, params: dict[str, Any]) -> int:
    """The OpenSpiel action of one of ours (a card or a bid)."""
    per_suit, offset = _deck(params)
    if action >= BID_BASE:
        return SUITS * per_suit + action - BID_BASE
    return (action % 10 - offset) * SUITS + action // 10


def position_of_state(state: Any, params: dict[str, Any]) -> dict[str, Any]:
    """The position of the player to move, as ``engine.pocha.position`` reads it."""
    per_suit, _ = _deck(params)
    n = int(params["players"])
    seat = state.current_player()
    history = [(h.player, h.action) for h in state.full_history()]
    chance = [a for p, a in history if p < 0]
    # Chance deals: the number of tricks, the dealer, the cards one at a time from
    # player 0 round the table, then the trump card.
    dealer = chance[1]
    cards = (len(chance) - 3) // n
    dealt = chance[2 : 2 + cards * n]
    trump = chance[2 + cards * n]
    moves = [(p, a) for p, a in history if p >= 0]
    bids: list[int | None] = [None] * n
    plays = []
    for p, a in moves:
        if a >= SUITS * per_suit:
            bids[p] = a - SUITS * per_suit
        else:
            plays.append({"seat": p, "card": card_code(card_of(a, params))})
    played = {a for p, a in moves if p == seat and a < SUITS * per_suit}
    hand = [
        card_code(card_of(a, params))
        for i, a in enumerate(dealt)
        if i % n == seat and a not in played
    ]
    return {
        "rules": {**rules_of(params), "schedule": [cards]},
        "seat": seat,
        "hand": hand,
        "trump": {"card": card_code(card_of(trump, params)), "holder": None},
        "dealer": dealer,
        "bids": bids,
        "plays": plays,
    }


def observation_of_state(state: Any, params: dict[str, Any]) -> Observation:
    """The view of the player to move, checked by the engine as any client's position."""
    return position_from_dict(position_of_state(state, params))


def decide(
    state: Any,
    params: dict[str, Any],
    level: str,
    seed: int | None = None,
    budget: Budget | None = None,
) -> int:
    """The OpenSpiel action our ``level`` (or bot, with ``budget``) takes for the player
    to move."""
    decision = KIND.decide(observation_of_state(state, params), level, seed, budget)
    return action_of(decision.action, params)
