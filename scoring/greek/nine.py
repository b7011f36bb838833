"""Section 9 of ``../shared/spec/greek-prefa.md`` vectorised, plus the fixed payments of section 14.

``coefficients`` is the rule (the 9.5 pseudo-code as array arithmetic, with v = 1): every chip
amount of section 9 and the declarer's kassa change are v times a whole number that depends only on
the contract level, the ``ten_as_nine`` row, the defence mode, which defender is the whister and the
three trick counts. That domain is small (191,664 cases), so ``TABLE`` holds the coefficients of
all of it and ``section_nine`` settles a million deals by one table look-up each and a multiply by
v (STYLE.md practice 4: enumerate a finite domain and settle by look-up).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from model.greek.contracts import ALONE_QUOTA, BOTH_QUOTA, TEAM_QUOTA, base_value
from model.greek.frame import MODES
from model.greek.params import GreekRules

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
B = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.signedinteger[Any]]

NONE, PASS, BOTH, INVITE, ALONE, CONCEDE = range(len(MODES))
PRELIMINARY_PENALTY = 2
SITTER_DOWN_ONE, SITTER_DOWN_MORE = 25, 50


def _row_table(d: dict[int, int]) -> I32:
    out = np.zeros(11, np.int32)
    for k, x in d.items():
        out[k] = x
    return out


TEAM = _row_table(TEAM_QUOTA)
IND_R = _row_table({k: q[0] for k, q in BOTH_QUOTA.items()})
IND_L = _row_table({k: q[1] for k, q in BOTH_QUOTA.items()})
ALONE_Q = _row_table(ALONE_QUOTA)

VALUE = np.ones(11 * 5, np.int32)
"""v by ``level * 5 + denom`` (5.1; 10NT as 10, see ``values``); 1 where there is no contract,
so that the preliminary concession's fixed 2 scales to 2."""
for _lv in range(6, 11):
    for _dn in range(5):
        VALUE[_lv * 5 + _dn] = base_value(_lv, _dn, GreekRules(ten_nt="value_10"))


@dataclass(frozen=True, slots=True)
class Coefficients:
    """Per case: chips D pays R / D pays L / R pays L, the declarer's kassa change (all per unit
    of v), and the chips the declarer owes a sitting-out dealer (0 unless the declarer failed)."""

    d_r: I32
    d_l: I32
    r_l: I32
    kassa: I32
    sitter: I32


