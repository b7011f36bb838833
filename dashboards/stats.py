"""Rates with their count and a Wilson score interval (every rate the dashboards show has both;
the interval is ``scoring/stats.py``'s)."""

from __future__ import annotations

import polars as pl

from scoring.stats import wilson


def with_rate(frame: pl.DataFrame, hits: str, n: str, name: str = "rate") -> pl.DataFrame:
    """Add ``name``, ``name_low``, ``name_high`` (Wilson 95%) from columns ``hits`` and ``n``."""
    if frame.is_empty():
        return frame.with_columns(
            pl.lit(None, pl.Float64).alias(name),
            pl.lit(None, pl.Float64).alias(f"{name}_low"),
            pl.lit(None, pl.Float64).alias(f"{name}_high"),
        )
    bounds = [
        wilson(int(h or 0), int(k or 0)) if k else (None, None)
        for h, k in zip(frame[hits].to_list(), frame[n].to_list(), strict=True)
    ]
    rates = [(h or 0) / k if k else None for h, k in zip(frame[hits], frame[n], strict=True)]
    return frame.with_columns(
        pl.Series(name, rates, pl.Float64),
        pl.Series(f"{name}_low", [b[0] for b in bounds], pl.Float64),
        pl.Series(f"{name}_high", [b[1] for b in bounds], pl.Float64),
    )


def format_rate(hits: int, n: int) -> str:
    """``"62% (n=40, 95% CI 47-76%)"``, n with a thousands separator as every count on the pages
    (``n=6,720``); ``"n=0"`` when there is nothing to count."""
    if n <= 0:
        return "n=0 (no data)"
    low, high = wilson(hits, n)
    return f"{100 * hits / n:.0f}% (n={n:,}, 95% CI {100 * low:.0f}–{100 * high:.0f}%)"
