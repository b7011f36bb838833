"""Bids, calls and contracts (``../shared/spec/bridge.md`` 2.1-2.3).

Denominations low to high: clubs, diamonds, hearts, spades, no-trump. Their index here is the
bidding order, which is not the order of the suits in the card encoding (model/cards.py); the map
between the two is ``TRUMP_SUIT``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from model.cards import Suit

DENOMS = ("C", "D", "H", "S", "NT")
CLUBS, DIAMONDS, HEARTS, SPADES, NOTRUMP = range(5)
TRUMP_SUIT: tuple[int | None, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES, None)
"""The card-encoding suit of each denomination's trumps (``None``: no-trump)."""
HAND_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
"""The order a hand's suits are written in: spades, hearts, diamonds, clubs, as a PBN deal
(PBN 2.1, 3.4.11 "Deal") and BBO's hand diagrams write them."""

DOUBLINGS = ("", "X", "XX")
"""0 undoubled, 1 doubled, 2 redoubled; the multiplier of the trick score is ``2 ** doubled``."""

PASS, DOUBLE, REDOUBLE = "pass", "X", "XX"

_CONTRACT = re.compile(r"^([1-7])(C|D|H|S|NT|N)(X{0,2})$")


SPELLINGS = 4096
"""Spellings of calls and contracts each reader remembers (a file writes the same few thousand
over and over; the results are immutable)."""


class ContractError(ValueError):
    pass


@dataclass(frozen=True, slots=True)
class Contract:
    level: int
    """1..7: the contract is for ``level + 6`` tricks."""
    denom: int
    """Index into ``DENOMS``."""
    doubled: int = 0
    """0, 1 (X) or 2 (XX)."""

    @property
    def tricks_needed(self) -> int:
        return self.level + 6

    def __str__(self) -> str:
        return f"{self.level}{DENOMS[self.denom]}{DOUBLINGS[self.doubled]}"


@lru_cache(maxsize=SPELLINGS)
def parse_contract(text: str) -> Contract:
    """``"4SX"`` -> ``Contract(4, SPADES, 1)``; ``N`` is accepted for ``NT``."""
    m = _CONTRACT.match(text.strip().upper())
    if m is None:
        raise ContractError(f"not a bridge contract: {text!r} (1C ... 7NT, optional X or XX)")
    denom = m.group(2)
    return Contract(int(m.group(1)), DENOMS.index("NT" if denom == "N" else denom), len(m.group(3)))


def bid_rank(level: int, denom: int) -> int:
    """0 for 1C ... 34 for 7NT: a bid outranks another when its rank is higher (2.1)."""
    return 5 * (level - 1) + denom


@lru_cache(maxsize=SPELLINGS)
def parse_bid(text: str) -> tuple[int, int] | None:
    """``"3NT"`` -> ``(3, NOTRUMP)``; ``None`` when the call is not a bid."""
    m = _CONTRACT.match(text.strip().upper())
    if m is None or m.group(3):
        return None
    denom = m.group(2)
    return int(m.group(1)), DENOMS.index("NT" if denom == "N" else denom)


@lru_cache(maxsize=SPELLINGS)
def normalise_call(text: str) -> str:
    """One spelling per call: ``pass``, ``X``, ``XX`` or a bid such as ``1NT``.

    Accepts the PBN and LIN forms (``Pass``, ``P``, ``D``, ``R``, ``Dbl``, ``1N``)."""
    t = text.strip().upper().rstrip("!")
    if t in ("P", "PASS", "AP"):
        return PASS
    if t in ("X", "D", "DBL", "DOUBLE"):
        return DOUBLE
    if t in ("XX", "R", "RDBL", "REDOUBLE"):
        return REDOUBLE
    bid = parse_bid(t)
    if bid is None:
        raise ContractError(f"not a call: {text!r} (pass, X, XX, or a bid 1C ... 7NT)")
    return f"{bid[0]}{DENOMS[bid[1]]}"
