"""Seats, sides and vulnerability (``../shared/spec/bridge.md`` 1, 6).

Players of a bridge game are listed in turn order N, E, S, W (records.md 1.1), so a seat is an
index 0..3 into ``players``; the side of a seat is ``seat % 2`` (0 = North-South, 1 = East-West).
"""

from __future__ import annotations

from typing import Literal

SEATS = "NESW"
NORTH, EAST, SOUTH, WEST = range(4)
NS, EW = 0, 1
SIDES = ("NS", "EW")

Vulnerable = Literal["None", "NS", "EW", "All"]
"""Vulnerability as the PBN ``Vulnerable`` tag writes it (PBN 2.1 3.4.8)."""

VUL_ALIASES: dict[str, Vulnerable] = {
    "none": "None", "love": "None", "-": "None", "o": "None", "0": "None",
    "ns": "NS", "n": "NS", "ew": "EW", "e": "EW",
    "all": "All", "both": "All", "b": "All",
}
"""Spellings met in PBN and LIN (``sv|o|``, ``Love``, ``Both``) mapped to the PBN values."""

BOARD_VUL: tuple[Vulnerable, ...] = (
    "None", "NS", "EW", "All", "NS", "EW", "All", "None",
    "EW", "All", "None", "NS", "All", "None", "NS", "EW",
)
"""The fixed rotation of duplicate boards 1..16, repeating every 16 boards (bridge.md 6 [bk])."""


class SeatError(ValueError):
    pass


def side_of(seat: int) -> int:
    return seat % 2


def partner(seat: int) -> int:
    return (seat + 2) % 4


def dummy_of(declarer: int) -> int:
    """Dummy is the declarer's partner, who faces his hand after the opening lead; declarer plays
    both hands (bridge.md 3, BR1)."""
    return partner(declarer)


def left_of(seat: int) -> int:
    """The next seat in turn order (clockwise): the opening leader sits left of declarer (3)."""
    return (seat + 1) % 4


def parse_seat(text: str) -> int:
    t = text.strip().upper()[:1]
    if t not in SEATS or not t:
        raise SeatError(f"not a seat: {text!r} (N, E, S or W)")
    return SEATS.index(t)


def parse_vulnerable(text: str) -> Vulnerable:
    key = text.strip().lower()
    if key not in VUL_ALIASES:
        raise SeatError(f"not a vulnerability: {text!r} (None, NS, EW, All)")
    return VUL_ALIASES[key]


def board_vulnerable(board: int) -> Vulnerable:
    """Vulnerability of a duplicate board by its number (bridge.md 6)."""
    return BOARD_VUL[(board - 1) % 16]


def board_dealer(board: int) -> int:
    """Dealer of a duplicate board: N on board 1, then clockwise."""
    return (board - 1) % 4


def is_vulnerable(vul: Vulnerable, side: int) -> bool:
    return vul == "All" or vul == SIDES[side]
