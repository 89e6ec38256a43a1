"""A whole game of Pocha with every action validated.
How it works: docs/internals.md, ``engine.pocha.game``.
"""

from __future__ import annotations

import json
import random
from typing import Any, ClassVar

from engine.errors import (
    IllegalCardError,
    InvalidBidError,
    InvalidCardError,
    InvalidStateError,
    NotYourTurnError,
    WrongPhaseError,
)
from engine.i18n import _, ngettext
from engine.pocha.actions import Action, bid_of, is_bid
from engine.pocha.bidding import bidding_order, mano_of
from engine.pocha.cards import (
    BIT,
    NUM_CARDS,
    SUIT_NAMES,
    SUIT_OF,
    Card,
    CardSet,
    card_code,
    cards_list,
    codes,
    parse_card,
    parse_cards,
)
from engine.pocha.hand import HandState, deal, hand_points
from engine.pocha.legality import explain_illegal
from engine.pocha.rules import TIEBREAK_HANDS, Rules
from engine.protocols import Event
from engine.seeds import new_seed, stored_seed

FORMAT_VERSION = 1


class Game:
    """One game: the schedule of hands, the hand in progress, the totals."""

    #: The game's name in the registry (``engine.registry``).
    kind: ClassVar[str] = "pocha"

    def __init__(self, rules: Rules, seed: int) -> None:
        """Use ``Game.new``; this makes an empty shell for ``new``/``from_dict``."""
        self.rules = rules
        self.seed = seed
        # Drawn from the seed by `new`; a loaded game has it stored (drawing it costs as
        # much as the rest of a load's set-up).
        self.first_dealer = 0
        self.hand_index = 0
        self.extra_hands = 0
        self.scores = [0] * rules.players
        self.history: list[dict[str, Any]] = []
        self.finished = False
        self.winners: list[int] = []
        self.trump_card: Card = 0
        self.trump_holder: int | None = None
        self.dealt: list[CardSet] = []
        self.plays: list[tuple[int, Card]] = []
        self.last_trick: list[tuple[int, Card]] = []
        self.state: HandState

    # -- making a game ------------------------------------------------------

    @classmethod
    def new(cls, rules: Rules | None = None, seed: int | None = None) -> Game:
        """A new game with its first hand dealt from ``seed``."""
        game = cls(rules or Rules(), new_seed() if seed is None else seed)
        game.first_dealer = random.Random(f"pocha:{game.seed}:dealer").randrange(game.rules.players)
        game._deal()
        return game

    @classmethod
    def with_deal(
        cls,
        rules: Rules,
        hands: list[list[str]],
        trump: str,
        dealer: int,
        seed: int = 0,
    ) -> Game:
        """A game whose first hand is the given deal (for worked examples).

        The later hands are dealt from ``seed`` as usual.
        """
        game = cls(rules, seed)
        masks = [parse_cards(h) for h in hands]
        cards = rules.hand_sizes[0]
        game.first_dealer = dealer
        _check_deal(rules, masks, cards, parse_card(trump), dealer)
        game._start_hand(masks, parse_card(trump), cards)
        return game

    def _deal(self) -> None:
        n = self.rules.players
        deck = cards_list(self.rules.deck)
        random.Random(f"pocha:{self.seed}:hand:{self.hand_index}").shuffle(deck)
        cards = self.cards_per_player
        hands, trump_card, _rest = deal(deck, n, cards, self.dealer)
        self._start_hand(hands, trump_card, cards)

    def _start_hand(self, hands: list[CardSet], trump_card: Card, cards: int) -> None:
        self.dealt = list(hands)
        self.trump_card = trump_card
        dealer = self.dealer
        whole_deck = cards * self.rules.players == self.rules.deck_size
        self.trump_holder = dealer if whole_deck else None
        self.plays = []
        self.state = HandState(self.rules, hands, SUIT_OF[trump_card], dealer, cards)

    # -- what the game is now -------------------------------------------------

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def dealer(self) -> int:
        return (self.first_dealer + self.hand_index) % self.rules.players

    @property
    def mano(self) -> int:
        return mano_of(self.dealer, self.rules.players)

    @property
    def hand_number(self) -> int:
        return self.hand_index + 1

    @property
    def hands_total(self) -> int:
        return len(self.rules.hand_sizes) + self.extra_hands

    @property
    def in_tiebreak(self) -> bool:
        return self.hand_index >= len(self.rules.hand_sizes)

    @property
    def cards_per_player(self) -> int:
        sizes = self.rules.hand_sizes
        return sizes[self.hand_index] if self.hand_index < len(sizes) else 1

    @property
    def phase(self) -> str:
        if self.finished:
            return "finished"
        return "bidding" if self.state.bidding else "playing"

    @property
    def turn(self) -> int | None:
        return None if self.finished else self.state.turn

    @property
    def trump_suit(self) -> int:
        return SUIT_OF[self.trump_card]

    @property
    def bids(self) -> list[int | None]:
        return [None if b < 0 else b for b in self.state.bids]

    @property
    def tricks_won(self) -> list[int]:
        return list(self.state.tricks)

    @property
    def trick(self) -> list[tuple[int, Card]]:
        """The cards on the table, in the order played."""
        k = self.state.in_trick
        return self.plays[len(self.plays) - k :] if k else []

    def hand_of(self, seat: int) -> CardSet:
        return self.state.hands[seat]

    def legal_actions(self) -> list[Action]:
        """What the seat to move may do, as actions (``engine.pocha.actions``) in ascending
        order: its bids while bidding, its legal cards while playing."""
        if self.finished:
            return []
        return self.state.legal_actions()

    def legal_mask(self) -> CardSet:
        """The cards the seat to move may play (0 while bidding or finished)."""
        if self.finished or self.state.bidding:
            return 0
        return self.state.legal_mask()

    # -- actions ----------------------------------------------------------------

    def check_turn(self, seat: int, playing: bool) -> None:
        """Refuse a move by ``seat`` now for what ``bid`` and ``play`` check first: the
        game is over, it is another seat's turn, or it is the wrong phase for a card
        (``playing``) or a bid."""
        if self.finished:
            raise WrongPhaseError(_("the game is over"))
        if seat != self.state.turn:
            raise NotYourTurnError(
                _("it is seat {turn}'s turn, not seat {seat}'s", turn=self.state.turn, seat=seat),
                rule="turn",
            )
        if playing and self.state.bidding:
            raise WrongPhaseError(_("it is time to bid, not to play a card"))
        if not playing and not self.state.bidding:
            raise WrongPhaseError(_("bidding is over: play a card"))

    def bid(self, seat: int, bid: int) -> list[Event]:
        """Seat ``seat`` bids ``bid`` tricks; the events it caused."""
        self.check_turn(seat, playing=False)
        st = self.state
        if isinstance(bid, bool) or not isinstance(bid, int) or not 0 <= bid <= st.cards:
            raise InvalidBidError(
                _(
                    "a bid is a whole number of tricks from 0 to {cards}, not {value}",
                    cards=st.cards,
                    value=repr(bid),
                ),
                rule="bid_range",
            )
        if bid == st.forbidden_bid():
            raise InvalidBidError(
                ngettext(
                    "as dealer you may not bid {bid}: the bids would add up to the "
                    "{n} card in play",
                    "as dealer you may not bid {bid}: the bids would add up to the "
                    "{n} cards in play",
                    st.cards,
                    bid=bid,
                ),
                rule="dealer_restriction",
            )
        st.apply_bid(bid)
        return [{"type": "bid", "seat": seat, "bid": bid}]

    def play(self, seat: int, card: str | Card) -> list[Event]:
        """Seat ``seat`` plays ``card`` (a code or a card index); the events."""
        self.check_turn(seat, playing=True)
        if isinstance(card, str):
            c = parse_card(card)
        elif isinstance(card, int) and not isinstance(card, bool) and 0 <= card < NUM_CARDS:
            c = card
        else:
            raise InvalidCardError(
                _(
                    "{value} is not a card: give a code such as 'O1' or a card index 0-39",
                    value=repr(card),
                )
            )
        st = self.state
        why = explain_illegal(
            c, st.hands[seat], st.lead, st.win, st.trump, st.montar, st.fallar, st.pisar
        )
        if why is not None:
            raise IllegalCardError(why[1], rule=why[0])
        return self._apply_card(seat, c)

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Seat ``seat`` takes ``action`` (``engine.pocha.actions``); the events it caused.

        A bid action goes through ``bid`` and anything else through ``play``, so it is
        checked and refused exactly as those refuse it."""
        if is_bid(action):
            return self.bid(seat, bid_of(action))
        return self.play(seat, action)

    def _apply_card(self, seat: int, c: Card) -> list[Event]:
        st = self.state
        self.plays.append((seat, c))
        events: list[Event] = [{"type": "card_played", "seat": seat, "card": card_code(c)}]
        winner = st.apply_card(c)
        if winner < 0:
            return events
        trick = self.plays[-self.rules.players :]
        self.last_trick = list(trick)
        events.append(
            {
                "type": "trick_won",
                "seat": winner,
                "trick_number": self.state.cards - self.state.tricks_left,
                "trick": [{"seat": s, "card": card_code(x)} for s, x in trick],
                "tricks_won": list(st.tricks),
            }
        )
        if st.tricks_left == 0:
            events.extend(self._end_hand())
        return events

    def _end_hand(self) -> list[Event]:
        st = self.state
        rules = self.rules
        points = [hand_points(rules, st.bids[s], st.tricks[s]) for s in range(rules.players)]
        for s in range(rules.players):
            self.scores[s] += points[s]
        self.history.append(
            {
                "hand_number": self.hand_number,
                "cards": st.cards,
                "dealer": self.dealer,
                "tiebreak": self.in_tiebreak,
                "trump": {"card": card_code(self.trump_card), "holder": self.trump_holder},
                "hands": [codes(h) for h in self.dealt],
                "bids": list(st.bids),
                "tricks": list(st.tricks),
                "points": points,
                "totals": list(self.scores),
            }
        )
        events: list[Event] = [
            {
                "type": "hand_scored",
                "hand_number": self.hand_number,
                "bids": list(st.bids),
                "tricks": list(st.tricks),
                "points": points,
                "scores": list(self.scores),
            }
        ]
        if self.hand_index + 1 < len(rules.hand_sizes):
            self.hand_index += 1
            self._deal()
            events.append(self.hand_dealt_event())
            return events
        best = max(self.scores)
        leaders = [s for s in range(rules.players) if self.scores[s] == best]
        if len(leaders) == 1 or not rules.tiebreak or self.extra_hands >= TIEBREAK_HANDS:
            self.finished = True
            self.winners = leaders
            events.append({"type": "game_over", "scores": list(self.scores), "winners": leaders})
            return events
        self.extra_hands += 1
        self.hand_index += 1
        self._deal()
        events.append(self.hand_dealt_event())
        return events

    def hand_dealt_event(self) -> Event:
        """The public event of the current hand's deal (no hidden card)."""
        return {
            "type": "hand_dealt",
            "hand_number": self.hand_number,
            "hands_total": self.hands_total,
            "cards_per_player": self.state.cards,
            "dealer": self.dealer,
            "mano": self.mano,
            "tiebreak": self.in_tiebreak,
            "trump": {"card": card_code(self.trump_card), "holder": self.trump_holder},
        }

    # -- storage ----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The full state (every hand included) as plain JSON data."""
        return {
            "format": FORMAT_VERSION,
            "rules": self.rules.to_dict(),
            # As text past 53 bits, the integers every JSON reader keeps exactly.
            "seed": self.seed if self.seed < 1 << 53 else str(self.seed),
            "first_dealer": self.first_dealer,
            "hand_index": self.hand_index,
            "extra_hands": self.extra_hands,
            "scores": list(self.scores),
            # A new list, the same records: a finished hand's record is never
            # changed, and deep-copying the score sheet was most of a save.
            "history": list(self.history),
            "finished": self.finished,
            "winners": list(self.winners),
            "last_trick": [[s, card_code(c)] for s, c in self.last_trick],
            "hand": {
                "dealt": [codes(h) for h in self.dealt],
                "trump": card_code(self.trump_card),
                # in bidding order (from la mano), the order _replay applies them
                "bids": [b for b in self._bids_in_order() if b >= 0],
                "plays": [[s, card_code(c)] for s, c in self.plays],
            },
        }

    def _bids_in_order(self) -> list[int]:
        return [self.state.bids[s] for s in bidding_order(self.dealer, self.rules.players)]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """The game stored by ``to_dict``; refuses data that breaks the rules.

        The ``InvalidStateError`` names the rule broken in ``rule``: a move's rule
        (``turn``, ``bid_range``, ``dealer_restriction``, ``not_in_hand``, ``asistir``,
        ``montar``, ``fallar``, ``pisar``), or ``deal`` (cards dealt), ``trump_card``
        (where the trump card is), ``players``, ``schedule`` or ``game_over``.  Data
        that is no stored game at all (a wrong format, a field missing or of the wrong
        type) has no rule."""
        if not isinstance(data, dict):
            raise InvalidStateError("not a stored Pocha game: a game is a JSON object")
        try:
            if data.get("format") != FORMAT_VERSION:
                raise InvalidStateError(
                    f"unknown game format {data.get('format')!r}; expected {FORMAT_VERSION}"
                )
            rules = Rules.from_dict(data["rules"])
            game = cls(rules, stored_seed(data["seed"]))
            game.first_dealer = int(data["first_dealer"])
            game.hand_index = int(data["hand_index"])
            game.extra_hands = int(data["extra_hands"])
            game.scores = [int(x) for x in data["scores"]]
            n, scheduled = rules.players, len(rules.hand_sizes)
            if not 0 <= game.first_dealer < n or len(game.scores) != n:
                raise InvalidStateError(
                    f"first_dealer and scores must fit {n} players", rule="players"
                )
            extra = max(0, game.hand_index - scheduled + 1)
            most = TIEBREAK_HANDS if rules.tiebreak else 0
            if game.hand_index < 0 or game.extra_hands != extra or extra > most:
                raise InvalidStateError(
                    "hand_index and extra_hands do not fit the schedule", rule="schedule"
                )
            game.history = list(data["history"])
            game.winners = [int(x) for x in data["winners"]]
            game.last_trick = [(int(s), parse_card(c)) for s, c in data["last_trick"]]
            hand = data["hand"]
            dealt = [parse_cards(h) for h in hand["dealt"]]
            trump = parse_card(hand["trump"])
            _check_deal(rules, dealt, game.cards_per_player, trump, game.dealer)
            game._start_hand(dealt, trump, game.cards_per_player)
            game._replay(hand["bids"], hand["plays"])
            game.finished = bool(data["finished"])
            if game.state.done != game.finished:
                raise InvalidStateError(
                    "a stored hand is complete only when the game is over", rule="game_over"
                )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            # Our own refusals (the rule they name included) get the same opening.
            rule = exc.rule if isinstance(exc, InvalidStateError) else None
            raise InvalidStateError(f"not a stored Pocha game: {exc}", rule=rule) from exc
        return game

    def _replay(self, bids: list[int], plays: list[list[Any]]) -> None:
        """Apply a stored hand's bids and cards, checking each against the rules
        (without the end-of-hand scoring, which the stored totals already hold)."""
        st = self.state
        for b in bids:
            if isinstance(b, bool) or not isinstance(b, int):
                raise InvalidStateError(f"stored bid {b!r} is out of place", rule="bid_range")
            if not st.bidding:
                raise InvalidStateError(f"stored bid {b!r} is out of place", rule="turn")
            if not 0 <= b <= st.cards:
                raise InvalidStateError(f"stored bid {b} breaks the rules", rule="bid_range")
            if b == st.forbidden_bid():
                raise InvalidStateError(
                    f"stored bid {b} breaks the rules", rule="dealer_restriction"
                )
            st.apply_bid(b)
        for seat, code in plays:
            c = parse_card(code)
            if st.bidding or st.tricks_left == 0 or seat != st.turn:
                raise InvalidStateError(
                    f"stored play {code} by seat {seat} is out of turn", rule="turn"
                )
            why = explain_illegal(
                c, st.hands[seat], st.lead, st.win, st.trump, st.montar, st.fallar, st.pisar
            )
            if why is not None:
                raise InvalidStateError(f"stored play breaks the rules: {why[1]}", rule=why[0])
            self.plays.append((seat, c))
            st.apply_card(c)

    def copy(self) -> Game:
        """An independent copy: changing either never changes the other. The rules and
        the finished hands' records are shared, since neither is ever changed."""
        new = Game.__new__(Game)
        new.__dict__.update(self.__dict__)
        new.scores = self.scores[:]
        new.history = self.history[:]
        new.winners = self.winners[:]
        new.dealt = self.dealt[:]
        new.plays = self.plays[:]
        new.last_trick = self.last_trick[:]
        new.state = self.state.copy()
        return new

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise InvalidStateError(f"not a stored Pocha game: {exc}") from exc
        return cls.from_dict(data)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Game hand {self.hand_number}/{self.hands_total} {self.phase} "
            f"turn={self.turn} scores={self.scores}>"
        )


def _check_deal(rules: Rules, hands: list[CardSet], cards: int, trump: Card, dealer: int) -> None:
    n = rules.players
    if len(hands) != n:
        raise InvalidStateError(f"a deal needs {n} hands, not {len(hands)}", rule="deal")
    seen = 0
    for seat, h in enumerate(hands):
        if h.bit_count() != cards:
            raise InvalidStateError(f"seat {seat} must be dealt {cards} cards", rule="deal")
        if h & seen or h & ~rules.deck:
            raise InvalidStateError("a card is dealt twice or is not in this deck", rule="deal")
        seen |= h
    if not BIT[trump] & rules.deck:
        raise InvalidStateError(f"{card_code(trump)} is not in this deck", rule="deal")
    whole = cards * n == rules.deck_size
    if whole and not BIT[trump] & hands[dealer]:
        raise InvalidStateError(
            f"with the whole deck dealt, the trump card {card_code(trump)} must be the "
            f"dealer's (seat {dealer})",
            rule="trump_card",
        )
    if not whole and BIT[trump] & seen:
        raise InvalidStateError(
            f"the turned trump card {card_code(trump)} ({SUIT_NAMES[SUIT_OF[trump]]}) "
            "cannot also be in a hand",
            rule="trump_card",
        )
