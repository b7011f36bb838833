"""Greek Prefa settlement, vectorised (``../shared/spec/greek-prefa.md`` 9-11, 14).

Two stages, numpy only, no loop over deals:

1. section 9 and the fixed chips of 14 for every deal at once (``scoring/greek/nine.py``): whole
   chips per role (D the declarer, R, L, S the sitting-out dealer) and the declarer's kassa change
   before the floor; they depend on the deal alone;
2. the kassa floor, overflow and end of the game across deals (``scoring/greek/scan.py``): one step
   per deal index over all games at once.

``settle_arrays`` returns per deal the whole chips of stage 1 by role, the kassa after and its
change by seat (in the scan's step-major order, ``Result.where`` maps a deal to its row), and the
few fractional payments of stage 2 (overflow, end of game) as a sparse list in sixths of a chip.
``scoring/greek/reference.py`` is the rulebook version; the tests hold the two equal.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from model.greek.params import GreekRules
from scoring.greek.nine import (
    CHIPS_D,
    CHIPS_L,
    CHIPS_R,
    CONCEDE,
    KASSA,
    NONE,
    PAY_DL,
    PAY_DR,
    PAY_RL,
    PRELIMINARY_PENALTY,
    SITTER,
    SITTER_DOWN_ONE,
    TABLE,
    VALUE,
    deal_key,
    unpack,
)
from scoring.greek.pot import PotDeals, Pots, settle_pots
from scoring.greek.scan import SIXTHS, Low, Sparse, scan

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
I8 = npt.NDArray[np.int8]
B = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.signedinteger[Any]]

D, R, L, S = range(4)
"""Roles: the declarer (or the first hand when nobody declared), his right, his left, the sitter."""


@dataclass(frozen=True, slots=True)
class GameArrays:
    """One entry per game: the options of section 14 as numbers."""

    n: I32
    initial: I32
    ten_nt_value: I32
    ten_as_nine: B
    aces_mode: I32
    """0 none, 1 raise_value, 2 fixed_chips."""
    aces_raise: I32
    aces_six: I32
    aces_more: I32
    play_low: B
    end_two: B
    half_up: B
    pot: B
    """15 ``bookkeeping = common_pot``."""
    pot_end: I32
    """0 normal, 1 unbalanced, 2 fair (15 ``pot_end``)."""
    prelim_sitter: B
    """Four players: the preliminary concession pays the sitter too (``concession_pays_sitter``)."""

    @classmethod
    def from_rules(cls, players: list[int], rules: list[GreekRules],
                   at: np.ndarray | None = None) -> GameArrays:
        """The games' arrays: game ``i`` plays ``rules[at[i]]`` (``rules[i]`` without ``at``;
        a score sheet of many games has few distinct rules, each worked out once)."""
        def num(f: Callable[[GreekRules], int]) -> I32:
            values = np.array([f(r) for r in rules], dtype=np.int32)
            return values if at is None else values[at]

        def flag(f: Callable[[GreekRules], bool]) -> B:
            values = np.array([f(r) for r in rules], dtype=np.bool_)
            return values if at is None else values[at]

        return cls(
            n=np.array(players, np.int32),
            initial=num(lambda r: r.initial_kassa),
            ten_nt_value=num(lambda r: 11 if r.ten_nt == "value_11" else 10),
            ten_as_nine=flag(lambda r: r.ten_as_nine),
            aces_mode=num(lambda r: ("none", "raise_value", "fixed_chips").index(r.four_aces)),
            aces_raise=num(lambda r: r.four_aces_value_raise()),
            aces_six=num(lambda r: r.four_aces_chips(6)),
            aces_more=num(lambda r: r.four_aces_chips(7)),
            play_low=flag(lambda r: r.all_pass == "play_low"),
            end_two=flag(lambda r: r.end_at_two_empty),
            half_up=flag(lambda r: r.chip_rounding == "round_half_up"),
            pot=flag(lambda r: r.bookkeeping == "common_pot"),
            pot_end=num(lambda r: ("normal", "unbalanced", "fair").index(r.pot_end)),
            prelim_sitter=flag(lambda r: r.concession_pays_sitter),
        )


@dataclass(frozen=True, slots=True)
class DealArrays:
    """One entry per deal, grouped by game (index order) and sorted by deal_no within a game."""

    game: I64
    dealer: I8
    declarer: I8
    """-1: nobody declared."""
    level: I8
    """0: no contract."""
    denom: I8
    mode: I8
    whister: I8
    """-1: not a one-defender mode."""
    tricks: I8
    """(deals, 4); a seat without tricks took 0."""
    has_tricks: B
    four_aces: B


def _seat_tables() -> tuple[I8, I8]:
    """By ``(n == 4) * 20 + dealer * 5 + declarer + 1``: the seat of each role D, R, L, S (3, 6.1,
    14 four players; -1: no sitter), and back: the role of each seat (-1: no such seat)."""
    seat_of = np.full((40, 4), -1, np.int8)
    role_of = np.full((40, 4), -1, np.int8)
    for four in (0, 1):
        n = 4 if four else 3
        for dealer in range(4):
            for declarer in range(-1, 4):
                code = four * 20 + dealer * 5 + declarer + 1
                dl = dealer % n
                sitter = dl if four else -1
                p = declarer % n if declarer >= 0 else (dl + 1) % n
                r = (p + 1) % n
                if r == sitter:
                    r = (r + 1) % n
                rest = [s for s in range(n) if s not in (p, r, sitter)] or [r]
                seat_of[code] = (p, r, rest[0], sitter)
                for role, seat in enumerate(seat_of[code]):
                    if seat >= 0:
                        role_of[code, seat] = role
    return seat_of, role_of


SEAT_OF_ROLE, ROLE_OF_SEAT = _seat_tables()


@dataclass(frozen=True, slots=True)
class Roles:
    code: I64
    """Index into ``SEAT_OF_ROLE`` / ``ROLE_OF_SEAT``."""
    p: I8
    r: I8
    left: I8
    sitter: I8
    """-1 with three players."""


def roles(g: GameArrays, d: DealArrays) -> Roles:
    four = np.take(np.where(g.n == 4, 20, 0).astype(np.int64), d.game)
    code = four + (d.dealer * 5 + d.declarer + 1)
    seat = SEAT_OF_ROLE.T
    return Roles(code, *(np.take(seat[k], code) for k in (D, R, L, S)))


@dataclass(frozen=True, slots=True)
class Nine:
    """Stage 1 per deal: whole chips by role (4, deals) for D, R, L, S, the declarer's kassa
    change, the all-pass increases of R and L, and what the transfers need: the table row, v and
    the four-aces chips of ``fixed_chips`` deals."""

    chips: I32
    kassa: I32
    low: Low
    coef: I8
    v: I32
    four: B
    aces_rows: I64
    aces_pay: I32
    """Chips each other player pays D (negative: D pays each) on ``aces_rows``."""
    prelim_rows: I64
    """Preliminary concessions that also pay the sitter (``concession_pays_sitter``)."""

    def pairs(self) -> tuple[I32, I32, I32, I32]:
        """Chips D pays R, D pays L, R pays L, D pays S (negative: the other way)."""
        d_r, d_l, r_l = (self.coef[:, k] * self.v for k in (PAY_DR, PAY_DL, PAY_RL))
        d_s = self.coef[:, SITTER] * self.four * np.int32(SITTER_DOWN_ONE)
        rows, pay = self.aces_rows, self.aces_pay
        d_r[rows] -= pay
        d_l[rows] -= pay
        d_s[rows] -= np.where(self.four[rows], pay, 0)
        d_s[self.prelim_rows] += PRELIMINARY_PENALTY
        return d_r, d_l, r_l, d_s


def _byte_shift(seat: I8) -> npt.NDArray[np.int32]:
    """Bit offset of seat ``seat``'s byte inside the int32 view of a row of 4 int8."""
    byte = seat if sys.byteorder == "little" else 3 - seat
    return byte.astype(np.int32) * 8


