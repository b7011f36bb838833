"""Russian contracts: the bidding ladder, values and defence quotas (russian.md 2, 3, 6).

A contract is ``<tricks><S|C|D|H|NT>`` (``6S`` ... ``10NT``) or ``misere``. Strains are numbered
0..4 = S C D H NT, which is also the bidding order of the suits (1: ♠ < ♣ < ♦ < ♥ < NT) and, for the
four suits, the suit of ``model/cards.py``. The ladder (2) is 6S ... 8NT, misère, 9S ... 10NT.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

STRAINS = ("S", "C", "D", "H", "NT")
NT = 4
MISERE = "misere"
LEVELS = range(6, 11)

VALUE = {6: 2, 7: 4, 8: 6, 9: 8, 10: 10}
"""c: pool points of a contract (3: 6 -> 2 ... 10 -> 10); misère is worth 10 too."""
MISERE_VALUE = 10
QUOTA = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}
"""Q: tricks the whisting side must take together (3)."""
HALF_WHIST_LEVELS = (6, 7)
"""Half-whist is possible on 6 and 7 only (3)."""


class ContractError(ValueError):
    """Text that is not a Russian contract; quotes it."""


@dataclass(frozen=True, slots=True)
class Contract:
    """``level`` 6..10 and ``strain`` 0..4, or a misère (``level`` 0, ``strain`` NT)."""

    level: int
    strain: int
    misere: bool = False

    @property
    def trump(self) -> int | None:
        """The trump suit (``model.cards.Suit``); none in NT and misère (4)."""
        return None if self.misere or self.strain == NT else self.strain

    @property
    def rank(self) -> int:
        """Position on the ladder of 2 (0 = 6S, 15 = misère, 25 = 10NT)."""
        if self.misere:
            return MISERE_RANK
        index = (self.level - 6) * 5 + self.strain
        return index if index < MISERE_RANK else index + 1

    def __str__(self) -> str:
        return MISERE if self.misere else f"{self.level}{STRAINS[self.strain]}"


MISERE_RANK = 15
"""Misère ranks between 8NT (14) and 9S (16) (2, [rostik])."""
MISERE_CONTRACT = Contract(0, NT, misere=True)


@lru_cache(maxsize=1024)
def parse_contract(text: str) -> Contract:
    """``"7H"``, ``"10nt"``, ``"misere"`` (also ``"mizer"``, ``"misère"``); remembered, as a file
    writes the same few contracts over and over."""
    t = text.strip().upper()
    if t in ("MISERE", "MISÈRE", "MIZER", "MISER"):
        return MISERE_CONTRACT
    for i, s in enumerate(STRAINS):
        if t.endswith(s) and t[: -len(s)].isascii() and t[: -len(s)].isdigit():
            level = int(t[: -len(s)])
            if level in LEVELS:
                return Contract(level, i)
    raise ContractError(f"not a Russian contract: {text!r} (6S ... 10NT or misere)")


def value(contract: Contract) -> int:
    return MISERE_VALUE if contract.misere else VALUE[contract.level]
