"""Poch's views for the API: a seat's observation as JSON, with what only that seat sees (its
hand and, on its turn, its legal actions) in ``you``, as Pocha's views have it; a client's
position (``engine.poch.position``) is such a view less its envelope. Also the score sheet
and how a move sent to one of Poch's endpoints (bets, plays, suits) reads.
"""

from __future__ import annotations

from typing import Any

from engine.i18n import _
from engine.poch import actions
from engine.poch.cards import parse_card, parse_suit
from engine.poch.game import Game
from engine.poch.observation import observe
from engine.protocols import Action, WireAction

#: The decisions Poch's endpoints take: a bet (or hold or pass), a start card, a suit.
DECISIONS = ("bet", "play", "suit")


def view(game: Game, seat: int | None, waiting: bool = False) -> dict[str, Any]:
    """What `seat` (None: a spectator) sees of `game`; `waiting`: the game waits at its
    table, so nobody sees a card (the deal is made)."""
    out = observe(game, seat).to_dict()
    del out["format"]
    del out["seat"]
    hand = out.pop("hand")
    legal = out.pop("legal_actions")
    if seat is not None:
        out["you"] = {"seat": seat, "hand": hand, "legal": legal}
    if waiting:
        out["phase"] = "waiting"
        out["turn"] = None
        if seat is not None:
            out["you"].update(hand=[], legal=[])
    return out


def read_move(move: WireAction, decision: str) -> Action:
    """The action `move` names at `decision`'s endpoint (a typed engine error for none)."""
    if decision == "play":
        return parse_card(move)
    if decision == "suit":
        return actions.SUIT_BASE + parse_suit(move)
    return actions.action_from_wire(move)


def wrong_decision(decision: str) -> str:
    """The sentence that refuses a decision of another game (a bid)."""
    return _("This game is Poch: it has no bids. Bet, hold or pass at /bets.")


def history(game: Game, envelope: dict[str, Any]) -> dict[str, Any]:
    """The score sheet: every deal's results and the chips, around the envelope (id,
    version, players)."""
    return {
        "game": Game.kind,
        **envelope,
        "deals": [dict(r) for r in game.deal_results],
        "chips": list(game.chips),
        "finished": game.finished,
        "result": game.result() if game.finished else None,
    }


def decisions_per_game(rules: Any) -> int:
    """A game's decisions, at most: per deal a bet or pass per seat, the start card and
    at most two suits chosen (the last suit runs by itself)."""
    count: int = rules.deal_count * (rules.players + 3)
    return count
