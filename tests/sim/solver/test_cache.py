"""The compiled solver is cached on disk (``sim/solver/_jit.py``; issue 14, 7): a fresh process
loads the search from numba's cache instead of compiling it again. What is checked is numba's own
account (the dispatcher's cache hits and misses, the index files), never a time."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.conftest import fresh_process as run_fresh

pytest.importorskip("numba")

SCRIPT = """
import json
from sim.solver import COMPILED, Goal, solve
from sim.solver import _kernel
from tests.conftest import DATA
from tests.sim.solver.fixtures import read_bts
d = read_bts(DATA / "slovesnov-preferans-problems" / "preferansEn.bts")[1]
value = solve(d.hands, d.leader, d.declarer, d.trump, Goal.MOST)
print(json.dumps({
    "compiled": COMPILED, "value": value,
    "cache": _kernel.search.stats.cache_path,
    "hits": {f: sum(getattr(_kernel, f).stats.cache_hits.values())
             for f in ("search", "solve_position")},
    "misses": {f: sum(getattr(_kernel, f).stats.cache_misses.values())
               for f in ("search", "solve_position")},
}))
"""


def fresh_process() -> dict[str, object]:
    result: dict[str, object] = run_fresh(SCRIPT, "TRICKBOOK_SOLVER")
    return result


def test_a_second_process_loads_the_solver_from_the_disk_cache() -> None:
    """The first process compiles the search (or loads it, when an earlier run cached it); the
    second loads both functions from the cache and compiles nothing: its dispatchers count a
    cache hit and no miss. preferansEn.bts deal 2 is worth 0 tricks either way."""
    first = fresh_process()
    second = fresh_process()
    assert first["compiled"] is True and first["value"] == second["value"] == 0
    assert second["misses"] == {"search": 0, "solve_position": 0}, second
    assert second["hits"] == {"search": 1, "solve_position": 1}, second
    cache = Path(str(second["cache"]))
    indexed = {p.name.split("-")[0] for p in cache.glob("_kernel.*.nbi")}
    assert {"_kernel.search", "_kernel.solve_position", "_kernel.mtd"} <= indexed, indexed


def test_the_cache_folder_is_ignored_by_git() -> None:
    """numba writes its cache to ``__pycache__`` beside the source (a fresh clone makes it on
    first use), which git ignores."""
    probe = "sim/solver/__pycache__/_kernel.search-1.py311.nbi"
    done = subprocess.run(["git", "check-ignore", "-q", probe], cwd=ROOT, check=False)
    if done.returncode == 128:
        pytest.skip("not a git checkout")
    assert done.returncode == 0
