"""What one seat of a Poch game knows, and the spectator's view: one function, ``observe``.
How it works: docs/poch.md, ``engine.poch.observation``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.poch.actions import Action, action_to_wire
from engine.poch.cards import SUITS, Card, card_code, codes

if TYPE_CHECKING:
    from engine.poch.game import Game

FORMAT_VERSION = 1


@dataclass(frozen=True)
class Observation:
    seat: int | None
    rules: dict[str, Any]
    deal: int
    dealer: int
    phase: str
    turn: int | None
    chips: tuple[int, ...]
    active: tuple[bool, ...]
    plates: dict[str, int]
    pot: int
    trump: str | None
    hand: tuple[Card, ...] | None
    hand_sizes: tuple[int, ...]
    collected: tuple[dict[str, Any], ...]
    bets: tuple[dict[str, Any], ...]
    showdown: dict[int, tuple[Card, ...]]
    starter: int | None
    direction: str | None
    suit: str | None
    suits_done: tuple[str, ...]
    played: tuple[tuple[int, Card], ...]
    deal_results: tuple[dict[str, Any], ...]
    legal_actions: tuple[Action, ...] = field(default=())
    result: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT_VERSION,
            "game": "poch",
            "seat": self.seat,
            "rules": dict(self.rules),
            "deal": self.deal,
            "dealer": self.dealer,
            "phase": self.phase,
            "turn": self.turn,
            "chips": list(self.chips),
            "active": list(self.active),
            "plates": dict(self.plates),
            "pot": self.pot,
            "trump": self.trump,
            "hand": None if self.hand is None else codes(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "collected": [dict(e) for e in self.collected],
            "bets": [dict(b) for b in self.bets],
            "showdown": {str(s): codes(cs) for s, cs in self.showdown.items()},
            "starter": self.starter,
            "direction": self.direction,
            "suit": self.suit,
            "suits_done": list(self.suits_done),
            "played": [[s, card_code(c)] for s, c in self.played],
            "deal_results": [dict(r) for r in self.deal_results],
            "legal_actions": [action_to_wire(a) for a in self.legal_actions],
            "result": self.result,
        }


def observe(game: Game, seat: int | None) -> Observation:
    """What ``seat`` knows now (``None``: a spectator); see the module's paragraph."""
    over = game.finished
    return Observation(
        seat=seat,
        rules=game.rules.to_dict(),
        deal=game.deal_no,
        dealer=game.dealer,
        phase=game.phase,
        turn=game.turn,
        chips=tuple(game.chips),
        active=tuple(game.active),
        plates=dict(game.plates),
        pot=game.pot,
        trump=None if over else SUITS[game.trump],
        hand=None if seat is None else tuple(sorted(game.hands[seat])),
        hand_sizes=tuple(len(h) for h in game.hands),
        collected=tuple(dict(e) for e in game.collected),
        bets=tuple(dict(b) for b in game.bets),
        showdown={s: tuple(cs) for s, cs in game.showdown.items()},
        starter=game.starter,
        direction=game.direction_name,
        suit=None if game.suit is None else SUITS[game.suit],
        suits_done=tuple(SUITS[s] for s in game.suits_done),
        played=tuple(game.played),
        deal_results=tuple(dict(r) for r in game.deal_results),
        legal_actions=tuple(game.legal_actions()) if seat is not None and seat == game.turn else (),
        result=game.result() if over else None,
    )
