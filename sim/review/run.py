"""``trickbook analyse --play``: review every stored deal not reviewed yet (docs/review.md).

The deals are cut into batches; each batch is reviewed by a worker (a process pool on every
local core, or a Dask cluster) and written by this process in one transaction as it arrives, so
Ctrl-C keeps every batch written (the first Ctrl-C finishes the batch being written, a second
stops at once). A review depends only on the deal, so the rows are the same whatever the
workers or the cluster.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import duckdb

from sim.pool import connect, pool_imap
from sim.review import store
from sim.review.rows import DealReview, Skipped
from sim.run import _GracefulStop

BATCH_DEALS = 50
"""Deals per batch: one task, one transaction, one progress step."""


@dataclass
class ReviewReport:
    reviewed: int = 0
    cards: int = 0
    skipped: list[tuple[str, int, str]] = field(default_factory=list)
    interrupted: bool = False
    seconds: float = 0.0


def batches(tasks: list[store.Task], size: int = BATCH_DEALS) -> list[list[store.Task]]:
    return [tasks[a:a + size] for a in range(0, len(tasks), size)]


def run_local(parts: list[list[store.Task]], workers: int
              ) -> Iterator[list[DealReview | Skipped]]:
    """The reviews of each batch, in order, on ``workers`` processes (here for one)."""
    return pool_imap(store.review_batch, parts, workers)


def run_dask(parts: list[list[store.Task]], scheduler: str
             ) -> Iterator[list[DealReview | Skipped]]:
    """The reviews of each batch on the Dask cluster at ``scheduler``, as they finish."""
    from distributed import as_completed

    client = connect(scheduler)
    futures: list[Any] = []
    try:
        futures = [client.submit(store.review_batch, p, pure=False) for p in parts]
        for fut in as_completed(futures):  # type: ignore[no-untyped-call]
            yield fut.result()
    finally:
        for fut in futures:
            fut.cancel()
        client.close()


def review_database(
    conn: duckdb.DuckDBPyConnection,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    batch_deals: int = BATCH_DEALS,
    limit: int | None = None,
    on_start: Callable[[int], None] | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> ReviewReport:
    """Review the deals not reviewed yet (at most ``limit``) and store the rows.
    ``on_start(deals)`` is called once with the number to review, ``on_progress(deals)`` after
    each batch stored."""
    started = time.perf_counter()
    parts = batches(store.pending(conn, limit), batch_deals)
    report = ReviewReport()
    if on_start is not None:
        on_start(sum(len(p) for p in parts))
    stop = _GracefulStop()
    results = (run_local(parts, workers or os.cpu_count() or 1) if scheduler is None
               else run_dask(parts, scheduler))
    try:
        with stop:
            for done in results:
                store.write(conn, done)
                _count(report, done)
                if on_progress is not None:
                    on_progress(len(done))
                if stop.requested:
                    raise KeyboardInterrupt
    except KeyboardInterrupt:
        report.interrupted = True
    finally:
        results.close()  # type: ignore[attr-defined]
    report.seconds = time.perf_counter() - started
    return report


def _count(report: ReviewReport, done: list[DealReview | Skipped]) -> None:
    for r in done:
        if isinstance(r, Skipped):
            report.skipped.append((r.game_id, r.deal_no, r.reason))
        else:
            report.reviewed += 1
            report.cards += len(r.cards)