def section_nine(g: GameArrays, d: DealArrays, ro: Roles) -> Nine:
    """9.1-9.5 by table look-up times v; 14: ten_nt, four aces, four players, play_low. The
    options that only touch a few deals (10-trick contracts, four aces, all-pass play) are applied
    to those deals only."""
    gi, lvl = d.game, d.level
    # the four trick counts of a deal are four bytes: read them as one int32 and shift
    word = np.ascontiguousarray(d.tricks, dtype=np.int8).view(np.int32).ravel()
    t_d, t_r, t_l = ((word >> _byte_shift(s)) & 0xFF for s in (ro.p, ro.r, ro.left))
    v = np.take(VALUE, lvl * 5 + d.denom)
    ten = np.flatnonzero(lvl == 10)
    nt = ten[d.denom[ten] == 4]
    v[nt] = g.ten_nt_value[gi[nt]]
    t9 = ten[g.ten_as_nine[gi[ten]]]
    aces = np.flatnonzero(d.four_aces)
    aces = aces[lvl[aces] > 0]
    aces_mode = g.aces_mode[gi[aces]]
    raised = aces[aces_mode == 1]
    v[raised] += g.aces_raise[gi[raised]]
    key = deal_key(lvl, d.mode, d.whister == ro.r, t_d, t_r, t_l, t9)
    coef = unpack(np.take(TABLE, key, mode="clip"))  # tricks are 0..10 (records.md)
    four = ro.sitter >= 0
    chips = np.empty((4, len(lvl)), np.int32)
    # 14 four players: the sitter gets 25 chips (down 1) or 50 (down 2 or more)
    np.multiply(coef[:, SITTER] * four, np.int32(SITTER_DOWN_ONE), out=chips[S])
    np.multiply(coef[:, CHIPS_D], v, out=chips[D])
    chips[D] -= chips[S]
    np.multiply(coef[:, CHIPS_R], v, out=chips[R])
    np.multiply(coef[:, CHIPS_L], v, out=chips[L])
    kassa = coef[:, KASSA] * v
    fixed = aces[aces_mode == 2]
    pay = np.zeros(0, np.int32)
    if len(fixed):  # 14 four_aces = fixed_chips: made -> all pay D, else D pays all
        gf = gi[fixed]
        amount = np.where(lvl[fixed] == 6, g.aces_six[gf], g.aces_more[gf])
        pay = np.where(coef[fixed, SITTER] > 0, -amount, amount).astype(np.int32)
        others = np.where(four[fixed], 3, 2)
        chips[D, fixed] += others * pay
        chips[R, fixed] -= pay
        chips[L, fixed] -= pay
        chips[S, fixed] -= np.where(four[fixed], pay, 0)
    # 5, 14 concession_pays_sitter: the preliminary concession's 2 chips go to the sitter too
    prelim = np.flatnonzero((d.mode == CONCEDE) & (lvl == 0) & four)
    prelim = prelim[g.prelim_sitter[gi[prelim]]]
    chips[S, prelim] += PRELIMINARY_PENALTY
    chips[D, prelim] -= PRELIMINARY_PENALTY
    low = np.flatnonzero(d.mode == NONE)
    low = low[d.has_tricks[low] & g.play_low[gi[low]]]
    # 14 all_pass = play_low: kassa += own tricks - fewest
    fewest = np.minimum(np.minimum(t_d[low], t_r[low]), t_l[low])
    kassa[low] = t_d[low] - fewest
    increases = Low(low, ro.r[low], (t_r[low] - fewest).astype(np.int32),
                    ro.left[low], (t_l[low] - fewest).astype(np.int32))
    return Nine(chips, kassa, increases, coef, v, four, fixed, pay, prelim)


