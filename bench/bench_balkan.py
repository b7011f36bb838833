"""Balkan settlement: the vectorised kernel against the per-deal reference, in the same run.

A synthetic league of 1,000,000 deals (``scoring/balkan/simulate.py``: every defence mode,
kontra chains, all-pass refe, Bettel and Preferans; 20,000 games of 50 deals) is settled by
``kernel.book`` (the numpy core), by ``SETTLEMENT.settle`` (frames in, frames out), and a sample
of whole games by ``reference.settle_game``, checked equal to the kernel. Printed: deals/s of
each and the kernel / reference ratio (targets: >= 20 million deals/s, >= 100x the reference).
Two rule sets are timed: the seed defaults (closed-form refe) and ``iklub`` (double fall: the
per-deal-index scan).
"""

from __future__ import annotations

import os

os.environ.setdefault("POLARS_MAX_THREADS", "1")  # one core (numpy is single-threaded here)

import time

import numpy as np
import polars as pl

from model.balkan.params import BalkanRules
from scoring.balkan import SETTLEMENT, _arrays
from scoring.balkan.kernel import book
from scoring.balkan.reference import settle_game
from scoring.balkan.simulate import random_deals

DEALS = 1_000_000
PER_GAME = 50
SAMPLE_GAMES = 400


def _best(f, repeat: int = 3) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


def run_one(name: str, rules: BalkanRules) -> None:
    games, deals = random_deals(np.random.default_rng(7), DEALS // PER_GAME, PER_GAME, rules)
    ids = games["game_id"].to_list()
    arrays = _arrays(deals, {g: i for i, g in enumerate(ids)}, dict.fromkeys(ids, 3))
    t_kernel = _best(lambda: book(rules, arrays))
    t_frames = _best(lambda: SETTLEMENT.settle(games, deals), repeat=1)
    sample = deals.filter(pl.col("game_id").is_in(ids[:SAMPLE_GAMES]))
    parts = [p.with_columns(pl.col("mode").cast(pl.String)).to_dicts()
             for p in sample.partition_by("game_id", maintain_order=True)]
    t = time.perf_counter()
    ref = [settle_game(rules, 3, rows) for rows in parts]
    t_ref = time.perf_counter() - t
    booked = book(rules, arrays)
    flat = [x.bula_after for game in ref for x in game]
    assert np.array_equal(np.array(flat), booked.bula_after[: len(flat), :3]), "kernel != ref"
    k_rate = DEALS / t_kernel
    r_rate = len(sample) / t_ref
    print(f"{name:>10}: kernel {k_rate / 1e6:6.1f} M deals/s ({t_kernel * 1e3:.0f} ms), "
          f"settle() with frames {DEALS / t_frames / 1e6:5.2f} M deals/s, "
          f"reference {r_rate / 1e3:6.1f} k deals/s, ratio {k_rate / r_rate:7.0f}x "
          f"(targets 20 M deals/s, 100x)")


def run() -> None:
    run_one("seed", BalkanRules())
    run_one("iklub", BalkanRules.preset("iklub"))
