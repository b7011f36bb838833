"""Compile the numba kernels into their disk caches (``make install``).

A kernel is compiled on its first use and cached on disk (numba's cache, ``sim/solver/_jit.py``):
without this step the first command after an install, and each worker of the test suite, compile
them themselves (about 30 s of a core each). Importing this module compiles the solver's search
(``sim.solver._jit.jit_signed``, at import); then two processes, which load it from the cache, run
a little real work each, so that every other kernel is compiled for the types real work gives it:
a deal of every variant played open-hand and reviewed (the solver's other kernels) in one; an
ingest of ``data/samples`` (ingest's replay of cards, the settlements) and a few games of every
variant played by the bots (their bidding and play) in the other. ``python -m sim.warm`` prints
what each part compiled and its seconds.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import duckdb

from ingest.pipeline import ingest_paths
from scoring.store import score_pending
from sim.drivers import SIMULATED
from sim.review.run import review_database
from sim.run import Plan, simulate

ROOT = Path(__file__).resolve().parent.parent


def open_hand() -> str:
    """The solver's kernels compiled on first use: a deal of every variant played open-hand,
    then its cards reviewed."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "warm.duckdb"
        for variant in SIMULATED:
            simulate(Plan(variant, 1, 1, seed=1, play="dd"), db=db, workers=1)
        conn = duckdb.connect(str(db))
        try:
            review_database(conn, workers=1)
        finally:
            conn.close()
    return "open-hand play and the review"


def ingest_samples() -> str:
    """Ingest's replay of the cards and the settlement kernels: ``data/samples`` ingested and
    settled into a scratch database."""
    with tempfile.TemporaryDirectory() as tmp:
        ingest_paths([ROOT / "data" / "samples"], Path(tmp) / "warm.duckdb", score=score_pending)
    return "ingest's replay and the settlements"


def bots() -> str:
    """The bots' kernels (bidding and play): two games of six deals of every variant (misère
    and all-pass deals among them)."""
    with tempfile.TemporaryDirectory() as tmp:
        for variant in SIMULATED:
            simulate(Plan(variant, 2, 6, seed=1), out=Path(tmp) / f"{variant}.jsonl", workers=1)
    return "the bots"


PROCESSES: tuple[tuple[Callable[[], str], ...], ...] = ((open_hand,), (ingest_samples, bots))
"""The parts each process runs, in about the same time."""


def _timed(process: int) -> list[str]:
    done = []
    for part in PROCESSES[process]:
        start = time.perf_counter()
        what = part()
        done.append(f"{what} ({time.perf_counter() - start:.0f} s)")
    return done


def main() -> None:
    """The parts, in two fresh interpreters at once."""
    print("compiled: the solver's search (at import)")
    with ProcessPoolExecutor(len(PROCESSES), mp_context=get_context("spawn")) as pool:
        for done in pool.map(_timed, range(len(PROCESSES))):
            for line in done:
                print(f"compiled: {line}")


if __name__ == "__main__":
    main()
