"""The compiled card replay of ``check_batch`` against ``check`` deal by deal (issue 12).

For each simulated variant, on the 20,400-deal file of ``bench_variants`` (``bench/out/``):

- ``rules``: the variant's ``valid_deals`` over every deal of the file, once with its
  ``check_batch`` (the cards in columns, ``model/card_batch.py``, where the variant has a
  layout), once with ``before_play`` deal by deal and every play in one call of the compiled
  replay (``replayed_batch``), and once with ``check`` deal by deal (``check_batch`` set aside),
  in CPU microseconds per deal (the machine may be shared), with the collector paused as ingest
  pauses it;
- ``ingest``: the file end to end into a fresh database with its settlement (``ingest_paths``
  with ``score_pending``), both ways, in CPU time as a ratio to ``json.loads`` of every line, and
  the share of ``Variant.valid_deals`` in a profile of the ingest, both ways.

CPU time, not wall time: on a shared machine the wall time of a run says more about the others'
load than about this code. Each time is the least of ``repeat`` runs after one warm run.
"""

from __future__ import annotations

import cProfile
import importlib
import json
import pstats
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from bench.bench_variants import REPEAT, _file, _ingest, _loads
from ingest.pipeline import cycle_gc_paused
from model.card_batch import replayed_batch
from model.variant import Variant
from model.variants import variant as lookup
from sim.drivers import SIMULATED


@contextmanager
def _with_batch(v: Variant, batch: Callable[..., Any] | None) -> Iterator[None]:
    """``v`` with another ``check_batch`` (None: ``valid_deals`` asks ``check`` deal by deal)."""
    kept = v.check_batch
    object.__setattr__(v, "check_batch", batch)
    try:
        yield
    finally:
        object.__setattr__(v, "check_batch", kept)


def _before_play(v: Variant) -> Callable[..., Any]:
    """``before_play`` deal by deal, every play in one call of the kernel (``replayed_batch``)."""
    module = importlib.import_module(v.check.__module__)
    return replayed_batch(module.before_play)


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


def rules(names: Sequence[str] = SIMULATED) -> None:
    """The rules alone (``Variant.valid_deals``), three ways, CPU microseconds per deal."""
    print(f"{'variant':18s} {'columns':>9s} {'before_play':>12s} {'check':>9s} {'x':>6s}")
    for name in names:
        v = lookup(name)
        pairs = _pairs(v, _file(name))
        n = len(pairs)
        assert v.valid_deals(pairs) == [True] * n
        batch = _cpu(partial(v.valid_deals, pairs))
        with _with_batch(v, _before_play(v)):
            before = _cpu(partial(v.valid_deals, pairs))
        with _with_batch(v, None):
            check = _cpu(partial(v.valid_deals, pairs))
        print(f"{name:18s} {batch / n * 1e6:7.1f}us {before / n * 1e6:10.1f}us "
              f"{check / n * 1e6:7.1f}us {before / batch:5.1f}x", flush=True)


def run() -> None:
    rules()
    print(f"{'variant':18s} {'ingest batch':>13s} {'ingest check':>13s} "
          f"{'valid_deals share':>18s}")
    for name in SIMULATED:
        v = lookup(name)
        path = _file(name)
        loads = _cpu(partial(_loads, path))
        ingest = _cpu(partial(_ingest, path), 1)
        share = _share(partial(_ingest, path))
        with _with_batch(v, None):
            ingest_check = _cpu(partial(_ingest, path), 1)
            share_check = _share(partial(_ingest, path))
        print(f"{name:18s} {ingest / loads:12.1f}x {ingest_check / loads:12.1f}x "
              f"{share:8.0%} / {share_check:.0%}", flush=True)


if __name__ == "__main__":
    rules(sys.argv[1:] or SIMULATED)
