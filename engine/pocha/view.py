"""Pocha's views for the API: a seat's observation as JSON, less the format tag and the score
sheet (served by the history), with what the rules make of it, so that no client has to know
them: the seat winning the trick on the table, which tiebreak hand this is, and, on the seat's
turn, why each card or bid it may not make is refused, in the engine's words. Also the score
sheet, and how a move sent to one of Pocha's endpoints (bids, plays) reads.
"""

from __future__ import annotations

from typing import Any

from engine.errors import InvalidBidError
from engine.i18n import _
from engine.pocha.actions import Action, WireAction, action_from_wire
from engine.pocha.cards import codes, parse_card
from engine.pocha.game import Game
from engine.pocha.legality import explain_illegal
from engine.pocha.observation import observe
from engine.pocha.tricks import trick_winner

#: The decisions Pocha's endpoints take: a bid or a card.
DECISIONS = ("bid", "play")

# Observation fields a view does not repeat: the format tag is the engine's storage
# detail, and the score sheet of past hands is served by `history`.
_NOT_IN_VIEW = ("format", "history")


def view(game: Game, seat: int | None, waiting: bool = False) -> dict[str, Any]:
    """What `seat` (None: a spectator) sees of `game`: its observation as JSON, less what
    views leave out, with `winning`, `tiebreak_hand` and, in a seat's `you`, `refused`.
    `waiting`: the game waits at its table, so nobody sees a card (the deal is made)."""
    observation = observe(game, seat)
    out = observation.to_dict()
    for key in _NOT_IN_VIEW:
        out.pop(key, None)
    out["game"] = Game.kind
    trick = observation.trick
    out["winning"] = trick_winner(trick, observation.trump) if trick else None
    in_tiebreak = game.in_tiebreak
    out["tiebreak_hand"] = game.hand_number - len(game.rules.hand_sizes) if in_tiebreak else None
    if seat is not None:
        out["you"]["refused"] = refused(game, seat) if game.turn == seat and not waiting else []
    if waiting:
        out["phase"] = "waiting"
        out["turn"] = None
        out["winning"] = None
        if seat is not None:
            out["you"].update(hand=[], legal=[], refused=[])
    return out


def refused(game: Game, seat: int) -> list[dict[str, Any]]:
    """Why each card in `seat`'s hand, or the bid, that it may not play or make now is
    refused, in `you.hand` order: the rule and the sentence `Game.play` or `Game.bid`
    refuses it with. For the seat to move only: a view answers every move."""
    state = game.state
    if state.bidding:
        forbidden = state.forbidden_bid()
        if forbidden < 0:
            return []
        try:
            # A refused bid changes nothing; the copy makes sure the view never does.
            game.copy().bid(seat, forbidden)
        except InvalidBidError as exc:
            return [{"bid": forbidden, "rule": exc.rule, "message": exc.message}]
        return []
    hand = state.hands[seat]
    barred: list[dict[str, Any]] = []
    for code in codes(hand & ~state.legal_mask()):
        why = explain_illegal(
            parse_card(code), hand, state.lead, state.win, state.trump,
            state.montar, state.fallar, state.pisar,
        )  # fmt: skip
        if why is not None:
            barred.append({"card": code, "rule": why[0], "message": why[1]})
    return barred


def history(game: Game, envelope: dict[str, Any]) -> dict[str, Any]:
    """The score sheet: every finished hand as dealt, bid, won and scored, after the
    envelope (id, version, players)."""
    return {
        **envelope,
        "hands": observe(game, None).to_dict()["history"],
        "scores": list(game.scores),
        "finished": game.finished,
        "winners": list(game.winners),
    }


def read_move(move: WireAction, decision: str) -> Action:
    """The action `move` names (a bid's number or a card's code; a typed engine error
    for neither), whichever of Pocha's endpoints it was sent to."""
    return action_from_wire(move)


def wrong_decision(decision: str) -> str:
    """The sentence that refuses a decision of another game (a bet or a suit)."""
    if decision == "bet":
        return _("This game is Pocha: it has no bets. Bid at /bids.")
    return _("This game is Pocha: nobody chooses a suit. Play a card at /plays.")


def decisions_per_game(rules: Any) -> int:
    """Bids and cards of one game's scheduled hands."""
    return sum(rules.players * (cards + 1) for cards in rules.hand_sizes)
