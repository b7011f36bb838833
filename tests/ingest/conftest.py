"""Fixtures of the ingest tests: a fresh database and the stand-in settlement."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import duckdb
import pytest

from ingest import pipeline
from tests.ingest.fakes import FakeSettlement

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "data" / "samples"
GREEK_SAMPLES = [SAMPLES / n for n in ("league.jsonl", "bad-lines.jsonl",
                                       "club-sheet-2026-11-22.csv", "club-sheet-2026-11-29.csv")]
"""The Greek Prefa sample league (data/samples/make_samples.py); other variants' samples live in
sub-folders of their own."""


@pytest.fixture(autouse=True)
def fast_paths_on_small_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast paths read JSON Lines files of any size here (``pipeline.FAST_FROM``): the
    tests hold them to the reference on small files."""
    monkeypatch.setattr(pipeline, "FAST_FROM", 0)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "t.duckdb"


@pytest.fixture
def fake() -> FakeSettlement:
    return FakeSettlement()


def snapshot(db: Path, tables: Iterable[str] | None = None
             ) -> dict[str, list[tuple[object, ...]]]:
    """Rows of ``tables`` (default every table) without ingest times, sorted: two equal
    snapshots are the same data."""
    conn = duckdb.connect(str(db), read_only=True)
    try:
        if tables is None:
            tables = [t for (t,) in conn.execute(
                "SELECT table_name FROM duckdb_tables() ORDER BY 1").fetchall()]
        out = {}
        for t in tables:
            cols = [r[0] for r in conn.execute(f"DESCRIBE {t}").fetchall()
                    if r[0] != "ingested_at"]
            rows = conn.execute(f"SELECT {', '.join(cols)} FROM {t}").fetchall()
            out[t] = sorted(rows, key=repr)
        return out
    finally:
        conn.close()
