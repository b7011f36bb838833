"""Test helper: settle a list of Balkan deals with both the kernel and the reference."""

from __future__ import annotations

from typing import Any

import polars as pl
from polars.testing import assert_frame_equal

from model.balkan.check import check_deal
from model.balkan.frame import deal_row, deals_frame
from model.balkan.records import BalkanDeal, BalkanGame
from scoring.balkan import SETTLEMENT, settle_reference
from scoring.registry import Settled


def game(players: list[str], **rules: Any) -> BalkanGame:
    return BalkanGame.model_validate({"variant": "balkan", "game_id": "g", "players": players,
                                      "rules": rules})


def deals(g: BalkanGame, rows: list[dict[str, Any]]) -> list[BalkanDeal]:
    out = []
    for i, r in enumerate(rows, start=1):
        dealer = r.pop("dealer", g.players[(i - 1) % len(g.players)])
        out.append(BalkanDeal.model_validate({"game_id": g.game_id, "deal_no": i,
                                              "dealer": dealer, **r}))
    return out


def settle(g: BalkanGame, ds: list[BalkanDeal], *, check: bool = True) -> Settled:
    """Kernel and reference, held equal; every deal must pass check_deal."""
    if check:
        for d in ds:
            assert check_deal(g, d) == [], (d.deal_no, check_deal(g, d))
    games = pl.DataFrame({"game_id": [g.game_id], "players": [list(g.players)],
                          "rules": [g.rules.model_dump_json()]})
    frame = deals_frame(deal_row(g, d) for d in ds)
    a = SETTLEMENT.settle(games, frame)
    b = settle_reference(games, frame)
    assert_frame_equal(a.settlements, b.settlements)
    assert_frame_equal(a.transfers, b.transfers)
    assert_frame_equal(a.standings, b.standings)
    return a


def last(s: Settled, col: str) -> dict[str, int]:
    """``col`` of each player in the last deal."""
    no = s.settlements["deal_no"].max()
    rows = s.settlements.filter(pl.col("deal_no") == no)
    return dict(zip(rows["player"].to_list(), rows[col].to_list(), strict=True))


def soups(s: Settled, deal_no: int | None = None) -> dict[tuple[str, str], float]:
    """Soups of one deal (default the last) as ``(writer, against) -> amount``."""
    no = deal_no or s.settlements["deal_no"].max()
    t = s.transfers.filter(pl.col("deal_no") == no)
    return {(pe, pa): a for pa, pe, a in zip(t["payer"], t["payee"], t["amount"], strict=True)}
