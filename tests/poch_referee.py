"""An independent referee of Poch: it checks a game's public events, step by step, against
the rule book and the engine's written decisions (docs/poch.md, "The rules" and "Decided
here"), knowing the hands as dealt.

It is test support, written from those two texts and nothing else: it imports neither
`engine.poch` nor `ai.poch`, so it has its own card codes, set ranking, plate rules, betting
legality, payouts and shedding order, and a bug in the engine cannot hide in a shared helper.
Feed it the rules (`PochReferee(rules)`), the hands of each deal as dealt (`deal_hands`, from
the seats' views: a hand now plus what the seat has played in the deal), and every event
in order (`event`/`events`; the table's own events, such as `seat_taken`, are skipped);
`check_view` compares a seat's or the spectator's view with what the referee worked out.
Any disagreement raises `RefereeError`, an AssertionError that names the step (the deal and
the event) and the rule broken.

A hand it was not given (a bot's seat the test could not see) is worked out as the
complement of the others when it is the only one missing; otherwise the referee checks
what the public information allows (the deal's card counts, the shown cards, the suit
order, the payouts from the counts) and counts the deal in `blind_deals`, so that a test
can require that most deals were checked in full.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

SUITS = ("C", "S", "H", "D")
# Low to high: the upward shedding order, and the order of ranks in the betting.
RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
DECK = frozenset(s + r for s in SUITS for r in RANKS)
PLATES = ("ace", "king", "queen", "jack", "ten", "marriage", "sequence", "pocher")
# The plates the trump cards win while collecting (docs/poch.md, A deal 4).
HONOURS: dict[str, tuple[str, ...]] = {
    "ace": ("A",),
    "king": ("K",),
    "queen": ("Q",),
    "jack": ("J",),
    "ten": ("10",),
    "marriage": ("K", "Q"),
    "sequence": ("7", "8", "9"),
}
BET_CALLS = ("pass", "bet", "hold", "raise")
# Events the service adds for the table (who sits where): not the rules' business.
TABLE_EVENTS = frozenset(
    {
        "seat_taken",
        "game_started",
        "seat_bot",
        "seat_opened",
        "seat_away",
        "seat_back",
        "seat_left",
        "rematch",
    }
)


class RefereeError(AssertionError):
    """The stream broke a rule: `step` says where, `rule` which (docs/poch.md's section)."""

    def __init__(self, step: str, rule: str, message: str) -> None:
        super().__init__(f"{step}: {message} [rule: {rule}]")
        self.step = step
        self.rule = rule


def rank_of(code: str) -> int:
    return RANKS.index(code[1:])


def suit_of(code: str) -> str:
    return code[0]


def card(suit: str, rank: int) -> str:
    return suit + RANKS[rank]


def is_card(code: object) -> bool:
    return isinstance(code, str) and code in DECK


SetKey = tuple[int, int, bool]


def set_key(cards: Iterable[str], trump: str) -> SetKey:
    """A set's place (docs/poch.md, A deal 5): size first, then rank, then the trump card of the
    rank (two pairs of one rank)."""
    cs = list(cards)
    rank = rank_of(cs[0])
    return (len(cs), rank, card(trump, rank) in cs)


def best_set(hand: Iterable[str], trump: str) -> list[str] | None:
    """A hand's highest set (two to four cards of one rank), or None."""
    by_rank: dict[int, list[str]] = {}
    for c in hand:
        by_rank.setdefault(rank_of(c), []).append(c)
    sets = [sorted(cs) for cs in by_rank.values() if len(cs) >= 2]
    return max(sets, key=lambda cs: set_key(cs, trump)) if sets else None


def deal_sizes(players: int) -> list[int]:
    """Cards per player from Vorhand round: 32 over the players, the first 32 mod n one more
    (docs/poch.md, A deal 2, decided)."""
    base, extra = divmod(32, players)
    return [base + (1 if i < extra else 0) for i in range(players)]


@dataclass
class Deal:
    """What the referee knows of the deal being played."""

    number: int
    dealer: int
    order: list[int]  # the active seats from Vorhand round to the dealer
    counts: dict[int, int] = field(default_factory=dict)
    trump: str = ""
    dealt: dict[int, frozenset[str]] = field(default_factory=dict)  # known hands as dealt
    left: dict[int, set[str]] = field(default_factory=dict)  # known hands now
    remaining: dict[int, int] = field(default_factory=dict)  # cards held now, every seat
    shown: dict[str, int] = field(default_factory=dict)  # card -> seat, shown publicly
    collected: dict[str, int] = field(default_factory=dict)  # plate -> seat
    bets: list[tuple[int, str, int]] = field(default_factory=list)
    showdown: dict[int, list[str]] = field(default_factory=dict)
    bidder: int | None = None
    best: int | None = None
    winner: int | None = None  # who won the betting (took the pot)
    first: int = 0  # where the search for the starter begins
    starter: int | None = None
    direction: int = 0  # +1 up, -1 down
    suit: str | None = None
    next_card: str | None = None  # the card that must be played next, when forced
    chooser: int | None = None
    suits_done: list[str] = field(default_factory=list)
    played: list[tuple[int, str]] = field(default_factory=list)

    @property
    def blind(self) -> bool:
        return len(self.dealt) < len(self.order)


class PochReferee:
    """Checks a Poch game's events one by one; see the module's paragraph."""

    def __init__(self, rules: Mapping[str, Any]) -> None:
        # docs/poch.md (Material, The game): the options and their defaults; two deals per player.
        self.players = int(rules["players"])
        self.start_chips = int(rules.get("chips", 50))
        self.ante = int(rules.get("ante", 1))
        deals = rules.get("deals")
        self.deals = 2 * self.players if deals is None else int(deals)
        self.chips = [self.start_chips] * self.players
        self.active = [True] * self.players
        self.plates = dict.fromkeys(PLATES, 0)
        self.pot = 0
        self.total = self.start_chips * self.players
        self.deal_no = 0
        self.dealer: int | None = None
        self.deal: Deal | None = None
        self.deal_results: list[dict[str, Any]] = []
        self.result: dict[str, Any] | None = None
        # What the next event must be: "opening" (leaves, then an ante or the end), "deal",
        # "collecting" (collects, then the first bet), "betting", "settling" (no_bet or the
        # showdown), "no_set", "verdict" (a bluff or the pot taken), "take_pot", "starting",
        # "start_card", "running", "choosing", "deal_won", "over".
        self.expect = "opening"
        self.leaving: set[int] = set()
        self._hands: dict[int, dict[int, frozenset[str]]] = {}
        self.events_checked = 0
        self.deals_checked = 0
        self.blind_deals = 0
        self.step = "before the first deal"
        self._enter_opening()

    # -- input ------------------------------------------------------------------------------

    def deal_hands(self, deal: int, hands: Mapping[int, Iterable[str]]) -> None:
        """The hands of deal number `deal` as dealt, for the seats known (a later call adds
        seats; a seat given twice must agree with itself)."""
        known = self._hands.setdefault(deal, {})
        for seat, cards in hands.items():
            hand = frozenset(cards)
            step = f"deal {deal}, the hands as dealt"
            self._require(all(is_card(c) for c in hand), step, "Material", f"{sorted(hand)}")
            if seat in known:
                self._require(
                    known[seat] == hand,
                    step,
                    "A deal 2",
                    f"seat {seat}'s hand as dealt was {sorted(known[seat])}, now {sorted(hand)}",
                )
            known[seat] = hand
        if self.deal is not None and self.deal.number == deal and self.expect != "deal":
            self._learn_hands(self.deal)

    def events(self, events: Iterable[Mapping[str, Any]]) -> None:
        for e in events:
            self.event(e)

    def event(self, e: Mapping[str, Any]) -> None:
        kind = e.get("type")
        if kind in TABLE_EVENTS:
            return
        self.events_checked += 1
        self.step = f"deal {self.deal_no}, event {kind!r} {self._fields(e)}"
        handler = getattr(self, f"_on_{self.expect}")
        handler(kind, self._fields(e))
        self._check_conservation()

    @staticmethod
    def _fields(e: Mapping[str, Any]) -> dict[str, Any]:
        # The service adds its own bookkeeping to each engine event: its number, the game's
        # version, and who decided when a stand-in bot did ("by").
        return {k: v for k, v in e.items() if k not in ("type", "seq", "version", "by")}

    # -- helpers ----------------------------------------------------------------------------

    def _require(self, ok: bool, step: str, rule: str, message: str) -> None:
        if not ok:
            raise RefereeError(step, rule, message)

    def _check(self, ok: bool, rule: str, message: str) -> None:
        self._require(ok, self.step, rule, message)

    def _fields_are(
        self, kind: object, wanted: str, fields: dict[str, Any], keys: set[str]
    ) -> None:
        self._check(kind == wanted, "sequence of a deal", f"expected a {wanted!r} event here")
        self._check(set(fields) == keys, "events", f"fields {sorted(fields)}, not {sorted(keys)}")

    def _check_conservation(self) -> None:
        on_board = sum(self.plates.values()) + self.pot
        self._check(
            sum(self.chips) + on_board == self.total,
            "chips are conserved",
            f"chips {self.chips} + plates {self.plates} + pot {self.pot} != {self.total}",
        )
        self._check(min(self.chips) >= 0, "chips", f"negative chips {self.chips}")
        self._check(self.pot >= 0 and min(self.plates.values()) >= 0, "chips", "a negative pile")

    def _next_active(self, seat: int) -> int:
        for step in range(1, self.players + 1):
            other = (seat + step) % self.players
            if self.active[other]:
                return other
        return seat

    def _round_from(self, seat: int) -> list[int]:
        return [
            s for s in ((seat + k) % self.players for k in range(self.players)) if self.active[s]
        ]

    def _deal(self) -> Deal:
        assert self.deal is not None, "no deal is being played"
        return self.deal

    def _holder(self, deal: Deal, c: str) -> int | None:
        """Who holds `c` now, if the referee knows it (a known hand), else None."""
        for seat, hand in deal.left.items():
            if c in hand:
                return seat
        return None

    def _may_hold(self, deal: Deal, seat: int, c: str) -> bool:
        """Whether `seat` may hold `c` now, by everything known."""
        if seat in deal.left:
            return c in deal.left[seat]
        if any(c in hand for hand in deal.left.values()):
            return False
        if c in {p for _, p in deal.played}:
            return False
        owner = deal.shown.get(c)
        return (owner is None or owner == seat) and deal.remaining.get(seat, 0) > 0

    # -- between deals: leaves, the ante or the end (docs/poch.md, A deal 1; The game) -----------

    def _enter_opening(self) -> None:
        self.expect = "opening"
        self.deal = None
        need = len(PLATES) * self.ante
        if self.deal_no >= self.deals:
            self.leaving = set()
            return
        # docs/poch.md (Decided here, Leaving and the end): before each ante, fewer than 8 x ante
        # chips and you leave.
        self.leaving = {s for s in range(self.players) if self.active[s] and self.chips[s] < need}

    def _on_opening(self, kind: object, f: dict[str, Any]) -> None:
        need = len(PLATES) * self.ante
        if kind == "leave":
            self._fields_are(kind, "leave", f, {"seat", "chips"})
            seat = f["seat"]
            self._check(
                seat in self.leaving,
                "A deal 1 (who cannot pay the ante leaves)",
                f"seat {seat} leaves with {self.chips[seat] if 0 <= seat < self.players else '?'}"
                f" chips; the ante is {need}, and only {sorted(self.leaving)} must leave",
            )
            self._check(
                f["chips"] == self.chips[seat],
                "A deal 1 (leaves with what remains)",
                f"leaves with {f['chips']}, holds {self.chips[seat]}",
            )
            self.leaving.discard(seat)
            self.active[seat] = False
            return
        self._check(
            not self.leaving,
            "A deal 1 (who cannot pay the ante leaves)",
            f"seats {sorted(self.leaving)} hold less than the ante ({need}) and did not leave",
        )
        ends = self.deal_no >= self.deals or sum(self.active) < 2
        if kind == "game_over":
            self._check(
                ends,
                "The game (its length)",
                f"the game ended after {self.deal_no} of {self.deals} deals with "
                f"{sum(self.active)} players able to pay",
            )
            self._on_game_over(f)
            return
        self._check(
            not ends,
            "The game (its length)",
            f"after {self.deal_no} of {self.deals} deals with {sum(self.active)} players "
            "able to pay, the game must end",
        )
        self._fields_are(kind, "ante", f, {"deal", "dealer", "each"})
        self._check(
            f["deal"] == self.deal_no + 1, "A deal", f"deal {f['deal']} follows {self.deal_no}"
        )
        dealer = f["dealer"]
        if self.dealer is None:
            # The first dealer is drawn at random (docs/poch.md, A deal 2): any seat.
            self._check(0 <= dealer < self.players, "A deal 2", f"no seat {dealer} to deal")
        else:
            wanted = self._next_active(self.dealer)
            self._check(
                dealer == wanted,
                "A deal 2 / 7 (the deal passes to the next seat still in the game)",
                f"seat {dealer} deals; after seat {self.dealer} it is seat {wanted}",
            )
        self._check(f["each"] == need, "A deal 1 (ante)", f"each pays {f['each']}, not {need}")
        self.deal_no += 1
        self.dealer = dealer
        self.step = f"deal {self.deal_no}, ante"
        for seat in range(self.players):
            if self.active[seat]:
                self.chips[seat] -= need
        for plate in PLATES:
            self.plates[plate] += self.ante * sum(self.active)
        self.deal = Deal(self.deal_no, dealer, self._round_from(self._next_active(dealer)))
        self.expect = "deal"

    def _on_game_over(self, f: dict[str, Any]) -> None:
        self._check(set(f) == {"chips", "winners"}, "events", f"game_over fields {sorted(f)}")
        self._check(
            f["chips"] == self.chips,
            "The game (the result)",
            f"final chips {f['chips']}, worked out {self.chips}",
        )
        best = max(self.chips)
        winners = [s for s in range(self.players) if self.chips[s] == best]
        self._check(
            f["winners"] == winners,
            "The game (most chips wins; equal chips share)",
            f"winners {f['winners']}, not {winners}",
        )
        self.result = {"chips": list(self.chips), "winners": winners}
        self.expect = "over"

    def _on_over(self, kind: object, f: dict[str, Any]) -> None:
        self._check(False, "The game", f"an event {kind!r} after the game's end")

    # -- the deal, trumps and collecting (A deal 2-4) --------------------------------------------

    def _on_deal(self, kind: object, f: dict[str, Any]) -> None:
        deal = self._deal()
        self._fields_are(kind, "deal", f, {"counts", "trump"})
        sizes = deal_sizes(len(deal.order))
        wanted = {str(s): n for s, n in zip(deal.order, sizes, strict=True)}
        self._check(
            dict(f["counts"]) == wanted,
            "A deal 2 (all 32 from Vorhand; the first 32 mod n one more)",
            f"counts {f['counts']}, not {wanted}",
        )
        self._check(f["trump"] in SUITS, "A deal 3", f"trump {f['trump']!r} is no suit")
        deal.counts = dict(zip(deal.order, sizes, strict=True))
        deal.remaining = dict(deal.counts)
        deal.trump = f["trump"]
        self._learn_hands(deal)
        self.expect = "collecting"

    def _learn_hands(self, deal: Deal) -> None:
        """Take the hands as dealt given for this deal; check their sizes and the trump."""
        given = {s: h for s, h in self._hands.get(deal.number, {}).items() if s in deal.order}
        step = f"deal {deal.number}, the hands as dealt"
        for seat in self._hands.get(deal.number, {}):
            self._require(seat in deal.order, step, "A deal 2", f"seat {seat} is not dealt in")
        for seat, hand in given.items():
            self._require(
                len(hand) == deal.counts[seat],
                step,
                "A deal 2 (the uneven deal)",
                f"seat {seat} was dealt {len(hand)} cards, the deal says {deal.counts[seat]}",
            )
        seen: set[str] = set()
        for hand in given.values():
            self._require(not (seen & hand), step, "Material", f"dealt twice: {seen & hand}")
            seen |= hand
        missing = [s for s in deal.order if s not in given]
        if len(missing) == 1:
            # The one hand not seen is the rest of the pack.
            given[missing[0]] = frozenset(DECK - seen)
            self._require(
                len(given[missing[0]]) == deal.counts[missing[0]], step, "A deal 2", "sizes"
            )
        # Hands learnt after some play: what each has played since is out of it.
        for seat, hand in given.items():
            if seat in deal.dealt:
                continue
            played = {c for s, c in deal.played if s == seat}
            self._require(
                played <= hand,
                step,
                "A deal 6",
                f"seat {seat} played {sorted(played - hand)}, not dealt to it",
            )
            for c, owner in deal.shown.items():
                self._require(
                    (c in hand) == (owner == seat),
                    step,
                    "A deal 4-5 (shown cards)",
                    f"{c} was shown by seat {owner}",
                )
            deal.dealt[seat] = hand
            deal.left[seat] = set(hand - played)
        if deal.dealer in deal.dealt:
            # The card that set trumps is the dealer's own last card (A deal 3); which card
            # was last is not public, but it was the dealer's.
            self._require(
                any(suit_of(c) == deal.trump for c in deal.dealt[deal.dealer]),
                step,
                "A deal 3 (trumps are the suit of the dealer's last card)",
                f"the dealer (seat {deal.dealer}) holds no {deal.trump}: "
                f"{sorted(deal.dealt[deal.dealer])}",
            )

    def _on_collecting(self, kind: object, f: dict[str, Any]) -> None:
        deal = self._deal()
        if kind != "collect":
            self._close_collecting(deal)
            self.expect = "betting"
            self._on_betting(kind, f)
            return
        self._fields_are(kind, "collect", f, {"seat", "plate", "cards", "chips"})
        plate, seat = f["plate"], f["seat"]
        self._check(plate in HONOURS, "A deal 4", f"{plate!r} is not a plate taken by honours")
        self._check(plate not in deal.collected, "A deal 4", f"{plate} taken twice")
        self._check(seat in deal.order, "A deal 4", f"seat {seat} is not in this deal")
        needed = {card(deal.trump, RANKS.index(r)) for r in HONOURS[plate]}
        self._check(
            set(f["cards"]) == needed and len(f["cards"]) == len(needed),
            "A deal 4 (the trump cards that win the plate)",
            f"{plate} is won by {sorted(needed)} with {deal.trump} trumps, shown {f['cards']}",
        )
        for c in needed:
            self._check(
                self._may_hold(deal, seat, c) or deal.shown.get(c) == seat,
                "A deal 4 (the holder takes the plate)",
                f"seat {seat} takes {plate} without holding {c}",
            )
            deal.shown[c] = seat
        self._check(
            f["chips"] == self.plates[plate],
            "A deal 4 (takes the plate's chips)",
            f"{plate} holds {self.plates[plate]} chips, {f['chips']} taken",
        )
        self.chips[seat] += self.plates[plate]
        self.plates[plate] = 0
        deal.collected[plate] = seat

    def _close_collecting(self, deal: Deal) -> None:
        """Every plate that someone won must have been taken; the others keep their chips."""
        for plate, ranks in HONOURS.items():
            if plate in deal.collected:
                continue
            needed = [card(deal.trump, RANKS.index(r)) for r in ranks]
            holders = {self._holder(deal, c) for c in needed}
            if len(needed) == 1:
                # All 32 cards are dealt: someone holds every single honour.
                self._check(
                    False, "A deal 4 (all cards dealt)", f"nobody took {plate} ({needed[0]})"
                )
            self._check(
                not (len(holders) == 1 and None not in holders),
                "A deal 4 (the holder takes the plate)",
                f"seat {holders} holds {needed} and did not take {plate}",
            )

    # -- betting (A deal 5) -------------------------------------------------------------------

    @property
    def highest(self) -> int:
        return max((a for _, _, a in self._deal().bets), default=0)

    def _on_betting(self, kind: object, f: dict[str, Any]) -> None:
        deal = self._deal()
        self._check(kind in BET_CALLS, "A deal 5 (one betting round)", f"{kind!r} while betting")
        self._fields_are(kind, str(kind), f, {"seat", "amount", "pot"})
        seat, amount = f["seat"], f["amount"]
        turn = deal.order[len(deal.bets)]
        self._check(
            seat == turn,
            "A deal 5 (from Vorhand round once, ending with the dealer)",
            f"seat {seat} bets; it is seat {turn}'s turn",
        )
        top, have = self.highest, self.chips[seat]
        rule = "A deal 5 (pass, bet, hold or raise)"
        if kind == "pass":
            self._check(amount == 0, rule, f"a pass pays {amount}")
        elif kind == "bet":
            self._check(top == 0, rule, f"a bet after {top} was paid (that is a raise)")
            self._check(amount >= 1, rule, f"a bet of {amount}: at least 1")
        elif kind == "hold":
            self._check(top > 0, rule, "a hold with nothing to hold")
            self._check(amount == top, rule, f"a hold pays {amount}, the highest is {top}")
        else:
            self._check(top > 0, rule, "a raise with nothing bet (that is a bet)")
            self._check(amount > top, rule, f"a raise to {amount}, not above {top}")
        self._check(
            amount <= have,
            "A deal 5 (nobody may pay more than they hold)",
            f"seat {seat} pays {amount} holding {have}",
        )
        self.chips[seat] -= amount
        self.pot += amount
        self._check(f["pot"] == self.pot, "A deal 5", f"pot {f['pot']}, worked out {self.pot}")
        deal.bets.append((seat, str(kind), amount))
        if len(deal.bets) == len(deal.order):
            self.expect = "settling"

    def legal(self) -> list[int | str]:
        """The decisions open to the seat whose turn it is, in wire form."""
        deal = self.deal
        if deal is None:
            return []
        seat = self.turn
        if seat is None:
            return []
        if self.expect == "betting" or self.expect == "collecting":
            top, have = self.highest, self.chips[seat]
            acts: list[int | str] = ["pass"]
            if 0 < top <= have:
                acts.append("hold")
            acts.extend(range(top + 1, have + 1))
            return acts
        if self.expect == "starting":
            if seat not in deal.left:
                return []
            return sorted(c for c in deal.left[seat] if c[1:] in ("7", "A"))
        if self.expect == "choosing":
            return [s for s in SUITS if s not in deal.suits_done]
        return []

    @property
    def turn(self) -> int | None:
        deal = self.deal
        if deal is None:
            return None
        if self.expect in ("collecting", "betting"):
            return deal.order[len(deal.bets)]
        if self.expect == "starting":
            return deal.starter
        if self.expect == "choosing":
            return deal.chooser
        return None

    @property
    def phase(self) -> str:
        return {
            "collecting": "betting",
            "betting": "betting",
            "starting": "starting",
            "choosing": "choosing",
            "over": "over",
        }.get(self.expect, "forced")

    # -- the showdown (A deal 5) ----------------------------------------------------------------

    def _on_settling(self, kind: object, f: dict[str, Any]) -> None:
        deal = self._deal()
        paid = [(s, a) for s, _, a in deal.bets if a > 0]
        if not paid:
            self._fields_are(kind, "no_bet", f, {"pot"})
            self._check(f["pot"] == self.pot, "A deal 5 (nobody bets: the pot stays)", "pot")
            self._enter_starting(None)
            return
        self._fields_are(kind, "showdown", f, {"sets"})
        # The high bidder: the highest payment, the first to pay it on a tie.
        bidder, top = paid[0]
        for s, a in paid:
            if a > top:
                bidder, top = s, a
        deal.bidder = bidder
        sets = {int(s): list(cs) for s, cs in dict(f["sets"]).items()}
        rule = "A deal 5 (every player shows their best set)"
        for seat in sets:
            self._check(seat in deal.order, rule, f"seat {seat} is not in this deal")
        for seat in deal.order:
            shown = sets.get(seat)
            if shown is not None:
                self._check(
                    len(shown) in (2, 3, 4)
                    and len(set(shown)) == len(shown)
                    and all(is_card(c) for c in shown)
                    and len({rank_of(c) for c in shown}) == 1,
                    rule,
                    f"seat {seat} shows {shown}: not a set",
                )
                for c in shown:
                    self._check(
                        self._may_hold(deal, seat, c) or deal.shown.get(c) == seat,
                        rule,
                        f"seat {seat} shows {c}, which it does not hold",
                    )
            if seat in deal.dealt:
                wanted = best_set(deal.dealt[seat], deal.trump)
                self._check(
                    (None if shown is None else sorted(shown)) == wanted,
                    rule,
                    f"seat {seat} shows {shown}; its best set is {wanted} "
                    f"(hand {sorted(deal.dealt[seat])}, trumps {deal.trump})",
                )
            elif shown is not None:
                # A hand not seen: it holds at least this set, so every card of that rank.
                rank = rank_of(shown[0])
                self._check(
                    not any(
                        rank_of(c) == rank and c not in shown
                        for c, owner in deal.shown.items()
                        if owner == seat
                    ),
                    rule,
                    f"seat {seat} showed a card of the rank left out of {shown}",
                )
            for c in shown or ():
                deal.shown[c] = seat
        deal.showdown = sets
        if not sets:
            self.expect = "no_set"
            return
        keys = {seat: set_key(cs, deal.trump) for seat, cs in sets.items()}
        ranked = sorted(keys.values(), reverse=True)
        self._check(
            len(ranked) < 2 or ranked[0] != ranked[1],
            "A deal 5 (sets never tie: the trump card decides)",
            f"two sets tie: {sets}",
        )
        deal.best = max(keys, key=lambda s: keys[s])
        self.expect = "verdict"

    def _on_no_set(self, kind: object, f: dict[str, Any]) -> None:
        deal = self._deal()
        self._fields_are(kind, "no_set", f, {"seat", "pot"})
        self._check(
            f["seat"] == deal.bidder,
            "A deal 5 (nobody has a set: the bidder's payment stays)",
            f"no_set names seat {f['seat']}, the high bidder is {deal.bidder}",
        )
        self._check(f["pot"] == self.pot, "A deal 5 (the pot stays)", f"pot {f['pot']}")
        self._enter_starting(None)

    def _on_verdict(self, kind: object, f: dict[str, Any]) -> None:
        deal = self._deal()
        assert deal.bidder is not None and deal.best is not None
        if deal.best != deal.bidder and kind != "bluff":
            self._check(
                False,
                "A deal 5 (the high bidder without the best set pays twice the pot)",
                f"seat {deal.bidder} bid highest, seat {deal.best} has the best set: "
                f"expected a bluff, got {kind!r}",
            )
        if kind == "bluff":
            self._fields_are(kind, "bluff", f, {"seat", "paid"})
            rule = "A deal 5 (the bluffer pays twice the pot, all they have if less)"
            self._check(
                deal.best != deal.bidder,
                rule,
                f"seat {deal.bidder} fined with the best set at the table",
            )
            self._check(
                f["seat"] == deal.bidder, rule, f"seat {f['seat']} fined, not {deal.bidder}"
            )
            fine = min(2 * self.pot, self.chips[deal.bidder])
            self._check(f["paid"] == fine, rule, f"fine {f['paid']}, not {fine} (pot {self.pot})")
            self.chips[deal.bidder] -= fine
            self.pot += fine
            self.expect = "take_pot"
            return
        self._on_take_pot(kind, f)

    def _on_take_pot(self, kind: object, f: dict[str, Any]) -> None:
        deal = self._deal()
        self._fields_are(kind, "take_pot", f, {"seat", "pot", "pocher"})
        rule = "A deal 5 (the best set takes the pot and the pocher plate)"
        self._check(f["seat"] == deal.best, rule, f"seat {f['seat']} takes; best is {deal.best}")
        self._check(f["pot"] == self.pot, rule, f"pot {f['pot']}, worked out {self.pot}")
        self._check(
            f["pocher"] == self.plates["pocher"],
            rule,
            f"pocher {f['pocher']}, worked out {self.plates['pocher']}",
        )
        assert deal.best is not None
        self.chips[deal.best] += self.pot + self.plates["pocher"]
        self.pot = 0
        self.plates["pocher"] = 0
        deal.winner = deal.best
        self._enter_starting(deal.best)

    # -- shedding (A deal 6) ----------------------------------------------------------------------

    def _enter_starting(self, winner: int | None) -> None:
        deal = self._deal()
        deal.winner = winner
        self.expect = "starting"
        # The winner, else Vorhand; if they hold no 7 or ace, the next round who does. A hand
        # not known stops the search: the referee cannot say it holds neither.
        first = winner if winner is not None else deal.order[0]
        deal.starter = None
        for seat in self._round_from(first):
            if seat not in deal.left or any(c[1:] in ("7", "A") for c in deal.left[seat]):
                deal.starter = seat
                break
        deal.first = first

    def _on_starting(self, kind: object, f: dict[str, Any]) -> None:
        deal = self._deal()
        self._fields_are(kind, "start", f, {"seat", "direction"})
        seat = f["seat"]
        rule = "A deal 6 (the betting's winner starts, else Vorhand; else the next with a 7 or ace)"
        if deal.starter is not None and deal.starter in deal.left:
            self._check(seat == deal.starter, rule, f"seat {seat} starts, not {deal.starter}")
        else:
            # Unknown hands on the way: the starter is one of them or the first known with one.
            way = self._round_from(deal.first)
            self._check(seat in way, rule, f"seat {seat} cannot start")
            before = way[: way.index(seat)]
            self._check(
                all(
                    s not in deal.left or not any(c[1:] in ("7", "A") for c in deal.left[s])
                    for s in before
                ),
                rule,
                f"seat {seat} starts; a seat before it holds a 7 or an ace",
            )
            deal.starter = seat
        self._check(f["direction"] in ("up", "down"), "A deal 6", f"direction {f['direction']!r}")
        deal.direction = 1 if f["direction"] == "up" else -1
        self.expect = "start_card"

    def _on_start_card(self, kind: object, f: dict[str, Any]) -> None:
        deal = self._deal()
        self._fields_are(kind, "play", f, {"seat", "card"})
        c, seat = f["card"], f["seat"]
        rule = "A deal 6 (a 7 fixes the order upwards, an ace downwards)"
        self._check(seat == deal.starter, rule, f"seat {seat} plays; seat {deal.starter} starts")
        self._check(is_card(c), "Material", f"{c!r} is no card")
        wanted = "7" if deal.direction > 0 else "A"
        self._check(
            c[1:] == wanted, rule, f"starting {'up' if deal.direction > 0 else 'down'} with {c}"
        )
        self._play(deal, seat, c)

    def _on_running(self, kind: object, f: dict[str, Any]) -> None:
        deal = self._deal()
        self._fields_are(kind, "play", f, {"seat", "card"})
        c, seat = f["card"], f["seat"]
        self._check(
            c == deal.next_card,
            "A deal 6 (the suit goes on in the fixed order)",
            f"{c} played; the next card is {deal.next_card}",
        )
        self._play(deal, seat, c)

    def _play(self, deal: Deal, seat: int, c: str) -> None:
        self._check(
            seat in deal.order and self._may_hold(deal, seat, c),
            "A deal 6 (whoever holds the next card plays it)",
            f"seat {seat} plays {c}, which it does not hold (holder: {self._holder(deal, c)})",
        )
        if seat in deal.left:
            deal.left[seat].discard(c)
        deal.remaining[seat] -= 1
        deal.played.append((seat, c))
        deal.suit = suit_of(c)
        if deal.remaining[seat] == 0:
            # docs/poch.md: the deal ends at once, even in the middle of a suit.
            deal.next_card = None
            deal.chooser = seat
            self.expect = "deal_won"
            return
        rank = rank_of(c) + deal.direction
        if 0 <= rank < len(RANKS):
            deal.next_card = card(suit_of(c), rank)
            self.expect = "running"
            return
        # The suit is played out: its last card's player chooses among the others.
        deal.suits_done.append(suit_of(c))
        deal.suit = None
        left = [s for s in SUITS if s not in deal.suits_done]
        self._check(
            bool(left),
            "A deal 6 (all cards dealt: someone runs out)",
            "every suit played and nobody out of cards",
        )
        if len(left) == 1:
            # docs/poch.md (Decided here, The last suit): nothing to choose; it runs at once.
            deal.next_card = card(left[0], 0 if deal.direction > 0 else len(RANKS) - 1)
            self.expect = "running"
            return
        deal.chooser = seat
        deal.next_card = None
        self.expect = "choosing"

    def _on_choosing(self, kind: object, f: dict[str, Any]) -> None:
        deal = self._deal()
        self._fields_are(kind, "choose", f, {"seat", "suit"})
        rule = "A deal 6 (who played a suit's last card chooses a suit not yet played)"
        self._check(
            f["seat"] == deal.chooser, rule, f"seat {f['seat']} chooses, not {deal.chooser}"
        )
        self._check(
            f["suit"] in SUITS and f["suit"] not in deal.suits_done,
            rule,
            f"suit {f['suit']!r} chosen; played already: {deal.suits_done}",
        )
        deal.next_card = card(f["suit"], 0 if deal.direction > 0 else len(RANKS) - 1)
        self.expect = "running"

    def _on_deal_won(self, kind: object, f: dict[str, Any]) -> None:
        deal = self._deal()
        self._fields_are(kind, "deal_won", f, {"deal", "winner", "paid"})
        rule = "A deal 6 (the first with no cards left wins a chip per card held, all if less)"
        self._check(f["deal"] == deal.number, rule, f"deal {f['deal']}, not {deal.number}")
        self._check(f["winner"] == deal.chooser, rule, f"winner {f['winner']}, not {deal.chooser}")
        winner = deal.chooser
        assert winner is not None
        owed = {str(s): min(deal.remaining[s], self.chips[s]) for s in deal.order if s != winner}
        self._check(dict(f["paid"]) == owed, rule, f"paid {f['paid']}, owed {owed}")
        for s, n in owed.items():
            self.chips[int(s)] -= n
            self.chips[winner] += n
        self.deal_results.append({"deal": deal.number, "winner": winner, "paid": owed})
        self.deals_checked += 1
        self.blind_deals += deal.blind
        self._enter_opening()

    # -- views ------------------------------------------------------------------------------

    def check_view(self, view: Mapping[str, Any], seat: int | None = None) -> None:
        """A view (the API's, under `you`, or the engine observation's dict) says what the
        referee worked out: chips, plates, pot, whose turn, the hand and the legal actions."""
        self.step = f"deal {self.deal_no}, the view of seat {seat}"
        if view.get("phase") == "waiting":
            return
        rules = view["rules"]
        self._check(
            (rules["players"], rules["chips"], rules["ante"], rules["deals"])
            == (self.players, self.start_chips, self.ante, self.deals),
            "The game (options)",
            f"rules {rules}",
        )
        expect_phase = self.phase
        self._check(
            view["phase"] == expect_phase, "Decisions", f"phase {view['phase']}, not {expect_phase}"
        )
        self._check(view["turn"] == self.turn, "Decisions", f"turn {view['turn']}, not {self.turn}")
        self._check(
            list(view["chips"]) == self.chips,
            "What each seat knows",
            f"chips {view['chips']} != {self.chips}",
        )
        self._check(list(view["active"]) == self.active, "A deal 1", f"active {view['active']}")
        self._check(
            dict(view["plates"]) == self.plates,
            "What each seat knows",
            f"plates {view['plates']} != {self.plates}",
        )
        self._check(
            view["pot"] == self.pot, "What each seat knows", f"pot {view['pot']} != {self.pot}"
        )
        self._check(
            [dict(r) for r in view["deal_results"]] == self.deal_results,
            "A deal 6",
            f"deal results {view['deal_results']}",
        )
        if self.expect == "over":
            self._check(view["result"] == self.result, "The game", f"result {view['result']}")
            return
        deal = self._deal()
        self._check(view["deal"] == deal.number and view["dealer"] == deal.dealer, "A deal", "deal")
        self._check(view["trump"] == deal.trump, "A deal 3", f"trump {view['trump']}")
        sizes = [deal.remaining.get(s, 0) for s in range(self.players)]
        self._check(
            list(view["hand_sizes"]) == sizes,
            "What each seat knows",
            f"sizes {view['hand_sizes']} != {sizes}",
        )
        self._check(
            [list(p) for p in view["played"]] == [[s, c] for s, c in deal.played],
            "A deal 6",
            "played cards",
        )
        self._check(list(view["suits_done"]) == deal.suits_done, "A deal 6", "suits done")
        self._check(view["suit"] == deal.suit, "A deal 6", f"suit {view['suit']} != {deal.suit}")
        direction = {1: "up", -1: "down"}.get(deal.direction)
        self._check(view["direction"] == direction, "A deal 6", f"direction {view['direction']}")
        self._check(view["starter"] == deal.winner, "A deal 6", f"starter {view['starter']}")
        self._check(
            [(b["seat"], b["call"], b["amount"]) for b in view["bets"]] == deal.bets,
            "What each seat knows (every bet)",
            f"bets {view['bets']}",
        )
        self._check(
            {int(s): sorted(cs) for s, cs in view["showdown"].items()}
            == {s: sorted(cs) for s, cs in deal.showdown.items()},
            "What each seat knows (the sets shown)",
            f"showdown {view['showdown']}",
        )
        self._check(
            {e["plate"]: e["seat"] for e in view["collected"]} == deal.collected,
            "What each seat knows (the honours shown)",
            f"collected {view['collected']}",
        )
        you = view.get("you")
        if you is not None:
            hand, legal, own = you.get("hand"), you.get("legal"), you.get("seat")
        else:
            hand, legal, own = view.get("hand"), view.get("legal_actions"), view.get("seat")
        self._check(own == seat, "views", f"the view is seat {own}'s, not {seat}'s")
        if seat is None:
            self._check(not hand, "What each seat knows", "the spectator sees a hand")
            return
        if seat in deal.left:
            self._check(
                sorted(hand or []) == sorted(deal.left[seat]),
                "What each seat knows (its own cards)",
                f"hand {hand}, worked out {sorted(deal.left[seat])}",
            )
        wanted = self.legal() if seat == self.turn else []
        if seat == self.turn and seat not in deal.left and self.expect == "starting":
            return  # a hand not known: its start cards are not either
        self._check(
            sorted(map(str, legal or [])) == sorted(map(str, wanted)),
            "Decisions (the legal actions)",
            f"legal {legal}, worked out {wanted}",
        )
