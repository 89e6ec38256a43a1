"""A finished Pocha game as its record (docs/records.md): every hand as dealt, every bid and
card in order, each trick's winner, and the points. The stored game keeps the hands dealt but
not the cards of past hands, so the record plays the bids and cards of the game's public
events again from its seed, and refuses unless that gives back exactly the stored game.
"""

from __future__ import annotations

from typing import Any

from engine.errors import GameError, InvalidStateError
from engine.pocha.cards import card_code, codes
from engine.pocha.game import Game
from engine.protocols import Event


def record(game: Game, events: list[Event]) -> dict[str, Any]:
    """The game's part of its record (rules, hands, final scores) from the finished `game`,
    its score sheet included, and its public events in order; `InvalidStateError` for a game
    not over, or events that do not give it."""
    if not game.finished:
        raise InvalidStateError("a game's record is made once it is over")
    replay = Game.new(game.rules, game.seed)
    hands: list[dict[str, Any]] = [_hand_of(replay)]
    try:
        for event in events:
            kind = event.get("type")
            if kind not in ("bid", "card_played"):
                continue
            seat = int(event["seat"])
            hand = hands[-1]
            if kind == "bid":
                hand["bids"].append(_decision(event, bid=int(event["bid"])))
                produced = replay.bid(seat, int(event["bid"]))
            else:
                trick = hand["tricks"]
                if not trick or trick[-1]["winner"] is not None:
                    trick.append({"cards": [], "winner": None})
                trick[-1]["cards"].append(_decision(event, card=str(event["card"])))
                produced = replay.play(seat, str(event["card"]))
            for change in produced:
                if change["type"] == "trick_won":
                    hand["tricks"][-1]["winner"] = change["seat"]
                elif change["type"] == "hand_scored":
                    hand.update(
                        tricks_won=list(change["tricks"]),
                        points=list(change["points"]),
                        scores=list(change["scores"]),
                    )
                elif change["type"] == "hand_dealt":
                    hands.append(_hand_of(replay))
    except (GameError, KeyError, TypeError, ValueError) as exc:
        raise InvalidStateError(f"the game's events do not replay: {exc}") from exc
    if replay.to_dict() != game.to_dict():
        raise InvalidStateError("the game's events do not give the stored game")
    return {
        "rules": game.rules.to_dict(),
        "deals": hands,
        "scores": list(game.scores),
        "winners": list(game.winners),
    }


def _hand_of(game: Game) -> dict[str, Any]:
    """A hand's record as it is dealt; its bids, tricks and points are filled in as played."""
    return {
        "number": game.hand_number,
        "cards": game.state.cards,
        "dealer": game.dealer,
        "tiebreak": game.in_tiebreak,
        "trump": {"card": card_code(game.trump_card), "holder": game.trump_holder},
        "hands": [codes(h) for h in game.dealt],
        "bids": [],
        "tricks": [],
    }


def _decision(event: Event, **what: Any) -> dict[str, Any]:
    """One bid or card of a seat: who and what, and whether the stand-in made it."""
    decision: dict[str, Any] = {"seat": int(event["seat"]), **what}
    if event.get("by") == "stand_in":
        decision["stand_in"] = True
    return decision
