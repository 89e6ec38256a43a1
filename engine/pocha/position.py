"""A position sent by a client, checked and turned into the seat's ``Observation``.
How it works: docs/internals.md, ``engine.pocha.position``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.errors import InvalidCardError, InvalidRulesError, InvalidStateError
from engine.i18n import _, as_json, join, ngettext
from engine.pocha.bidding import bidding_order, mano_of
from engine.pocha.cards import BIT, SUIT_OF, Card, CardSet, card_code, parse_card
from engine.pocha.deals import DealSampler
from engine.pocha.hand import HandState
from engine.pocha.inference import infer
from engine.pocha.legality import explain_illegal
from engine.pocha.observation import Observation
from engine.pocha.rules import Rules
from engine.positions import int_field, list_field, position_fields, seat_field

#: The keys a position may have; anything else is refused, so a typo is not ignored.
FIELDS = (
    "rules",
    "seat",
    "hand",
    "trump",
    "dealer",
    "bids",
    "plays",
    "cards_per_player",
    "trick",
    "tricks_won",
    "turn",
    "scores",
)


def _no_plays_behind(data: Mapping[str, Any]) -> None:
    """Refuse a position that says cards were played this hand (a trick on the table, a
    trick won) but sends no `plays`: it was left out, and without it the hand would be read
    as not begun, which no sentence about turns would explain."""
    if data.get("plays"):
        return
    trick, won = data.get("trick"), data.get("tricks_won")
    if trick or (isinstance(won, list) and any(won)):
        raise InvalidStateError(
            _(
                "the position has no {field}: its {given} says cards were played this hand, "
                "and {field} must list every one of them, in order",
                field=as_json("plays"),
                given=as_json("trick" if trick else "tricks_won"),
            )
        )


def _card(code: Any, where: str, rules: Rules) -> Card:
    try:
        card = parse_card(code)
    except InvalidCardError as exc:
        raise InvalidStateError(_("{where}: {why}", where=where, why=exc.message)) from exc
    if not BIT[card] & rules.deck:
        raise InvalidStateError(
            _(
                "{where}: {card} is not in the 36-card deck of a {players}-player game (the 2s "
                "are removed)",
                where=where,
                card=card_code(card),
                players=rules.players,
            )
        )
    return card


def position_from_dict(data: Mapping[str, Any]) -> Observation:
    """The observation of ``data["seat"]`` in the position ``data`` describes.

    ``data`` holds ``rules`` (options of docs/rules.md, ``players`` included),
    ``seat``, ``hand`` (card codes), ``trump`` (``{"card", "holder"}``),
    ``dealer``, ``bids`` (one per seat, null until made) and ``plays``
    (``[{"seat", "card"}]`` in order, this hand only).  ``cards_per_player``,
    ``trick``, ``tricks_won`` and ``turn`` may be given too; they are derived,
    and refused if they disagree.  ``scores`` (totals, default zeros) only
    passes through.  The seat must be the one to act.
    """
    data = position_fields(data, FIELDS, ("seat", "hand", "trump", "dealer", "bids"))
    _no_plays_behind(data)
    try:
        rules = Rules.from_dict(data.get("rules") or {})
    except InvalidRulesError as exc:
        raise InvalidStateError(_("the rules are not valid: {why}", why=exc.message)) from exc
    except TypeError as exc:
        raise InvalidStateError(_("the rules are not valid: {why}", why=str(exc))) from exc
    n = rules.players
    seat = seat_field(data["seat"], "seat", n)
    dealer = seat_field(data["dealer"], "dealer", n)
    hand, plays = _hand_and_plays(data, rules)
    trump_card, holder = _trump(data["trump"], rules)
    cards = _cards_dealt(data, rules, seat, hand, plays)
    _check_trump_place(rules, seat, dealer, cards, hand, plays, trump_card, holder)
    bids = _bids(data["bids"], n, cards)

    # The hand is replayed with what is known of each seat's cards: the seat's own exactly
    # (what it holds now and what it played), of the others the cards they played and the
    # dealer's trump card when the whole deck was dealt.
    dealt = [0] * n
    for who, card in plays:
        dealt[who] |= BIT[card]
    dealt[seat] |= hand
    if holder is not None and holder != seat:
        dealt[holder] |= BIT[trump_card]
    state = HandState(rules, dealt, SUIT_OF[trump_card], dealer, cards)
    _replay_bids(state, bids, plays)
    last_trick = _replay_plays(state, seat, plays, trump_card)

    # -- whose turn, and what the seat may do -------------------------------------------------
    turn = state.turn
    given_turn = data.get("turn")
    if given_turn is not None and int_field(given_turn, "turn") != turn:
        raise InvalidStateError(
            _("turn does not follow from the bids and plays: it is seat {turn}'s", turn=turn)
        )
    if turn != seat:
        # One whole sentence per phase: "bid" and "play" are not words to translate alone.
        raise InvalidStateError(
            _(
                "it is seat {turn}'s turn to bid, not seat {seat}'s: there is nothing for "
                "seat {seat} to decide",
                turn=turn,
                seat=seat,
            )
            if state.bidding
            else _(
                "it is seat {turn}'s turn to play, not seat {seat}'s: there is nothing for "
                "seat {seat} to decide",
                turn=turn,
                seat=seat,
            )
        )
    trick = plays[len(plays) - state.in_trick :] if state.in_trick else []
    given_trick = data.get("trick")
    if given_trick is not None:
        # Compared as cards, so "o1" on the table is the O1 played.
        table = []
        for i, entry in enumerate(list_field(given_trick, "trick"), start=1):
            if not isinstance(entry, Mapping) or set(entry) != {"seat", "card"}:
                raise InvalidStateError(
                    _("trick entry {i} must be an object with a seat and a card", i=i)
                )
            table.append((entry["seat"], _card(entry["card"], _("trick entry {i}", i=i), rules)))
        if table != trick:
            on_table = [_("{card} by seat {seat}", card=card_code(c), seat=s) for s, c in trick]
            raise InvalidStateError(
                _(
                    "trick does not match the plays: on the table from them is {cards}",
                    cards=join(on_table) if on_table else _("no card"),
                )
            )
    _check_derived(data, "tricks_won", list(state.tricks))
    obs = Observation(
        rules=rules,
        seat=seat,
        phase="bidding" if state.bidding else "playing",
        hand_number=None,
        hands_total=None,
        cards_per_player=cards,
        dealer=dealer,
        trump_card=trump_card,
        trump_holder=holder,
        bids=tuple(bids),
        tricks_won=tuple(state.tricks),
        plays=tuple(plays),
        turn=turn,
        scores=(0,) * n,
        last_trick=tuple(last_trick),
        hand=hand,
        legal_actions=tuple(state.legal_actions()),
    )
    short = DealSampler(infer(obs)).shortfall()
    if short is not None:
        group, wanted, fits = short
        raise InvalidStateError(
            _(
                "no deal fits the plays: seat(s) {seats} must still hold {wanted} card(s), "
                "but only {fits} unseen card(s) are ones their plays allow them to hold",
                seats=", ".join(map(str, group)),
                wanted=wanted,
                fits=fits,
            )
        )
    return replace(obs, scores=_scores(data.get("scores"), n))


def _hand_and_plays(
    data: Mapping[str, Any], rules: Rules
) -> tuple[CardSet, list[tuple[int, Card]]]:
    """The seat's hand and the hand's plays, each card once and from this deck."""
    n = rules.players
    hand: CardSet = 0
    for code in list_field(data["hand"], "hand"):
        card = _card(code, "hand", rules)
        if hand & BIT[card]:
            raise InvalidStateError(_("the hand holds {card} twice", card=card_code(card)))
        hand |= BIT[card]
    plays: list[tuple[int, Card]] = []
    played: CardSet = 0
    for i, entry in enumerate(list_field(data.get("plays", []), "plays"), start=1):
        if not isinstance(entry, Mapping) or set(entry) != {"seat", "card"}:
            raise InvalidStateError(_("play {i} must be an object with a seat and a card", i=i))
        who = seat_field(entry["seat"], _("the seat of play {i}", i=i), n)
        card = _card(entry["card"], _("play {i}", i=i), rules)
        if played & BIT[card]:
            raise InvalidStateError(_("{card} is played twice", card=card_code(card)))
        if hand & BIT[card]:
            raise InvalidStateError(
                _(
                    "{card} is in the hand and also played by seat {seat}",
                    card=card_code(card),
                    seat=who,
                )
            )
        played |= BIT[card]
        plays.append((who, card))
    return hand, plays


def _trump(trump_data: Any, rules: Rules) -> tuple[Card, int | None]:
    """The trump card and who holds it (None: turned up from the stock)."""
    if not isinstance(trump_data, Mapping) or set(trump_data) - {"card", "holder"}:
        raise InvalidStateError(_('trump must be an object {"card": code, "holder": seat or null}'))
    if "card" not in trump_data:
        raise InvalidStateError(_("trump has no card"))
    trump_card = _card(trump_data["card"], "trump", rules)
    raw_holder = trump_data.get("holder")
    holder = None if raw_holder is None else seat_field(raw_holder, "trump.holder", rules.players)
    return trump_card, holder


def _cards_dealt(
    data: Mapping[str, Any],
    rules: Rules,
    seat: int,
    hand: CardSet,
    plays: list[tuple[int, Card]],
) -> int:
    """How many cards each seat was dealt: what the seat holds plus what it played."""
    own_plays = sum(1 for who, _ in plays if who == seat)
    cards = hand.bit_count() + own_plays
    given_cards = data.get("cards_per_player")
    if given_cards is not None and int_field(given_cards, "cards_per_player") != cards:
        raise InvalidStateError(
            ngettext(
                "seat {seat} holds {n} card and has played {played}, so each seat was dealt "
                "{cards}, not {given}",
                "seat {seat} holds {n} cards and has played {played}, so each seat was dealt "
                "{cards}, not {given}",
                hand.bit_count(),
                seat=seat,
                played=own_plays,
                cards=cards,
                given=given_cards,
            )
        )
    if cards < 1:
        raise InvalidStateError(
            _("seat {seat} holds no cards and has played none: none were dealt", seat=seat)
        )
    if cards > rules.top:
        raise InvalidStateError(
            _(
                "{cards} cards each is more than the {top} that {players} players can be dealt "
                "from {deck} cards",
                cards=cards,
                top=rules.top,
                players=rules.players,
                deck=rules.deck_size,
            )
        )
    return cards


def _check_trump_place(
    rules: Rules,
    seat: int,
    dealer: int,
    cards: int,
    hand: CardSet,
    plays: list[tuple[int, Card]],
    trump_card: Card,
    holder: int | None,
) -> None:
    """The trump card is turned up from the stock, or, with the whole deck dealt, it is
    the dealer's last card, in its hand until it plays it."""
    n = rules.players
    t = card_code(trump_card)
    if cards * n == rules.deck_size:
        if holder != dealer:
            raise InvalidStateError(
                _(
                    "the whole deck is dealt ({n} × {cards}), so the trump card {card} is the "
                    "dealer's last card: trump.holder must be {dealer}, not {holder}",
                    n=n,
                    cards=cards,
                    card=t,
                    dealer=dealer,
                    holder=as_json(holder),
                )
            )
        player_of_trump = next((who for who, c in plays if c == trump_card), None)
        if player_of_trump is not None and player_of_trump != dealer:
            raise InvalidStateError(
                _(
                    "the trump card {card} is the dealer's (seat {dealer}), but seat {seat} "
                    "played it",
                    card=t,
                    dealer=dealer,
                    seat=player_of_trump,
                )
            )
        if seat == dealer and player_of_trump is None and not hand & BIT[trump_card]:
            raise InvalidStateError(
                _(
                    "seat {seat} is the dealer and the whole deck is dealt, so the trump card "
                    "{card} must be in its hand until it plays it",
                    seat=seat,
                    card=t,
                )
            )
        if seat != dealer and hand & BIT[trump_card]:
            raise InvalidStateError(
                _(
                    "the trump card {card} is the dealer's (seat {dealer}): it cannot be in "
                    "seat {seat}'s hand",
                    card=t,
                    dealer=dealer,
                    seat=seat,
                )
            )
        return
    if holder is not None:
        raise InvalidStateError(
            _(
                "with cards left over the trump card {card} is turned face up and belongs to "
                "nobody: trump.holder must be null",
                card=t,
            )
        )
    if any(c == trump_card for _, c in plays) or hand & BIT[trump_card]:
        raise InvalidStateError(
            _(
                "the turned trump card {card} belongs to nobody: it cannot be in a hand or played",
                card=t,
            )
        )


