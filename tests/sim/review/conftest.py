"""A small database of simulated deals of every reviewed variant, reviewed once per session."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from sim.review.run import ReviewReport, review_database
from sim.run import Plan, simulate

VARIANTS = ("greek-prefa", "balkan", "swabian", "bridge-duplicate")


def simulated_db(path: Path, games: int = 3, deals: int = 8, play: str = "heuristic",
                 variants: tuple[str, ...] = VARIANTS) -> Path:
    for v in variants:
        simulate(Plan(v, games, deals, seed=11, play=play), db=path, workers=1)
    return path


@pytest.fixture(scope="session")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ReviewReport]:
    pytest.importorskip("endplay")
    db = simulated_db(tmp_path_factory.mktemp("review") / "sim.duckdb")
    conn = duckdb.connect(str(db))
    try:
        report = review_database(conn, workers=1)
    finally:
        conn.close()
    return db, report
