"""Score sheets drawn the way each game's players draw them, from the ``settlements`` rows.

* Greek Prefa, seed method 2 (greek-prefa.md 12): ``Kassa A | Kassa B | ... | Chips A | ...``; the
  kassa columns hold each player's kassa after the deal (``kassa_after``), the chips columns what
  the deal paid (negative) or brought (positive) (``chips``, else ``cash``).
* Balkan preferans (balkan.md, score sheet): three columns per player, soups written against the
  left-hand opponent, the bula in the centre, soups against the right-hand opponent
  (``soups_left``, ``bula_after``, ``soups_right``).
* Bridge rubber (bridge.md, ACBL We/They sheet): We (the first pair, N-S) and They (E-W), each with
  points above and below the line (``above_line``, ``below_line``).
* Duplicate bridge (bridge.md, Law 77): one line per board with the N-S and E-W score
  (``score_ns``) as on a traveller.
* Russian preferans (russian.md 5, the pulya): per player his pool and hill after the deal and the
  whists he wrote this deal (``pool_after``, ``hill_after``, ``whists_delta``); beside it the
  pulya as a picture (:func:`sheet_picture`, ``dashboards/pulya.py``).
* Any other variant: the settlement unit (``cash``) per player per deal.
Each sheet ends with a ``total`` row (final kassa or bula, summed chips, soups and points).
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import polars as pl

from dashboards.pulya import pulya_svg
from dashboards.replay import calls_in_words
from model.variants import UnknownVariant
from model.variants import variant as lookup

HEAD = ["deal", "dealer", "declarer", "contract"]


NEEDS = {"kassa": ("kassa_after",), "bula": ("bula_after",), "traveller": ("score_ns",),
         "we-they": ("below_line", "above_line"), "pulya": ("pool_after",)}
"""The settlement columns each sheet style draws (one of them filled is enough)."""


def sheet_style(variant: str, rows: pl.DataFrame) -> str:
    """The variant's own sheet (``Variant.sheet``) when its columns are filled, else ``cash``."""
    try:
        style = lookup(variant).sheet
    except UnknownVariant:
        return "cash"
    filled = any(c in rows.columns and rows[c].drop_nulls().len() > 0
                 for c in NEEDS.get(style, ()))
    return style if filled else "cash"


def sheet_picture(variant: str, rows: pl.DataFrame, pairwise: pl.DataFrame,
                  players: list[str], rules: str | Mapping[str, object] | None) -> str | None:
    """The sheet as a picture (SVG) where the game's players draw one (``pulya``), else None.
    ``rules`` is the game's ``rules`` (JSON text or object): the pool target is drawn in the
    centre when the rules have one."""
    if rows.is_empty() or sheet_style(variant, rows) != "pulya":
        return None
    values = json.loads(rules) if isinstance(rules, str) else dict(rules or {})
    target = getattr(lookup(variant).rules(values), "pool_target", None)
    return pulya_svg(rows, pairwise, players, target if isinstance(target, int) else None)


def _wide(rows: pl.DataFrame, players: list[str], value: pl.Expr, label: str) -> pl.DataFrame:
    picked = rows.select(
        pl.col("deal_no").alias("deal"), pl.col("player"), value.alias("value")
    )
    wide = picked.pivot(on="player", index="deal", values="value", aggregate_function="first")
    out = wide.select(
        "deal", *[pl.col(p).alias(label.format(p=p)) if p in wide.columns else
                  pl.lit(None, pl.Float64).alias(label.format(p=p)) for p in players]
    )
    return out


def _heads(rows: pl.DataFrame, variant: str) -> pl.DataFrame:
    """Deal, dealer, declarer and the contract in the game's words, as the replayer and the
    Contracts page write it (:func:`dashboards.replay.calls_in_words`: ``6♠``, ``3 Schellen``,
    ``misère``)."""
    heads = (
        rows.group_by("deal_no", maintain_order=True)
        .agg(pl.col("dealer").first(), pl.col("declarer").first(), pl.col("contract").first())
        .rename({"deal_no": "deal"})
    )
    spoken = calls_in_words(heads.with_columns(pl.lit(variant).alias("variant")))
    return spoken.drop("variant")


