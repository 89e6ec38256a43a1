"""Trio, a tiny trick-taking game written to the engine's protocols from outside the
package: the proof that a game joins the service through its `GameKind` alone.

Twelve cards (suits O, C, E; ranks 1-4, 4 highest), three to each of 2-4 players. The
seat after the dealer leads; everyone follows the led suit if they can; the highest card
of the led suit wins the trick and leads the next; a trick is one point. A game is one or
a few deals (`deals`), the deal passing left each time. An action is a card, its index
0-11 (suit * 4 + rank - 1); its wire form is its code (`O4`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import (
    IllegalCardError,
    InvalidCardError,
    InvalidRulesError,
    InvalidStateError,
    NotYourTurnError,
    WrongPhaseError,
)
from engine.protocols import Action, Event, GameKind, WireAction
from engine.seeds import new_seed

NAME = "trio"
SUITS = "OCE"
RANKS = 4
DECK = tuple(range(len(SUITS) * RANKS))
HAND = 3
MIN_PLAYERS, MAX_PLAYERS = 2, 4
FORMAT_VERSION = 1

#: Each option: default, lowest, highest, meaning.
OPTIONS: dict[str, tuple[int, int, int, str]] = {
    "players": (3, MIN_PLAYERS, MAX_PLAYERS, "Players at the table."),
    "deals": (1, 1, 3, "Deals in the game; the dealer passes left after each."),
    "turn_seconds": (0, 0, 3600, "Seconds a person has for a turn (0: untimed)."),
}


def suit_of(card: Action) -> int:
    return card // RANKS


def rank_of(card: Action) -> int:
    return card % RANKS + 1


def card_code(card: Action) -> str:
    return f"{SUITS[suit_of(card)]}{rank_of(card)}"


def parse_card(code: Any) -> Action:
    """The card a code names (`InvalidCardError` for anything else)."""
    if not isinstance(code, str) or len(code) != 2 or code[0] not in SUITS or code[1] not in "1234":
        raise InvalidCardError(f"{code!r} is not a Trio card (O1 to E4)")
    return SUITS.index(code[0]) * RANKS + int(code[1]) - 1


def action_to_wire(action: Action) -> WireAction:
    return card_code(action)


@dataclass(frozen=True)
class Rules:
    players: int = 3
    deals: int = 1
    turn_seconds: int = 0

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        values: dict[str, int] = {}
        for name, value in data.items():
            if name not in OPTIONS:
                raise InvalidRulesError(f"Trio has no option {name!r}", option=name)
            _default, low, high, _doc = OPTIONS[name]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise InvalidRulesError(
                    f"{name} must be an integer from {low} to {high}", option=name
                )
            values[name] = value
        return cls(**values)

    def to_dict(self) -> dict[str, int]:
        return {"players": self.players, "deals": self.deals, "turn_seconds": self.turn_seconds}


def describe_options() -> dict[str, dict[str, Any]]:
    return {
        name: {
            "default": default,
            "allowed": f"an integer from {low} to {high}",
            "doc": doc,
            "kind": "int",
            "minimum": low,
            "maximum": high,
        }
        for name, (default, low, high, doc) in OPTIONS.items()
    }


@dataclass(frozen=True)
class Observation:
    """What one seat (None: a spectator) knows: its hand, every card played this deal and
    by whom, the trick on the table, the points; its legal cards on its turn."""

    seat: int | None
    rules: dict[str, int]
    deal: int
    dealer: int
    phase: str
    turn: int | None
    hand: tuple[Action, ...] | None
    hand_sizes: tuple[int, ...]
    played: tuple[tuple[int, Action], ...]
    trick: tuple[tuple[int, Action], ...]
    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    legal_actions: tuple[Action, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT_VERSION,
            "game": NAME,
            "seat": self.seat,
            "rules": dict(self.rules),
            "deal": self.deal,
            "dealer": self.dealer,
            "phase": self.phase,
            "turn": self.turn,
            "hand": None if self.hand is None else [card_code(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "played": [[s, card_code(c)] for s, c in self.played],
            "trick": [[s, card_code(c)] for s, c in self.trick],
            "tricks": list(self.tricks),
            "scores": list(self.scores),
            "legal_actions": [card_code(a) for a in self.legal_actions],
        }


class Game:
    """A game of Trio: the deal in progress, the points, and the score sheet (`history`)."""

    kind = NAME

    def __init__(
        self,
        rules: Rules,
        seed: int,
        deal_no: int,
        dealer: int,
        hands: list[list[Action]],
        played: list[tuple[int, Action]],
        trick: list[tuple[int, Action]],
        turn: int | None,
        tricks: list[int],
        scores: list[int],
        history: list[dict[str, Any]] | None = None,
        step: int = 0,
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.deal_no = deal_no
        self.dealer = dealer
        self.hands = hands
        self.played = played
        self.trick = trick
        self._turn = turn
        self.tricks = tricks
        self.scores = scores
        self.history: list[dict[str, Any]] = history or []
        self.step = step

    @classmethod
    def new(cls, rules: Rules, seed: int | None = None) -> Game:
        n = rules.players
        game = cls(rules, new_seed() if seed is None else seed, 0, 0, [], [], [], None, [], [0] * n)
        game._deal()
        return game

    def _deal(self) -> None:
        n = self.rules.players
        deck = list(DECK)
        random.Random(self.seed * 7 + self.deal_no).shuffle(deck)
        self.hands = [sorted(deck[i * HAND : (i + 1) * HAND]) for i in range(n)]
        self.played, self.trick, self.tricks = [], [], [0] * n
        self._turn = (self.dealer + 1) % n

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def turn(self) -> int | None:
        return self._turn

    @property
    def finished(self) -> bool:
        return self.deal_no >= self.rules.deals

    def legal_actions(self) -> list[Action]:
        if self.finished or self._turn is None:
            return []
        hand = self.hands[self._turn]
        if self.trick:
            led = suit_of(self.trick[0][1])
            following = [c for c in hand if suit_of(c) == led]
            if following:
                return following
        return list(hand)

    def check_turn(self, seat: int, playing: bool) -> None:
        del playing  # every Trio decision is a card
        if self.finished:
            raise WrongPhaseError("the game is over")
        if seat != self._turn:
            raise NotYourTurnError(f"it is seat {self._turn}'s turn, not seat {seat}'s")

    def apply(self, seat: int, action: Action) -> list[Event]:
        self.check_turn(seat, True)
        if action not in self.legal_actions():
            raise IllegalCardError(
                f"{card_code(action) if action in DECK else action} may not be played now",
                rule="follow_suit",
            )
        n = self.rules.players
        self.hands[seat].remove(action)
        self.trick.append((seat, action))
        self.played.append((seat, action))
        self.step += 1
        events: list[Event] = [{"type": "card_played", "seat": seat, "card": card_code(action)}]
        if len(self.trick) < n:
            self._turn = (seat + 1) % n
            return events
        led = suit_of(self.trick[0][1])
        winner = max((c, s) for s, c in self.trick if suit_of(c) == led)[1]
        self.tricks[winner] += 1
        self.trick = []
        self._turn = winner
        events.append({"type": "trick_won", "winner": winner})
        if any(self.hands):
            return events
        for s in range(n):
            self.scores[s] += self.tricks[s]
        self.history.append({"deal": self.deal_no, "tricks": list(self.tricks)})
        events.append({"type": "deal_over", "tricks": list(self.tricks)})
        self.deal_no += 1
        if self.finished:
            self._turn = None
            events.append({"type": "game_over", "result": self.result()})
            return events
        self.dealer = (self.dealer + 1) % n
        self._deal()
        events.append({"type": "hand_dealt", "deal": self.deal_no, "dealer": self.dealer})
        return events

    def result(self) -> dict[str, Any]:
        best = max(self.scores)
        return {
            "scores": list(self.scores),
            "winners": [s for s, p in enumerate(self.scores) if p == best],
        }

    def copy(self) -> Game:
        return Game(
            self.rules,
            self.seed,
            self.deal_no,
            self.dealer,
            [list(h) for h in self.hands],
            list(self.played),
            list(self.trick),
            self._turn,
            list(self.tricks),
            list(self.scores),
            list(self.history),
            self.step,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT_VERSION,
            "game": NAME,
            "rules": self.rules.to_dict(),
            "seed": str(self.seed),
            "deal_no": self.deal_no,
            "dealer": self.dealer,
            "hands": [list(h) for h in self.hands],
            "played": [list(p) for p in self.played],
            "trick": [list(p) for p in self.trick],
            "turn": self._turn,
            "tricks": list(self.tricks),
            "scores": list(self.scores),
            "history": list(self.history),
            "step": self.step,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        try:
            if data["game"] != NAME or data["format"] != FORMAT_VERSION:
                raise InvalidStateError("not a stored Trio game")
            rules = Rules.from_dict(data["rules"])
            game = cls(
                rules,
                int(data["seed"]),
                int(data["deal_no"]),
                int(data["dealer"]),
                [[int(c) for c in h] for h in data["hands"]],
                [(int(s), int(c)) for s, c in data["played"]],
                [(int(s), int(c)) for s, c in data["trick"]],
                None if data["turn"] is None else int(data["turn"]),
                [int(t) for t in data["tricks"]],
                [int(p) for p in data["scores"]],
                list(data["history"]),
                int(data["step"]),
            )
        except (KeyError, TypeError, ValueError, InvalidRulesError) as exc:
            raise InvalidStateError(f"not a stored Trio game: {exc}") from None
        if len(game.hands) != rules.players or len(game.scores) != rules.players:
            raise InvalidStateError("a stored Trio game with the wrong number of seats")
        return game


def observe(game: Game, seat: int | None) -> Observation:
    return Observation(
        seat=seat,
        rules=game.rules.to_dict(),
        deal=game.deal_no,
        dealer=game.dealer,
        phase="over" if game.finished else "playing",
        turn=game.turn,
        hand=None if seat is None else tuple(game.hands[seat]),
        hand_sizes=tuple(len(h) for h in game.hands),
        played=tuple(game.played),
        trick=tuple(game.trick),
        tricks=tuple(game.tricks),
        scores=tuple(game.scores),
        legal_actions=tuple(game.legal_actions()) if seat is not None and seat == game.turn else (),
    )


# -- the API's side: views, moves, the score sheet, a client's position -----------------------

DECISIONS = ("play",)


def view(game: Game, seat: int | None, waiting: bool = False) -> dict[str, Any]:
    """The seat's observation as JSON, its hand and legal cards under `you`."""
    out = observe(game, seat).to_dict()
    del out["format"], out["seat"]
    hand, legal = out.pop("hand"), out.pop("legal_actions")
    if seat is not None:
        out["you"] = {"seat": seat, "hand": hand, "legal": legal}
    if waiting:
        out["phase"], out["turn"] = "waiting", None
        if seat is not None:
            out["you"].update(hand=[], legal=[])
    return out


