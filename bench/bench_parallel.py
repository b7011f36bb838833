"""Parallel ingest on two cores against one (docs/ingest.md, "Parallel ingest").

``run()`` ingests, each into a fresh database, with one process (``ingest_paths`` as it is) and
with two worker processes (``ingest.parallel.reading`` on ``sim.pool.pool_imap``), and prints the
ratio of the times, next to the load average of the machine:

- a folder of 8 Balkan files with cards and play, each simulated with its own seed:
  canonical lines, which the columnar path (``ingest/columnar.py``) reads in one pass of the
  variant's model each;
- a folder of 8 Greek Prefa files with cards and play (``data/samples/make_samples.py``, each
  with its own seed, keys in records.md order): the columnar path reading each line with
  ``json.loads``;
- one large file of each (a simulated Balkan file of 60,000 deals, read in batches of 10,000 by
  both runs; a Greek score-sheet file of 200,000 deals, four batches of 50,000), cut into parts
  of about 8 MiB (a part is a run of whole batches), each stored as it comes.

Every deal of a case is its own: the rules cache what they judged of a layout or an auction
(``model/<variant>/check.py``), so copies of one file would be judged once by one process and
once by each worker. For the same reason the caches of our packages are emptied before each
run (:func:`_empty_caches`): a command starts with them empty, as a worker does.

The workers fork from a fork server that imported the pipeline (``ingest/worker.py``); it is
started once, before the cases (as a command starts it once), and its start is printed on its
own, next to the start of two fresh interpreters (``spawn``). Each two-worker time includes
forking its workers. Scoring is off; a small file is ingested first so that the parent's
imports are not counted. Target of issue 12: at least 1.7x on two cores.

On a shared, loaded machine the clock says little, so each case also prints what two idle
cores would give, from CPU times (:class:`Split`): the writer's serial share ``s`` (the CPU of
this process in the two-worker run, less the file it reads itself while the workers start,
over the CPU of the one-process run) gives Amdahl's ``1 / (s + (1 - s) / 2)``; and the work
of all processes (writer and workers) gives ``2 x`` one process's CPU over theirs. Two cores
reach at most the lower of the two.
"""

from __future__ import annotations

import functools
import gc
import os
import resource
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import astuple, dataclass
from pathlib import Path
from typing import Any

from bench.bench_ingest import OUT, _league


