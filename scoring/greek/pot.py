"""The common pot across deals, vectorised over games (``../shared/spec/greek-prefa.md`` 15).

With ``bookkeeping = common_pot`` (prefadoros.net) there are no personal kassas: the players put
``initial_kassa`` points each into one pot, and where the seed changes a player's kassa by x points
he puts 10*x chips into the pot (takes them out when x < 0). The pot belongs to the players in
equal shares, so a deposit of c chips is c/n chips paid to each other player (sparse payments, in
sixths of a chip). The game ends when the pot is empty. A contract worth more than the pot holds
is settled at a lower value by ``pot_end`` (the prefadoros table setting): ``normal`` always at
v = the pot, ``unbalanced`` only when the pot pays (the declarer's kassa change is a deduction),
``fair`` never (the pot goes below 0, every player tops it up equally, it stands at 0).

One step per deal index, over every common-pot game at once; ``scoring/greek/reference.py``
(``CommonPot``) is the rulebook version.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from scoring.greek.scan import CHIPS_PER_POINT, SEATS, Sparse, split

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
B = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.signedinteger[Any]]

NORMAL, UNBALANCED, FAIR = range(3)


@dataclass(frozen=True, slots=True)
class PotDeals:
    """The deals of common-pot games (grouped by game, in deal order), with their game's options
    and what section 9 / 14 made of them at full value."""

    deal: I64
    """Index of the deal in the kernel's input."""
    game: I64
    n: I64
    pot_end: I32
    half_up: B
    level: Ints
    v: I32
    unit: Ints
    """The declarer's kassa change per unit of v (section 9)."""
    change: I32
    """The declarer's kassa change at full value (play_low and the preliminary concession
    included)."""
    inc: I64
    """(deals, 2) the all-pass increases of R and L (``play_low``)."""
    seats: I64
    """(deals, 3) the seats of D, R and L."""


@dataclass(frozen=True, slots=True)
class Pots:
    """Per pot deal (same order as ``PotDeals``): settled, the pot after it and its change (in
    points), the value it was settled at; per game index: ended by an empty pot."""

    settled: B
    after: I64
    delta: I64
    v: I64
    finished: dict[int, bool]


def settle_pots(p: PotDeals, initial: I64, sparse: Sparse) -> Pots:
    """Deal k of every pot game at step k; ``initial`` is each pot game's first pot (n *
    ``initial_kassa``, indexed like ``p.game``'s values). Adds the pot shares to ``sparse``."""
    m = len(p.deal)
    games, first, inverse = np.unique(p.game, return_index=True, return_inverse=True)
    pos = np.arange(m) - first[inverse]
    order = np.argsort(pos, kind="stable")
    bounds = np.searchsorted(pos[order], np.arange(int(pos.max(initial=-1)) + 2))
    pot = initial[games].astype(np.int64)
    alive = np.ones(len(games), np.bool_)
    settled = np.zeros(m, np.bool_)
    after = np.zeros(m, np.int64)
    delta = np.zeros(m, np.int64)
    v = p.v.astype(np.int64)
    change = p.change.astype(np.int64)
    for k in range(len(bounds) - 1):
        rows = order[bounds[k]:bounds[k + 1]]
        gi = inverse[rows]
        rows, gi = rows[alive[gi]], gi[alive[gi]]
        before = pot[gi]
        end = p.pot_end[rows]
        cap = (p.level[rows] > 0) & (v[rows] > before) & (
            (end == NORMAL) | ((end == UNBALANCED) & (change[rows] < 0)))
        capped = rows[cap]
        v[capped] = before[cap]
        change[capped] = p.unit[capped] * before[cap]
        now = before + change[rows] + p.inc[rows].sum(axis=1)
        empty = now <= 0
        now[empty] = 0
        pot[gi] = now
        alive[gi[empty]] = False
        settled[rows] = True
        after[rows] = now
        delta[rows] = now - before
    shares(p, change, settled, sparse)
    finished = dict(zip(games.tolist(), (~alive).tolist(), strict=True))
    return Pots(settled, after, delta, v, finished)


def shares(p: PotDeals, change: I64, settled: B, sparse: Sparse) -> None:
    """A deposit of x points by a seat: 10*x/n chips to each other seat of the game (x < 0: from
    each other seat), rounded per ``chip_rounding`` like every payment."""
    for role, x in enumerate((change, p.inc[:, 0], p.inc[:, 1])):
        rows = np.flatnonzero((x != 0) & settled)
        if not len(rows):
            continue
        seat = p.seats[rows, role]
        each = split(CHIPS_PER_POINT * np.abs(x[rows]), p.n[rows], p.half_up[rows])
        gets = ((p.n[rows, None] > SEATS) & (seat[:, None] != SEATS)).ravel()
        row = np.repeat(np.arange(len(rows)), 4)[gets]
        other = np.flatnonzero(gets) % 4
        puts = x[rows][row] > 0
        sparse.add(p.deal[rows][row], np.where(puts, seat[row], other),
                   np.where(puts, other, seat[row]), each[row])
