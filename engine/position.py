"""A position sent by a client, checked and turned into the seat's ``Observation``.

Front ends that keep their own game ask the bots for a move by sending the
position as one seat sees it: the rules, its hand, the trump card and who
holds it, the dealer, the bids so far, and every card played in this hand by
whom (which fixes the trick on the table and the tricks won).  Nothing in it
is trusted.  ``position_from_dict`` rebuilds the hand from la mano's first bid
to the seat's turn and refuses anything no real game could have reached, with
an ``InvalidStateError`` whose sentence says what is inconsistent: a card
twice, a hand of the wrong size, bids or plays out of turn, a bid out of range
or against the dealer rule, a trump card where it cannot be, a play that broke
an obligation given what the seat knows, or plays that no deal of the unseen
cards can explain.  What it returns is exactly what ``observe`` would give
that seat in a real game at that point, so the bots cannot tell the
difference.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from engine.actions import bid_action
from engine.bidding import bidding_order, dealer_forbidden_bid, mano_of
from engine.cards import (
    BIT,
    SUIT_OF,
    Card,
    CardSet,
    card_code,
    parse_card,
)
from engine.errors import InvalidCardError, InvalidRulesError, InvalidStateError
from engine.inference import absences_from_play
from engine.legality import explain_illegal, legal_cards
from engine.observation import Observation
from engine.rules import Rules
from engine.tricks import beats

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


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidStateError(f"{what} must be a whole number, not {value!r}")
    return value


def _seat(value: Any, what: str, players: int) -> int:
    seat = _int(value, what)
    if not 0 <= seat < players:
        raise InvalidStateError(
            f"{what} must be a seat from 0 to {players - 1} in a game of {players}, not {seat}"
        )
    return seat


def _card(code: Any, where: str, rules: Rules) -> Card:
    try:
        card = parse_card(code)
    except InvalidCardError as exc:
        raise InvalidStateError(f"{where}: {exc.message}") from exc
    if not BIT[card] & rules.deck:
        raise InvalidStateError(
            f"{where}: {card_code(card)} is not in the 36-card deck of a {rules.players}-player "
            "game (the 2s are removed)"
        )
    return card


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidStateError(f"{what} must be a list, not {value!r}")
    return value


def position_from_dict(data: Mapping[str, Any]) -> Observation:
    """The observation of ``data["seat"]`` in the position ``data`` describes.

    ``data`` holds ``rules`` (options of RULES.md, ``players`` included),
    ``seat``, ``hand`` (card codes), ``trump`` (``{"card", "holder"}``),
    ``dealer``, ``bids`` (one per seat, null until made) and ``plays``
    (``[{"seat", "card"}]`` in order, this hand only).  ``cards_per_player``,
    ``trick``, ``tricks_won`` and ``turn`` may be given too; they are derived,
    and refused if they disagree.  ``scores`` (totals, default zeros) only
    passes through.  The seat must be the one to act.
    """
    if not isinstance(data, Mapping):
        raise InvalidStateError("a position is a JSON object")
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise InvalidStateError(
            f"unknown field {unknown[0]!r} in the position; the fields are {', '.join(FIELDS)}"
        )
    for required in ("seat", "hand", "trump", "dealer", "bids"):
        if required not in data:
            raise InvalidStateError(f"the position has no {required!r}")
    try:
        rules = Rules.from_dict(data.get("rules") or {})
    except InvalidRulesError as exc:
        raise InvalidStateError(f"the rules are not valid: {exc.message}") from exc
    except TypeError as exc:
        raise InvalidStateError(f"the rules are not valid: {exc}") from exc
    n = rules.players
    seat = _seat(data["seat"], "seat", n)
    dealer = _seat(data["dealer"], "dealer", n)
    mano = mano_of(dealer, n)

    # -- the cards: each one once, from this deck -------------------------------------------
    hand: CardSet = 0
    for code in _list(data["hand"], "hand"):
        card = _card(code, "hand", rules)
        if hand & BIT[card]:
            raise InvalidStateError(f"the hand holds {card_code(card)} twice")
        hand |= BIT[card]
    plays: list[tuple[int, Card]] = []
    played: CardSet = 0
    for i, entry in enumerate(_list(data.get("plays", []), "plays"), start=1):
        if not isinstance(entry, Mapping) or set(entry) != {"seat", "card"}:
            raise InvalidStateError(f"play {i} must be an object with a seat and a card")
        who = _seat(entry["seat"], f"the seat of play {i}", n)
        card = _card(entry["card"], f"play {i}", rules)
        if played & BIT[card]:
            raise InvalidStateError(f"{card_code(card)} is played twice")
        if hand & BIT[card]:
            raise InvalidStateError(
                f"{card_code(card)} is in the hand and also played by seat {who}"
            )
        played |= BIT[card]
        plays.append((who, card))
    trump_data = data["trump"]
    if not isinstance(trump_data, Mapping) or set(trump_data) - {"card", "holder"}:
        raise InvalidStateError('trump must be an object {"card": code, "holder": seat or null}')
    if "card" not in trump_data:
        raise InvalidStateError("trump has no card")
    trump_card = _card(trump_data["card"], "trump", rules)
    trump = SUIT_OF[trump_card]
    raw_holder = trump_data.get("holder")
    holder = None if raw_holder is None else _seat(raw_holder, "trump.holder", n)

    # -- how many cards each seat was dealt --------------------------------------------------
    own_plays = sum(1 for who, _ in plays if who == seat)
    cards = hand.bit_count() + own_plays
    given_cards = data.get("cards_per_player")
    if given_cards is not None and _int(given_cards, "cards_per_player") != cards:
        raise InvalidStateError(
            f"seat {seat} holds {hand.bit_count()} cards and has played {own_plays}, so "
            f"{cards} were dealt to each seat, not {given_cards}"
        )
    if cards < 1:
        raise InvalidStateError(f"seat {seat} holds no cards and has played none: none were dealt")
    if cards > rules.top:
        raise InvalidStateError(
            f"{cards} cards each is more than the {rules.top} that {n} players can be dealt "
            f"from {rules.deck_size} cards"
        )
    whole_deck = cards * n == rules.deck_size

    # -- the trump card: turned from the stock, or the dealer's last card -------------------
    t = card_code(trump_card)
    if whole_deck:
        if holder != dealer:
            raise InvalidStateError(
                f"the whole deck is dealt ({n} × {cards}), so the trump card {t} is the "
                f"dealer's last card: trump.holder must be {dealer}, not {raw_holder}"
            )
        player_of_trump = next((who for who, c in plays if c == trump_card), None)
        if player_of_trump is not None and player_of_trump != dealer:
            raise InvalidStateError(
                f"the trump card {t} is the dealer's (seat {dealer}), but seat "
                f"{player_of_trump} played it"
            )
        if seat == dealer and player_of_trump is None and not hand & BIT[trump_card]:
            raise InvalidStateError(
                f"seat {seat} is the dealer and the whole deck is dealt, so the trump card {t} "
                "must be in its hand until it plays it"
            )
        if seat != dealer and hand & BIT[trump_card]:
            raise InvalidStateError(
                f"the trump card {t} is the dealer's (seat {dealer}): it cannot be in seat "
                f"{seat}'s hand"
            )
    else:
        if holder is not None:
            raise InvalidStateError(
                f"with cards left over the trump card {t} is turned face up and belongs to "
                "nobody: trump.holder must be null"
            )
        if (hand | played) & BIT[trump_card]:
            raise InvalidStateError(
                f"the turned trump card {t} belongs to nobody: it cannot be in a hand or played"
            )

    # -- the bids: from la mano round to the dealer ------------------------------------------
    raw_bids = _list(data["bids"], "bids")
    if len(raw_bids) != n:
        raise InvalidStateError(f"bids must have one entry per seat ({n}), not {len(raw_bids)}")
    bids: list[int | None] = []
    for who, bid in enumerate(raw_bids):
        if bid is None:
            bids.append(None)
            continue
        b = _int(bid, f"seat {who}'s bid")
        if not 0 <= b <= cards:
            raise InvalidStateError(
                f"seat {who} bid {b}, but a bid is from 0 to the {cards} cards in hand"
            )
        bids.append(b)
    order = bidding_order(dealer, n)
    made = sum(1 for b in bids if b is not None)
    for who in order[:made]:
        if bids[who] is None:
            late = next(s for s in order[made:] if bids[s] is not None)
            raise InvalidStateError(
                f"seat {late} has bid before seat {who}: bids go round from la mano (seat "
                f"{mano}) to the dealer (seat {dealer})"
            )
    total = sum(b for b in bids if b is not None)
    if rules.dealer_restriction and bids[dealer] is not None and total == cards:
        raise InvalidStateError(
            f"the dealer (seat {dealer}) may not bid {bids[dealer]}: the bids would add up to "
            f"the {cards} cards in play"
        )
    bidding = made < n
    if bidding and plays:
        waiting = ", ".join(str(s) for s in order[made:])
        raise InvalidStateError(
            f"cards were played before every seat bid: seat(s) {waiting} have not bid yet"
        )
    if len(plays) >= n * cards:
        raise InvalidStateError(
            f"all {n * cards} cards of the hand have been played: nothing is left to decide"
        )

    # -- the plays: in turn, each allowed by what is known of the player's hand ---------------
    # The seat's own hand at each moment is known exactly (what it holds now plus what it
    # played later); of the others, only the dealer's trump card when the whole deck was dealt,
    # and the absences their earlier plays revealed (with the play that revealed each).
    own_hand = hand | mask_played_by(plays, seat)
    absent: list[list[tuple[CardSet, Card, int]]] = [[] for _ in range(n)]
    tricks_won = [0] * n
    last_trick: list[tuple[int, Card]] = []
    leader = mano
    lead, win, winner = -1, -1, -1
    trick: list[tuple[int, Card]] = []
    trick_number = 1
    for i, (who, card) in enumerate(plays, start=1):
        expected = (leader + len(trick)) % n
        if who != expected:
            raise InvalidStateError(
                f"play {i} ({card_code(card)} by seat {who}) is out of turn: seat {expected} "
                f"was to play {'the lead' if not trick else 'next'} in trick {trick_number}"
            )
        if who == seat:
            why = explain_illegal(
                card, own_hand, lead, win, trump, rules.montar, rules.fallar, rules.pisar
            )
            if why is not None:
                raise InvalidStateError(
                    f"seat {seat} could not play {card_code(card)} in trick {trick_number}: "
                    f"{why[1]}"
                )
            own_hand &= ~BIT[card]
        else:
            for mask, shown, when in absent[who]:
                if mask & BIT[card]:
                    raise InvalidStateError(
                        f"seat {who} played {card_code(card)} in trick {trick_number}, but it "
                        f"cannot have held {card_code(card)} when it played {card_code(shown)} "
                        f"in trick {when}: the rules would not have allowed that"
                    )
            holds_trump = whole_deck and who == dealer and not _played_before(plays, i, trump_card)
            if holds_trump and card != trump_card:
                why = explain_illegal(
                    card,
                    BIT[card] | BIT[trump_card],
                    lead,
                    win,
                    trump,
                    rules.montar,
                    rules.fallar,
                    rules.pisar,
                )
                if why is not None:
                    raise InvalidStateError(
                        f"seat {who} could not play {card_code(card)} in trick {trick_number}: "
                        f"it still held the trump card {t}, so {why[0]} bound it to play that"
                    )
            revealed = absences_from_play(
                card, lead, win, trump, rules.montar, rules.fallar, rules.pisar
            )
            if revealed:
                absent[who].append((revealed, card, trick_number))
        trick.append((who, card))
        if lead < 0:
            lead, win, winner = SUIT_OF[card], card, who
        elif beats(card, win, trump):
            win, winner = card, who
        if len(trick) == n:
            tricks_won[winner] += 1
            last_trick = trick
            leader = winner
            lead, win, winner = -1, -1, -1
            trick = []
            trick_number += 1

    # -- whose turn, and what the seat may do -------------------------------------------------
    turn = order[made] if bidding else (leader + len(trick)) % n
    given_turn = data.get("turn")
    if given_turn is not None and _int(given_turn, "turn") != turn:
        raise InvalidStateError(
            f"turn does not follow from the bids and plays: it is seat {turn}'s"
        )
    if turn != seat:
        raise InvalidStateError(
            f"it is seat {turn}'s turn to {'bid' if bidding else 'play'}, not seat {seat}'s: "
            f"there is nothing for seat {seat} to decide"
        )
    given_trick = data.get("trick")
    if given_trick is not None:
        # Compared as cards, so "o1" on the table is the O1 played.
        table = []
        for i, entry in enumerate(_list(given_trick, "trick"), start=1):
            if not isinstance(entry, Mapping) or set(entry) != {"seat", "card"}:
                raise InvalidStateError(f"trick entry {i} must be an object with a seat and a card")
            table.append((entry["seat"], _card(entry["card"], f"trick entry {i}", rules)))
        if table != trick:
            on_table = [f"{card_code(c)} by seat {s}" for s, c in trick] or ["no card"]
            raise InvalidStateError(
                f"trick does not match the plays: on the table from them is {', '.join(on_table)}"
            )
    _check_derived(data, "tricks_won", tricks_won)
    _check_deal_exists(rules, seat, hand, played, trump_card, holder, plays, cards, absent)

    if bidding:
        restricted = rules.dealer_restriction and seat == dealer
        forbidden = dealer_forbidden_bid(cards, total) if restricted else -1
        legal = tuple(bid_action(b) for b in range(cards + 1) if b != forbidden)
    else:
        mask = legal_cards(hand, lead, win, trump, rules.montar, rules.fallar, rules.pisar)
        legal = tuple(c for c in range(40) if mask >> c & 1)
    scores = _scores(data.get("scores"), n)
    return Observation(
        rules=rules,
        seat=seat,
        phase="bidding" if bidding else "playing",
        hand_number=1,
        hands_total=1,
        cards_per_player=cards,
        dealer=dealer,
        trump_card=trump_card,
        trump_holder=holder,
        bids=tuple(bids),
        tricks_won=tuple(tricks_won),
        plays=tuple(plays),
        turn=turn,
        scores=scores,
        last_trick=tuple(last_trick),
        hand=hand,
        legal=legal,
    )


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


def mask_played_by(plays: list[tuple[int, Card]], seat: int) -> CardSet:
    """The cards ``seat`` has played."""
    mask = 0
    for who, card in plays:
        if who == seat:
            mask |= BIT[card]
    return mask


def _played_before(plays: list[tuple[int, Card]], i: int, card: Card) -> bool:
    """Whether ``card`` is among the first ``i - 1`` plays."""
    return any(c == card for _, c in plays[: i - 1])


def _check_derived(data: Mapping[str, Any], name: str, derived: list[Any]) -> None:
    given = data.get(name)
    if given is not None and given != derived:
        raise InvalidStateError(
            f"{name} does not match the plays: from them it is {derived}, not {given}"
        )


def _scores(raw: Any, n: int) -> tuple[int, ...]:
    if raw is None:
        return (0,) * n
    scores = _list(raw, "scores")
    if len(scores) != n:
        raise InvalidStateError(f"scores must have one total per seat ({n}), not {len(scores)}")
    return tuple(_int(x, "a score") for x in scores)


def _check_deal_exists(
    rules: Rules,
    seat: int,
    hand: CardSet,
    played: CardSet,
    trump_card: Card,
    holder: int | None,
    plays: list[tuple[int, Card]],
    cards: int,
    absent: list[list[tuple[CardSet, Card, int]]],
) -> None:
    """Refuse plays that no deal of the unseen cards explains (each seat void in what is
    left for it), by Hall's condition: every group of the other seats must find, among the
    unseen cards their plays allow, at least as many as they still hold between them."""
    n = rules.players
    unseen = rules.deck & ~hand & ~played
    need = [cards - sum(1 for who, _ in plays if who == s) for s in range(n)]
    if holder is None:
        unseen &= ~BIT[trump_card]
    elif holder != seat and not played & BIT[trump_card]:
        # The dealer's trump card is known to be in its hand: one of its cards is no mystery.
        unseen &= ~BIT[trump_card]
        need[holder] -= 1
    allowed = []
    for s in range(n):
        gone = 0
        for mask, _, _ in absent[s]:
            gone |= mask
        allowed.append(unseen & ~gone)
    others = [s for s in range(n) if s != seat and need[s] > 0]
    for size in range(1, len(others) + 1):
        for group in combinations(others, size):
            wanted = sum(need[s] for s in group)
            fits = 0
            for s in group:
                fits |= allowed[s]
            if fits.bit_count() < wanted:
                who = ", ".join(str(s) for s in group)
                raise InvalidStateError(
                    f"no deal fits the plays: seat(s) {who} must still hold {wanted} "
                    f"card(s), but only {fits.bit_count()} unseen card(s) are ones their "
                    "plays allow them to hold"
                )
