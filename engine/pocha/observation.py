"""What one seat may know, and the spectator's view: one function for both.
How it works: docs/internals.md, ``engine.pocha.observation``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.errors import InvalidBidError, InvalidStateError
from engine.pocha.actions import Action, action_from_wire, action_to_wire
from engine.pocha.bidding import mano_of
from engine.pocha.cards import SUIT_OF, Card, CardSet, card_code, codes, parse_card, parse_cards
from engine.pocha.rules import Rules

if TYPE_CHECKING:
    from engine.pocha.game import Game

FORMAT_VERSION = 1


@dataclass(frozen=True)
class Observation:
    """One seat's view of a game (``seat is None``: a spectator's)."""

    rules: Rules
    seat: int | None
    phase: str
    # The hand's number in the game (from 1) and the number of hands; None when unknown,
    # as in a position a client sends (engine.pocha.position), which says nothing of them.
    hand_number: int | None
    hands_total: int | None
    cards_per_player: int
    dealer: int
    trump_card: Card
    trump_holder: int | None
    bids: tuple[int | None, ...]
    tricks_won: tuple[int, ...]
    # Every card played in this hand, in order, as (seat, card).
    plays: tuple[tuple[int, Card], ...]
    turn: int | None
    scores: tuple[int, ...]
    last_trick: tuple[tuple[int, Card], ...] = ()
    winners: tuple[int, ...] = ()
    # The seat's own cards (0 for a spectator).
    hand: CardSet = 0
    # The seat's legal actions (engine.pocha.actions) when it is to move: bids, or cards.
    legal_actions: tuple[Action, ...] = ()
    history: tuple[dict[str, Any], ...] = field(default=(), compare=True)

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def mano(self) -> int:
        return mano_of(self.dealer, self.rules.players)

    @property
    def trump(self) -> int:
        return SUIT_OF[self.trump_card]

    @property
    def bidding(self) -> bool:
        return self.phase == "bidding"

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The cards on the table now, in the order played."""
        k = len(self.plays) % self.rules.players
        return self.plays[len(self.plays) - k :] if k else ()

    def hand_sizes(self) -> list[int]:
        """How many cards each seat holds now."""
        sizes = [self.cards_per_player] * self.rules.players
        for seat, _ in self.plays:
            sizes[seat] -= 1
        return sizes

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON data, cards as codes."""
        d: dict[str, Any] = {
            "format": FORMAT_VERSION,
            "rules": self.rules.to_dict(),
            "seat": self.seat,
            "phase": self.phase,
            "turn": self.turn,
            "hand_number": self.hand_number,
            "hands_total": self.hands_total,
            "cards_per_player": self.cards_per_player,
            "dealer": self.dealer,
            "mano": self.mano,
            "trump": {"card": card_code(self.trump_card), "holder": self.trump_holder},
            "bids": list(self.bids),
            "tricks_won": list(self.tricks_won),
            "trick": [{"seat": s, "card": card_code(c)} for s, c in self.trick],
            "plays": [{"seat": s, "card": card_code(c)} for s, c in self.plays],
            "last_trick": [{"seat": s, "card": card_code(c)} for s, c in self.last_trick],
            "hand_sizes": self.hand_sizes(),
            "scores": list(self.scores),
            "winners": list(self.winners),
            "history": list(self.history),
        }
        if self.seat is not None:
            d["you"] = {
                "seat": self.seat,
                "hand": codes(self.hand),
                "legal": [action_to_wire(a) for a in self.legal_actions],
            }
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Observation:
        try:
            if d.get("format") != FORMAT_VERSION:
                raise InvalidStateError(f"unknown observation format {d.get('format')!r}")
            you = d.get("you")
            phase = d["phase"]
            legal: tuple[Action, ...] = ()
            if you is not None:
                legal = tuple(action_from_wire(a) for a in you["legal"])
            return cls(
                rules=Rules.from_dict(d["rules"]),
                seat=d["seat"],
                phase=phase,
                hand_number=d["hand_number"],
                hands_total=d["hands_total"],
                cards_per_player=d["cards_per_player"],
                dealer=d["dealer"],
                trump_card=parse_card(d["trump"]["card"]),
                trump_holder=d["trump"]["holder"],
                bids=tuple(d["bids"]),
                tricks_won=tuple(d["tricks_won"]),
                plays=tuple((p["seat"], parse_card(p["card"])) for p in d["plays"]),
                turn=d["turn"],
                scores=tuple(d["scores"]),
                last_trick=tuple((p["seat"], parse_card(p["card"])) for p in d["last_trick"]),
                winners=tuple(d["winners"]),
                hand=parse_cards(you["hand"]) if you is not None else 0,
                legal_actions=legal,
                history=tuple(d["history"]),
            )
        except (KeyError, TypeError, ValueError, InvalidBidError) as exc:
            raise InvalidStateError(f"not a Pocha observation: {exc}") from exc

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> Observation:
        return cls.from_dict(json.loads(text))


def observe(game: Game, seat: int | None) -> Observation:
    """The view of ``seat`` (or of a spectator when ``seat`` is None)."""
    if seat is not None and not 0 <= seat < game.players:
        raise ValueError(f"no seat {seat} in a game of {game.players}")
    legal: tuple[Action, ...] = ()
    if seat is not None and game.turn == seat:
        legal = tuple(game.state.legal_actions())
    return Observation(
        rules=game.rules,
        seat=seat,
        phase=game.phase,
        hand_number=game.hand_number,
        hands_total=game.hands_total,
        cards_per_player=game.state.cards,
        dealer=game.dealer,
        trump_card=game.trump_card,
        trump_holder=game.trump_holder,
        bids=tuple(game.bids),
        tricks_won=tuple(game.state.tricks),
        plays=tuple(game.plays),
        turn=game.turn,
        scores=tuple(game.scores),
        last_trick=tuple(game.last_trick),
        winners=tuple(game.winners),
        hand=game.state.hands[seat] if seat is not None else 0,
        legal_actions=legal,
        history=tuple(game.history),
    )