def _bids(raw: Any, n: int, cards: int) -> list[int | None]:
    """The bids by seat (None: not made yet), each from 0 to the cards in hand."""
    raw_bids = list_field(raw, "bids")
    if len(raw_bids) != n:
        raise InvalidStateError(
            _("bids must have one entry per seat ({n}), not {count}", n=n, count=len(raw_bids))
        )
    bids: list[int | None] = []
    for who, bid in enumerate(raw_bids):
        if bid is None:
            bids.append(None)
            continue
        b = int_field(bid, _("seat {seat}'s bid", seat=who))
        if not 0 <= b <= cards:
            raise InvalidStateError(
                ngettext(
                    "seat {seat} bid {bid}, but a bid is from 0 to the {n} card in hand",
                    "seat {seat} bid {bid}, but a bid is from 0 to the {n} cards in hand",
                    cards,
                    seat=who,
                    bid=b,
                )
            )
        bids.append(b)
    return bids


def _replay_bids(state: HandState, bids: list[int | None], plays: list[tuple[int, Card]]) -> None:
    """Make the bids on ``state`` in bidding order; refuses gaps, the dealer's forbidden
    bid, plays before the bidding is over and a hand with every card played."""
    n, dealer, cards = state.n, state.dealer, state.cards
    order = bidding_order(dealer, n)
    made = sum(1 for b in bids if b is not None)
    for who in order[:made]:
        if bids[who] is None:
            late = next(s for s in order[made:] if bids[s] is not None)
            raise InvalidStateError(
                _(
                    "seat {late} has bid before seat {seat}: bids go round from la mano (seat "
                    "{mano}) to the dealer (seat {dealer})",
                    late=late,
                    seat=who,
                    mano=mano_of(dealer, n),
                    dealer=dealer,
                )
            )
    for who in order[:made]:
        bid = bids[who]
        assert bid is not None and state.turn == who
        if bid == state.forbidden_bid():
            raise InvalidStateError(
                ngettext(
                    "the dealer (seat {dealer}) may not bid {bid}: the bids would add up to the "
                    "{n} card in play",
                    "the dealer (seat {dealer}) may not bid {bid}: the bids would add up to the "
                    "{n} cards in play",
                    cards,
                    dealer=dealer,
                    bid=bid,
                )
            )
        state.apply_bid(bid)
    if state.bidding and plays:
        waiting = ", ".join(str(s) for s in order[made:])
        raise InvalidStateError(
            _(
                "cards were played before every seat bid: seat(s) {waiting} have not bid yet",
                waiting=waiting,
            )
        )
    if len(plays) >= n * cards:
        raise InvalidStateError(
            _(
                "all {count} cards of the hand have been played: nothing is left to decide",
                count=n * cards,
            )
        )


