"""A finished Poch game as its record (docs/records.md): every deal with every hand as dealt
and the dealer's turned card, the honours collected, the betting, the showdown, each card of
the shedding in order (forced ones too), who went out and what was paid, and the chips. The
stored game keeps every decision (`Game.actions`), so the record plays them again from its
seed, and refuses unless that gives back exactly the stored game; the public events say only
which decisions the table's stand-in made. Read back (`decisions`), a record is played again
from its hands, decision by decision, and `as_read` keeps of it only what that reads.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.errors import GameError, InvalidStateError
from engine.poch.actions import HOLD, PASS, SUIT_BASE, Action, bet_action
from engine.poch.cards import SUITS, Card, card_code, codes, parse_card, parse_suit
from engine.poch.game import Game
from engine.poch.rules import Rules
from engine.protocols import Event

#: The public events that open a decision (the first of the events a decision caused).
DECISION_EVENTS = ("pass", "hold", "bet", "raise", "start", "choose")


def record(game: Game, events: list[Event]) -> dict[str, Any]:
    """The game's part of its record (rules, deals, final chips) from the finished `game`
    and its public events in order; `InvalidStateError` for a game not over, or decisions
    that do not give it."""
    if not game.finished:
        raise InvalidStateError("a game's record is made once it is over")
    stood_in = [e.get("by") == "stand_in" for e in events if e.get("type") in DECISION_EVENTS]
    if len(stood_in) != len(game.actions):
        raise InvalidStateError("the game's events and its decisions differ in number")
    replay = Game.new(game.rules, game.seed)
    deals: list[dict[str, Any]] = []
    left: list[dict[str, Any]] = []
    _note(replay, replay.opening_events, deals, left)
    try:
        for (seat, action), stand_in in zip(game.actions, stood_in, strict=True):
            produced = replay.apply(seat, action)
            if stand_in:
                produced[0] = {**produced[0], "stand_in": True}
            _note(replay, produced, deals, left)
    except GameError as exc:
        raise InvalidStateError(f"the game's decisions do not replay: {exc}") from exc
    if replay.to_dict() != game.to_dict():
        raise InvalidStateError("the game's decisions do not give the stored game")
    return {
        "rules": game.rules.to_dict(),
        "deals": deals,
        "scores": list(game.chips),
        "winners": game.result()["winners"],
    }


def _note(game: Game, events: list[Event], deals: list[dict[str, Any]],
          left: list[dict[str, Any]]) -> None:  # fmt: skip
    """Write what `events` tell into the deals' records: a deal is opened by its ante, when
    the game (after the events) holds its hands as dealt."""
    for event in events:
        kind = event["type"]
        if kind == "leave":
            left.append({"seat": event["seat"], "chips": event["chips"]})
            continue
        if kind == "ante":
            deals.append(_deal_of(game, event, left))
            left.clear()
            continue
        if kind == "game_over" or not deals:
            continue
        deal = deals[-1]
        who = {"seat": event["seat"]} if "seat" in event else {}
        if event.get("stand_in"):
            who["stand_in"] = True
        if kind == "collect":
            deal["collected"].append(
                {**who, "plate": event["plate"], "cards": event["cards"], "chips": event["chips"]}
            )
        elif kind in ("pass", "hold", "bet", "raise"):
            deal["betting"].append({**who, "call": kind, "amount": event["amount"]})
        elif kind == "showdown":
            deal["showdown"] = {"sets": event["sets"], "bluff": None, "pot": None}
        elif kind == "bluff":
            deal["showdown"]["bluff"] = {"seat": event["seat"], "paid": event["paid"]}
        elif kind == "take_pot":
            deal["showdown"]["pot"] = {
                "seat": event["seat"],
                "pot": event["pot"],
                "pocher": event["pocher"],
            }
        elif kind == "start":
            deal["shedding"].append({**who, "type": "start", "direction": event["direction"]})
        elif kind == "choose":
            deal["shedding"].append({**who, "type": "choose", "suit": event["suit"]})
        elif kind == "play":
            deal["shedding"].append({**who, "type": "play", "card": event["card"]})
        elif kind == "deal_won":
            deal["winner"] = event["winner"]
            deal["paid"] = dict(event["paid"])
            # The chips once the deal is paid out, before the next deal's ante.
            deal["chips"] = _chips_after(game, events, event)


def _deal_of(game: Game, ante: Event, left: list[dict[str, Any]]) -> dict[str, Any]:
    """A deal's record as it is dealt: its hands, the dealer's turned card, the ante."""
    assert game.trump_card is not None
    return {
        "number": ante["deal"],
        "dealer": ante["dealer"],
        "order": list(game.order),
        "ante": ante["each"],
        "left": list(left),
        "hands": [codes(h) for h in game.hands],
        "trump": {"suit": SUITS[game.trump], "card": card_code(game.trump_card)},
        "collected": [],
        "betting": [],
        "showdown": None,
        "shedding": [],
        "winner": None,
        "paid": {},
        "chips": [],
    }


def _chips_after(game: Game, events: list[Event], won: Event) -> list[int]:
    """Each seat's chips right after the `deal_won` event among `events` (those applied to
    `game` last): the game's chips now, less what the events after it moved."""
    chips = list(game.chips)
    later = events[events.index(won) + 1 :]
    for event in later:
        if event["type"] == "ante":
            for seat in range(game.players):
                # Every seat still in paid the ante; the others left before it.
                if game.active[seat]:
                    chips[seat] += event["each"]
        elif event["type"] == "collect":
            chips[event["seat"]] -= event["chips"]
    return chips


