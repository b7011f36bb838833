"""The vectorised kernel equals the reference (STYLE.md practice 4), and the output invariants."""

from __future__ import annotations

import random

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from scoring.bridge import DUPLICATE, RUBBER
from scoring.bridge.kernel import per_deal_vectorised
from scoring.bridge.reference import per_deal_reference, settle_reference
from sim.drivers import simulator
from sim.random_play.frames import settlement_frames
from tests.scoring.bridge.frames import deal_row, deals_frame, games_frame

MODES = [
    ("bridge-rubber", {}),
    ("bridge-rubber", {"mode": "chicago"}),
    ("bridge-rubber", {"scoring_profile": "seed004", "honours": False}),
    ("bridge-rubber", {"mode": "chicago", "passed_out": "zero"}),
    ("bridge-duplicate", {}),
    ("bridge-duplicate", {"scoring_profile": "seed004", "honours": True}),
]


@st.composite
def sessions(draw: st.DrawFn) -> tuple[pl.DataFrame, pl.DataFrame]:
    n_games = draw(st.integers(1, 5))
    games = []
    rows = []
    for g in range(n_games):
        variant, rules = draw(st.sampled_from(MODES))
        gid = f"g{g}"
        games.append((gid, variant, rules))
        for k in range(1, draw(st.integers(1, 14)) + 1):
            extra = {"honours_ns": draw(st.sampled_from([0, 0, 100, 150])),
                     "honours_ew": draw(st.sampled_from([0, 0, 100]))}
            if variant == "bridge-duplicate":
                extra.update(vul_ns=draw(st.booleans()), vul_ew=draw(st.booleans()))
            if draw(st.integers(0, 9)) == 0:
                rows.append(deal_row(gid, k, **extra))
                continue
            level = draw(st.integers(1, 7))
            contract = (level, draw(st.integers(0, 4)), draw(st.sampled_from([0, 0, 0, 1, 2])))
            tricks = draw(st.integers(max(0, level + 2), 13))
            rows.append(deal_row(gid, k, contract, draw(st.integers(0, 3)), tricks, **extra))
    return games_frame(games), deals_frame(rows)


@settings(deadline=None, max_examples=60)
@given(sessions())
def test_vectorised_equals_reference(data: tuple[pl.DataFrame, pl.DataFrame]) -> None:
    games, deals = data
    ref, ref_done = per_deal_reference(games, deals)
    vec, vec_done = per_deal_vectorised(games, deals)
    assert_frame_equal(vec.sort("game_id", "deal_no"), ref.sort("game_id", "deal_no"))
    assert_frame_equal(vec_done.sort("game_id"), ref_done.sort("game_id"))


@settings(deadline=None, max_examples=25)
@given(sessions())
def test_settlements_are_zero_sum_per_deal(data: tuple[pl.DataFrame, pl.DataFrame]) -> None:
    # records.md 2: bridge settles each side's players at +x / -x.
    games, deals = data
    for settlement in (RUBBER, DUPLICATE):
        out = settlement.settle(games, deals)
        sums = out.settlements.group_by("game_id", "deal_no").agg(pl.col("cash").sum())
        assert (sums["cash"] == 0).all()
        if out.transfers.height:
            paid = out.transfers.group_by("payee").agg(pl.col("amount").sum())
            got = out.settlements.filter(pl.col("cash") > 0).group_by("player").agg(
                pl.col("cash").sum())
            assert dict(paid.iter_rows()) == dict(got.iter_rows())
        assert out.standings["cash"].sum() == 0


def test_spec_rubber_through_the_kernel() -> None:
    # bridge.md 8.2 as frames: N (We) ends +780, the rubber is finished.
    hands = [((2, 2, 0), 0, 10), ((4, 3, 1), 1, 8), ((3, 4, 0), 1, 10), ((3, 3, 0), 1, 9),
             ((2, 1, 0), 1, 6), ((6, 2, 1), 0, 13), ((1, 4, 0), 1, 7), ((3, 2, 0), 1, 9)]
    games = games_frame([("r", "bridge-rubber", {})])
    deals = deals_frame([deal_row("r", i + 1, c, d, t) for i, (c, d, t) in enumerate(hands)])
    out = RUBBER.settle(games, deals)
    standing = dict(out.standings.select("player", "cash").iter_rows())
    assert standing == {"r-N": 780.0, "r-S": 780.0, "r-E": -780.0, "r-W": -780.0}
    assert out.standings["finished"].all()
    last = out.settlements.filter((pl.col("deal_no") == 8) & (pl.col("player") == "r-E"))
    assert last["below_line"].item() == 90 and last["above_line"].item() == 500
    assert_frame_equal(out.settlements, settle_reference(games, deals).settlements)


@pytest.mark.parametrize("variant", [RUBBER.variant, DUPLICATE.variant])
@settings(deadline=None, max_examples=4)
@given(st.integers(0, 2**32 - 1))
def test_kernel_equals_reference_on_random_legal_games(variant: str, seed: int) -> None:
    """Games of the variant's random legal-deal generator (``sim/random_play/bridge.py``): random
    auctions (passed out, doubled, redoubled) and play, 4 games of 16 boards per example."""
    driver = simulator(variant)
    rng = random.Random(seed)
    games, deals = settlement_frames(driver.random_game(rng, f"g{k}", 16) for k in range(4))
    settlement = RUBBER if variant == RUBBER.variant else DUPLICATE
    out, ref = settlement.settle(games, deals), settle_reference(games, deals)
    assert_frame_equal(out.settlements, ref.settlements)
    assert_frame_equal(out.transfers, ref.transfers)
    assert_frame_equal(out.standings, ref.standings)
