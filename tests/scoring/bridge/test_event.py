"""Matchpoints, Neuberg, IMPs (Law 78 [bk], scoring/bridge/event.py) and event_results on data."""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.lin import READER as LIN
from model.bridge.frame import deal_row as bridge_row
from model.bridge.frame import deals_frame
from model.bridge.score import duplicate_score_ns
from scoring.bridge import DUPLICATE
from scoring.bridge.event import cross_imps, event_results, imps, matchpoints, neuberg
from tests.conftest import DATA
from tests.ingest.bridge_ingest import ingest
from tests.scoring.bridge.frames import deal_row, games_frame
from tests.scoring.bridge.frames import deals_frame as make_deals


@pytest.mark.parametrize(("diff", "imp"), [(0, 0), (10, 0), (20, 1), (40, 1), (50, 2), (420, 9),
                                           (430, 10), (620, 12), (1430, 16), (4000, 24),
                                           (-470, -10)])
def test_imp_scale(diff: int, imp: int) -> None:
    assert imps(diff) == imp


def test_matchpoints_with_ties() -> None:
    # 2 per result beaten, 1 per tie: top 2(n-1).
    assert matchpoints([420, 420, 170, -50]) == [5.0, 5.0, 2.0, 0.0]


def test_neuberg() -> None:
    # A top on a board played 3 times in an event of 4 tables: (4 + 1) * 4 / 3 - 1 = 17/3, a
    # little below the new top of 6 (the 1/0.5 scale's (2 + 0.5) * 4/3 - 0.5 = 17/6, doubled).
    assert neuberg(4.0, 3, 4) == pytest.approx(17 / 3)
    assert neuberg(2.0, 3, 4) == pytest.approx(3.0)  # an average stays an average
    assert neuberg(0.0, 1, 4) == pytest.approx(3.0)  # a board played once: half the top


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-1000, 1000), min_size=1, max_size=12), st.integers(0, 12))
def test_neuberg_keeps_a_boards_average_at_half_the_top(scores: list[int], more: int) -> None:
    """Whatever the results, a board's adjusted matchpoints average half the event's top."""
    tables = len(scores) + more
    adjusted = [neuberg(m, len(scores), tables) for m in matchpoints(scores)]
    assert sum(adjusted) == pytest.approx(len(scores) * (tables - 1))


def test_cross_imps() -> None:
    got = cross_imps([420, 170, -50])
    assert got == pytest.approx([(imps(250) + imps(470)) / 2, (imps(-250) + imps(220)) / 2,
                                 (imps(-470) + imps(-220)) / 2])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([-1400, -200, -50, 0, 90, 110, 140, 170, 420, 430, 450, 990,
                                 1430, 2220]), max_size=40))
def test_matchpoints_and_cross_imps_are_the_pairwise_comparisons(scores: list[int]) -> None:
    """Law 78A/B [bk], written pairwise: each result against every other one."""
    assert matchpoints(scores) == [
        float(sum(2 if s > o else 1 if s == o else 0 for o in scores) - 1) for s in scores]
    assert cross_imps(scores) == pytest.approx(
        [sum(imps(s - o) for j, o in enumerate(scores) if j != i) / (len(scores) - 1)
         for i, s in enumerate(scores)] if len(scores) > 1 else [0.0] * len(scores))


def test_event_results_pairs_and_neuberg() -> None:
    # Board 1 at 4 tables, board 2 at 3: board 2 is Neuberg-adjusted to the 4-table top of 6.
    games = games_frame([("e", "bridge-duplicate", {})])
    rows = [deal_row("e", 1, (4, 3, 0), 0, 10, board=1, event="club", vul_ns=False,
                     vul_ew=False),
            deal_row("e", 2, (4, 3, 0), 0, 9, board=1, event="club", vul_ns=False, vul_ew=False),
            deal_row("e", 3, (2, 3, 0), 0, 9, board=1, event="club", vul_ns=False, vul_ew=False),
            deal_row("e", 4, None, None, None, board=1, event="club", vul_ns=False, vul_ew=False),
            deal_row("e", 5, (3, 4, 0), 1, 9, board=2, event="club", vul_ns=True, vul_ew=False),
            deal_row("e", 6, (3, 4, 0), 1, 8, board=2, event="club", vul_ns=True, vul_ew=False),
            deal_row("e", 7, (1, 4, 0), 1, 8, board=2, event="club", vul_ns=True, vul_ew=False)]
    deals = make_deals(rows)
    out = event_results(deals, DUPLICATE.settle(games, deals).settlements).sort("deal_no")
    assert out["score_ns"].to_list() == [420, -50, 140, 0, -400, 50, -120]
    assert out["mp_ns"].to_list()[:4] == [6.0, 0.0, 4.0, 2.0]
    # board 2: raw 0, 4, 2 on a top of 4 -> Neuberg (mp + 1) * 4 / 3 - 1
    assert out["mp_ns"].to_list()[4:] == pytest.approx([1 / 3, 17 / 3, 3.0])
    assert (out["mp_ns"] + out["mp_ew"]).to_list() == [6.0] * 7
    assert out["team_imp_ns"].null_count() == 7


def test_team_match_imps_from_vugraph() -> None:
    # 00001.lin: 2005 Dutch Teams final, both rooms of 16 boards (data/README.md).
    got = ingest(LIN, DATA / "bbo-vugraph-lin" / "00001.lin")
    assert not got.issues
    frame = deals_frame(bridge_row(g, d) for g, d, _ in got.deals)
    games = pl.DataFrame([{"game_id": g.game_id, "variant": g.variant, "players": list(g.players),
                           "rules": "{}"} for g in got.games.values()])
    res = event_results(frame, DUPLICATE.settle(games, frame).settlements)
    assert res.height == 32 and (res["tables"] == 2).all()
    by_board = res.group_by("board").agg(pl.col("team_imp_ns").sum(), pl.len())
    assert (by_board["team_imp_ns"] == 0).all() and (by_board["len"] == 2).all()
    # Board 1: open 2S by E down 2 (NS +100), closed 3C by N down 2 (NS -100), none vulnerable.
    b1 = res.filter(pl.col("board") == 1).sort("room")
    assert b1["score_ns"].to_list() == [-100, 100]
    assert b1["team_imp_ns"].to_list() == [-5, 5]
    assert duplicate_score_ns(None, None, None, "None") == 0
