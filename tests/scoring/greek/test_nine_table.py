"""The kernel's section-9 table (scoring/greek/nine.py) against the reference's rule functions
(scoring/greek/reference.py) on every valid case: each contract level, ``ten_as_nine``, defence
mode, whister side and trick split that sums to 10 (greek-prefa.md 6.2, 9.1-9.5, 14)."""

from __future__ import annotations

import numpy as np
import pytest

from model.greek.contracts import obligation_row
from model.greek.frame import MODES
from model.greek.params import GreekRules
from scoring.greek.nine import TABLE, case_key, deal_key, unpack
from scoring.greek.reference import Outcome, defended

ROLE = {"D": 0, "R": 1, "L": 2}


def as_row(o: Outcome) -> tuple[int, int, int, int]:
    """(D pays R, D pays L, R pays L, kassa) from the reference's payments."""
    flows = {("D", "R"): 0, ("D", "L"): 0, ("R", "L"): 0}
    for payer, payee, chips in o.pays:
        if (payer, payee) in flows:
            flows[(payer, payee)] += chips
        else:
            flows[(payee, payer)] -= chips
    return flows[("D", "R")], flows[("D", "L")], flows[("R", "L")], o.kassa


@pytest.mark.parametrize("ten_as_nine", [False, True])
@pytest.mark.parametrize("mode", ["both", "invite", "alone"])
def test_table_matches_reference(mode: str, ten_as_nine: bool) -> None:
    rules = GreekRules(ten_as_nine=ten_as_nine)
    checked = 0
    for level in range(6, 11):
        row = obligation_row(level, rules)
        for w_right in (True, False):
            for t_d in range(11):
                for t_r in range(11 - t_d):
                    t_l = 10 - t_d - t_r
                    if mode == "alone":  # the passer's cards take no part: 0 tricks
                        t_r, t_l = (10 - t_d, 0) if w_right else (0, 10 - t_d)
                    whister = "R" if w_right else "L"
                    want = as_row(defended(level, row, 1, mode, whister, t_d, t_r, t_l))
                    key = case_key(np.array([level]), np.array([ten_as_nine]),
                                   np.array([MODES.index(mode)]), np.array([w_right]),
                                   np.array([t_d]), np.array([t_r]), np.array([t_l]))
                    c = unpack(TABLE[key])[0]
                    got = (int(c[5]), int(c[6]), int(c[7]), int(c[3]))
                    chips = (int(c[0]), int(c[1]), int(c[2]))
                    assert chips == (-got[0] - got[1], got[0] - got[2], got[1] + got[2])
                    assert got == want, (level, mode, whister, t_d, t_r, t_l)
                    checked += 1
    assert checked > 600


def test_deal_key_is_case_key() -> None:
    """The kernel's per-deal key (nine.deal_key) indexes the same cases as nine.case_key."""
    rng = np.random.default_rng(3)
    size = 20_000
    level = rng.choice([0, 6, 7, 8, 9, 10], size).astype(np.int8)
    mode = rng.integers(0, len(MODES), size).astype(np.int8)
    t9 = (level == 10) & (rng.random(size) < 0.5)
    w_right = rng.random(size) < 0.5
    t_d, t_r, t_l = (rng.integers(0, 11, size).astype(np.int32) for _ in range(3))
    want = case_key(level, t9, mode, w_right, t_d, t_r, t_l)
    got = deal_key(level, mode, w_right, t_d, t_r, t_l, np.flatnonzero(t9))
    assert np.array_equal(got, want)
