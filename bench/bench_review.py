"""Review of play (docs/review.md): deals fully reviewed per second per core, Preference (target
50) and bridge (target 2); the speed-up of two worker processes over one (target 1.7x); the
heuristic bots' cost per deal beside the open-hand bots' (0 by construction).

The deals are simulated first (seeded, ``sim.run``) into a temporary database; the solver is
compiled and DDS loaded before the clock starts (the pool's workers are forked from this
process, so they inherit both). Each figure reviews a fresh copy of the same database.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

import duckdb

from sim.review.run import review_database
from sim.review.store import pending, review_task
from sim.run import Plan, simulate

PREFERENCE = ("greek-prefa", "balkan", "swabian")
GAMES = 40
DEALS = 5
BRIDGE_DEALS = 30
TARGET_PREFERENCE = 50.0
TARGET_BRIDGE = 2.0
TARGET_SCALING = 1.7


def _db(root: Path, name: str, plans: list[Plan]) -> Path:
    path = root / f"{name}.duckdb"
    for plan in plans:
        simulate(plan, db=path, workers=1)
    return path


def _warm(db: Path) -> None:
    """Compile the solver and load DDS on one deal of each variant (not timed)."""
    conn = duckdb.connect(str(db))
    try:
        seen: set[str] = set()
        for task in pending(conn):
            if task[2] not in seen:
                seen.add(task[2])
                review_task(task)
    finally:
        conn.close()


def _review(db: Path, workers: int) -> tuple[int, float, float, duckdb.DuckDBPyConnection]:
    """Review a fresh copy of ``db``: the deals reviewed (not skipped), the wall-clock seconds
    and this process's CPU seconds (one worker: the whole review runs here)."""
    copy = db.with_name(f"{db.stem}-{workers}-{time.monotonic_ns()}.duckdb")
    shutil.copy(db, copy)
    conn = duckdb.connect(str(copy), config={"threads": 1})  # CPU time of one core
    cpu = time.process_time()
    report = review_database(conn, workers=workers)
    return report.reviewed, report.seconds, time.process_time() - cpu, conn


def _rate(what: str, n: int, wall: float, cpu: float, target: float) -> float:
    """Print deals per CPU second (per core, whatever the machine's load) and per wall second."""
    rate = n / cpu
    print(f"{what}: {n} deals reviewed, {rate:.1f} deals per CPU second on one core "
          f"(target {target:.0f}: {_met(rate >= target)}); wall clock {n / wall:.1f} deals/s")
    return n / wall


def _cost_per_deal(conn: duckdb.DuckDBPyConnection) -> str:
    row = conn.execute("""SELECT count(DISTINCT (game_id, deal_no)), sum(cost),
                                 sum(cost) FILTER (WHERE side = 'declarer')
                          FROM card_review""").fetchone()
    assert row is not None
    deals, total, declarer = row
    if not deals:
        return "no deals"
    return (f"{total / deals:.2f} tricks per deal ({(declarer or 0) / deals:.2f} declarer, "
            f"{(total - (declarer or 0)) / deals:.2f} defence) over {deals} deals")


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def run() -> None:
    root = Path(tempfile.mkdtemp(prefix="bench-review-"))
    try:
        pref = _db(root, "pref", [Plan(v, GAMES, DEALS, seed=7) for v in PREFERENCE])
        dd = _db(root, "dd", [Plan(v, GAMES // 4, DEALS, seed=7, play="dd") for v in PREFERENCE])
        bridge = _db(root, "bridge", [Plan("bridge-duplicate", BRIDGE_DEALS // 10, 10, seed=7)])
        _warm(pref)
        _warm(bridge)
        n1, s1, c1, conn = _review(pref, 1)
        wall = _rate("preference", n1, s1, c1, TARGET_PREFERENCE)
        print(f"heuristic bots' card costs: {_cost_per_deal(conn)}")
        conn.close()
        n2, s2, _, conn = _review(pref, 2)
        conn.close()
        scaling = (n2 / s2) / wall
        print(f"two workers: {n2 / s2:.1f} deals/s, {scaling:.2f}x one worker by the wall clock "
              f"(target {TARGET_SCALING}x: {_met(scaling >= TARGET_SCALING)}; other jobs on "
              f"the machine count, load average {os.getloadavg()[0]:.1f})")
        conn = _review(dd, 1)[3]
        print(f"open-hand bots' card costs: {_cost_per_deal(conn)}")
        conn.close()
        nb, sb, cb, conn = _review(bridge, 1)
        conn.close()
        _rate("bridge", nb, sb, cb, TARGET_BRIDGE)
    finally:
        shutil.rmtree(root, ignore_errors=True)
