"""The Swabian settlement, vectorised: every deal of every game at once (swabian.md 7-8).

The stake of a deal depends only on (game, aus den Händen, declarer's tricks): a finite domain of
7 x 2 x 11 cells, so it is enumerated once from the reference (``reference.stake``) into a signed
table and every deal looks its cell up (STYLE.md practice 4, "settle by join"). The rest is per-seat
arithmetic on numpy columns: contra factors pairwise (5), Kunstwerk declarer -> dealer (4).
Nothing is carried across deals but the running balance, which is a sum (7).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from model.swabian.games import GAMES
from scoring.swabian.reference import stake

I16 = npt.NDArray[np.int16]


def _signed_stakes() -> I16:
    """``table[game * 22 + hand * 11 + tricks]``: +stake when the declarer wins, -stake when he
    loses; 0 for game 0 (nobody declared) and game 1 (none)."""
    table = np.zeros(8 * 22, dtype=np.int16)
    for game in GAMES:
        for hand in (0, 1):
            for tricks in range(11):
                won, units = stake(game, bool(hand), tricks)
                table[game * 22 + hand * 11 + tricks] = units if won else -units
    return table


SIGNED_STAKE = _signed_stakes()


@dataclass(frozen=True, slots=True)
class Columns:
    """The kernel's input, one entry per deal (``deals_swabian`` with nulls filled): ``declarer``
    -1 and ``game`` 0 when nobody declared; ``tricks`` the declarer's tricks (0 when none);
    ``contra_i`` 1, 2 or 4; ``kunstwerk_units`` of the deal's game (rules)."""

    dealer: I16
    declarer: I16
    game: I16
    hand: I16
    tricks: I16
    contra_0: I16
    contra_1: I16
    contra_2: I16
    kunstwerk: I16
    kunstwerk_units: I16


@dataclass(frozen=True, slots=True)
class Paid:
    """Per seat and deal: ``cash`` (the change of the balance) and ``owes`` (what the seat pays
    the declarer, net of Kunstwerk; negative when the declarer pays it; 0 for the declarer)."""

    cash: tuple[I16, I16, I16]
    owes: tuple[I16, I16, I16]


def pay(c: Columns) -> Paid:
    """Every deal's payments between the declarer and each opponent, and the Kunstwerk.

    With s the signed stake, k_i the contra factor and d_i "seat i declares":
    opponent i owes the declarer k_i * s, less the Kunstwerk when he is the dealer (owes_i);
    his cash is -owes_i, the declarer's is the sum of what the others owe him.
    """
    signed = SIGNED_STAKE[(c.game * 2 + c.hand) * 11 + c.tricks]
    kw = c.kunstwerk * c.kunstwerk_units * (c.dealer != c.declarer) * (c.declarer >= 0)
    contra = (c.contra_0, c.contra_1, c.contra_2)
    owes = [contra[i] * signed * (c.declarer != i) - kw * (c.dealer == i) for i in range(3)]
    total = owes[0] + owes[1] + owes[2]
    cash = [total * (c.declarer == i) - owes[i] for i in range(3)]
    return Paid(cash=(cash[0], cash[1], cash[2]), owes=(owes[0], owes[1], owes[2]))
