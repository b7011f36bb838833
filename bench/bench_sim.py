"""Simulation speed (docs/simulation.md): complete records per second per core with heuristic play
(target: 20,000 deals/s per core) and with open-hand solver play (rate printed), for each
simulated variant; per-core rates are CPU time of one process (the median of three timed
repetitions after a warm-up), so other load on the machine counts against them only through
shared caches. Games have 20 deals, the ``simulate`` command's default."""

from __future__ import annotations

import statistics
import time

from sim.batch import Batch
from sim.bots import _kernel
from sim.drivers import PREFERENCE, SIMULATED, simulator

GAMES, DEALS, REPEATS = 250, 20, 3
DD_GAMES, DD_DEALS = 5, 10
TARGET = 20_000


def rate(variant: str, play: str, games: int, deals: int, repeats: int = 1) -> float:
    """Median deals per CPU second over ``repeats`` runs of ``games`` games."""
    sim = simulator(variant, None, play)
    sim.game(0, 10**6, 20, Batch())  # warm-up: the compiled kernels load or compile here
    rates = []
    for r in range(repeats):
        batch = Batch()
        start = time.process_time()
        for g in range(games):
            sim.game(1 + r, g, deals, batch)
        rates.append(batch.n_deals / (time.process_time() - start))
    return statistics.median(rates)


def run() -> None:
    print(f"heuristic play {'compiled (numba)' if _kernel.COMPILED else 'interpreted'}; "
          f"{GAMES} games of {DEALS} deals, median of {REPEATS}")
    for variant in SIMULATED:
        heuristic = rate(variant, "heuristic", GAMES, DEALS, REPEATS)
        print(f"{variant:16s} heuristic play: {heuristic:10,.0f} deals/s per core "
              f"({heuristic / TARGET:.2f} of the 20,000 target)")
        if variant not in PREFERENCE:
            continue  # the open-hand solver is for the Preference games
        try:
            dd = rate(variant, "dd", DD_GAMES, DD_DEALS)
        except ImportError as exc:  # the solver is optional
            print(f"{variant:16s} solver play:    not available ({exc})")
            continue
        print(f"{variant:16s} solver play:    {dd:10,.1f} deals/s per core "
              f"({heuristic / dd:,.0f} times slower than heuristic)")