def _replay_plays(
    state: HandState, seat: int, plays: list[tuple[int, Card]], trump_card: Card
) -> list[tuple[int, Card]]:
    """Play the cards on ``state`` in order, each from the seat to move and allowed by what
    is known of its player's hand; the last trick completed.

    The seat's own plays are checked against its exact hand.  Another seat's hand is known
    only in part, and one card is always enough to make a play illegal (a card of the lead
    suit, a higher one, a trump, a higher trump): so its plays fit together exactly when
    each one was legal beside every card that seat played later, and, for the dealer still
    holding the shown trump card, beside that card."""
    n = state.n
    trump, montar, fallar, pisar = state.trump, state.montar, state.fallar, state.pisar
    # Per seat, its plays onto a led trick: (card, lead suit, winning card, trick number).
    earlier: list[list[tuple[Card, int, Card, int]]] = [[] for _ in range(n)]
    last_trick: list[tuple[int, Card]] = []
    for i, (who, card) in enumerate(plays, start=1):
        trick_number = state.cards - state.tricks_left + 1
        if who != state.turn:
            raise InvalidStateError(
                _(
                    "play {i} ({card} by seat {seat}) is out of turn: seat {turn} was to play "
                    "next in trick {trick}",
                    i=i,
                    card=card_code(card),
                    seat=who,
                    turn=state.turn,
                    trick=trick_number,
                )
                if state.in_trick
                else _(
                    "play {i} ({card} by seat {seat}) is out of turn: seat {turn} was to play "
                    "the lead in trick {trick}",
                    i=i,
                    card=card_code(card),
                    seat=who,
                    turn=state.turn,
                    trick=trick_number,
                )
            )
        lead, win = state.lead, state.win
        if who == seat:
            why = explain_illegal(card, state.hands[seat], lead, win, trump, montar, fallar, pisar)
            if why is not None:
                raise InvalidStateError(
                    _(
                        "seat {seat} could not play {card} in trick {trick}: {why}",
                        seat=seat,
                        card=card_code(card),
                        trick=trick_number,
                        why=why[1],
                    )
                )
        else:
            for shown, shown_lead, shown_win, when in earlier[who]:
                beside = BIT[shown] | BIT[card]
                if explain_illegal(
                    shown, beside, shown_lead, shown_win, trump, montar, fallar, pisar
                ):
                    raise InvalidStateError(
                        _(
                            "seat {seat} played {card} in trick {trick}, but it cannot have "
                            "held {card} when it played {shown} in trick {when}: the rules "
                            "would not have allowed that",
                            seat=who,
                            card=card_code(card),
                            trick=trick_number,
                            shown=card_code(shown),
                            when=when,
                        )
                    )
            if card != trump_card and state.hands[who] & BIT[trump_card]:
                beside = BIT[card] | BIT[trump_card]
                why = explain_illegal(card, beside, lead, win, trump, montar, fallar, pisar)
                if why is not None:
                    raise InvalidStateError(
                        _(
                            "seat {seat} could not play {card} in trick {trick}: it still "
                            "held the trump card {trump}, so {rule} bound it to play that",
                            seat=who,
                            card=card_code(card),
                            trick=trick_number,
                            trump=card_code(trump_card),
                            rule=why[0],
                        )
                    )
            if lead >= 0:
                earlier[who].append((card, lead, win, trick_number))
        if state.apply_card(card) >= 0:
            last_trick = plays[i - n : i]
    return last_trick


def position_of(obs: Observation) -> dict[str, Any]:
    """The position of a seat's observation, as a client would send it (the inverse of
    ``position_from_dict`` for the fields a decision depends on)."""
    if obs.seat is None:
        raise ValueError("a spectator has no position to decide from")
    view = obs.to_dict()
    return {
        "rules": view["rules"],
        "seat": obs.seat,
        "hand": view["you"]["hand"],
        "trump": view["trump"],
        "dealer": obs.dealer,
        "bids": view["bids"],
        "plays": view["plays"],
        "scores": view["scores"],
    }


def _check_derived(data: Mapping[str, Any], name: str, derived: list[Any]) -> None:
    given = data.get(name)
    if given is not None and given != derived:
        raise InvalidStateError(
            _(
                "{name} does not match the plays: from them it is {derived}, not {given}",
                name=name,
                derived=as_json(derived),
                given=as_json(given),
            )
        )


def _scores(raw: Any, n: int) -> tuple[int, ...]:
    if raw is None:
        return (0,) * n
    scores = list_field(raw, "scores")
    if len(scores) != n:
        raise InvalidStateError(
            _("scores must have one total per seat ({n}), not {count}", n=n, count=len(scores))
        )
    return tuple(int_field(x, _("a score")) for x in scores)
