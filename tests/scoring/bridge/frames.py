"""Test helper: bridge games and deals as the settlement's input frames."""

from __future__ import annotations

import json
from typing import Any

import polars as pl

from model.bridge.frame import SCHEMA

GAMES_SCHEMA = {"game_id": pl.String(), "variant": pl.String(),
                "players": pl.List(pl.String()), "rules": pl.String()}


def games_frame(games: list[tuple[str, str, dict[str, Any]]]) -> pl.DataFrame:
    """``(game_id, variant, rules)``; players are named after the game and seat."""
    return pl.DataFrame(
        [{"game_id": g, "variant": v, "players": [f"{g}-{s}" for s in "NESW"],
          "rules": json.dumps(r)} for g, v, r in games],
        schema=GAMES_SCHEMA,
    )


def deal_row(game_id: str, deal_no: int, contract: tuple[int, int, int] | None = None,
             declarer: int | None = None, tricks: int | None = None, **extra: Any
             ) -> dict[str, Any]:
    row: dict[str, Any] = {k: None for k in SCHEMA}
    row.update(game_id=game_id, deal_no=deal_no, dealer=(deal_no - 1) % 4, honours_ns=0,
               honours_ew=0, declarer=declarer, tricks=tricks)
    if contract is not None:
        row.update(level=contract[0], denom=contract[1], doubled=contract[2])
    row.update(extra)
    return row


def deals_frame(rows: list[dict[str, Any]]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=SCHEMA, orient="row")
