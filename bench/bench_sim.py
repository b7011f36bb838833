"""Simulation speed (docs/simulation.md): complete records per second per core with heuristic play
(target: 20,000 deals/s per core) and with open-hand solver play (rate printed), for each
simulated variant; per-core rates are CPU time of one process, so other load on the machine does
not count against them."""

from __future__ import annotations

import time

from model.sim.batch import Batch
from model.sim.drivers import SIMULATED, simulator

GAMES, DEALS = 500, 10
DD_GAMES, DD_DEALS = 10, 10
TARGET = 20_000


def rate(variant: str, play: str, games: int, deals: int) -> float:
    sim = simulator(variant, None, play)
    sim.game(0, 10**6, 20, Batch())  # warm-up: the compiled kernels load or compile here
    batch = Batch()
    start = time.process_time()
    for g in range(games):
        sim.game(1, g, deals, batch)
    return batch.n_deals / (time.process_time() - start)


def run() -> None:
    for variant in SIMULATED:
        heuristic = rate(variant, "heuristic", GAMES, DEALS)
        print(f"{variant:12s} heuristic play: {heuristic:10,.0f} deals/s per core "
              f"({heuristic / TARGET:.2f} of the 20,000 target)")
        try:
            dd = rate(variant, "dd", DD_GAMES, DD_DEALS)
        except ImportError as exc:  # the solver is optional
            print(f"{variant:12s} solver play:    not available ({exc})")
            continue
        print(f"{variant:12s} solver play:    {dd:10,.1f} deals/s per core "
              f"({heuristic / dd:,.0f} times slower than heuristic)")