def read_move(move: WireAction, decision: str) -> Action:
    del decision  # only /plays reaches here (DECISIONS)
    return parse_card(move)


def wrong_decision(decision: str) -> str:
    return f"This game is Trio: it has no {decision}s. Play a card at /plays."


def history(game: Game, envelope: dict[str, Any]) -> dict[str, Any]:
    return {
        "game": NAME,
        **envelope,
        "deals": [dict(d) for d in game.history],
        "scores": list(game.scores),
        "finished": game.finished,
        "result": game.result() if game.finished else None,
    }


#: The fields of a seat's view that a position may hold (the view's envelope aside).
POSITION_FIELDS = (
    "rules", "deal", "dealer", "turn", "hand_sizes", "played", "trick", "tricks", "scores", "you",
)  # fmt: skip


def position_from_dict(data: Mapping[str, Any]) -> Observation:
    """The observation a client's position (a seat's view without its envelope) gives;
    `InvalidStateError` for one that is not a Trio position."""
    try:
        you = data["you"]
        seat = int(you["seat"])
        rules = Rules.from_dict(data["rules"])
        hand = tuple(parse_card(c) for c in you["hand"])
        played = tuple((int(s), parse_card(c)) for s, c in data["played"])
        trick = tuple((int(s), parse_card(c)) for s, c in data["trick"])
        sizes = tuple(int(n) for n in data["hand_sizes"])
        turn = None if data["turn"] is None else int(data["turn"])
        tricks = tuple(int(t) for t in data["tricks"])
        scores = tuple(int(p) for p in data["scores"])
    except (KeyError, TypeError, ValueError, InvalidCardError, InvalidRulesError) as exc:
        raise InvalidStateError(f"not a Trio position: {exc}") from None
    cards = [*hand, *(c for _s, c in played)]
    seats_wrong = len(sizes) != rules.players or not 0 <= seat < rules.players
    if len(set(cards)) != len(cards) or seats_wrong:
        raise InvalidStateError("not a Trio position: cards twice, or the wrong seats")
    legal: tuple[Action, ...] = ()
    if turn == seat:
        led = [c for c in hand if trick and suit_of(c) == suit_of(trick[0][1])]
        legal = tuple(led or hand)
    return Observation(
        seat, rules.to_dict(), int(data.get("deal", 0)), int(data.get("dealer", 0)),
        "playing" if turn is not None else "over", turn, hand, sizes, played, trick,
        tricks, scores, legal,
    )  # fmt: skip


