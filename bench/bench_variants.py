"""JSON Lines with cards and play, every simulated variant, end to end (issue 12's yardstick).

For each variant of ``sim/drivers.py``: a file of about ``DEALS`` simulated deals with hands,
auction and play (``trickbook simulate --out``, under ``bench/out/``) is ingested into a fresh
database with its settlement (``ingest_paths`` with ``score_pending``: read, validate, store,
settle, commit). Its time is printed as a ratio to two baselines on the same file in the same run:
``json.loads`` of every line, and DuckDB's ``read_json`` of the file into a table. Each time is the
best of ``REPEAT`` runs after one warm run (imports, compiled kernels), in CPU seconds of this
process (``time.process_time``: the machine is shared, so the clock says little). The target is
within 3x the ``json.loads`` time, about 50,000 deals/s per core, for every variant. Greek
Prefa is timed twice: with its compiled fast paths and through the generic columnar path alone
(the fast paths may be deleted once the second is as quick as the first).
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import duckdb
import polars as pl

from ingest import fastpath, pipeline
from ingest.pipeline import ingest_paths
from scoring.store import score_pending
from sim.drivers import SIMULATED
from sim.run import Plan, simulate

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
DEALS = 20_400
DEALS_PER_GAME = 20
REPEAT = 3


def _file(variant: str) -> Path:
    path = OUT / f"sim-{variant}-{DEALS}.jsonl"
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        simulate(Plan(variant, DEALS // DEALS_PER_GAME, DEALS_PER_GAME, seed=12), out=path,
                 workers=1)
    return path


def _best(fn: Callable[[], object]) -> float:
    fn()
    best = float("inf")
    for _ in range(REPEAT):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def _loads(path: Path) -> None:
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            json.loads(line)


def _read_json(path: Path) -> None:
    con = duckdb.connect()
    try:
        con.execute("CREATE TABLE t AS SELECT * FROM read_json(?, format = 'newline_delimited', "
                    "union_by_name = true, maximum_object_size = 1048576)", [str(path)])
    finally:
        con.close()


def _ingest(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        (report,) = ingest_paths([path], Path(tmp) / "v.duckdb", score=score_pending)
    assert report.quarantined == 0 and report.score_error is None, report


def _generic(path: Path) -> None:
    """:func:`_ingest` with the Greek fast paths given no games, so every deal line takes the
    generic columnar path (``ingest/columnar.py``)."""
    fast_games, card_games = pipeline._fast_games, pipeline._card_games
    pipeline._fast_games = lambda validator, cache: pl.DataFrame(schema=fastpath.GAMES_SCHEMA)
    pipeline._card_games = lambda validator, cache: {}
    try:
        _ingest(path)
    finally:
        pipeline._fast_games, pipeline._card_games = fast_games, card_games


def run() -> None:
    print(f"{'variant':18s} {'deals/s':>9s} {'x json.loads':>13s} {'x read_json':>12s}"
          "   (target: within 3x json.loads, ~50,000 deals/s)")
    for variant in SIMULATED:
        path = _file(variant)
        deals = sum(1 for line in path.open(encoding="utf-8") if '"record":"deal"' in line)
        loads, read_json, ingest = (_best(partial(f, path)) for f in (_loads, _read_json, _ingest))
        print(f"{variant:18s} {deals / ingest:9,.0f} {ingest / loads:12.1f}x "
              f"{ingest / read_json:11.1f}x", flush=True)
        if variant == fastpath.VARIANT:
            generic = _best(partial(_generic, path))
            print(f"{'  generic path':18s} {deals / generic:9,.0f} {generic / loads:12.1f}x "
                  f"{generic / read_json:11.1f}x   ({generic / ingest:.2f}x the fast paths' CPU)",
                  flush=True)


if __name__ == "__main__":
    run()
