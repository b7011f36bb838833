"""The public path of the tests: records in -> reference rows and kernel rows out."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl
from polars.testing import assert_frame_equal

from model.greek.records import GreekDeal, GreekGame
from scoring.greek import SETTLEMENT
from scoring.greek.frames import deals_greek_frame, games_frame, settled_from_rows
from scoring.greek.reference import settle_records
from scoring.registry import Settled


def kernel(games: Sequence[GreekGame], deals: Sequence[GreekDeal]) -> Settled:
    return SETTLEMENT.settle(games_frame(games), deals_greek_frame(games, deals))


def reference(games: Sequence[GreekGame], deals: Sequence[GreekDeal]) -> Settled:
    r = settle_records(games, deals)
    return settled_from_rows(r.settlements, r.transfers, r.standings)


def _sorted(s: Settled) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    return (
        s.settlements.sort("game_id", "deal_no", "seat"),
        s.transfers.sort("game_id", "deal_no", "payer", "payee"),
        s.standings.sort("game_id", "player"),
    )


def both(games: Sequence[GreekGame], deals: Sequence[GreekDeal]) -> Settled:
    """Settle through both paths, assert they agree exactly, return the kernel's frames."""
    k, r = kernel(games, deals), reference(games, deals)
    for a, b in zip(_sorted(k), _sorted(r), strict=True):
        assert_frame_equal(a, b, check_exact=True)
    return k


def chips(s: Settled, deal_no: int = 1) -> dict[str, float]:
    rows = s.settlements.filter(pl.col("deal_no") == deal_no)
    return dict(zip(rows["player"].to_list(), rows["chips"].to_list(), strict=True))


def kassa(s: Settled, deal_no: int = 1) -> dict[str, int]:
    rows = s.settlements.filter(pl.col("deal_no") == deal_no)
    return dict(zip(rows["player"].to_list(), rows["kassa_after"].to_list(), strict=True))


def kassa_delta(s: Settled, deal_no: int = 1) -> dict[str, int]:
    rows = s.settlements.filter(pl.col("deal_no") == deal_no)
    return dict(zip(rows["player"].to_list(), rows["kassa_delta"].to_list(), strict=True))
