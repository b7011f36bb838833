"""The frame interface of the Greek settlement (scoring/registry.py, model/tables.py columns)."""

from __future__ import annotations

import polars as pl
from polars.testing import assert_frame_equal

from model.tables import SETTLEMENTS, STANDINGS, TABLES, TRANSFERS
from scoring.greek import SETTLEMENT
from scoring.greek.frames import deals_greek_frame, games_frame
from scoring.registry import settlement
from sim.random_play.greek import random_league


def columns(table: str) -> list[str]:
    return list(TABLES[table].columns)


def test_registered() -> None:
    assert settlement("greek-prefa") is SETTLEMENT
    assert SETTLEMENT.deals_table == "deals_greek"


def test_columns_are_the_stable_tables() -> None:
    games, deals = random_league(3, games=5, max_deals=10)
    s = SETTLEMENT.settle(games_frame(games), deals_greek_frame(games, deals))
    assert s.settlements.columns == columns(SETTLEMENTS)
    assert s.transfers.columns == columns(TRANSFERS)
    assert s.standings.columns == columns(STANDINGS)
    assert s.settlements["bula_delta"].null_count() == s.settlements.height


def test_empty_and_unknown_and_unsorted() -> None:
    games, deals = random_league(5, games=6, max_deals=15)
    frame = deals_greek_frame(games, deals)
    want = SETTLEMENT.settle(games_frame(games), frame)
    # shuffled rows, plus deals of a game that is not in ``games`` (ignored)
    stray = frame.head(3).with_columns(pl.lit("nobody").alias("game_id"))
    got = SETTLEMENT.settle(games_frame(games), pl.concat([frame.sample(fraction=1.0, seed=1),
                                                            stray]))
    for a, b in zip((got.settlements, got.transfers, got.standings),
                    (want.settlements, want.transfers, want.standings), strict=True):
        assert_frame_equal(a.sort(a.columns[:4]), b.sort(b.columns[:4]))
    empty = SETTLEMENT.settle(games_frame([]), deals_greek_frame([], []))
    assert empty.settlements.is_empty() and empty.standings.is_empty()
    no_deals = SETTLEMENT.settle(games_frame(games[:1]), deals_greek_frame([], []))
    assert no_deals.standings["deals_played"].to_list() == [0] * len(games[0].players)