def _total_row(sheet: pl.DataFrame, last: list[str], summed: list[str]) -> pl.DataFrame:
    values: dict[str, object] = {c: None for c in sheet.columns}
    values["dealer"] = "total"
    for c in last:
        non_null = sheet[c].drop_nulls()
        values[c] = non_null[-1] if non_null.len() else None
    for c in summed:
        values[c] = sheet[c].sum()
    total = pl.DataFrame([values], schema=sheet.schema)
    return pl.concat([sheet, total])


def score_sheet(rows: pl.DataFrame, variant: str, players: list[str]) -> pl.DataFrame:
    """The sheet of one game from its ``queries.game_sheet`` rows (empty frame if no rows)."""
    if rows.is_empty():
        return pl.DataFrame()
    heads = _heads(rows, variant)
    style = sheet_style(variant, rows)
    if style == "kassa":
        chips = pl.coalesce(pl.col("chips"), pl.col("cash")).cast(pl.Float64)
        kassa = _wide(rows, players, pl.col("kassa_after").cast(pl.Float64), "Kassa {p}")
        chip = _wide(rows, players, chips, "Chips {p}")
        sheet = heads.join(kassa, on="deal").join(chip, on="deal").sort("deal")
        return _total_row(sheet, [f"Kassa {p}" for p in players], [f"Chips {p}" for p in players])
    if style == "bula":
        parts = [heads]
        last: list[str] = []
        summed: list[str] = []
        for p in players:
            left = _wide(rows, [p], pl.col("soups_left").cast(pl.Float64), "{p} soups left")
            bula = _wide(rows, [p], pl.col("bula_after").cast(pl.Float64), "{p} bula")
            right = _wide(rows, [p], pl.col("soups_right").cast(pl.Float64), "{p} soups right")
            parts += [left, bula, right]
            last.append(f"{p} bula")
            summed += [f"{p} soups left", f"{p} soups right"]
        sheet = parts[0]
        for part in parts[1:]:
            sheet = sheet.join(part, on="deal")
        return _total_row(sheet.sort("deal"), last, summed)
    if style == "pulya":
        return _pulya(heads, rows, players)
    if style == "traveller":
        scores = rows.group_by("deal_no", maintain_order=True).agg(
            pl.col("score_ns").first().cast(pl.Float64).alias("NS")
        ).rename({"deal_no": "deal"}).with_columns((-pl.col("NS")).alias("EW"))
        sheet = heads.join(scores, on="deal").sort("deal")
        return _total_row(sheet, [], ["NS", "EW"])
    if style == "we-they":
        we, they = players[0::2], players[1::2]
        side = (
            rows.with_columns(
                pl.when(pl.col("player").is_in(we)).then(pl.lit("We")).otherwise(pl.lit("They"))
                .alias("side")
            )
            .filter(pl.col("player").is_in(we[:1] + they[:1]))
            .select(
                pl.col("deal_no").alias("deal"),
                "side",
                pl.col("above_line").cast(pl.Float64).alias("above"),
                pl.col("below_line").cast(pl.Float64).alias("below"),
            )
        )
        wide = side.pivot(on="side", index="deal", values=["above", "below"],
                          aggregate_function="first")
        cols = ["We above", "We below", "They above", "They below"]
        renamed = wide.rename(
            {c: f"{c.split('_')[-1]} {c.split('_')[0]}" for c in wide.columns if c != "deal"}
        )
        for c in cols:
            if c not in renamed.columns:
                renamed = renamed.with_columns(pl.lit(None, pl.Float64).alias(c))
        sheet = heads.join(renamed.select("deal", *cols), on="deal").sort("deal")
        return _total_row(sheet, [], cols)
    cash = _wide(rows, players, pl.col("cash").cast(pl.Float64), "{p}")
    sheet = heads.join(cash, on="deal").sort("deal")
    return _total_row(sheet, [], list(players))


def _pulya(heads: pl.DataFrame, rows: pl.DataFrame, players: list[str]) -> pl.DataFrame:
    """Per player three columns as a pulya's sector reads: pool and hill after the deal, whists
    written this deal (russian.md 5); the total row has the final pool and hill and all whists."""
    sheet = heads
    last: list[str] = []
    summed: list[str] = []
    for p in players:
        for column, label in (("pool_after", "{p} pool"), ("hill_after", "{p} hill"),
                              ("whists_delta", "{p} whists")):
            sheet = sheet.join(_wide(rows, [p], pl.col(column).cast(pl.Float64), label), on="deal")
        last += [f"{p} pool", f"{p} hill"]
        summed.append(f"{p} whists")
    return _total_row(sheet.sort("deal"), last, summed)
