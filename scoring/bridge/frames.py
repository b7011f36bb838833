"""Frames in and out of the bridge settlements: each game's rules and mode from the ``games`` frame,
and per-deal side scores -> the ``settlements``, ``transfers`` and ``standings`` frames.

Bridge settles side against side (records.md 2): each North-South player's ``cash`` is the deal's
North-South score and each East-West player's its negative, so a deal sums to zero. Transfers
express the same as payments between opposite seats of the two sides (E with N, W with S).
"""

from __future__ import annotations

import json
from functools import lru_cache

import polars as pl

from model.bridge.params import BridgeRules
from scoring.settlement import Settled


@lru_cache(maxsize=256)
def rules_of(text: str | None) -> BridgeRules:
    """A game's ``rules`` JSON (the games table column) as parameters; null or ``{}``: defaults."""
    if not text:
        return BridgeRules()
    return BridgeRules.model_validate(json.loads(text))


def game_modes(games: pl.DataFrame) -> dict[str, tuple[BridgeRules, str]]:
    """game_id -> (rules, mode) (``rubber``, ``duplicate`` or ``chicago``)."""
    out = {}
    for gid, variant, rules in games.select("game_id", "variant", "rules").iter_rows():
        r = rules_of(rules)
        out[gid] = (r, r.mode_for(variant))
    return out


PER_DEAL: dict[str, pl.DataType] = {
    "game_id": pl.String(),
    "deal_no": pl.Int32(),
    "below_ns": pl.Int32(),
    "below_ew": pl.Int32(),
    "above_ns": pl.Int32(),
    "above_ew": pl.Int32(),
    "vul_ns": pl.Boolean(),
    "vul_ew": pl.Boolean(),
    "score_ns": pl.Int32(),
}
"""What a scorer (reference or kernel) computes per deal; the two are compared on this frame."""

SETTLEMENT_COLUMNS = (
    "game_id", "deal_no", "player", "seat", "variant", "cash",
    "below_line", "above_line", "vulnerable", "score_ns",
)


def assemble(games: pl.DataFrame, per_deal: pl.DataFrame, finished: pl.DataFrame) -> Settled:
    """``per_deal`` (schema ``PER_DEAL``) and ``finished`` (``game_id``, ``finished``) of the
    games in ``games`` (``game_id``, ``variant``, ``players``) as the three output frames."""
    seats = pl.DataFrame({"seat": [0, 1, 2, 3]}, schema={"seat": pl.Int8()})
    g = games.select("game_id", "variant", "players")
    rows = per_deal.join(g, on="game_id", how="inner").join(seats, how="cross")
    ns = (pl.col("seat") % 2) == 0
    settlements = rows.select(
        "game_id",
        "deal_no",
        pl.col("players").list.get(pl.col("seat").cast(pl.Int64)).alias("player"),
        "seat",
        "variant",
        pl.when(ns).then(pl.col("score_ns")).otherwise(-pl.col("score_ns"))
        .cast(pl.Float64).alias("cash"),
        pl.when(ns).then(pl.col("below_ns")).otherwise(pl.col("below_ew")).alias("below_line"),
        pl.when(ns).then(pl.col("above_ns")).otherwise(pl.col("above_ew")).alias("above_line"),
        pl.when(ns).then(pl.col("vul_ns")).otherwise(pl.col("vul_ew")).alias("vulnerable"),
        "score_ns",
    ).sort("game_id", "deal_no", "seat")
    pairs = per_deal.filter(pl.col("score_ns") != 0).join(g, on="game_id", how="inner")
    transfers = pl.concat([
        pairs.select(
            "game_id",
            "deal_no",
            pl.when(pl.col("score_ns") > 0)
            .then(pl.col("players").list.get(ew)).otherwise(pl.col("players").list.get(ns_seat))
            .alias("payer"),
            pl.when(pl.col("score_ns") > 0)
            .then(pl.col("players").list.get(ns_seat)).otherwise(pl.col("players").list.get(ew))
            .alias("payee"),
            pl.col("score_ns").abs().cast(pl.Float64).alias("amount"),
        )
        for ns_seat, ew in ((0, 1), (2, 3))
    ]).sort("game_id", "deal_no", "payer")
    counts = per_deal.group_by("game_id").agg(pl.len().cast(pl.Int32).alias("deals_played"))
    standings = (
        settlements.group_by("game_id", "player", "variant")
        .agg(pl.col("cash").sum())
        .join(counts, on="game_id", how="left")
        .join(finished, on="game_id", how="left")
        .with_columns(pl.col("finished").fill_null(True))
        .select("game_id", "player", "variant", "cash", "deals_played", "finished")
        .sort("game_id", "player")
    )
    return Settled(settlements, transfers, standings)
