"""A Dask LocalCluster with two workers gives the same records as one process (docs/simulation.md,
"Scale"): JSONL in game order, and the database loaded from the workers' Parquet parts."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from sim.run import Plan, simulate
from tests.conftest import local_cluster

pytest.importorskip("distributed")


def _rows(db: Path) -> list[tuple[object, ...]]:
    conn = duckdb.connect(str(db), read_only=True)
    try:
        deals = conn.execute(
            "SELECT game_id, deal_no, deal_key, record::VARCHAR FROM deals ORDER BY 1, 2"
        ).fetchall()
        flat = conn.execute("SELECT * FROM deals_greek ORDER BY game_id, deal_no").fetchall()
        cash = conn.execute(
            "SELECT game_id, deal_no, player, cash FROM settlements ORDER BY 1, 2, 3"
        ).fetchall()
    finally:
        conn.close()
    return [*deals, *flat, *cash]


def test_local_cluster_matches_one_process(tmp_path: Path) -> None:
    plan = Plan("greek-prefa", 16, 5, seed=8)
    with local_cluster() as cluster:
        address = cluster.scheduler_address
        simulate(plan, out=tmp_path / "cluster.jsonl", scheduler=address, games_per_part=3)
        simulate(plan, db=tmp_path / "cluster.duckdb", scheduler=address, games_per_part=3,
                 parts_dir=tmp_path / "parts")
    simulate(plan, out=tmp_path / "one.jsonl", workers=1)
    simulate(plan, db=tmp_path / "one.duckdb", workers=1)
    assert (tmp_path / "cluster.jsonl").read_text() == (tmp_path / "one.jsonl").read_text()
    rows = _rows(tmp_path / "one.duckdb")
    assert len(rows) == 80 + 80 + 240
    assert _rows(tmp_path / "cluster.duckdb") == rows