def coefficients(level: Ints, t9: B, mode: Ints, w_right: B, t_d: Ints, t_r: Ints, t_l: Ints
                 ) -> Coefficients:
    """9.1-9.5 with v = 1 (the pseudo-code), the conceded contract of 14 ``concede_any_contract``
    scored as two down (defenders credited the rest of the tricks, R the odd one) and the
    preliminary concession of 5 (+2 kassa, 2 chips to each defender)."""
    row = np.where((level == 10) & t9, 9, level)
    has_contract = level > 0
    solo = (mode == CONCEDE) & has_contract
    prelim = (mode == CONCEDE) & ~has_contract
    rest = 12 - level
    t_d = np.where(solo, level - 2, t_d)
    t_r = np.where(solo, (rest + 1) // 2, t_r)
    t_l = np.where(solo, rest // 2, t_l)
    both = (mode == BOTH) | solo
    played = both | (mode == INVITE) | (mode == ALONE)

    short = level - t_d
    failed = played & (short > 0)
    mult = np.where(short == 1, 1, 2)
    team = TEAM[row]
    quota = np.where(mode == ALONE, ALONE_Q[row], team)
    t_def = t_r + t_l
    met = played & ~failed & (t_def >= quota)
    d_fail = played & ~failed & (t_def < quota)

    # 9.2 / 9.3: D pays each defender per trick (x m when he failed); the whister takes all
    k = np.where(failed, mult, np.where(met, 1, 0))
    to_w = np.where(d_fail, -t_d * (quota - t_def), k * t_def)  # 9.4 one defender: W pays D
    d_r = np.where(both, k * t_r, np.where(w_right, to_w, 0))
    d_l = np.where(both, k * t_l, np.where(w_right, 0, to_w))
    # 9.4 both defending: who missed the individual quota pays (collective / own shortfall)
    ind_r, ind_l = IND_R[row], IND_L[row]
    fail2 = d_fail & both
    miss_r = fail2 & (t_r < ind_r)
    miss_l = fail2 & (t_l < ind_l)
    s = team - t_def
    s_r = np.where(miss_r, np.where(miss_l, ind_r - t_r, s), 0)
    s_l = np.where(miss_l, np.where(miss_r, ind_l - t_l, s), 0)
    d_r = np.where(fail2, -t_d * s_r, d_r)
    d_l = np.where(fail2, -t_d * s_l, d_l)
    r_l = np.where(miss_r & ~miss_l, t_l * s, np.where(miss_l & ~miss_r, -t_r * s, 0))
    d_r = np.where(prelim, PRELIMINARY_PENALTY, d_r)
    d_l = np.where(prelim, PRELIMINARY_PENALTY, d_l)

    kassa = np.where(failed, mult, np.where(met | (mode == PASS), -1, 0))
    kassa = np.where(prelim, PRELIMINARY_PENALTY, kassa)
    sitter = np.where(failed, np.where(short == 1, SITTER_DOWN_ONE, SITTER_DOWN_MORE), 0)
    return Coefficients(*(x.astype(np.int32) for x in (d_r, d_l, r_l, kassa, sitter)))


LEVELS = 6  # no contract, 6..10
TRICK_CASES = 11 * 11 * 11


def case_key(level: Ints, t9: B, mode: Ints, w_right: B, t_d: Ints, t_r: Ints, t_l: Ints
             ) -> I64:
    """Index of a case in ``TABLE``."""
    lv = np.maximum(level.astype(np.int16) - 5, 0)
    ctx = ((lv * 2 + t9) * len(MODES) + mode) * 2 + w_right
    tricks = (t_d.astype(np.int16) * 11 + t_r) * 11 + t_l
    return ctx.astype(np.int64) * TRICK_CASES + tricks


_CONTEXT = np.array(
    [((max(level - 5, 0) * 2) * len(MODES) + mode) * 2 * TRICK_CASES
     for level in range(11) for mode in range(len(MODES))],
    dtype=np.int32,
)
"""``case_key`` without the trick counts, by ``level * 6 + mode`` (``ten_as_nine`` and the whister
side added apart)."""
_T9 = len(MODES) * 2 * TRICK_CASES
_WR = TRICK_CASES


def deal_key(level: Ints, mode: Ints, w_right: B, t_d: Ints, t_r: Ints, t_l: Ints,
             ten_as_nine: Ints) -> I32:
    """``case_key`` for many deals with fewer passes: ``ten_as_nine`` lists the rows that settle a
    10-trick contract on the 9-trick row."""
    key = np.take(_CONTEXT, level * len(MODES) + mode)
    key += (t_d * 11 + t_r) * 11 + t_l
    key += w_right * np.int32(_WR)
    key[ten_as_nine] += _T9
    return key


def _enumerate() -> npt.NDArray[np.int64]:
    shape = (LEVELS, 2, len(MODES), 2, 11, 11, 11)
    lv, t9, mode, wr, t_d, t_r, t_l = (a.ravel() for a in np.indices(shape, dtype=np.int32))
    level = np.where(lv == 0, 0, lv + 5).astype(np.int32)
    out = coefficients(level, t9.astype(bool), mode, wr.astype(bool), t_d, t_r, t_l)
    key = case_key(level, t9.astype(bool), mode, wr.astype(bool), t_d, t_r, t_l)
    assert np.array_equal(key, np.arange(len(key)))
    eight = np.zeros((len(key), 8), np.int8)
    columns = (
        -(out.d_r + out.d_l), out.d_r - out.r_l, out.d_l + out.r_l,  # chips of D, R, L
        out.kassa, out.sitter // SITTER_DOWN_ONE, out.d_r, out.d_l, out.r_l,
    )
    for k, col in enumerate(columns):
        assert col.min() >= -128 and col.max() <= 127
        eight[:, k] = col
    assert np.array_equal(eight[:, 4].astype(np.int32) * SITTER_DOWN_ONE, out.sitter)
    return eight.view(np.int64).ravel()


TABLE = _enumerate()
"""Per case, eight int8 packed in one int64 (one look-up per deal; ``unpack`` splits them): per
unit of v the chips of D, R and L (before the sitter), the declarer's kassa change, the sitter's
chips in units of 25, and the payments D to R, D to L, R to L (for the transfers)."""
CHIPS_D, CHIPS_R, CHIPS_L, KASSA, SITTER, PAY_DR, PAY_DL, PAY_RL = range(8)


def unpack(packed: npt.NDArray[np.int64]) -> npt.NDArray[np.int8]:
    """(deals, 8) int8 columns, see ``TABLE``."""
    return packed.view(np.int8).reshape(-1, 8)
