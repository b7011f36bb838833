"""Open-hand solver: time per deal over 1,000 random Greek Prefa deals (issue 6 "Speed").

Each deal: the 32-card deck shuffled, three hands of ten, the two talon cards out of play, a random
suit contract or no trump, a random declarer, and the first lead either the declarer's or first
hand's (greek-prefa.md 7: first hand leads). Targets: median at most 5 ms, no deal over 1 s. The
compiled kernel's time (after compilation, which is reported apart) is compared, in the same run,
with the interpreted kernel (``TRICKBOOK_SOLVER=python``, the path used without numba) on the first
few deals, in a child process.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from model.cards import DECK_32, CardSet, iter_cards
from sim.solver import COMPILED, Goal, solve

N = 1_000
N_INTERPRETED = 5
SEED = 2026
TARGET_MEDIAN_S = 0.005
TARGET_MAX_S = 1.0

Deal = tuple[tuple[CardSet, CardSet, CardSet], int, int, int | None]


def random_deals(n: int, seed: int = SEED) -> list[Deal]:
    """``(hands, leader, declarer, trump)`` for ``n`` seeded random Greek Prefa deals."""
    rng = random.Random(seed)
    deck = list(iter_cards(DECK_32))
    deals: list[Deal] = []
    for _ in range(n):
        rng.shuffle(deck)
        h0, h1, h2 = (sum(1 << c for c in deck[10 * i : 10 * i + 10]) for i in range(3))
        declarer = rng.randrange(3)
        leader = rng.choice((declarer, 0))
        trump = rng.choice((0, 1, 2, 3, None))
        deals.append(((h0, h1, h2), leader, declarer, trump))
    return deals


def time_deals(deals: list[Deal]) -> list[float]:
    times = []
    for hands, leader, declarer, trump in deals:
        start = time.perf_counter()
        solve(hands, leader, declarer, trump, Goal.MOST)
        times.append(time.perf_counter() - start)
    return times


def percentile(sorted_times: list[float], q: float) -> float:
    return sorted_times[min(len(sorted_times) - 1, int(q * len(sorted_times)))]


CHILD = """
import json
from bench.bench_solver import random_deals, time_deals
print(json.dumps(time_deals(random_deals({n}))))
"""


def interpreted_times(n: int) -> list[float]:
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, TRICKBOOK_SOLVER="python", PYTHONPATH=str(root))
    out = subprocess.run(
        [sys.executable, "-c", CHILD.format(n=n)], env=env, cwd=root, check=True,
        capture_output=True, text=True,
    )
    times: list[float] = json.loads(out.stdout)
    return times


def run() -> None:
    deals = random_deals(N)
    start = time.perf_counter()
    time_deals(random_deals(1, seed=SEED + 1))  # compiles the kernel
    warm = time.perf_counter() - start
    in_order = time_deals(deals)
    times = sorted(in_order)
    median = statistics.median(times)
    p99 = percentile(times, 0.99)
    worst = times[-1]
    print(f"kernel: {'numba (compiled)' if COMPILED else 'pure Python (numba not installed)'}")
    print(f"first solve incl. compilation: {warm:8.2f} s")
    print(f"deals:                         {N:8,}")
    print(f"median per deal:               {median * 1e3:8.2f} ms (target <= 5 ms: "
          f"{'met' if median <= TARGET_MEDIAN_S else 'MISSED'})")
    print(f"99th percentile per deal:      {p99 * 1e3:8.2f} ms")
    print(f"slowest deal:                  {worst * 1e3:8.2f} ms (target < 1 s: "
          f"{'met' if worst < TARGET_MAX_S else 'MISSED'})")
    print(f"deals per second:              {N / sum(times):8,.0f}")
    if COMPILED:
        slow = interpreted_times(N_INTERPRETED)
        fast = in_order[:N_INTERPRETED]  # the same deals, timed above (a second solve would hit
        # the transposition table, which is shared across solves)
        print(f"interpreted kernel, first {N_INTERPRETED} deals: "
              f"{statistics.median(slow) * 1e3:8.1f} ms median")
        print(f"compiled / interpreted speed-up: {sum(slow) / sum(fast):8.0f} x")