@dataclass(frozen=True, slots=True)
class Result:
    settled: B
    chips: I32
    """(4, deals) whole chips of sections 9 / 14 by role D, R, L, S (add ``sparse``)."""
    where: Ints
    """Deal -> its row in ``kassa_after`` / ``kassa_delta`` (the scan's step-major order)."""
    kassa_after: Ints
    """(deals, 4) by seat, step-major rows (int16 when no kassa can reach 2**15, else int32)."""
    kassa_delta: Ints
    """(deals, 4) by seat, step-major rows."""
    finished: B
    """Per game: the game ended by the rules (11)."""
    roles: Roles
    nine: Nine
    sparse: tuple[I64, I64, I64, I64]
    """Overflow and end payments: (deal, payer seat, payee seat, sixths of a chip)."""

    def chips6(self) -> I64:
        """(4, deals) chips by role in sixths, everything included."""
        out = self.chips.astype(np.int64) * SIXTHS
        deal, payer, payee, amount = self.sparse
        if len(deal):
            role = ROLE_OF_SEAT[self.roles.code[deal]]
            rows = np.arange(len(deal))
            np.add.at(out, (role[rows, payer], deal), -amount)
            np.add.at(out, (role[rows, payee], deal), amount)
        return out

    def by_seat(self) -> tuple[I64, Ints, Ints]:
        """(deals, 4) chips in sixths, kassa change and kassa after, by seat in deal order (0 for
        a seat that does not exist)."""
        role = ROLE_OF_SEAT[self.roles.code].astype(np.int64)
        chips6 = np.take_along_axis(self.chips6().T, np.maximum(role, 0), axis=1) * (role >= 0)
        return chips6, self.kassa_delta[self.where], self.kassa_after[self.where]


