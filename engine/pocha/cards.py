"""Cards of the Spanish deck and card sets as integer bitmasks.
How it works: docs/internals.md, ``engine.pocha.cards``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engine.errors import InvalidCardError
from engine.i18n import _

SUITS = ("O", "C", "E", "B")
SUIT_NAMES = ("oros", "copas", "espadas", "bastos")
OROS, COPAS, ESPADAS, BASTOS = range(4)

# Ranks from weakest to strongest; the position is the card's strength.
RANKS_BY_STRENGTH = (2, 4, 5, 6, 7, 10, 11, 12, 3, 1)
RANK_NAMES = {
    1: "as",
    2: "dos",
    3: "tres",
    4: "cuatro",
    5: "cinco",
    6: "seis",
    7: "siete",
    10: "sota",
    11: "caballo",
    12: "rey",
}

Card = int
CardSet = int

NUM_CARDS = 40
ALL_CARDS: CardSet = (1 << NUM_CARDS) - 1
SUIT_MASK: tuple[CardSet, ...] = tuple(((1 << 10) - 1) << (10 * s) for s in range(4))
SUIT_OF: tuple[int, ...] = tuple(c // 10 for c in range(NUM_CARDS))
RANK_OF: tuple[int, ...] = tuple(RANKS_BY_STRENGTH[c % 10] for c in range(NUM_CARDS))
BIT: tuple[CardSet, ...] = tuple(1 << c for c in range(NUM_CARDS))
# ABOVE[c]: the cards of c's suit that beat c.
ABOVE: tuple[CardSet, ...] = tuple(SUIT_MASK[c // 10] & ~((2 << c) - 1) for c in range(NUM_CARDS))
TWOS: CardSet = sum(1 << (10 * s) for s in range(4))
DECK_40: CardSet = ALL_CARDS
DECK_36: CardSet = ALL_CARDS & ~TWOS

_CODES = tuple(f"{SUITS[c // 10]}{RANK_OF[c]}" for c in range(NUM_CARDS))
_BY_CODE = {code: c for c, code in enumerate(_CODES)}


def deck_for(players: int) -> CardSet:
    """The deck used by this many players: without the 2s for 3 or 6."""
    return DECK_36 if players in (3, 6) else DECK_40


def card(suit: int, rank: int) -> Card:
    """The card of this suit (0-3) and rank (1-7, 10-12)."""
    return suit * 10 + RANKS_BY_STRENGTH.index(rank)


def parse_card(code: str) -> Card:
    """The card for a code such as ``O1`` or ``b12`` (case-insensitive).

    >>> card_code(parse_card("E3"))
    'E3'
    """
    # Stored games and most clients send codes as they are written: look those up first
    # (a stored game's load parses every card dealt, so this is on every move's path).
    if type(code) is str:
        exact = _BY_CODE.get(code)
        if exact is not None:
            return exact
    if not isinstance(code, str):
        raise InvalidCardError(
            _("a card code is a string such as 'O1', not {value}", value=repr(code))
        )
    found = _BY_CODE.get(code.strip().upper())
    if found is None:
        raise InvalidCardError(
            _(
                "{value} is not a card: a card is a suit letter O, C, E or B followed by "
                "a rank 1-7, 10, 11 or 12, e.g. 'O1' (as de oros) or 'B12' (rey de bastos)",
                value=repr(code),
            )
        )
    return found


def card_code(c: Card) -> str:
    """The code of a card: ``O1``, ``C10``..."""
    return _CODES[c]


def card_name(c: Card) -> str:
    """A readable Spanish name: ``as de oros``."""
    return f"{RANK_NAMES[RANK_OF[c]]} de {SUIT_NAMES[SUIT_OF[c]]}"


def iter_cards(cards: CardSet) -> Iterator[Card]:
    """The cards of a set, weakest suit block first, weakest card first."""
    while cards:
        low = cards & -cards
        yield low.bit_length() - 1
        cards ^= low


def cards_list(cards: CardSet) -> list[Card]:
    return list(iter_cards(cards))


# _SUIT_CODES[s][m]: the codes of the cards of suit s whose strengths are the bits of m
# (0-1023), strongest first. Saving a game and building a view list every hand's codes;
# four lookups are several times faster than walking the bits.
_SUIT_CODES: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(tuple(_CODES[10 * s + i] for i in reversed(range(10)) if m >> i & 1) for m in range(1024))
    for s in range(4)
)


def codes(cards: CardSet) -> list[str]:
    """The codes of a set, grouped by suit (O, C, E, B), strongest first."""
    return [
        *_SUIT_CODES[0][cards & 1023],
        *_SUIT_CODES[1][cards >> 10 & 1023],
        *_SUIT_CODES[2][cards >> 20 & 1023],
        *_SUIT_CODES[3][cards >> 30 & 1023],
    ]


def mask_of(cards: Iterable[Card]) -> CardSet:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def parse_cards(card_codes: Iterable[str]) -> CardSet:
    return mask_of(parse_card(code) for code in card_codes)


def highest(cards: CardSet) -> Card:
    """The strongest card of a non-empty set within one suit."""
    return cards.bit_length() - 1
