"""Generated games as the settlement's input: the ``games`` frame and the variant's
``deals_<variant>`` frame (``scoring/settlement.py``), each row made by the variant itself."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import polars as pl

from model.base import DealBase, GameBase
from model.variants import variant

Generated = tuple[GameBase, Sequence[DealBase]]
"""A game and its deals, as a generator makes them."""


def settlement_frames(games: Iterable[Generated]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``(games, deals)`` of one variant's generated games, deals sorted by game and number."""
    game_rows: list[dict[str, object]] = []
    deal_rows: list[dict[str, object]] = []
    found = None
    for game, deals in games:
        found = variant(str(getattr(game, "variant", "")))  # each variant's game has its own
        rules = getattr(game, "rules", None)
        game_rows.append({"game_id": game.game_id, "variant": found.name,
                          "players": list(game.players),
                          "rules": rules.model_dump_json() if rules is not None else "{}"})
        deal_rows += [found.deal_row(game, d) for d in deals]
    if found is None:
        raise ValueError("no games to frame")
    frame = pl.DataFrame(deal_rows, schema=found.frame_schema, orient="row")
    return pl.DataFrame(game_rows), frame.sort("game_id", "deal_no")


def repeated(games: pl.DataFrame, deals: pl.DataFrame, copies: int
             ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Each game under ``copies`` ids (``<id>#<copy>``), deals sorted by game and number: a
    league of a benchmark's size from a few thousand generated deals."""
    def tiled(frame: pl.DataFrame) -> pl.DataFrame:
        return pl.concat([frame.with_columns(pl.col("game_id") + f"#{c:03d}")
                          for c in range(copies)])

    return tiled(games), tiled(deals).sort("game_id", "deal_no")
