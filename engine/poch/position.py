"""A Poch position sent by a client, checked and turned into the seat's ``Observation``;
anything no game could have reached is refused with a sentence saying why.
How it works: docs/poch.md, ``engine.poch.position``.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from engine.errors import GameError, InvalidRulesError, InvalidStateError
from engine.i18n import _, as_json, ngettext
from engine.poch.actions import (
    HOLD,
    PASS,
    SUIT_BASE,
    Action,
    action_from_wire,
    action_to_wire,
    bet_action,
)
from engine.poch.cards import (
    ACE,
    EIGHT,
    NINE,
    NUM_CARDS,
    SEVEN,
    SUITS,
    Card,
    SetKey,
    best_set,
    card,
    card_code,
    codes,
    parse_card,
    rank_of,
    suit_of,
)
from engine.poch.game import HONOURS
from engine.poch.observation import Observation
from engine.poch.rules import PLATES, Rules
from engine.positions import int_field, list_field, position_fields, seat_field

#: The keys a Poch position may have (a seat's view without its envelope); anything else
#: is refused, so a typo is not ignored.
FIELDS = (
    "game",
    "rules",
    "deal",
    "dealer",
    "phase",
    "turn",
    "chips",
    "active",
    "plates",
    "pot",
    "trump",
    "hand_sizes",
    "collected",
    "bets",
    "showdown",
    "starter",
    "direction",
    "suit",
    "suits_done",
    "played",
    "deal_results",
    "result",
    "you",
)
#: Those that may be left out: the game's name, the score sheet and the result.
OPTIONAL = ("game", "deal_results", "result")
PHASES = ("betting", "starting", "choosing")
#: The plates every deal empties: all 32 cards are dealt, so someone holds each honour.
SINGLE_HONOURS = ("ace", "king", "queen", "jack", "ten")
CALLS = ("pass", "bet", "hold", "raise")


def _card_of(code: Any, where: Any) -> Card:
    try:
        return parse_card(code)
    except GameError as exc:
        raise InvalidStateError(_("{where}: {why}", where=where, why=exc.message)) from exc


def _suit_of(value: Any, where: str) -> int:
    if isinstance(value, str) and value in SUITS:
        return SUITS.index(value)
    raise InvalidStateError(
        _("{what} must be a suit (C, S, H or D), not {value}", what=where, value=as_json(value))
    )


def _count(value: Any, what: Any) -> int:
    """A whole number of at least 0 (chips, cards)."""
    number = int_field(value, what)
    if number < 0:
        raise InvalidStateError(
            _("{what} cannot be negative, not {value}", what=what, value=number)
        )
    return number


def _per_seat(raw: Any, what: str, n: int) -> list[Any]:
    values = list_field(raw, what)
    if len(values) != n:
        raise InvalidStateError(
            _(
                "{what} must have one entry per seat ({n}), not {count}",
                what=what,
                n=n,
                count=len(values),
            )
        )
    return values


def _object(value: Any, what: Any, keys: tuple[str, ...]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping) or set(value) != set(keys):
        raise InvalidStateError(
            _("{what} must be an object with {keys}", what=what, keys=", ".join(keys))
        )
    return value


class _Position:
    """The parsed fields, checked one group after another (see the module)."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        data = position_fields(data, FIELDS, (f for f in FIELDS if f not in OPTIONAL))
        if data.get("game", "poch") != "poch":
            raise InvalidStateError(
                _('a Poch position has game "poch", not {game}', game=as_json(data.get("game")))
            )
        if data.get("result") is not None:
            raise InvalidStateError(_("the game is over: there is no move to make"))
        self.data = data
        self._read_table()
        self._read_cards()

    # -- reading ----------------------------------------------------------------------

    def _read_table(self) -> None:
        data = self.data
        raw_rules = data["rules"]
        if not isinstance(raw_rules, Mapping):
            raise InvalidStateError(_("the rules are not valid: {why}", why=as_json(raw_rules)))
        try:
            self.rules = Rules.from_dict(dict(raw_rules))
        except InvalidRulesError as exc:
            raise InvalidStateError(_("the rules are not valid: {why}", why=exc.message)) from exc
        except TypeError as exc:
            raise InvalidStateError(_("the rules are not valid: {why}", why=str(exc))) from exc
        n = self.n = self.rules.players
        raw_you = data["you"]
        with_legal = isinstance(raw_you, Mapping) and "legal" in raw_you
        you = _object(raw_you, "you", ("seat", "hand", "legal") if with_legal else ("seat", "hand"))
        self.seat = seat_field(you["seat"], "you.seat", n)
        self.raw_hand = list_field(you["hand"], "you.hand")
        self.raw_legal = you.get("legal")
        self.deal = int_field(data["deal"], "deal")
        if not 1 <= self.deal <= self.rules.deal_count:
            raise InvalidStateError(
                _(
                    "deal must be from 1 to {deals} (the rules' deals), not {deal}",
                    deals=self.rules.deal_count,
                    deal=self.deal,
                )
            )
        self.dealer = seat_field(data["dealer"], "dealer", n)
        phase = data["phase"]
        if phase == "over":
            raise InvalidStateError(_("the game is over: there is no move to make"))
        if phase not in PHASES:
            raise InvalidStateError(
                _(
                    "phase must be betting, starting or choosing (a decision), not {phase}",
                    phase=as_json(phase),
                )
            )
        self.phase: str = phase
        if data["turn"] is None:
            raise InvalidStateError(_("nobody is to move (turn is null)"))
        self.turn = seat_field(data["turn"], "turn", n)
        if self.turn != self.seat:
            raise InvalidStateError(
                _(
                    "it is seat {turn}'s turn, not seat {seat}'s: send the position of the seat "
                    "to move",
                    turn=self.turn,
                    seat=self.seat,
                )
            )
        self.chips = [_count(c, "chips") for c in _per_seat(data["chips"], "chips", n)]
        self.active = []
        for value in _per_seat(data["active"], "active", n):
            if not isinstance(value, bool):
                raise InvalidStateError(
                    _("active must hold true or false, not {value}", value=as_json(value))
                )
            self.active.append(value)
        plates = data["plates"]
        if not isinstance(plates, Mapping) or set(plates) != set(PLATES):
            raise InvalidStateError(
                _("plates must be an object with {keys}", keys=", ".join(PLATES))
            )
        self.plates = {p: _count(plates[p], f"plates.{p}") for p in PLATES}
        self.pot = _count(data["pot"], "pot")
        self.trump = _suit_of(data["trump"], "trump")
        self.sizes = [
            _count(c, "hand_sizes") for c in _per_seat(data["hand_sizes"], "hand_sizes", n)
        ]

    def _read_cards(self) -> None:
        data, n = self.data, self.n
        self.hand: list[Card] = []
        for code in self.raw_hand:
            c = _card_of(code, "you.hand")
            if c in self.hand:
                raise InvalidStateError(_("the hand holds {card} twice", card=card_code(c)))
            self.hand.append(c)
        self.played: list[tuple[int, Card]] = []
        for i, entry in enumerate(list_field(data["played"], "played"), start=1):
            if not isinstance(entry, list) or len(entry) != 2:
                raise InvalidStateError(_("played {i} must be a pair [seat, card]", i=i))
            who = seat_field(entry[0], _("the seat of played {i}", i=i), n)
            c = _card_of(entry[1], _("played {i}", i=i))
            if any(c == d for _s, d in self.played):
                raise InvalidStateError(_("{card} is played twice", card=card_code(c)))
            self.played.append((who, c))
        self.collected: list[tuple[int, str, list[Card], int]] = []
        for i, raw in enumerate(list_field(data["collected"], "collected"), start=1):
            entry = _object(raw, _("collected {i}", i=i), ("seat", "plate", "cards", "chips"))
            who = seat_field(entry["seat"], _("the seat of collected {i}", i=i), n)
            plate = entry["plate"]
            if plate not in PLATES or plate == "pocher":
                raise InvalidStateError(
                    _(
                        "collected {i}: {plate} is not a plate won by honours",
                        i=i,
                        plate=as_json(plate),
                    )
                )
            where = _("collected {i}", i=i)
            cards = [_card_of(c, where) for c in list_field(entry["cards"], "cards")]
            chips = _count(entry["chips"], _("the chips of collected {i}", i=i))
            self.collected.append((who, plate, cards, chips))
        self.bets: list[tuple[int, str, int]] = []
        for i, raw in enumerate(list_field(data["bets"], "bets"), start=1):
            entry = _object(raw, _("bet {i}", i=i), ("seat", "call", "amount"))
            who = seat_field(entry["seat"], _("the seat of bet {i}", i=i), n)
            call = entry["call"]
            if call not in CALLS:
                raise InvalidStateError(
                    _(
                        "bet {i}: the call must be pass, bet, hold or raise, not {call}",
                        i=i,
                        call=as_json(call),
                    )
                )
            self.bets.append((who, call, _count(entry["amount"], _("the amount of bet {i}", i=i))))
        showdown = data["showdown"]
        if not isinstance(showdown, Mapping):
            raise InvalidStateError(_("showdown must be an object: each seat's set by seat"))
        self.showdown: dict[int, list[Card]] = {}
        for key, raw in showdown.items():
            if not isinstance(key, str) or not (key.isascii() and key.isdigit()):
                raise InvalidStateError(_("showdown: {key} is not a seat", key=as_json(key)))
            who = seat_field(int(key), "showdown", n)
            if who in self.showdown:
                raise InvalidStateError(_("showdown names seat {seat} twice", seat=who))
            cards = [_card_of(c, "showdown") for c in list_field(raw, "showdown")]
            if len(set(cards)) != len(cards):
                raise InvalidStateError(_("seat {seat} showed a card twice", seat=who))
            self.showdown[who] = sorted(cards)
        starter = data["starter"]
        self.starter = None if starter is None else seat_field(starter, "starter", n)
        direction = data["direction"]
        if direction not in (None, "up", "down"):
            raise InvalidStateError(
                _("direction must be up, down or null, not {value}", value=as_json(direction))
            )
        self.direction: str | None = direction
        suit = data["suit"]
        self.suit = None if suit is None else _suit_of(suit, "suit")
        self.suits_done = [
            _suit_of(s, "suits_done") for s in list_field(data["suits_done"], "suits_done")
        ]
        if len(set(self.suits_done)) != len(self.suits_done):
            raise InvalidStateError(_("suits_done names a suit twice"))
        self.deal_results = self._deal_results(data.get("deal_results"))

    def _deal_results(self, raw: Any) -> list[dict[str, Any]]:
        if raw is None:
            return []
        results = list_field(raw, "deal_results")
        if len(results) != self.deal - 1:
            raise InvalidStateError(
                _(
                    "deal_results must have one entry per finished deal ({deals}), not {count}",
                    deals=self.deal - 1,
                    count=len(results),
                )
            )
        out = []
        for i, raw_entry in enumerate(results, start=1):
            entry = _object(raw_entry, _("deal_results {i}", i=i), ("deal", "winner", "paid"))
            if entry["deal"] != i:
                raise InvalidStateError(_("deal_results {i} must be deal {i}", i=i))
            winner = seat_field(entry["winner"], "deal_results", self.n)
            paid = entry["paid"]
            if not isinstance(paid, Mapping) or not all(
                isinstance(key, str) and key.isascii() and key.isdigit() for key in paid
            ):
                raise InvalidStateError(
                    _("deal_results {i}: paid must be the chips paid by seat", i=i)
                )
            clean = {}
            for key, value in paid.items():
                seat_field(int(key), "deal_results", self.n)
                clean[key] = _count(value, "deal_results")
            out.append({"deal": i, "winner": winner, "paid": clean})
        return out

    # -- checking ---------------------------------------------------------------------

    def check(self) -> Observation:
        self._check_table()
        self._check_cards()
        self._check_collected()
        self._check_bets()
        self._check_showdown()
        self._check_plates()
        self._check_shedding()
        self._check_hidden()
        legal = self._legal()
        self._check_legal(legal)
        return Observation(
            seat=self.seat,
            rules=self.rules.to_dict(),
            deal=self.deal,
            dealer=self.dealer,
            phase=self.phase,
            turn=self.turn,
            chips=tuple(self.chips),
            active=tuple(self.active),
            plates=dict(self.plates),
            pot=self.pot,
            trump=SUITS[self.trump],
            hand=tuple(sorted(self.hand)),
            hand_sizes=tuple(self.sizes),
            collected=tuple(
                {"seat": s, "plate": p, "cards": codes(cs), "chips": chips}
                for s, p, cs, chips in self.collected
            ),
            bets=tuple({"seat": s, "call": c, "amount": a} for s, c, a in self.bets),
            showdown={s: tuple(self.showdown[s]) for s in self.order if s in self.showdown},
            starter=self.starter,
            direction=self.direction,
            suit=None if self.suit is None else SUITS[self.suit],
            suits_done=tuple(SUITS[s] for s in self.suits_done),
            played=tuple(self.played),
            deal_results=tuple(self.deal_results),
            legal_actions=tuple(legal),
            result=None,
        )

    def _check_table(self) -> None:
        n, rules = self.n, self.rules
        total = sum(self.chips) + sum(self.plates.values()) + self.pot
        if total != n * rules.chips:
            raise InvalidStateError(
                _(
                    "the chips do not add up: {total} in hands, on the plates and in the pot, but "
                    "{players} players started with {chips} each ({start})",
                    total=total,
                    players=n,
                    chips=rules.chips,
                    start=n * rules.chips,
                )
            )
        need = len(PLATES) * rules.ante
        self.order = [s for s in ((self.dealer + 1 + k) % n for k in range(n)) if self.active[s]]
        m = self.m = len(self.order)
        if m < 2:
            raise InvalidStateError(
                _("a deal needs two players at the table, not {count}", count=m)
            )
        if not self.active[self.dealer]:
            raise InvalidStateError(
                _("the dealer, seat {seat}, is not at the table", seat=self.dealer)
            )
        if not self.active[self.seat]:
            raise InvalidStateError(
                _("seat {seat} is not at the table (active is false)", seat=self.seat)
            )
        for s in range(n):
            if not self.active[s] and self.chips[s] >= need:
                raise InvalidStateError(
                    _(
                        "seat {seat} left the game but has {chips} chips: a player leaves only "
                        "when they cannot pay the ante of {need}",
                        seat=s,
                        chips=self.chips[s],
                        need=need,
                    )
                )
            if not self.active[s] and self.sizes[s]:
                raise InvalidStateError(
                    ngettext(
                        "seat {seat} is not at the table but holds {n} card",
                        "seat {seat} is not at the table but holds {n} cards",
                        self.sizes[s],
                        seat=s,
                    )
                )
            if self.active[s] and not self.sizes[s]:
                raise InvalidStateError(
                    _("seat {seat} holds no cards: the deal would be over", seat=s)
                )
        if len(self.hand) != self.sizes[self.seat]:
            raise InvalidStateError(
                ngettext(
                    "the hand has {n} card but hand_sizes gives seat {seat} {size}",
                    "the hand has {n} cards but hand_sizes gives seat {seat} {size}",
                    len(self.hand),
                    seat=self.seat,
                    size=self.sizes[self.seat],
                )
            )
        # The deal: 32 cards one at a time from Vorhand; the first 32 mod m get one more.
        self.dealt = [0] * n
        for i, s in enumerate(self.order):
            self.dealt[s] = NUM_CARDS // m + (1 if i < NUM_CARDS % m else 0)

    def _check_cards(self) -> None:
        """Every card in one place only, and each seat's counts."""
        n = self.n
        self.played_by: list[set[Card]] = [set() for _ in range(n)]
        for who, c in self.played:
            if not self.active[who]:
                raise InvalidStateError(
                    _(
                        "seat {seat} is not at the table but played {card}",
                        seat=who,
                        card=card_code(c),
                    )
                )
            if c in self.hand:
                raise InvalidStateError(
                    _(
                        "{card} is in the hand and also played by seat {seat}",
                        card=card_code(c),
                        seat=who,
                    )
                )
            self.played_by[who].add(c)
        player_of = {c: s for s, c in self.played}
        self.shown: list[set[Card]] = [set() for _ in range(n)]
        shower: dict[Card, int] = {}
        sources = [(s, cs) for s, _p, cs, _c in self.collected] + list(self.showdown.items())
        for who, cards in sources:
            if not self.active[who]:
                raise InvalidStateError(
                    _("seat {seat} is not at the table but showed cards", seat=who)
                )
            for c in cards:
                if shower.get(c, who) != who:
                    raise InvalidStateError(
                        _(
                            "{card} was shown by seat {first} and by seat {second}",
                            card=card_code(c),
                            first=shower[c],
                            second=who,
                        )
                    )
                shower[c] = who
                if c in player_of and player_of[c] != who:
                    raise InvalidStateError(
                        _(
                            "{card} was shown by seat {seat} but played by seat {other}",
                            card=card_code(c),
                            seat=who,
                            other=player_of[c],
                        )
                    )
                if who == self.seat and c not in self.hand and c not in player_of:
                    raise InvalidStateError(
                        _(
                            "seat {seat} showed {card} but neither holds it nor played it",
                            seat=who,
                            card=card_code(c),
                        )
                    )
                if who != self.seat and c in self.hand:
                    raise InvalidStateError(
                        _(
                            "{card} is in the hand but was shown by seat {seat}",
                            card=card_code(c),
                            seat=who,
                        )
                    )
                self.shown[who].add(c)
        for s in self.order:
            played = len(self.played_by[s])
            if self.sizes[s] + played != self.dealt[s]:
                raise InvalidStateError(
                    ngettext(
                        "seat {seat} holds {n} card and played {played}, but was dealt "
                        "{dealt} (32 cards among {players} players, one at a time from seat "
                        "{first})",
                        "seat {seat} holds {n} cards and played {played}, but was dealt "
                        "{dealt} (32 cards among {players} players, one at a time from seat "
                        "{first})",
                        self.sizes[s],
                        seat=s,
                        played=played,
                        dealt=self.dealt[s],
                        players=self.m,
                        first=self.order[0],
                    )
                )
            held = self.shown[s] - self.played_by[s]
            if len(held) > self.sizes[s]:
                raise InvalidStateError(
                    ngettext(
                        "seat {seat} holds {n} card but showed {shown} that it has not played",
                        "seat {seat} holds {n} cards but showed {shown} that it has not played",
                        self.sizes[s],
                        seat=s,
                        shown=len(held),
                    )
                )
        # Each seat's dealt cards known to the seat: its own all, the others' shown and played.
        self.known = [self.shown[s] | self.played_by[s] for s in range(n)]
        self.known[self.seat] = set(self.hand) | self.played_by[self.seat]

    def _check_collected(self) -> None:
        ante_all = self.rules.ante * self.m
        taken = {plate: (seat, cards, chips) for seat, plate, cards, chips in self.collected}
        order = [plate for plate, _ranks in HONOURS if plate in taken]
        if [plate for _s, plate, _c, _ch in self.collected] != order:
            raise InvalidStateError(
                _(
                    "collected must list each plate once, in the order ace, king, queen, jack, "
                    "ten, marriage, sequence"
                )
            )
        for plate, ranks in HONOURS:
            needed = sorted(card(self.trump, r) for r in ranks)
            if plate not in taken:
                if plate in SINGLE_HONOURS:
                    raise InvalidStateError(
                        _(
                            "nobody took the {plate} plate, but all 32 cards are dealt: someone "
                            "holds {card} and shows it",
                            plate=plate,
                            card=card_code(needed[0]),
                        )
                    )
                continue
            _seat_taken, cards, chips = taken[plate]
            if sorted(cards) != needed:
                raise InvalidStateError(
                    _(
                        "the {plate} plate is won by showing {cards}, not {shown}",
                        plate=plate,
                        cards=" ".join(codes(needed)),
                        shown=" ".join(codes(cards)),
                    )
                )
            if plate in SINGLE_HONOURS and chips != ante_all:
                raise InvalidStateError(
                    _(
                        "the {plate} plate held {chips} chips (the ante of {players} players), "
                        "not {given}",
                        plate=plate,
                        chips=ante_all,
                        players=self.m,
                        given=chips,
                    )
                )
            if plate not in SINGLE_HONOURS and chips < ante_all:
                raise InvalidStateError(
                    _(
                        "the {plate} plate held at least {chips} chips (the ante of {players} "
                        "players), not {given}",
                        plate=plate,
                        chips=ante_all,
                        players=self.m,
                        given=chips,
                    )
                )
        king, queen = taken["king"][0], taken["queen"][0]
        if (king == queen) != ("marriage" in taken) or (
            "marriage" in taken and taken["marriage"][0] != king
        ):
            raise InvalidStateError(
                _(
                    "the marriage plate goes with the trump king and queen in one hand: seat "
                    "{king} showed the king and seat {queen} the queen",
                    king=king,
                    queen=queen,
                )
            )
        if "sequence" not in taken:
            seq = {card(self.trump, r) for r in (SEVEN, EIGHT, NINE)}
            for s in self.order:
                if seq <= self.known[s]:
                    raise InvalidStateError(
                        _(
                            "seat {seat} was dealt {cards} but did not take the sequence plate",
                            seat=s,
                            cards=" ".join(codes(seq)),
                        )
                    )
        self.taken = taken

    def _check_bets(self) -> None:
        m = self.m
        if self.phase == "betting":
            if len(self.bets) >= m:
                raise InvalidStateError(
                    _(
                        "every player at the table has bet ({count}): the betting is over",
                        count=len(self.bets),
                    )
                )
            if self.turn != self.order[len(self.bets)]:
                raise InvalidStateError(
                    ngettext(
                        "after {n} call it is seat {seat}'s turn to bet",
                        "after {n} calls it is seat {seat}'s turn to bet",
                        len(self.bets),
                        seat=self.order[len(self.bets)],
                    )
                )
        elif len(self.bets) != m:
            raise InvalidStateError(
                _(
                    "the betting goes once round the {players} players at the table, so it has "
                    "{players} calls, not {count}",
                    players=m,
                    count=len(self.bets),
                )
            )
        top = 0
        for i, (who, call, amount) in enumerate(self.bets, start=1):
            if who != self.order[i - 1]:
                raise InvalidStateError(
                    _(
                        "bet {i} is seat {seat}'s: the round goes from seat {first} to the dealer",
                        i=i,
                        seat=self.order[i - 1],
                        first=self.order[0],
                    )
                )
            fits = {
                "pass": amount == 0,
                "bet": top == 0 and amount >= 1,
                "hold": top > 0 and amount == top,
                "raise": top > 0 and amount > top,
            }[call]
            if not fits:
                raise InvalidStateError(
                    ngettext(
                        "bet {i}: {call} with {n} chip after a highest bet of {top}",
                        "bet {i}: {call} with {n} chips after a highest bet of {top}",
                        amount,
                        i=i,
                        call=call,
                        top=top,
                    )
                )
            top = max(top, amount)
        self.top = top

    def _check_showdown(self) -> None:
        held = self.phase != "betting" and self.top > 0
        if not held:
            if self.showdown:
                raise InvalidStateError(
                    _("there is a showdown only once the betting is over and someone bet")
                )
            if self.starter is not None:
                raise InvalidStateError(
                    _("without a showdown nobody won the betting: starter is null")
                )
            return
        keys: dict[int, SetKey] = {}
        for s, cards in self.showdown.items():
            found = best_set(cards, self.trump)
            if found is None or found[1] != cards:
                raise InvalidStateError(
                    _(
                        "seat {seat} showed {cards}, which is not a set (two to four cards of a "
                        "rank)",
                        seat=s,
                        cards=" ".join(codes(cards)),
                    )
                )
            keys[s] = found[0]
        for s in self.order:
            known = self.known[s]
            if s == self.seat:
                mine = best_set(known, self.trump)
                if (None if mine is None else mine[1]) != self.showdown.get(s):
                    raise InvalidStateError(
                        _(
                            "at the showdown seat {seat} shows its best set, {cards}",
                            seat=s,
                            cards="-" if mine is None else " ".join(codes(mine[1])),
                        )
                    )
                continue
            counts = [0] * 8
            for c in known:
                counts[rank_of(c)] += 1
            for r in range(8):
                if counts[r] > self._set_cap(s, r):
                    raise InvalidStateError(
                        _(
                            "seat {seat} showed {shown} at the showdown, but its cards {cards} "
                            "make a better set",
                            seat=s,
                            shown=" ".join(codes(self.showdown.get(s, []))) or "-",
                            cards=" ".join(codes(c for c in known if rank_of(c) == r)),
                        )
                    )
        best = max(keys, key=lambda s: keys[s]) if keys else None
        if self.starter != best:
            raise InvalidStateError(
                _(
                    "the best set at the showdown is seat {best}'s, so the starter is {best}, not "
                    "{starter}",
                    best="-" if best is None else best,
                    starter="-" if self.starter is None else self.starter,
                )
            )

    def _set_cap(self, s: int, r: int) -> int:
        """How many cards of rank ``r`` seat ``s`` can have been dealt, from the showdown."""
        if self.phase == "betting" or self.top == 0 or s == self.seat:
            return 4
        shown = self.showdown.get(s)
        if not shown:
            return 1
        size, rank = len(shown), rank_of(shown[0])
        return size if r <= rank else size - 1

    def _check_plates(self) -> None:
        ante_all = self.rules.ante * self.m
        for plate in SINGLE_HONOURS:
            if self.plates[plate]:
                raise InvalidStateError(
                    ngettext(
                        "the {plate} plate holds {n} chip, but its honour was shown and the "
                        "plate taken this deal",
                        "the {plate} plate holds {n} chips, but its honour was shown and the "
                        "plate taken this deal",
                        self.plates[plate],
                        plate=plate,
                    )
                )
        for plate in ("marriage", "sequence"):
            if plate in self.taken and self.plates[plate]:
                raise InvalidStateError(
                    ngettext(
                        "the {plate} plate holds {n} chip, but its honour was shown and the "
                        "plate taken this deal",
                        "the {plate} plate holds {n} chips, but its honour was shown and the "
                        "plate taken this deal",
                        self.plates[plate],
                        plate=plate,
                    )
                )
            if plate not in self.taken and self.plates[plate] < ante_all:
                raise InvalidStateError(
                    ngettext(
                        "the {plate} plate holds {n} chip, less than this deal's ante of {ante}",
                        "the {plate} plate holds {n} chips, less than this deal's ante of {ante}",
                        self.plates[plate],
                        plate=plate,
                        ante=ante_all,
                    )
                )
        paid = sum(a for _s, _c, a in self.bets)
        if self.starter is not None:
            if self.plates["pocher"] or self.pot:
                raise InvalidStateError(
                    _(
                        "seat {seat} won the showdown and took the pot and the pocher plate, "
                        "but they hold {pot} and {pocher} chips",
                        seat=self.starter,
                        pot=self.pot,
                        pocher=self.plates["pocher"],
                    )
                )
        else:
            if self.plates["pocher"] < ante_all:
                raise InvalidStateError(
                    ngettext(
                        "the {plate} plate holds {n} chip, less than this deal's ante of {ante}",
                        "the {plate} plate holds {n} chips, less than this deal's ante of {ante}",
                        self.plates["pocher"],
                        plate="pocher",
                        ante=ante_all,
                    )
                )
            if self.pot < paid:
                raise InvalidStateError(
                    ngettext(
                        "the pot holds {n} chip, less than the {paid} bet this deal",
                        "the pot holds {n} chips, less than the {paid} bet this deal",
                        self.pot,
                        paid=paid,
                    )
                )

    def _check_shedding(self) -> None:
        first = self.starter if self.starter is not None else self.order[0]
        around = [s for s in ((first + k) % self.n for k in range(self.n)) if self.active[s]]
        self.skipped: list[int] = []
        if self.phase == "betting":
            if self.played or self.suits_done or self.direction or self.suit is not None:
                raise InvalidStateError(
                    _(
                        "nothing is shed while betting: played, suits_done, direction and suit "
                        "are empty"
                    )
                )
            return
        if self.suit is not None:
            raise InvalidStateError(
                _("a suit runs by itself: at a decision no suit is running (suit is null)")
            )
        if self.phase == "starting":
            if self.played or self.suits_done or self.direction:
                raise InvalidStateError(
                    _(
                        "nothing is shed before the start card: played, suits_done and direction "
                        "are empty"
                    )
                )
            opener = self.turn
            if not any(rank_of(c) in (SEVEN, ACE) for c in self.hand):
                raise InvalidStateError(
                    _(
                        "seat {seat} holds no 7 and no ace, so it cannot start the shedding",
                        seat=self.seat,
                    )
                )
        else:
            if not 1 <= len(self.suits_done) <= 2:
                raise InvalidStateError(
                    _(
                        "a suit is chosen after one or two suits are shed (the last one runs by "
                        "itself), not after {count}",
                        count=len(self.suits_done),
                    )
                )
            start = self.played[0][1] if self.played else None
            if start is None or rank_of(start) not in (SEVEN, ACE):
                raise InvalidStateError(_("the shedding starts with a 7 or an ace"))
            up = rank_of(start) == SEVEN
            if self.direction != ("up" if up else "down"):
                raise InvalidStateError(
                    _(
                        "the start card {card} sets the direction {direction}",
                        card=card_code(start),
                        direction="up" if up else "down",
                    )
                )
            ranks = list(range(8)) if up else list(range(7, -1, -1))
            expected = [card(s, r) for s in self.suits_done for r in ranks]
            got = [c for _s, c in self.played]
            if got != expected:
                raise InvalidStateError(
                    _(
                        "the cards played are not the suits {suits} run in full, {direction}, "
                        "in that order",
                        suits=" ".join(SUITS[s] for s in self.suits_done),
                        direction="up" if up else "down",
                    )
                )
            opener = self.played[0][0]
            if self.turn != self.played[-1][0]:
                raise InvalidStateError(
                    _(
                        "the next suit is chosen by who played the last card, seat {seat}",
                        seat=self.played[-1][0],
                    )
                )
        self.skipped = around[: around.index(opener)]
        for s in self.skipped:
            for c in self.known[s]:
                if rank_of(c) in (SEVEN, ACE):
                    raise InvalidStateError(
                        _(
                            "seat {seat} was dealt {card}, so the shedding starts with seat "
                            "{seat}, not seat {opener}",
                            seat=s,
                            card=card_code(c),
                            opener=opener,
                        )
                    )

    def _check_hidden(self) -> None:
        """Whether the unseen cards can be dealt to the others within what the seat knows."""
        others = [s for s in self.order if s != self.seat]
        known = set().union(*self.known)
        unseen = [c for c in range(NUM_CARDS) if c not in known]
        room = {s: self.sizes[s] - len(self.shown[s] - self.played_by[s]) for s in others}
        caps = {}
        for s in others:
            caps[s] = [
                self._set_cap(s, r) - sum(1 for c in self.known[s] if rank_of(c) == r)
                for r in range(8)
            ]
            if s in self.skipped:
                caps[s][SEVEN] = caps[s][ACE] = 0
        if sum(room.values()) != len(unseen):
            raise InvalidStateError(
                _(
                    "the other seats hold {room} nobody has seen, but {unseen}",
                    room=ngettext("{n} card", "{n} cards", sum(room.values())),
                    unseen=ngettext("{n} card is unseen", "{n} cards are unseen", len(unseen)),
                )
            )
        # The only trumps that can be unseen are the 7, 8 and 9 (the honours are shown);
        # they decide whether the dealer got a trump and whether someone had the sequence.
        special = [c for c in unseen if suit_of(c) == self.trump]
        rest = [c for c in unseen if c not in special]
        dealer_needs = not any(suit_of(c) == self.trump for c in self.known[self.dealer])
        seq = {card(self.trump, r) for r in (SEVEN, EIGHT, NINE)}
        no_sequence = "sequence" not in self.taken
        tried: set[tuple[tuple[int, ...], ...]] = set()  # the room and caps already tried
        for seats in itertools.product(others, repeat=len(special)):
            got = {s: [c for c, t in zip(special, seats, strict=True) if t == s] for s in others}
            if dealer_needs and not got.get(self.dealer):
                continue
            if no_sequence and any(seq <= self.known[s] | set(got[s]) for s in others):
                continue
            left_room = {s: room[s] - len(got[s]) for s in others}
            left_caps = {s: list(caps[s]) for s in others}
            for s in others:
                for c in got[s]:
                    left_caps[s][rank_of(c)] -= 1
            if any(v < 0 for v in left_room.values()) or any(
                v < 0 for cs in left_caps.values() for v in cs
            ):
                continue
            state = tuple((left_room[s], *left_caps[s]) for s in others)
            if state not in tried:
                tried.add(state)
                if _fits(rest, left_room, left_caps):
                    return
        raise InvalidStateError(
            _(
                "no deal of the unseen cards agrees with the position (the card counts, the sets "
                "shown, the dealer's trump, the sequence, the start)"
            )
        )

    def _legal(self) -> list[Action]:
        if self.phase == "betting":
            have = self.chips[self.seat]
            acts = [PASS]
            if 0 < self.top <= have:
                acts.append(HOLD)
            acts.extend(bet_action(a) for a in range(self.top + 1, have + 1))
            return acts
        if self.phase == "starting":
            return sorted(c for c in self.hand if rank_of(c) in (SEVEN, ACE))
        return [SUIT_BASE + s for s in range(4) if s not in self.suits_done]

    def _check_legal(self, legal: list[Action]) -> None:
        if self.raw_legal is None:
            return
        given = list_field(self.raw_legal, "you.legal")
        try:
            sent = sorted(action_from_wire(a) for a in given)
        except GameError as exc:
            raise InvalidStateError(
                _("{where}: {why}", where="you.legal", why=exc.message)
            ) from exc
        if sent != sorted(legal):
            raise InvalidStateError(
                _(
                    "you.legal does not match the position: the legal actions are {legal}",
                    legal=", ".join(str(action_to_wire(a)) for a in legal),
                )
            )


