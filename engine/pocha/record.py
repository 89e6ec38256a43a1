"""A finished Pocha game as its record (docs/records.md): every hand as dealt, every bid and
card in order, each trick's winner, and the points. The stored game keeps the hands dealt but
not the cards of past hands, so the record plays the bids and cards of the game's public
events again from its seed, and refuses unless that gives back exactly the stored game.
Read back (`decisions`), a record is played again from its hands, decision by decision, and
`as_read` keeps of it only what that reads.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.errors import GameError, InvalidStateError
from engine.pocha.actions import Action, bid_action
from engine.pocha.cards import card_code, codes, parse_card, parse_cards
from engine.pocha.game import Game
from engine.pocha.rules import Rules
from engine.protocols import Event

#: The public events that open a decision: a bid and a card played.
DECISION_EVENTS = ("bid", "card_played")


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
            if kind not in DECISION_EVENTS:
                continue
            seat = int(event["seat"])
            if kind == "bid":
                decision = _decision(event, bid=int(event["bid"]))
                produced = replay.bid(seat, int(event["bid"]))
            else:
                decision = _decision(event, card=str(event["card"]))
                produced = replay.play(seat, str(event["card"]))
            _note(hands, replay, decision, produced)
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


def _note(
    hands: list[dict[str, Any]], game: Game, decision: dict[str, Any], produced: list[Event]
) -> None:
    """Write a bid or card (`decision`) into the hands' records, with what it caused
    (`produced`, from `game`, after it): a trick's winner, a hand's points, a new hand."""
    hand = hands[-1]
    if "bid" in decision:
        hand["bids"].append(decision)
    else:
        trick = hand["tricks"]
        if not trick or trick[-1]["winner"] is not None:
            trick.append({"cards": [], "winner": None})
        trick[-1]["cards"].append(decision)
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
            hands.append(_hand_of(game))


def _decision(event: Event, **what: Any) -> dict[str, Any]:
    """One bid or card of a seat: who and what, and whether the stand-in made it."""
    decision: dict[str, Any] = {"seat": int(event["seat"]), **what}
    if event.get("by") == "stand_in":
        decision["stand_in"] = True
    return decision


class _Recorded(Game):
    """A game dealt the record's hands, hand by hand, instead of from a seed."""

    recorded: list[dict[str, Any]]

    def _deal(self) -> None:
        if self.hand_index >= len(self.recorded):
            raise InvalidStateError(f"the record has no hand {self.hand_number}")
        deal = self.recorded[self.hand_index]
        if int(deal["dealer"]) != self.dealer:
            raise InvalidStateError(
                f"hand {self.hand_number}: the record's dealer {deal['dealer']} is not "
                f"seat {self.dealer}, whose deal it is"
            )
        hands = [parse_cards(h) for h in deal["hands"]]
        if len(hands) != self.rules.players:
            raise InvalidStateError(f"hand {self.hand_number}: not one hand per seat")
        self._start_hand(hands, parse_card(str(deal["trump"]["card"])), self.cards_per_player)


def decisions(record: dict[str, Any]) -> Iterator[tuple[Game, int, Action]]:
    """Every decision of a record (docs/records.md) in order: the game just before it (the
    same object, played on once the next is asked for), the seat and its action. The game
    is dealt the record's hands and checks every decision against the rules;
    `InvalidStateError` saying why for a record that breaks them or does not fit."""
    try:
        rules = Rules.from_dict(dict(record["rules"]))
        deals = list(record["deals"])
        game = _Recorded(rules, 0)
        game.recorded = deals
        game.first_dealer = int(deals[0]["dealer"])
        game._deal()
        rebuilt = [_hand_of(game)]
        for deal in deals:
            if game.finished:
                raise InvalidStateError("the record goes on after the game ended")
            if game.hand_number != int(deal["number"]):
                raise InvalidStateError(f"hand {deal['number']} comes out of order")
            moves: list[tuple[int, Action, dict[str, Any]]] = [
                (int(b["seat"]), bid_action(int(b["bid"])), {"bid": int(b["bid"])})
                for b in deal["bids"]
            ]
            for trick in deal["tricks"]:
                moves += [
                    (int(c["seat"]), parse_card(str(c["card"])), {"card": str(c["card"])})
                    for c in trick["cards"]
                ]
            for seat, action, what in moves:
                yield game, seat, action
                _note(rebuilt, game, {"seat": seat, **what}, game.apply(seat, action))
        if not game.finished:
            raise InvalidStateError("the record ends before the game does")
        if _plain(deals) != rebuilt or list(record["scores"]) != list(game.scores):
            raise InvalidStateError(
                "the record's tricks, points or scores are not what its hands and decisions give"
            )
    except InvalidStateError:
        raise
    except GameError as exc:
        raise InvalidStateError(f"the record does not replay: {exc}") from exc
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise InvalidStateError(f"the record is incomplete or malformed: {exc!r}") from exc


def as_read(record: dict[str, Any]) -> dict[str, Any]:
    """The game's part of a record `decisions` has read back to its end, as `record` writes
    it: its rules, hands and final scores, without the stand-in's marks or any field the
    format does not have, so it reads back the same. It checks nothing itself: the replay
    has found the hands equal, field for field, to what the hands and decisions give."""
    return {
        "rules": Rules.from_dict(dict(record["rules"])).to_dict(),
        "deals": _plain(list(record["deals"])),
        "scores": list(record["scores"]),
    }


def _plain(deals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The hands' records without the stand-in's marks (what the hands and decisions alone
    give)."""
    plain = []
    for deal in deals:
        bids = [{"seat": b["seat"], "bid": b["bid"]} for b in deal["bids"]]
        tricks = [
            {
                "cards": [{"seat": c["seat"], "card": c["card"]} for c in t["cards"]],
                "winner": t["winner"],
            }
            for t in deal["tricks"]
        ]
        plain.append({**deal, "bids": bids, "tricks": tricks})
    return plain
