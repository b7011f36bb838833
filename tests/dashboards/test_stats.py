"""Wilson score intervals (dashboards/stats.py)."""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dashboards.stats import format_rate, with_rate
from scoring.stats import wilson


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # Wilson (1927) score interval, z = 1.96; values worked by hand from the closed form
        (5, 10, 0.2366, 0.7634),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (1, 1, 0.2065, 1.0),
    ],
)
def test_wilson_known_values(k: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(low, abs=1e-4) and hi == pytest.approx(high, abs=1e-4)


@settings(deadline=None)
@given(st.integers(1, 10_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_contains_the_rate(kn: tuple[int, int]) -> None:
    k, n = kn
    lo, hi = wilson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0


def test_wilson_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError, match="outside"):
        wilson(3, 2)


def test_with_rate_and_format() -> None:
    frame = with_rate(pl.DataFrame({"made": [5, 0], "n": [10, 0]}), "made", "n")
    assert frame["rate"].to_list() == [0.5, None]
    assert frame["rate_low"][0] == pytest.approx(0.2366, abs=1e-4)
    assert format_rate(5, 10) == "50% (n=10, 95% CI 24–76%)"
    assert format_rate(0, 0) == "n=0 (no data)"
    assert "(n=6,720," in format_rate(5000, 6720)  # as the n column beside it reads
