"""The four play obligations, in one place.
How it works: docs/internals.md, ``engine.pocha.legality``.
"""

from __future__ import annotations

from engine.i18n import Message, _
from engine.pocha.cards import ABOVE, SUIT_MASK, SUIT_NAMES, SUIT_OF, CardSet, card_code, codes


def legal_cards(
    hand: CardSet,
    lead: int,
    win: int,
    trump: int,
    montar: bool,
    fallar: bool,
    pisar: bool,
) -> CardSet:
    """The cards of ``hand`` that may be played now.

    ``lead`` is the lead suit (-1 when the trick is empty, so anything goes),
    ``win`` the card winning the trick so far, ``trump`` the trump suit.
    """
    if lead < 0:
        return hand
    # Each table's mask is taken into a local of its own before the & so that the compiled
    # engine (legality.pxd) does the & on C integers, not on Python ints.
    follow = SUIT_MASK[lead]
    follow &= hand
    if follow:
        # The winning card is of the lead suit exactly when no trump was played
        # on a non-trump lead (or trump was led): then montar binds.
        if montar and SUIT_OF[win] == lead:
            higher = ABOVE[win]
            higher &= follow
            if higher:
                return higher
        return follow
    if fallar:
        trumps = SUIT_MASK[trump]
        trumps &= hand
        if trumps:
            if SUIT_OF[win] == trump:
                if pisar:
                    higher = ABOVE[win]
                    higher &= trumps
                    # Cannot over-trump: free to play anything.
                    return higher if higher else hand
                return trumps
            return trumps
    return hand


def explain_illegal(
    card: int,
    hand: CardSet,
    lead: int,
    win: int,
    trump: int,
    montar: bool,
    fallar: bool,
    pisar: bool,
) -> tuple[str, Message] | None:
    """Why ``card`` may not be played, as (rule, sentence), or None if it may."""
    if not hand >> card & 1:
        return "not_in_hand", _(
            "you do not hold {card}: you hold {cards}", card=card_code(card), cards=_list(hand)
        )
    legal = legal_cards(hand, lead, win, trump, montar, fallar, pisar)
    if legal >> card & 1:
        return None
    follow = hand & SUIT_MASK[lead]
    if follow:
        if SUIT_OF[card] != lead:
            return "asistir", _(
                "you must follow {suit}: you hold {cards}",
                suit=SUIT_NAMES[lead],
                cards=_list(follow),
            )
        return "montar", _(
            "you must beat the {card}: you hold {cards}", card=card_code(win), cards=_list(legal)
        )
    trumps = hand & SUIT_MASK[trump]
    if SUIT_OF[win] == trump and pisar and SUIT_OF[card] == trump:
        return "pisar", _(
            "you must beat the {card} with a higher trump: you hold {cards}",
            card=card_code(win),
            cards=_list(legal),
        )
    if SUIT_OF[win] == trump and pisar:
        return "pisar", _(
            "you have no {suit}, so you must beat the trump {card}: you hold {cards}",
            suit=SUIT_NAMES[lead],
            card=card_code(win),
            cards=_list(legal),
        )
    return "fallar", _(
        "you have no {suit}, so you must play a trump ({trump}): you hold {cards}",
        suit=SUIT_NAMES[lead],
        trump=SUIT_NAMES[trump],
        cards=_list(trumps),
    )


def _list(cards: CardSet) -> str:
    return ", ".join(codes(cards))
