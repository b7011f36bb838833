"""Shared test paths: the project root and ``../shared`` beside it (spec and third-party data)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import dask
import duckdb
import pytest
from hypothesis import settings

from sim.review.run import ReviewReport, review_database
from tests.sim.review.conftest import simulated_db

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SPEC = SHARED / "spec"
DATA = SHARED / "data"


settings.register_profile("trickbook", deadline=None)
settings.load_profile("trickbook")
"""No property test fails on the time one example takes (Hypothesis's default deadline is 200
ms): on a loaded machine an example may take longer, and the test failed as flaky."""


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not DATA.is_dir():
        pytest.fail(f"third-party data not found at {DATA} (the repo expects ../shared beside it)")
    return DATA


def fresh_process(script: str, *unset: str) -> Any:
    """What ``script`` prints as JSON, run by a fresh Python in the repository, with the
    environment variables ``unset`` (and ``NUMBA_DISABLE_JIT``) left out: for the tests of
    numba's disk cache."""
    env = {k: v for k, v in os.environ.items() if k not in {"NUMBA_DISABLE_JIT", *unset}}
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run([sys.executable, "-c", script], env=env, cwd=ROOT, check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout)


CLUSTER_PATIENCE = {"distributed.comm.timeouts.connect": "300s",
                    "distributed.comm.timeouts.tcp": "300s",
                    "distributed.deploy.lost-worker-timeout": "300s"}
"""Dask's waits in the tests, longer than its defaults (30 s, 15 s): on a loaded two-core
machine a worker process can take longer than that to start or answer, and the test failed."""


@contextmanager
def local_cluster() -> Iterator[Any]:
    """A Dask cluster of two single-threaded worker processes on this machine, without a
    dashboard, its scheduler's HTTP port chosen free: the two test workers may start clusters at
    once, and both would ask for the default 8787. Its waits are :data:`CLUSTER_PATIENCE`."""
    distributed = pytest.importorskip("distributed")
    with dask.config.set(CLUSTER_PATIENCE), distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
            scheduler_kwargs={"dashboard": False}) as cluster:
        yield cluster


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--long", action="store_true",
                     help="also run the tests marked long (make test-long)")
    parser.addoption("--shots", action="store_true",
                     help="screenshot every view the browser walks open (tests/out/)")


SHARED_FIXTURES = ("reviewed", "runs", "one_process", "balance_studies")
"""Costly fixtures of a session or module (a reviewed database of simulated deals, a folder
ingested six ways, a simulated database reviewed in one process, three stored balance studies)
whose tests run on one xdist worker (``--dist loadgroup``), so each is built once, not once per
worker."""


@pytest.fixture(scope="session")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ReviewReport]:
    """A small database of simulated deals of every reviewed variant
    (``tests/sim/review/conftest.py``), reviewed once per session: read by the review's own
    tests and by the dashboards' (a test that writes works on a copy)."""
    pytest.importorskip("endplay")
    db = simulated_db(tmp_path_factory.mktemp("review") / "sim.duckdb")
    conn = duckdb.connect(str(db))
    try:
        report = review_database(conn, workers=1)
    finally:
        conn.close()
    return db, report


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests of each of :data:`SHARED_FIXTURES` share an xdist group; the ``long`` tests
    run only with ``--long``."""
    for item in items:
        used = [name for name in SHARED_FIXTURES if name in getattr(item, "fixturenames", ())]
        if used:
            item.add_marker(pytest.mark.xdist_group(used[0]))
    if config.getoption("--long"):
        return
    skip = pytest.mark.skip(reason="long: run by make test-long (--long)")
    for item in items:
        if "long" in item.keywords:
            item.add_marker(skip)


_MAIN = sys.modules["__main__"]


@pytest.fixture(autouse=True)
def _main_module_kept() -> Iterator[None]:
    """``sys.modules["__main__"]`` as the test process started: Streamlit's script runner (a
    page test's ``AppTest``) leaves the page it ran there, and a worker process forked after
    it (the parallel ingest's, ``multiprocessing``'s spawn preparation) ran that page as its
    main module and died, when xdist gave one test worker a page test and then a parallel one."""
    yield
    sys.modules["__main__"] = _MAIN