def _balkan(path: Path, deals: int, seed: int) -> None:
    """``deals`` simulated Balkan deals (games of 20) in ``path``."""
    from sim.run import Plan, simulate

    simulate(Plan("balkan", deals // 20, 20, seed=seed), out=path, workers=1)


def _folder(name: str, make: Callable[[int, Path], None], files: int = 8) -> Path:
    folder = OUT / name
    if not folder.exists():
        tmp = OUT / (name + ".tmp")
        tmp.mkdir(parents=True, exist_ok=True)
        for k in range(files):
            make(k, tmp / f"part-{k}.jsonl")
        tmp.rename(folder)
    return folder


REPEAT = 2
"""Runs of each case (one process and two workers by turns); each figure is the least of its
runs (the load of a shared machine only adds time)."""


@dataclass(frozen=True)
class Split:
    """Wall-clock and CPU seconds of one ingest: this process (the writer) apart from the files
    it reads itself, those files, and the workers (the fork server's children)."""

    wall: float = 0.0
    serial: float = 0.0
    reading: float = 0.0
    workers: float = 0.0

    @property
    def cpu(self) -> float:
        return self.serial + self.reading + self.workers

    def least(self, other: Split) -> Split:
        """Each figure the least of the two runs'."""
        return Split(*(min(a, b) for a, b in zip(astuple(self), astuple(other), strict=True)))

    def share(self, one: Split) -> float:
        """The writer's serial share of one process's CPU."""
        return self.serial / one.cpu

    def amdahl(self, one: Split) -> float:
        """Amdahl's speed-up on two cores, the writer's commits being the serial part."""
        return 1 / (self.share(one) + (1 - self.share(one)) / 2)

    def work_bound(self, one: Split) -> float:
        """The speed-up two cores give at most for the work all processes do."""
        return 2 * one.cpu / self.cpu


def _seconds(paths: list[Path], reading: Any = None, batch: int | None = None) -> Split:
    """Wall-clock and CPU seconds of one ingest (this process and its workers)."""
    from ingest.pipeline import ingest_paths

    with tempfile.TemporaryDirectory() as tmp:
        extra: dict[str, Any] = {} if reading is None else {"reading": reading}
        if batch is not None:
            extra["batch"] = batch
        reading = [0.0]
        own, workers = _cpu(), _forkserver()[1]
        t0 = time.perf_counter()
        with _reading_time(reading):
            reports = ingest_paths(paths, Path(tmp) / "b.duckdb", **extra)
        wall = time.perf_counter() - t0
        writer, workers = _cpu() - own, _forkserver()[1] - workers
    assert all(r.failed is None and r.stored for r in reports), reports
    return Split(wall, writer - reading[0], reading[0], workers)


@contextmanager
def _reading_time(reading: list[float]) -> Iterator[None]:
    """Adds to ``reading[0]`` the CPU seconds the writer spends reading files itself
    (``Writer.read_here``), while it lasts."""
    from ingest import parallel

    read_here = parallel.Writer.read_here

    def timed(conn: Any, path: Path, **options: Any) -> Any:
        t0 = time.process_time()
        try:
            return read_here(conn, path, **options)
        finally:
            reading[0] += time.process_time() - t0

    parallel.Writer.read_here = staticmethod(timed)  # type: ignore[method-assign]
    try:
        yield
    finally:
        parallel.Writer.read_here = staticmethod(read_here)  # type: ignore[method-assign]


def _cpu() -> float:
    """CPU seconds of this process (all its threads) and of its children that have ended
    (not the fork server's workers: :func:`_forkserver`)."""
    own, ended = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + ended.ru_utime + ended.ru_stime


def _forkserver() -> tuple[float, float]:
    """CPU seconds of the fork server itself and of the workers it forked that have ended
    (:func:`process_cpu`); zero before it starts."""
    from multiprocessing import forkserver

    pid = getattr(forkserver._forkserver, "_forkserver_pid", None)
    return (0.0, 0.0) if pid is None else process_cpu(pid)


def process_cpu(pid: int) -> tuple[float, float]:
    """CPU seconds of the process ``pid`` (utime + stime) and of its children that have ended
    (cutime + cstime), from ``/proc/PID/stat``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / tick, (int(fields[13]) + int(fields[14])) / tick


def _pool_start(start: str) -> tuple[float, float]:
    """Wall-clock and CPU seconds to start two workers that import the pipeline, for a start
    method of ``sim.pool.pool_imap`` (the fork server's start counted, the first time)."""
    from ingest.parallel import WORKER_MODULES
    from sim.pool import pool_imap

    cpu0, t0 = _cpu() + sum(_forkserver()), time.perf_counter()
    list(pool_imap(_imported, [0, 1], 2, start=start, preload=WORKER_MODULES))
    return time.perf_counter() - t0, _cpu() + sum(_forkserver()) - cpu0


def _imported(_: int) -> int:
    import ingest.worker  # noqa: F401  (what a worker imports)

    return os.getpid()


def run() -> None:
    from functools import partial

    from ingest.parallel import WORKER_MODULES, reading
    from sim.pool import pool_imap

    two = reading(partial(pool_imap, workers=2, start="forkserver", preload=WORKER_MODULES), 2)
    cases = {
        "folder, 8 Balkan files (16k deals)": [_folder(
            "parallel-balkan-8", lambda k, p: _balkan(p, 2_000, seed=12 + k))],
        "folder, 8 Greek card files (80k deals)": [_folder(
            "parallel-greek-8", lambda k, p: _write(p, _lines(f"g{k}", 20, 500, seed=k)))],
        "one Balkan file (60k deals in 6 batches, parts of 8 MiB)": [_big_balkan()],
        "one Greek score-sheet file (200k deals in 4 batches, parts of 8 MiB)": [
            _league("sheet-200k.jsonl", 400, 500, cards=False)],
    }
    batches = {label: 10_000 for label in cases if "Balkan file" in label}
    _seconds([_league("warm-1k.jsonl", 2, 500, cards=True)])  # imports, not timed below
    for start in ("spawn", "forkserver", "forkserver"):
        wall, cpu = _pool_start(start)
        print(f"starting two workers ({start}): {wall:.2f} s, CPU {cpu:.2f} s")
    for label, paths in cases.items():
        load = os.getloadavg()[0]
        one, both = Split(*[float("inf")] * 4), Split(*[float("inf")] * 4)
        for _ in range(REPEAT):
            _empty_caches()
            one = one.least(_seconds(paths, batch=batches.get(label)))
            _empty_caches()
            both = both.least(_seconds(paths, two, batch=batches.get(label)))
        amdahl, bound = both.amdahl(one), both.work_bound(one)
        print(f"{label} (least of {REPEAT} runs):\n"
              f"  CPU: 1 process {one.cpu:.2f} s; 2 workers: writer {both.serial:.2f} s "
              f"(and {both.reading:.2f} s reading a file itself), workers {both.workers:.2f} s\n"
              f"  two idle cores (from CPU): Amdahl {amdahl:.2f}x (writer's serial share "
              f"{both.share(one):.2f}), work bound {bound:.2f}x: "
              f"at most {min(amdahl, bound):.2f}x (target 1.7x)\n"
              f"  wall clock: 1 process {one.wall:.2f} s, 2 workers {both.wall:.2f} s: "
              f"{one.wall / both.wall:.2f}x (load average {load:.1f} -> "
              f"{os.getloadavg()[0]:.1f})", flush=True)


def _write(path: Path, lines: list[str]) -> None:
    path.write_text("".join(line + "\n" for line in lines))


def _lines(prefix: str, games: int, deals: int, seed: int) -> list[str]:
    from data.samples.make_samples import league_lines

    return list(league_lines(games, deals, cards=True, seed=seed, prefix=prefix))


def _big_balkan() -> Path:
    path = OUT / "balkan-60000.jsonl"
    if not path.exists():
        _balkan(path.with_suffix(".tmp"), 60_000, seed=12)
        path.with_suffix(".tmp").rename(path)
    return path


def _empty_caches() -> None:
    """Empties the ``functools`` caches of our packages, as in a new process."""
    ours = {"model", "ingest", "scoring", "sim"}
    for found in gc.get_objects():
        if (type(found) is functools._lru_cache_wrapper  # not isinstance: a dead weak proxy raises
                and getattr(found, "__module__", "").partition(".")[0] in ours):
            found.cache_clear()


if __name__ == "__main__":
    run()
