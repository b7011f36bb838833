"""Swabian settlement: kernel deals per second on 1,000,000 deals, and the ratio to the per-deal
reference measured in the same run (target: 20 million deals/s and 100 times the reference)."""

from __future__ import annotations

import time

import numpy as np

from model.swabian.simulate import random_frames
from scoring.swabian import kernel, reference
from scoring.swabian.kernel import pay

N = 1_000_000
N_REFERENCE = 20_000


def best_of(fn: object, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def run() -> None:
    games, deals = random_frames(N, n_games=1_000)
    units = np.full(N, 2, dtype=np.int32)
    cols = kernel.columns(deals, units)
    kernel_s = best_of(lambda: pay(cols))
    settle_s = best_of(lambda: kernel.settle(games, deals), repeat=1)
    small = deals.head(N_REFERENCE)
    ref_s = best_of(lambda: reference.settle(games, small), repeat=1) / N_REFERENCE * N
    print(f"deals: {N:,}")
    print(f"kernel (payments per seat):   {N / kernel_s:14,.0f} deals/s")
    print(f"settle (frames in and out):   {N / settle_s:14,.0f} deals/s")
    print(
        f"reference (per deal):         {N / ref_s:14,.0f} deals/s (timed on {N_REFERENCE:,} deals)"
    )
    print(f"kernel / reference:           {ref_s / kernel_s:14,.0f} x")
    print(f"settle / reference:           {ref_s / settle_s:14,.0f} x")
