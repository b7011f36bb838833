"""Rates with their count and a Wilson score interval (every rate the dashboards show has both).

The Wilson interval (Wilson 1927) stays inside [0, 1] and behaves for small n and for rates near 0
or 1, where the normal approximation does not; z = 1.96 gives a 95% interval.
"""

from __future__ import annotations

import math

import polars as pl

Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The (low, high) Wilson score interval of ``successes`` out of ``n``; (0, 1) when n = 0."""
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= n:
        raise ValueError(f"successes {successes!r} outside 0..n = {n!r}")
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


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
    """``"62% (n=40, 95% CI 47-76%)"``; ``"n=0"`` when there is nothing to count."""
    if n <= 0:
        return "n=0 (no data)"
    low, high = wilson(hits, n)
    return f"{100 * hits / n:.0f}% (n={n}, 95% CI {100 * low:.0f}–{100 * high:.0f}%)"
