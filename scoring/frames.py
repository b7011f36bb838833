"""Polars schemas of the frames every settlement takes and returns (``model/tables.py`` declares
the tables once; these are their schemas).

``games`` in: game_id, players (turn order), rules (JSON). Out: ``settlements`` (every column of
the table; the ones a variant does not use are null), ``transfers`` and ``standings``.
"""

from __future__ import annotations

import polars as pl

from model import tables as T
from model.tables import TABLES

GAMES: dict[str, pl.DataType] = {
    "game_id": pl.String(),
    "players": pl.List(pl.String()),
    "rules": pl.String(),
}

SETTLEMENTS = TABLES[T.SETTLEMENTS].schema
TRANSFERS = TABLES[T.TRANSFERS].schema
STANDINGS = TABLES[T.STANDINGS].schema


def with_null_columns(frame: pl.DataFrame) -> pl.DataFrame:
    """The settlements columns a variant does not fill, added as nulls, in table order."""
    missing = [
        pl.lit(None, dtype=t).alias(c) for c, t in SETTLEMENTS.items() if c not in frame.columns
    ]
    return frame.with_columns(missing).select(list(SETTLEMENTS)).cast(pl.Schema(SETTLEMENTS))
