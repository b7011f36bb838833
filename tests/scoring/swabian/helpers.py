"""Build ``games`` / ``deals_swabian`` frames from canonical records for the settlement tests."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import polars as pl

from model.swabian.frame import deal_row, deals_frame
from model.swabian.records import SwabianDeal, SwabianGame
from scoring.registry import Settled
from scoring.swabian import SETTLEMENT

PLAYERS = ("D", "X", "Y")


def game(game_id: str = "g", rules: dict[str, Any] | None = None) -> SwabianGame:
    return SwabianGame.model_validate(
        {"game_id": game_id, "variant": "swabian", "players": list(PLAYERS), "rules": rules or {}}
    )


def games_frame(games: Iterable[SwabianGame]) -> pl.DataFrame:
    rows = [
        {"game_id": g.game_id, "players": list(g.players), "rules": g.rules.model_dump_json()}
        for g in games
    ]
    return pl.DataFrame(
        rows, schema={"game_id": pl.String(), "players": pl.List(pl.String()), "rules": pl.String()}
    )


def settle_records(
    g: SwabianGame, deals: Iterable[dict[str, Any]], reference: bool = False
) -> Settled:
    records = [SwabianDeal.model_validate({"game_id": g.game_id, **d}) for d in deals]
    frame = deals_frame(deal_row(g, d) for d in records)
    how = SETTLEMENT.settle_reference if reference else SETTLEMENT.settle
    return how(games_frame([g]), frame)


def cash_of(settled: Settled, deal_no: int = 1) -> dict[str, float]:
    rows = settled.settlements.filter(pl.col("deal_no") == deal_no)
    return dict(zip(rows["player"].to_list(), rows["cash"].to_list(), strict=True))