def settle_arrays(g: GameArrays, d: DealArrays) -> Result:
    """Sections 9-11 (15 for common-pot games) for every deal of every game at once."""
    ro = roles(g, d)
    nine = section_nine(g, d, ro)
    sparse = Sparse()
    in_pot = np.take(g.pot, d.game)
    pots = common_pots(g, d, ro, nine, in_pot, sparse)
    change, low = nine.kassa, nine.low
    if pots is not None:  # the kassa scan leaves common-pot games alone
        change = np.where(in_pot, 0, change)
        keep = ~in_pot[low.deals]
        low = Low(low.deals[keep], low.seat_r[keep], low.inc_r[keep], low.seat_l[keep],
                  low.inc_l[keep])
    # the largest kassa change of a deal: two down at the highest value (5.1, 14)
    largest = 2 * (11 + int(g.aces_raise.max(initial=0)))
    scanned = scan(d.game, g.n, g.initial, g.half_up, g.end_two, ro.p, change, low,
                   sparse, largest)
    settled = np.take(scanned.settled, scanned.where)
    after, delta, finished = scanned.kassa_after, scanned.kassa_delta, scanned.finished
    if pots is not None:
        deals, result = pots
        settled[deals] = result.settled
        after, delta = after.astype(np.int64), delta.astype(np.int64)
        rows = scanned.where[deals]
        after[rows] = result.after[:, None]
        delta[rows] = result.delta[:, None]
        for game, ended in result.finished.items():
            finished[game] = ended
    return Result(settled, nine.chips, scanned.where, after, delta, finished, ro, nine,
                  sparse.arrays())


def common_pots(g: GameArrays, d: DealArrays, ro: Roles, nine: Nine, in_pot: B,
                sparse: Sparse) -> tuple[I64, Pots] | None:
    """15 for the deals of common-pot games (``scoring/greek/pot.py``); a deal settled below its
    value (``pot_end``) has its section 9 chips and kassa change rescaled in ``nine``."""
    deals = np.flatnonzero(in_pot)
    if not len(deals):
        return None
    gi = d.game[deals]
    inc = np.zeros((len(deals), 2), np.int64)
    at = np.searchsorted(deals, nine.low.deals)
    hit = (at < len(deals)) & (deals[np.minimum(at, len(deals) - 1)] == nine.low.deals)
    inc[at[hit], 0] = nine.low.inc_r[hit]
    inc[at[hit], 1] = nine.low.inc_l[hit]
    p = PotDeals(deals, gi, g.n[gi].astype(np.int64), g.pot_end[gi], g.half_up[gi],
                 d.level[deals], nine.v[deals], nine.coef[deals, KASSA], nine.kassa[deals], inc,
                 np.stack([ro.p[deals], ro.r[deals], ro.left[deals]], axis=1).astype(np.int64))
    result = settle_pots(p, g.n.astype(np.int64) * g.initial, sparse)
    lower = np.flatnonzero(result.v != nine.v[deals])
    rows = deals[lower]
    cut = nine.v[rows] - result.v[lower].astype(np.int32)
    for role, column in ((D, CHIPS_D), (R, CHIPS_R), (L, CHIPS_L)):
        nine.chips[role, rows] -= nine.coef[rows, column] * cut
    nine.v[rows] -= cut
    nine.kassa[rows] = nine.coef[rows, KASSA] * nine.v[rows]
    return deals, result