def decisions_per_game(rules: Rules) -> int:
    return rules.deals * rules.players * HAND


def record(game: Game, events: list[Event]) -> dict[str, Any]:
    """A finished game's part of its record: its cards played again from its seed, each
    deal with its hands as dealt and its tricks, and refused unless that gives the game."""
    if not game.finished:
        raise InvalidStateError("a game's record is made once it is over")
    replay = Game.new(game.rules, game.seed)
    deals: list[dict[str, Any]] = []
    for event in events:
        if event.get("type") != "card_played":
            continue
        if not replay.played:
            deals.append(
                {
                    "dealer": replay.dealer,
                    "hands": [[card_code(c) for c in h] for h in replay.hands],
                    "tricks": [],
                }
            )
        if not replay.trick:
            deals[-1]["tricks"].append({"cards": [], "winner": None})
        deals[-1]["tricks"][-1]["cards"].append({"seat": event["seat"], "card": event["card"]})
        for change in replay.apply(int(event["seat"]), parse_card(event["card"])):
            if change["type"] == "trick_won":
                deals[-1]["tricks"][-1]["winner"] = change["winner"]
    if replay.to_dict() != game.to_dict():
        raise InvalidStateError("the game's events do not give the stored game")
    return {
        "rules": game.rules.to_dict(),
        "deals": deals,
        "scores": list(game.scores),
        "winners": game.result()["winners"],
    }


GAME_KIND = GameKind(
    name=NAME,
    title="Trio",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    rules_from_dict=Rules.from_dict,
    describe_options=describe_options,
    new=Game.new,
    from_dict=Game.from_dict,
    observation=observe,
    action_from_wire=parse_card,
    action_to_wire=action_to_wire,
    opening_events=lambda game: [{"type": "hand_dealt", "deal": 0, "dealer": game.dealer}],
    view=view,
    decisions=DECISIONS,
    wrong_decision=wrong_decision,
    read_move=read_move,
    history=history,
    position_from_dict=position_from_dict,
    position_fields=POSITION_FIELDS,
    decisions_per_game=decisions_per_game,
    record=record,
)
