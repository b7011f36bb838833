"""Balkan contracts: the PPN contract code, trumps, trick targets and whether a contract was made.

Sources: ``../shared/spec/balkan.md`` 1 (games and numbers), 4 (targets), 6 (early end),
``../shared/spec/records.md`` 1.2 (contract grammar: ``2``..``7``, ``8`` with the preferans
option, prefixed ``G`` for igra).
"""

from __future__ import annotations

from dataclasses import dataclass

from model.balkan.params import BalkanRules
from model.cards import Suit

PIK, KARO, HERC, TREF, BETL, SANS, PREFERANS = 2, 3, 4, 5, 6, 7, 8
GAME_NAMES = {2: "Pik", 3: "Karo", 4: "Herc", 5: "Tref", 6: "Betl", 7: "Sans", 8: "Preferans"}
TRUMP: dict[int, int] = {
    PIK: Suit.SPADES,
    KARO: Suit.DIAMONDS,
    HERC: Suit.HEARTS,
    TREF: Suit.CLUBS,
}
"""Trump suit of the suit games (1): 2 spades, 3 diamonds, 4 hearts, 5 clubs."""


class ContractError(ValueError):
    """A contract code the grammar does not know; quotes it."""


@dataclass(frozen=True, slots=True)
class Contract:
    number: int
    """2..8 (balkan.md 1)."""
    igra: bool
    """Played as a game, without the talon (3.1, 4)."""

    @property
    def trump(self) -> int | None:
        return TRUMP.get(self.number)

    @property
    def code(self) -> str:
        return ("G" if self.igra else "") + str(self.number)

    @property
    def name(self) -> str:
        return ("igra " if self.igra else "") + GAME_NAMES[self.number]


def parse_contract(text: str, rules: BalkanRules | None = None) -> Contract:
    """``"4"`` -> Herc with talon, ``"G7"`` -> igra Sans. ``8`` needs ``preferans_bid``."""
    t = text.strip().upper()
    igra = t.startswith("G")
    digits = t[1:] if igra else t
    if len(digits) != 1 or not digits.isdigit() or not 2 <= int(digits) <= 8:
        raise ContractError(
            f"not a Balkan contract code: {text!r} (2..7, 8 with preferans_bid; G prefix = igra)"
        )
    number = int(digits)
    if number == PREFERANS and rules is not None and not rules.preferans_bid:
        raise ContractError(f"contract {text!r}: Preferans (8) needs the preferans_bid option")
    return Contract(number, igra)


def declarer_made(number: int, declarer_tricks: int) -> bool:
    """Made (4, 6): Bettel no trick; Preferans all ten; otherwise six tricks."""
    if number == BETL:
        return declarer_tricks == 0
    if number == PREFERANS:
        return declarer_tricks == 10
    return declarer_tricks >= 6


NO_STOP = 11
"""More tricks than a deal has: the play does not stop early."""


def play_stops(number: int) -> tuple[int, int]:
    """Where the play stops early (6): (the declarer's tricks, the defence's tricks) that end it.
    Bettel at the declarer's first trick; Preferans at the defence's first; otherwise at the
    defence's fifth."""
    if number == BETL:
        return 1, NO_STOP
    if number == PREFERANS:
        return NO_STOP, 1
    return NO_STOP, 5


def play_over(number: int, declarer_tricks: int, defence_tricks: int, total: int) -> bool:
    """Has play stopped (6)? At :func:`play_stops`, or after all ``total`` tricks."""
    won, lost = play_stops(number)
    d, x = declarer_tricks, defence_tricks
    return d >= won or x >= lost or d + x >= total


def trick_domain_ok(number: int, declarer_tricks: int, defence_tricks: int) -> bool:
    """The scores a finished play can leave (6, "Trick-count domain")."""
    d, x = declarer_tricks, defence_tricks
    if number == BETL:
        return (d == 0 and x == 10) or (d == 1 and x <= 9)
    if number == PREFERANS:
        return (d == 10 and x == 0) or (x == 1 and d <= 9)
    return (d >= 6 and d + x == 10) or (d <= 5 and x == 5)
