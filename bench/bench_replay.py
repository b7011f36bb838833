"""The compiled card replay of ``check_batch`` against ``check`` deal by deal (issue 12).

For each simulated variant, on the 20,400-deal file of ``bench_variants`` (``bench/out/``):

- ``rules``: the variant's ``valid_deals`` over every deal of the file, once with its
  ``check_batch`` (the rules deal by deal, every play in one call of the compiled replay) and once
  with ``check`` deal by deal (``check_batch`` set aside), in deals per CPU second (the machine
  may be shared), with the collector paused as ingest pauses it;
- ``ingest``: the file end to end into a fresh database with its settlement (``ingest_paths``
  with ``score_pending``), both ways, in CPU time as a ratio to ``json.loads`` of every line, and
  the share of ``Variant.valid_deals`` in a profile of the ingest, both ways.

CPU time, not wall time: on a shared machine the wall time of a run says more about the others'
load than about this code. Each time is the least of ``repeat`` runs after one warm run.
"""

from __future__ import annotations

import cProfile
import json
import pstats
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from bench.bench_variants import REPEAT, _file, _ingest, _loads
from ingest.pipeline import cycle_gc_paused
from model.variant import Variant
from model.variants import variant as lookup
from sim.drivers import SIMULATED


@contextmanager
def _without_batch(v: Variant) -> Iterator[None]:
    """``v`` as if it had no ``check_batch``: ``valid_deals`` asks ``check`` deal by deal."""
    kept = v.check_batch
    object.__setattr__(v, "check_batch", None)
    try:
        yield
    finally:
        object.__setattr__(v, "check_batch", kept)


def _pairs(v: Variant, path: Path) -> list[tuple[Any, Any]]:
    games: dict[str, Any] = {}
    pairs = []
    for line in path.open(encoding="utf-8"):
        data = json.loads(line)
        kind = data.pop("record")
        if kind == "game":
            games[data["game_id"]] = v.game_model.model_validate(data)
        else:
            pairs.append((games[data["game_id"]], v.deal_model.model_validate(data)))
    return pairs


def _cpu(fn: Callable[[], object], repeat: int = REPEAT) -> float:
    """The least CPU time of ``repeat`` runs of ``fn`` after one warm run, collector paused (as
    ingest pauses it)."""
    fn()
    best = float("inf")
    with cycle_gc_paused():
        for _ in range(repeat):
            t0 = time.process_time()
            fn()
            best = min(best, time.process_time() - t0)
    return best


def _share(fn: Callable[[], object]) -> float:
    """The share of ``Variant.valid_deals`` in a profile of ``fn``."""
    prof = cProfile.Profile()
    prof.runcall(fn)
    stats = pstats.Stats(prof)
    total = max(stats.total_tt, 1e-9)  # type: ignore[attr-defined]
    inside = sum(row[3] for (_, _, name), row in stats.stats.items()  # type: ignore[attr-defined]
                 if name == "valid_deals")
    return inside / total


def run() -> None:
    print(f"{'variant':18s} {'rules batch':>12s} {'rules check':>12s} {'ingest batch':>13s} "
          f"{'ingest check':>13s} {'valid_deals share':>18s}")
    for name in SIMULATED:
        v = lookup(name)
        path = _file(name)
        pairs = _pairs(v, path)
        n = len(pairs)
        assert v.valid_deals(pairs) == [True] * n
        batch = _cpu(partial(v.valid_deals, pairs))
        loads = _cpu(partial(_loads, path))
        ingest = _cpu(partial(_ingest, path), 1)
        share = _share(partial(_ingest, path))
        with _without_batch(v):
            check = _cpu(partial(v.valid_deals, pairs))
            ingest_check = _cpu(partial(_ingest, path), 1)
            share_check = _share(partial(_ingest, path))
        print(f"{name:18s} {n / batch:10,.0f}/s {n / check:10,.0f}/s {ingest / loads:12.1f}x "
              f"{ingest_check / loads:12.1f}x {share:8.0%} / {share_check:.0%}", flush=True)


if __name__ == "__main__":
    run()
