"""Balkan settlement: the vectorised kernel against the per-deal reference, in the same run.

A league of 1,000,000 deals: 200 random legal three-player games of 50 deals
(``sim/random_play/balkan.py``: every defence mode, kontra chains, all-pass refe, Bettel and
Preferans), each under 100 ids (the kernel does the same work for every copy), sorted by
``game_id, deal_no`` as the ``Settlement`` protocol hands it over, is settled three ways and
each is timed separately:

- the kernel core, ``kernel.book`` on the prepared int arrays (what the 20 M deals/s target
  is about);
- ``SETTLEMENT.settle``, frames in and frames out (array extraction, the kernel, and building
  the ``settlements`` / ``transfers`` / ``standings`` frames);
- the per-deal reference ``reference.settle_game`` on a sample of whole games; the sample's
  frames from the kernel and from the reference are checked equal.

Times are CPU times of this process (best of several runs; numpy and polars run on one thread
here), so other work on a shared machine counts less; the load average is printed beside them.
Two rule sets are timed: the seed defaults and ``iklub`` (double fall: the scan over the lost
contracts that could fall twice).
"""

from __future__ import annotations

import os

os.environ.setdefault("POLARS_MAX_THREADS", "1")  # one core (numpy is single-threaded here)

import random
import time
from collections.abc import Callable

import polars as pl
from polars.testing import assert_frame_equal

from model.balkan.params import BalkanRules
from scoring.balkan import SETTLEMENT, arrays, league, settle_reference
from scoring.balkan.booking import book
from scoring.balkan.reference import settle_game
from sim.drivers import simulator
from sim.random_play.frames import repeated, settlement_frames

GAMES, PER_GAME, COPIES = 200, 50, 100
DEALS = GAMES * PER_GAME * COPIES
SAMPLE_GAMES = 400


def _best(f: Callable[[], object], repeat: int) -> float:
    """Best CPU time of ``f`` over ``repeat`` runs, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        f()
        best = min(best, time.process_time() - t)
    return best


def run_one(name: str, rules: BalkanRules) -> None:
    driver = simulator("balkan", rules.model_dump())
    rng = random.Random(7)
    games, deals = repeated(*settlement_frames(
        driver.random_game(rng, f"g{k:03d}", PER_GAME) for k in range(GAMES)), COPIES)
    d = arrays(league(games, deals))
    t_kernel = _best(lambda: book(rules, d), repeat=9)
    t_settle = _best(lambda: SETTLEMENT.settle(games, deals), repeat=3)

    ids = games["game_id"][:SAMPLE_GAMES]
    s_games = games.filter(pl.col("game_id").is_in(ids.implode()))
    s_deals = deals.filter(pl.col("game_id").is_in(ids.implode()))
    parts = [p.with_columns(pl.col("mode").cast(pl.String)).to_dicts()
             for p in s_deals.partition_by("game_id", maintain_order=True)]
    t = time.process_time()
    for rows in parts:
        settle_game(rules, 3, rows)
    t_ref = time.process_time() - t
    a, b = SETTLEMENT.settle(s_games, s_deals), settle_reference(s_games, s_deals)
    for x, y in ((a.settlements, b.settlements), (a.transfers, b.transfers),
                 (a.standings, b.standings)):
        assert_frame_equal(x, y)

    k_rate, s_rate, r_rate = DEALS / t_kernel, DEALS / t_settle, len(s_deals) / t_ref
    print(f"{name}: {DEALS:,} deals in {len(games):,} games of {PER_GAME}")
    print(f"  kernel core (kernel.book):     {t_kernel * 1e3:8.1f} ms  "
          f"{k_rate / 1e6:7.2f} M deals/s  (target >= 20)")
    print(f"  settle() frames in/out:        {t_settle * 1e3:8.1f} ms  "
          f"{s_rate / 1e6:7.2f} M deals/s")
    print(f"  reference (settle_game):       {t_ref * 1e3:8.1f} ms  {r_rate / 1e3:7.1f} k deals/s"
          f"  on {len(s_deals):,} deals; frames equal to the kernel's: True")
    print(f"  ratio kernel core / reference: {k_rate / r_rate:8.0f}x  (target >= 100x)")
    print(f"  ratio settle() / reference:    {s_rate / r_rate:8.0f}x")


def run() -> None:
    run_one("seed", BalkanRules())
    run_one("iklub", BalkanRules.preset("iklub"))
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"(CPU times of this process, best of several runs, one thread; machine load average "
          f"{load} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    run()