def _fits(cards: list[Card], room: dict[int, int], caps: dict[int, list[int]]) -> bool:
    """Whether ``cards`` can go to the seats within their room and per-rank caps (a flow
    from the ranks to the seats)."""
    need = [0] * 8
    for c in cards:
        need[rank_of(c)] += 1
    if sum(need) != sum(room.values()):
        return False
    seats = list(room)
    flow = {(r, s): 0 for r in range(8) for s in seats}
    into = dict.fromkeys(seats, 0)
    for r in range(8):
        for _card in range(need[r]):
            if not _augment(r, seats, flow, into, room, caps, set()):
                return False
    return True


def _augment(
    r: int,
    seats: list[int],
    flow: dict[tuple[int, int], int],
    into: dict[int, int],
    room: dict[int, int],
    caps: dict[int, list[int]],
    seen: set[int],
) -> bool:
    """One more card of rank ``r`` placed, moving others along an augmenting path."""
    for s in seats:
        if s in seen or flow[(r, s)] >= caps[s][r]:
            continue
        seen.add(s)
        if into[s] < room[s]:
            flow[(r, s)] += 1
            into[s] += 1
            return True
        # The seat is full: move one of its cards of another rank elsewhere.
        for r2 in range(8):
            if r2 != r and flow[(r2, s)] > 0 and _augment(r2, seats, flow, into, room, caps, seen):
                flow[(r2, s)] -= 1
                flow[(r, s)] += 1
                # into[s] unchanged: one out, one in; the other seat's into grew.
                return True
    return False


def position_from_dict(data: Mapping[str, Any]) -> Observation:
    """The observation of ``data["you"]["seat"]`` in the Poch position ``data`` describes;
    ``InvalidStateError`` with a sentence for anything impossible (see the module)."""
    return _Position(data).check()


def position_of(obs: Observation) -> dict[str, Any]:
    """The position of a seat's observation, as a client sends it: the seat's view's fields
    (``engine.poch.view.view``) without the envelope. The inverse of
    ``position_from_dict``."""
    if obs.seat is None or obs.hand is None:
        raise ValueError("a spectator has no position to decide from")
    view = obs.to_dict()
    del view["format"], view["seat"]
    hand = view.pop("hand")
    legal = view.pop("legal_actions")
    view["you"] = {"seat": obs.seat, "hand": hand, "legal": legal}
    return view
