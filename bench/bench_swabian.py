"""Swabian settlement: kernel deals per second on 1,000,000 deals, and the ratio to the per-deal
reference measured in the same run (target: 20 million deals/s and 100 times the reference).

The league: 20 random legal games of 500 deals (``sim/random_play/swabian.py``), each under 100
ids."""

from __future__ import annotations

import random
import time

import numpy as np

from scoring.swabian import kernel, reference
from scoring.swabian.kernel import pay
from sim.drivers import simulator
from sim.random_play.frames import repeated, settlement_frames

GAMES, PER_GAME, COPIES = 20, 500, 100
N = GAMES * PER_GAME * COPIES
N_REFERENCE = 20_000


def best_of(fn: object, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def run() -> None:
    driver = simulator("swabian", {"kunstwerk_units": 2})
    rng = random.Random(1)
    games, deals = repeated(*settlement_frames(
        driver.random_game(rng, f"g{k:02d}", PER_GAME) for k in range(GAMES)), COPIES)
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
