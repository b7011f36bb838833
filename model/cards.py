"""Cards as integers, hands and tricks as 64-bit masks.

One encoding serves every game: ``card = 16 * suit + rank`` with ``rank`` 0..12 for 2..A, so a set
of cards is an ``int`` mask with bit ``card`` set. The highest card (the ace of the fourth suit) is
bit 60, so every mask fits a signed 64-bit column in polars and DuckDB. The 32-card Preference deck
(7 8 9 10 J Q K A) is a subset of the 52-card deck.

The order of the suits inside the encoding (S, C, D, H, as ``../shared/spec/README.md`` writes them)
says nothing about their order in bidding: that is a per-game table in each rules module.

Notation (``../shared/spec/README.md``, "Conventions shared by all games"): rank then suit, ranks
``2 3 4 5 6 7 8 9 T J Q K A`` with ``10`` accepted for ``T``, suits ``S C D H``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import TypeAlias

Card: TypeAlias = int
"""A card: ``16 * suit + rank``."""

CardSet: TypeAlias = int
"""A set of cards: bit ``card`` is set for every card in it."""


class Suit(IntEnum):
    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3


SUITS: tuple[Suit, ...] = tuple(Suit)
SUIT_LETTERS = "SCDH"
SUIT_SYMBOLS = "♠♣♦♥"
RANK_LETTERS = "23456789TJQKA"

TWO, SEVEN, TEN, JACK, QUEEN, KING, ACE = 0, 5, 8, 9, 10, 11, 12

SUIT_MASK: tuple[CardSet, ...] = tuple(0x1FFF << (16 * s) for s in SUITS)
"""All thirteen cards of each suit."""

DECK_52: CardSet = sum(SUIT_MASK)
DECK_32: CardSet = sum((0x1FFF & ~((1 << SEVEN) - 1)) << (16 * s) for s in SUITS)
"""The Preference deck: 7 8 9 10 J Q K A of each suit."""

ACES: CardSet = sum(1 << (16 * s + ACE) for s in SUITS)

# German-suited cards (Swabian Preferanz) share the encoding and have their own names:
# Leaves = spades, Acorns = clubs, Bells = diamonds, Hearts = hearts; Ober = Q, Unter = J, X = 10.
GERMAN_SUITS = ("Laub", "Eichel", "Schellen", "Herz")
GERMAN_RANKS = {
    SEVEN: "VII",
    SEVEN + 1: "VIII",
    SEVEN + 2: "IX",
    TEN: "X",
    JACK: "Unter",
    QUEEN: "Ober",
    KING: "König",
    ACE: "Daus",
}


class CardError(ValueError):
    """A card or set of cards that cannot be read."""


def card(suit: int, rank: int) -> Card:
    return 16 * suit + rank


def suit_of(c: Card) -> int:
    return c >> 4


def rank_of(c: Card) -> int:
    return c & 15


def bit(c: Card) -> CardSet:
    return 1 << c


def parse_card(text: str) -> Card:
    """Read ``"AS"``, ``"10h"`` or ``"Tc"`` as a card."""
    t = text.strip().upper()
    if len(t) == 3 and t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANK_LETTERS or t[1] not in SUIT_LETTERS:
        raise CardError(f"not a card: {text!r} (write rank then suit, e.g. 'AS', '10H', 'TC')")
    return card(SUIT_LETTERS.index(t[1]), RANK_LETTERS.index(t[0]))


_USUAL: dict[str, Card] = {r + s: card(SUIT_LETTERS.index(s), RANK_LETTERS.index(r))
                           for s in SUIT_LETTERS for r in RANK_LETTERS}
"""The card of each name in its usual spelling (``"AS"``, ``"TH"``): what :func:`parse_card`
reads it as, without reading it."""


def format_card(c: Card) -> str:
    if not 0 <= c < 64 or rank_of(c) > ACE:
        raise CardError(f"not a card index: {c!r}")
    return RANK_LETTERS[rank_of(c)] + SUIT_LETTERS[suit_of(c)]


def format_card_symbol(c: Card) -> str:
    """``A♠``, ``10♥``: the form a person reads."""
    rank = "10" if rank_of(c) == TEN else RANK_LETTERS[rank_of(c)]
    return rank + SUIT_SYMBOLS[suit_of(c)]


_SUIT_BID = re.compile(r"^(\d+)([SCDH])(X{0,2})$", re.IGNORECASE)


def bid_with_symbol(code: str) -> str:
    """A bid or contract ``<level><S|C|D|H>`` (a bridge contract also ``X`` or ``XX`` after it)
    written with the suit's symbol, as the hands are drawn: ``6S`` -> ``6♠``, ``4hx`` -> ``4♥X``;
    ``3NT``, ``pass`` and any other text as it is."""
    m = _SUIT_BID.match(code.strip())
    if m is None:
        return code
    level, suit, doubled = m.groups()
    return f"{level}{SUIT_SYMBOLS[SUIT_LETTERS.index(suit.upper())]}{doubled.upper()}"


def format_card_german(c: Card) -> str:
    """``Herz Ober``: German-suited name of a card of the 32-card deck (Swabian Preferanz)."""
    return f"{GERMAN_SUITS[suit_of(c)]} {GERMAN_RANKS[rank_of(c)]}"


def iter_cards(cards: CardSet) -> Iterator[Card]:
    """The cards of a set, lowest bit first."""
    while cards:
        low = cards & -cards
        yield low.bit_length() - 1
        cards ^= low


def to_set(cards: Iterable[Card]) -> CardSet:
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def parse_cards(texts: Iterable[str]) -> CardSet:
    """Read a list of card names as a set; a repeated card is an error."""
    mask = 0
    for t in texts:
        c = _USUAL.get(t)
        b = 1 << (c if c is not None else parse_card(t))
        if mask & b:
            raise CardError(f"card {t!r} appears twice")
        mask |= b
    return mask


def format_cards(cards: CardSet) -> list[str]:
    """Card names of a set, highest suit and rank first (hearts, diamonds, clubs, spades)."""
    return [format_card(c) for c in sorted(iter_cards(cards), reverse=True)]


def count(cards: CardSet) -> int:
    return cards.bit_count()


def suit_cards(cards: CardSet, suit: int) -> CardSet:
    return cards & SUIT_MASK[suit]
