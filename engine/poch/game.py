"""A game of Poch: the deals, the plates, the one betting round and the shedding.
How it works: docs/poch.md, ``engine.poch.game``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from engine.errors import (
    IllegalActionError,
    IllegalCardError,
    InvalidBidError,
    InvalidStateError,
    NotYourTurnError,
    WrongPhaseError,
)
from engine.i18n import _, ngettext
from engine.poch.actions import (
    BET_BASE,
    HOLD,
    PASS,
    SUIT_BASE,
    Action,
    amount_of,
    bet_action,
    is_bet,
    is_card,
    is_suit,
)
from engine.poch.cards import (
    ACE,
    EIGHT,
    JACK,
    KING,
    NINE,
    NUM_CARDS,
    QUEEN,
    SEVEN,
    SUITS,
    TEN,
    Card,
    best_set,
    card,
    card_code,
    codes,
    parse_card,
    rank_of,
    suit_of,
)
from engine.poch.errors import InvalidSuitError
from engine.poch.rules import PLATES, Rules
from engine.protocols import Event
from engine.seeds import stored_seed

FORMAT_VERSION = 1

# The plates an honour wins, with the trump ranks that win it (docs/poch.md, A deal 4).
HONOURS: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("ace", (ACE,)),
    ("king", (KING,)),
    ("queen", (QUEEN,)),
    ("jack", (JACK,)),
    ("ten", (TEN,)),
    ("marriage", (KING, QUEEN)),
    ("sequence", (SEVEN, EIGHT, NINE)),
)


class Game:
    """The whole state of a Poch game; see the module's paragraph."""

    #: The game's name in the registry (``engine.registry``).
    kind: ClassVar[str] = "poch"

    def __init__(self, rules: Rules, seed: int) -> None:
        self.rules = rules
        self.seed = seed
        n = rules.players
        self.chips: list[int] = [rules.chips] * n
        self.active: list[bool] = [True] * n
        self.plates: dict[str, int] = dict.fromkeys(PLATES, 0)
        self.pot = 0
        self.deal_no = 0  # deals begun
        self.dealer = 0
        self.phase = "over"
        self.turn: int | None = None
        self.hands: list[set[Card]] = [set() for _ in range(n)]
        self.trump = 0
        self.trump_card: Card | None = None  # hidden: the dealer's last card
        self.collected: list[dict[str, Any]] = []  # public: seat, plate, cards, chips
        self.bets: list[dict[str, Any]] = []  # public: seat, call, amount paid
        self.order: list[int] = []  # betting order of this deal, Vorhand to dealer
        self.showdown: dict[int, list[Card]] = {}  # public: each seat's best set
        self.starter: int | None = None  # the winner of the betting, if any
        self.direction = 0  # +1 upwards, -1 downwards, 0 before the start card
        self.suit: int | None = None  # the suit running now
        self.suits_done: list[int] = []
        self.played: list[tuple[int, Card]] = []
        self.deal_results: list[dict[str, Any]] = []
        self.actions: list[tuple[int, Action]] = []  # every decision so far, in order
        # The score sheet a service keeps beside a game (Pocha's finished hands): Poch's deal
        # results are part of its state, small and read by every view, so this stays empty.
        self.history: list[Any] = []
        # The public events of the first deal (ante, deal, honours collected), which
        # `new` plays before anyone acts: a service records them as the game's first.
        self.opening_events: list[Event] = []
        # A search's game: its shedding reports no `play` events, a card each, which a
        # search never reads (ai.poch.deals.fork sets it). Not part of the stored state.
        self.quiet = False

    # -- creation -------------------------------------------------------------

    @classmethod
    def new(cls, rules: Rules | None = None, seed: int = 0, dealer: int | None = None) -> Game:
        """A new game; the first dealer is drawn from the seed unless ``dealer`` is given."""
        game = cls(rules or Rules(), seed)
        # The first dealer is drawn at random (docs/poch.md, A deal 2).
        game.dealer = random.Random(f"poch:{seed}:dealer").randrange(game.players)
        if dealer is not None:
            if not isinstance(dealer, int) or not 0 <= dealer < game.players:
                raise InvalidStateError(f"no seat {dealer!r} to deal")
            game.dealer = dealer
        game._begin_deal(game.opening_events, first=True)
        return game

    @property
    def players(self) -> int:
        return self.rules.players

    def _next_active(self, seat: int) -> int:
        for step in range(1, self.players + 1):
            other = (seat + step) % self.players
            if self.active[other]:
                return other
        return seat

    def _round_from(self, seat: int) -> list[int]:
        """The active seats in turn, starting with ``seat`` (which must be active)."""
        return [
            s for s in ((seat + k) % self.players for k in range(self.players)) if self.active[s]
        ]

    @property
    def vorhand(self) -> int:
        return self._next_active(self.dealer)

    @property
    def finished(self) -> bool:
        return self.phase == "over"

    def total_chips(self) -> int:
        """Every chip in the game: in hand, on the plates and in the pot."""
        return sum(self.chips) + sum(self.plates.values()) + self.pot

    # -- a deal's forced steps ---------------------------------------------------

    def _begin_deal(self, events: list[Event], first: bool = False) -> None:
        if not first:
            self.dealer = self._next_active(self.dealer)
        if self.deal_no >= self.rules.deal_count:
            self._end_game(events)
            return
        # Ante (docs/poch.md, A deal 1): who cannot pay 8 x ante leaves with what remains.
        need = len(PLATES) * self.rules.ante
        for seat in range(self.players):
            if self.active[seat] and self.chips[seat] < need:
                self.active[seat] = False
                events.append({"type": "leave", "seat": seat, "chips": self.chips[seat]})
        if sum(self.active) < 2:
            # Decided: the game needs two players who can pay; it ends with one or none.
            self._end_game(events)
            return
        if not self.active[self.dealer]:
            self.dealer = self._next_active(self.dealer)
        self.deal_no += 1
        for seat in range(self.players):
            if self.active[seat]:
                self.chips[seat] -= need
        for plate in PLATES:
            self.plates[plate] += self.rules.ante * sum(self.active)
        events.append({"type": "ante", "deal": self.deal_no, "dealer": self.dealer, "each": need})
        # Deal (docs/poch.md, A deal 2): one at a time from Vorhand; the first 32 mod n get one
        # more.
        order = self._round_from(self.vorhand)
        deck = self._shuffled_deck()
        self.hands = [set() for _ in range(self.players)]
        for i, c in enumerate(deck):
            seat = order[i % len(order)]
            self.hands[seat].add(c)
            if seat == self.dealer:
                self.trump_card = c  # the last card the dealer deals to themselves
        assert self.trump_card is not None
        self.trump = suit_of(self.trump_card)
        self.order = order
        self.collected, self.bets, self.showdown, self.played = [], [], {}, []
        self.starter, self.direction, self.suit, self.suits_done = None, 0, None, []
        events.append(
            {
                "type": "deal",
                "counts": {str(s): len(self.hands[s]) for s in order},
                "trump": SUITS[self.trump],
            }
        )
        # Collecting (docs/poch.md, A deal 4): the honours are shown and their plates taken.
        for plate, ranks in HONOURS:
            needed = {card(self.trump, r) for r in ranks}
            for seat in order:
                if needed <= self.hands[seat]:
                    won = self.plates[plate]
                    self.chips[seat] += won
                    self.plates[plate] = 0
                    entry = {"seat": seat, "plate": plate, "cards": codes(needed), "chips": won}
                    self.collected.append(entry)
                    events.append({"type": "collect", **entry})
        self.phase = "betting"
        self.turn = order[0]

    def _shuffled_deck(self) -> list[Card]:
        """This deal's pack, in dealing order: from the seed and the deal's number."""
        deck = list(range(NUM_CARDS))
        random.Random(f"poch:{self.seed}:deal:{self.deal_no}").shuffle(deck)
        return deck

    def _end_game(self, events: list[Event]) -> None:
        self.phase, self.turn = "over", None
        self.hands = [set() for _ in range(self.players)]
        self.trump_card = None
        events.append({"type": "game_over", **self.result()})

    def result(self) -> dict[str, Any]:
        """The chips of every seat and the winners (the most chips; ties share)."""
        best = max(self.chips)
        return {
            "chips": list(self.chips),
            "winners": [s for s in range(self.players) if self.chips[s] == best],
        }

    # -- betting ----------------------------------------------------------------

    @property
    def highest(self) -> int:
        return max((b["amount"] for b in self.bets), default=0)

    def high_bidder(self) -> int | None:
        """Who paid the most; on a tie the first to pay it (docs/poch.md, A deal 5)."""
        best: dict[str, Any] | None = None
        for b in self.bets:
            if b["amount"] > 0 and (best is None or b["amount"] > best["amount"]):
                best = b
        return None if best is None else int(best["seat"])

    def _bet(self, seat: int, action: Action, events: list[Event]) -> None:
        top = self.highest
        if action == PASS:
            call, paid = "pass", 0
        elif action == HOLD:
            if top == 0:
                raise InvalidBidError(_("nobody has bet: there is nothing to hold"), rule="hold")
            if top > self.chips[seat]:
                raise InvalidBidError(
                    ngettext(
                        "holding costs {n} chip; you have {chips}",
                        "holding costs {n} chips; you have {chips}",
                        top,
                        chips=self.chips[seat],
                    ),
                    rule="no_credit",
                )
            call, paid = "hold", top
        elif is_bet(action):
            paid = amount_of(action)
            if paid <= top:
                raise InvalidBidError(
                    ngettext(
                        "a raise must be more than {n} chip",
                        "a raise must be more than {n} chips",
                        top,
                    ),
                    rule="raise_above",
                )
            if paid > self.chips[seat]:
                raise InvalidBidError(
                    ngettext(
                        "you cannot pay {n} chip; you have {chips}",
                        "you cannot pay {n} chips; you have {chips}",
                        paid,
                        chips=self.chips[seat],
                    ),
                    rule="no_credit",
                )
            call = "bet" if top == 0 else "raise"
        else:
            raise WrongPhaseError(_("the betting round takes pass, hold, a bet or a raise"))
        self.chips[seat] -= paid
        self.pot += paid
        self.bets.append({"seat": seat, "call": call, "amount": paid})
        events.append({"type": call, "seat": seat, "amount": paid, "pot": self.pot})
        if len(self.bets) < len(self.order):
            self.turn = self.order[len(self.bets)]
        else:
            self._settle_betting(events)

    def _settle_betting(self, events: list[Event]) -> None:
        bidder = self.high_bidder()
        winner: int | None = None
        if bidder is None:
            # Nobody bet: no showdown; the pocher plate and the pot stay.
            events.append({"type": "no_bet", "pot": self.pot})
        else:
            sets = {s: best_set(self.hands[s], self.trump) for s in self.order}
            self.showdown = {s: v[1] for s, v in sets.items() if v is not None}
            events.append(
                {
                    "type": "showdown",
                    "sets": {str(s): codes(cs) for s, cs in self.showdown.items()},
                }
            )
            ranked = [(v[0], s) for s, v in sets.items() if v is not None]
            if not ranked:
                events.append({"type": "no_set", "seat": bidder, "pot": self.pot})
            else:
                best = max(ranked)[1]
                if best != bidder:
                    fine = min(2 * self.pot, self.chips[bidder])
                    self.chips[bidder] -= fine
                    self.pot += fine
                    events.append({"type": "bluff", "seat": bidder, "paid": fine})
                won = self.pot + self.plates["pocher"]
                self.chips[best] += won
                events.append(
                    {
                        "type": "take_pot",
                        "seat": best,
                        "pot": self.pot,
                        "pocher": self.plates["pocher"],
                    }
                )
                self.pot, self.plates["pocher"] = 0, 0
                winner = best
        self.starter = winner
        # Shedding (docs/poch.md, A deal 6): the winner, else Vorhand; else the next who holds
        # a 7 or an ace.
        first = winner if winner is not None else self.order[0]
        for seat in self._round_from(first):
            if any(rank_of(c) in (SEVEN, ACE) for c in self.hands[seat]):
                self.phase, self.turn = "starting", seat
                return
        raise InvalidStateError("nobody holds a 7 or an ace")  # cannot happen: all 32 dealt

    # -- shedding ---------------------------------------------------------------

    def _first_rank(self) -> int:
        return SEVEN if self.direction > 0 else ACE

    def _holder(self, c: Card) -> int:
        for seat in self.order:
            if c in self.hands[seat]:
                return seat
        raise InvalidStateError(f"nobody holds {card_code(c)}")

    def _play(self, seat: int, c: Card, events: list[Event]) -> bool:
        """Play a card; True if it was the seat's last, which ends the deal."""
        self.hands[seat].discard(c)
        self.played.append((seat, c))
        if not self.quiet:
            events.append({"type": "play", "seat": seat, "card": card_code(c)})
        if self.hands[seat]:
            return False
        self._pay_out(seat, events)
        return True

    def _run_suit(self, seat: int, c: Card, events: list[Event]) -> None:
        """Play ``c`` from ``seat`` and every forced card after it, then the next decision."""
        suit = suit_of(c)
        self.suit = suit
        rank = rank_of(c)
        while True:
            if self._play(seat, c, events):
                return
            rank += self.direction
            if not SEVEN <= rank <= ACE:
                break
            c = card(suit, rank)
            seat = self._holder(c)
        self.suits_done.append(suit)
        self.suit = None
        left = [s for s in range(4) if s not in self.suits_done]
        if not left:  # cannot happen: the last suit empties every hand
            raise InvalidStateError("every suit played and nobody out of cards")
        if len(left) == 1:
            # Decided: with one suit left there is nothing to choose; it runs at once.
            nxt = card(left[0], self._first_rank())
            self._run_suit(self._holder(nxt), nxt, events)
            return
        self.phase, self.turn = "choosing", seat

    def _pay_out(self, winner: int, events: list[Event]) -> None:
        """The first out of cards receives a chip per card still held (docs/poch.md, A deal 6)."""
        paid: dict[str, int] = {}
        for seat in self.order:
            if seat != winner:
                owe = min(len(self.hands[seat]), self.chips[seat])
                self.chips[seat] -= owe
                self.chips[winner] += owe
                paid[str(seat)] = owe
        result = {"deal": self.deal_no, "winner": winner, "paid": paid}
        self.deal_results.append(result)
        events.append({"type": "deal_won", **result})
        self._begin_deal(events)

    # -- the interface ------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        seat = self.turn
        if seat is None:
            return []
        if self.phase == "betting":
            top, have = self.highest, self.chips[seat]
            acts = [PASS]
            if 0 < top <= have:
                acts.append(HOLD)
            acts.extend(bet_action(n) for n in range(top + 1, have + 1))
            return acts
        if self.phase == "starting":
            return sorted(c for c in self.hands[seat] if rank_of(c) in (SEVEN, ACE))
        if self.phase == "choosing":
            return [SUIT_BASE + s for s in range(4) if s not in self.suits_done]
        return []

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply one decision of ``seat``; the public events it caused, in order."""
        if self.phase == "over":
            raise WrongPhaseError(_("the game is over"))
        if seat != self.turn:
            raise NotYourTurnError(
                _("it is seat {turn}'s turn, not seat {seat}'s", turn=self.turn, seat=seat)
            )
        events: list[Event] = []
        if self.phase == "betting":
            self._bet(seat, action, events)
        elif self.phase == "starting":
            if not is_card(action):
                raise WrongPhaseError(_("start the shedding with a 7 or an ace"))
            if action not in self.hands[seat]:
                raise IllegalCardError(
                    _("you do not hold {card}", card=card_code(action)), rule="hold_card"
                )
            if rank_of(action) not in (SEVEN, ACE):
                raise IllegalCardError(
                    _("the shedding starts with a 7 or an ace"), rule="start_card"
                )
            self.direction = 1 if rank_of(action) == SEVEN else -1
            events.append({"type": "start", "seat": seat, "direction": self.direction_name})
            self._run_suit(seat, action, events)
        else:  # choosing
            if not is_suit(action):
                raise WrongPhaseError(_("choose the next suit"))
            suit = action - SUIT_BASE
            if suit in self.suits_done:
                raise InvalidSuitError(
                    _("{suit} has been played", suit=SUITS[suit]), rule="suit_played"
                )
            events.append({"type": "choose", "seat": seat, "suit": SUITS[suit]})
            first = card(suit, self._first_rank())
            self._run_suit(self._holder(first), first, events)
        self.actions.append((seat, action))
        return events

    def check_turn(self, seat: int, playing: bool) -> None:
        """Refuse a decision by ``seat`` now for what ``apply`` checks first: the game is
        over, or it is another seat's turn (``playing`` is the Pocha engine's: every Poch
        decision goes through ``apply``)."""
        del playing
        if self.phase == "over":
            raise WrongPhaseError(_("the game is over"))
        if seat != self.turn:
            raise NotYourTurnError(
                _("it is seat {turn}'s turn, not seat {seat}'s", turn=self.turn, seat=seat)
            )

    @property
    def direction_name(self) -> str | None:
        return {1: "up", -1: "down"}.get(self.direction)

    # -- JSON -------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT_VERSION,
            "game": "poch",
            "rules": self.rules.to_dict(),
            # Seeds past 53 bits (the service draws 128) as decimal text, as Pocha's.
            "seed": self.seed if self.seed < 1 << 53 else str(self.seed),
            "chips": list(self.chips),
            "active": list(self.active),
            "plates": dict(self.plates),
            "pot": self.pot,
            "deal_no": self.deal_no,
            "dealer": self.dealer,
            "phase": self.phase,
            "turn": self.turn,
            "hands": [codes(h) for h in self.hands],
            "trump": SUITS[self.trump],
            "trump_card": None if self.trump_card is None else card_code(self.trump_card),
            "collected": [dict(e) for e in self.collected],
            "bets": [dict(b) for b in self.bets],
            "order": list(self.order),
            "showdown": {str(s): codes(cs) for s, cs in self.showdown.items()},
            "starter": self.starter,
            "direction": self.direction,
            "suit": None if self.suit is None else SUITS[self.suit],
            "suits_done": [SUITS[s] for s in self.suits_done],
            "played": [[s, card_code(c)] for s, c in self.played],
            "deal_results": [dict(r) for r in self.deal_results],
            "actions": [[s, a] for s, a in self.actions],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """The game ``to_dict`` stored; ``InvalidStateError`` for anything else."""
        try:
            if data.get("format") != FORMAT_VERSION or data.get("game") != "poch":
                raise InvalidStateError(f"unknown Poch game format {data.get('format')!r}")
            game = cls(Rules.from_dict(data["rules"]), stored_seed(data["seed"]))
            game.chips = [int(c) for c in data["chips"]]
            game.active = [bool(a) for a in data["active"]]
            game.plates = {p: int(data["plates"][p]) for p in PLATES}
            game.pot = int(data["pot"])
            game.deal_no = int(data["deal_no"])
            game.dealer = int(data["dealer"])
            game.phase = str(data["phase"])
            game.turn = None if data["turn"] is None else int(data["turn"])
            game.hands = [{parse_card(c) for c in h} for h in data["hands"]]
            game.trump = SUITS.index(data["trump"])
            tc = data["trump_card"]
            game.trump_card = None if tc is None else parse_card(tc)
            game.collected = [dict(e) for e in data["collected"]]
            game.bets = [dict(b) for b in data["bets"]]
            game.order = [int(s) for s in data["order"]]
            game.showdown = {
                int(s): sorted(parse_card(c) for c in cs) for s, cs in data["showdown"].items()
            }
            game.starter = None if data["starter"] is None else int(data["starter"])
            game.direction = int(data["direction"])
            game.suit = None if data["suit"] is None else SUITS.index(data["suit"])
            game.suits_done = [SUITS.index(s) for s in data["suits_done"]]
            game.played = [(int(s), parse_card(c)) for s, c in data["played"]]
            game.deal_results = [dict(r) for r in data["deal_results"]]
            game.actions = [(int(s), int(a)) for s, a in data["actions"]]
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            if isinstance(exc, InvalidStateError):
                raise
            raise InvalidStateError(f"not a stored Poch game: {exc!r}") from exc
        n = game.players
        if len(game.chips) != n or len(game.active) != n or len(game.hands) != n:
            raise InvalidStateError("a stored Poch game needs one entry per seat")
        if game.phase not in ("betting", "starting", "choosing", "over"):
            raise InvalidStateError(f"unknown phase {game.phase!r}")
        return game

    def clone(self) -> Game:
        return Game.from_dict(self.to_dict())

    def copy(self) -> Game:
        """A copy to change apart (the name a service uses for every game)."""
        game = self.clone()
        game.history = list(self.history)
        return game


__all__ = ["BET_BASE", "FORMAT_VERSION", "HONOURS", "Event", "Game", "IllegalActionError"]
