"""A finished Poch game as its record (docs/records.md): every deal with every hand as dealt
and the dealer's turned card, the honours collected, the betting, the showdown, each card of
the shedding in order (forced ones too), who went out and what was paid, and the chips. The
stored game keeps every decision (`Game.actions`), so the record plays them again from its
seed, and refuses unless that gives back exactly the stored game; the public events say only
which decisions the table's stand-in made.
"""

from __future__ import annotations

from typing import Any

from engine.errors import GameError, InvalidStateError
from engine.poch.cards import SUITS, card_code, codes
from engine.poch.game import Game
from engine.protocols import Event

#: The public events that open a decision (the first of the events a decision caused).
_DECISIONS = ("pass", "hold", "bet", "raise", "start", "choose")


def record(game: Game, events: list[Event]) -> dict[str, Any]:
    """The game's part of its record (rules, deals, final chips) from the finished `game`
    and its public events in order; `InvalidStateError` for a game not over, or decisions
    that do not give it."""
    if not game.finished:
        raise InvalidStateError("a game's record is made once it is over")
    stood_in = [e.get("by") == "stand_in" for e in events if e.get("type") in _DECISIONS]
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
