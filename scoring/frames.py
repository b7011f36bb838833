"""Polars schemas of the frames every settlement takes and returns (``model/tables.py``).

``games`` in: game_id, players (turn order), rules (JSON). Out: ``settlements`` (every column of
the table; the ones a variant does not use are null), ``transfers`` and ``standings``.
"""

from __future__ import annotations

import polars as pl

GAMES: dict[str, pl.DataType] = {
    "game_id": pl.String(),
    "players": pl.List(pl.String()),
    "rules": pl.String(),
}

SETTLEMENTS: dict[str, pl.DataType] = {
    "game_id": pl.String(),
    "deal_no": pl.Int32(),
    "player": pl.String(),
    "seat": pl.Int8(),
    "variant": pl.String(),
    "cash": pl.Float64(),
    "chips": pl.Float64(),
    "kassa_delta": pl.Int32(),
    "kassa_after": pl.Int32(),
    "bula_delta": pl.Int32(),
    "bula_after": pl.Int32(),
    "soups_left": pl.Int32(),
    "soups_right": pl.Int32(),
    "refa_used": pl.Boolean(),
    "below_line": pl.Int32(),
    "above_line": pl.Int32(),
    "vulnerable": pl.Boolean(),
    "score_ns": pl.Int32(),
    "pool_delta": pl.Int32(),
    "pool_after": pl.Int32(),
    "hill_delta": pl.Int32(),
    "hill_after": pl.Int32(),
    "whists_delta": pl.Int32(),
}

TRANSFERS: dict[str, pl.DataType] = {
    "game_id": pl.String(),
    "deal_no": pl.Int32(),
    "payer": pl.String(),
    "payee": pl.String(),
    "amount": pl.Float64(),
}

STANDINGS: dict[str, pl.DataType] = {
    "game_id": pl.String(),
    "player": pl.String(),
    "variant": pl.String(),
    "cash": pl.Float64(),
    "deals_played": pl.Int32(),
    "finished": pl.Boolean(),
}


def with_null_columns(frame: pl.DataFrame) -> pl.DataFrame:
    """The settlements columns a variant does not fill, added as nulls, in table order."""
    missing = [
        pl.lit(None, dtype=t).alias(c) for c, t in SETTLEMENTS.items() if c not in frame.columns
    ]
    return frame.with_columns(missing).select(list(SETTLEMENTS)).cast(pl.Schema(SETTLEMENTS))