class _Recorded(Game):
    """A game dealt the record's hands, deal by deal, instead of from a seed."""

    recorded: list[dict[str, Any]]

    def _shuffled_deck(self) -> list[Card]:
        # The pack in dealing order that gives each seat its recorded hand, the dealer's
        # turned card last among the dealer's (docs/poch.md, A deal 2).
        if self.deal_no > len(self.recorded):
            raise InvalidStateError(f"the record has no deal {self.deal_no}")
        deal = self.recorded[self.deal_no - 1]
        if int(deal["dealer"]) != self.dealer:
            raise InvalidStateError(
                f"deal {self.deal_no}: the record's dealer {deal['dealer']} is not seat "
                f"{self.dealer}, whose deal it is"
            )
        turned = parse_card(deal["trump"]["card"])
        held = [[parse_card(c) for c in hand] for hand in deal["hands"]]
        if len(held) != self.players or turned not in held[self.dealer]:
            raise InvalidStateError(f"deal {self.deal_no}: the hands do not fit the table")
        held[self.dealer].remove(turned)
        held[self.dealer].append(turned)
        order = self._round_from(self.vorhand)
        deck = [held[order[i % len(order)]].pop(0) for i in range(sum(map(len, held)))]
        if any(held) or sorted(deck) != list(range(len(deck))) or len(deck) != 32:
            raise InvalidStateError(f"deal {self.deal_no}: the hands are not one dealt pack")
        return deck


def _moves(deal: dict[str, Any]) -> list[tuple[int, Action]]:
    """A deal's decisions in order: the calls, then the shedding's starts and choices (the
    cards after them are forced)."""
    calls = {"pass": PASS, "hold": HOLD}
    moves = [
        (int(b["seat"]), calls.get(b["call"]) or bet_action(int(b["amount"])))
        for b in deal["betting"]
    ]
    shedding = list(deal["shedding"])
    for i, step in enumerate(shedding):
        if step["type"] == "start":
            moves.append((int(step["seat"]), parse_card(shedding[i + 1]["card"])))
        elif step["type"] == "choose":
            moves.append((int(step["seat"]), SUIT_BASE + parse_suit(step["suit"])))
    return moves


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
        game.dealer = int(deals[0]["dealer"])
        if not 0 <= game.dealer < game.players:
            raise InvalidStateError(f"no seat {game.dealer} to deal")
        game._begin_deal(game.opening_events, first=True)
        rebuilt: list[dict[str, Any]] = []
        left: list[dict[str, Any]] = []
        _note(game, game.opening_events, rebuilt, left)
        for deal in deals:
            if game.finished:
                raise InvalidStateError("the record goes on after the game ended")
            if game.deal_no != int(deal["number"]):
                raise InvalidStateError(f"deal {deal['number']} comes out of order")
            for seat, action in _moves(deal):
                yield game, seat, action
                _note(game, game.apply(seat, action), rebuilt, left)
        if not game.finished:
            raise InvalidStateError("the record ends before the game does")
        if _plain(deals) != rebuilt or list(record["scores"]) != list(game.chips):
            raise InvalidStateError(
                "the record's deals or chips are not what its hands and decisions give"
            )
    except InvalidStateError:
        raise
    except GameError as exc:
        raise InvalidStateError(f"the record does not replay: {exc}") from exc
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise InvalidStateError(f"the record is incomplete or malformed: {exc!r}") from exc


def as_read(record: dict[str, Any]) -> dict[str, Any]:
    """The game's part of a record `decisions` has read back to its end, as `record` writes
    it: its rules, deals and final chips, without the stand-in's marks or any field the
    format does not have, so it reads back the same. It checks nothing itself: the replay
    has found the deals equal, field for field, to what the hands and decisions give."""
    return {
        "rules": Rules.from_dict(dict(record["rules"])).to_dict(),
        "deals": _plain(list(record["deals"])),
        "scores": list(record["scores"]),
    }


def _plain(deals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The deals' records without the stand-in's marks (what the hands and decisions alone
    give)."""

    def plain(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in e.items() if k != "stand_in"} for e in entries]

    return [
        {**deal, "betting": plain(deal["betting"]), "shedding": plain(deal["shedding"])}
        for deal in deals
    ]
