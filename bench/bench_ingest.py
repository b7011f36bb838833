"""Ingest speed and memory (docs/ingest.md "Speed").

``run()`` generates Greek Prefa leagues with ``data/samples/make_samples.py`` under ``bench/out/``
and ingests them into fresh databases:

- score-sheet JSONL (100k deals) with the fast path and with the reference (pydantic) path: deals/s
  and their ratio;
- full cards + play JSONL (20k deals; every deal's auction and play replayed) with the columnar
  path (``ingest/columnar.py``) and with the reference path: deals/s and their ratio;
- peak Python heap (tracemalloc) and peak resident memory (``VmHWM``) of a fresh child
  process per size ingesting 100k, 300k and 1,000,000 score-sheet deals: both should stay flat
  as the file grows (see docs/ingest.md "Memory": a file keeps up to 64 MiB of its new rows in
  memory, which 100k deals do not fill, so the flat part starts beyond that).

Only ingest is timed: scoring is switched off (the games stay pending), and a small file is
ingested first so that imports and first-call costs are not counted; each rate is the best of
``REPEAT`` runs (the development machine is shared and noisy). Issue targets: >= 100,000 deals/s
score sheet, >= 50,000 deals/s with cards and play; they are printed next to the rates.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
REPEAT = 2

CHILD = textwrap.dedent("""
    import sys, tracemalloc
    from ingest.pipeline import ingest_paths

    tracemalloc.start()
    (r,) = ingest_paths([sys.argv[1]], sys.argv[2])  # no score hook: ingest alone
    heap = tracemalloc.get_traced_memory()[1] // 1024
    status = dict(line.split(":", 1) for line in open("/proc/self/status"))
    print(r.stored, heap, int(status["VmHWM"].split()[0]))
""")
"""The child reports its own peak resident memory (``VmHWM``, in KiB): ``ru_maxrss`` would also
count the parent's, which a forked child inherits across ``exec`` on Linux."""


def _league(name: str, games: int, deals: int, cards: bool) -> Path:
    from data.samples.make_samples import league_lines

    path = OUT / name
    if not path.exists():
        OUT.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        with tmp.open("w") as fh:
            for line in league_lines(games, deals, cards=cards, prefix=name):
                fh.write(line + "\n")
        tmp.rename(path)
    return path


def _rate(path: Path, deals: int, *, fast: bool, repeat: int = REPEAT) -> float:
    """Deals per second of ``ingest_paths`` on ``path`` into a fresh database, best of
    ``repeat``."""
    from ingest.pipeline import ingest_paths

    best = float("inf")
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            (r,) = ingest_paths([path], Path(tmp) / "b.duckdb", fast=fast)  # ingest alone
            best = min(best, time.perf_counter() - t0)
        assert r.quarantined == 0 and r.stored == r.records, r
    return deals / best


def _rate_check_free(path: Path, deals: int) -> float:
    """:func:`_rate` with the columnar path's results computed beforehand (a first run
    remembers them, keyed by each batch's first candidate line): what the rest of the pipeline
    costs."""
    from ingest import columnar, pipeline

    real = columnar.accept
    memo: dict[tuple[str, int], object] = {}

    def remembered(texts: Any, candidates: Any, *args: Any) -> Any:
        candidates = list(candidates)
        key = (texts[candidates[0]][1] if candidates else "", len(candidates))
        if key not in memo:
            memo[key] = real(texts, candidates, *args)
        return memo[key]

    pipeline.columnar.accept = remembered  # type: ignore[assignment]
    try:
        _rate(path, deals, fast=True, repeat=1)
        return _rate(path, deals, fast=True)
    finally:
        pipeline.columnar.accept = real  # type: ignore[assignment]


def _peaks(path: Path) -> tuple[int, int, int]:
    """Records stored, peak Python heap (tracemalloc) and peak RSS of a child, both in KiB."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run([sys.executable, "-c", CHILD, str(path), str(Path(tmp) / "m.duckdb")],
                             cwd=ROOT, capture_output=True, text=True, check=True,
                             env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    stored, heap, rss = out.stdout.strip().splitlines()[-1].split()
    return int(stored), int(heap), int(rss)


def run() -> None:
    sheet = _league("sheet-100k.jsonl", 200, 500, cards=False)
    cards = _league("cards-20k.jsonl", 40, 500, cards=True)
    warm = _league("warm-1k.jsonl", 2, 500, cards=True)
    _rate(warm, 1_000, fast=True, repeat=1)  # imports and first calls, not timed below
    fast = _rate(sheet, 100_000, fast=True)
    ref = _rate(sheet, 100_000, fast=False, repeat=1)
    print(f"score sheet, fast path:      {fast:10,.0f} deals/s  (target 100,000)")
    print(f"score sheet, reference path: {ref:10,.0f} deals/s  (fast path = {fast / ref:.1f}x)")
    full = _rate(cards, 20_000, fast=True)
    full_ref = _rate(cards, 20_000, fast=False, repeat=1)
    print(f"cards + play, fast path:     {full:10,.0f} deals/s  (target 50,000)")
    print(f"cards + play, reference:     {full_ref:10,.0f} deals/s  "
          f"(fast path = {full / full_ref:.1f}x)")
    print(f"cards + play, check free:    {_rate_check_free(cards, 20_000):10,.0f} deals/s  "
          "(the columnar path's results computed beforehand: the rest's ceiling)")
    sizes = [sheet, _league("sheet-300k.jsonl", 600, 500, cards=False),
             _league("sheet-1m.jsonl", 2000, 500, cards=False)]
    peaks = [_peaks(path) for path in sizes]
    for label, at in (("peak Python heap", 1), ("peak RSS", 2)):
        shown = ", ".join(f"{p[at] / 1024:,.0f} MiB at {p[0]:,}" for p in peaks)
        print(f"{label + ':':17s} {shown} records "
              f"(1M / 300k: {peaks[2][at] / peaks[1][at]:.2f}; 1M / 100k: "
              f"{peaks[2][at] / peaks[0][at]:.2f})")


if __name__ == "__main__":
    run()
