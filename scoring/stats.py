"""The one Wilson interval of the project (the dashboards' rates, balance studies).

The Wilson score interval (Wilson 1927) stays inside [0, 1] and behaves for small n and for rates
near 0 or 1, where the normal approximation does not; z = 1.96 gives a 95% interval.
"""

from __future__ import annotations

import math

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
