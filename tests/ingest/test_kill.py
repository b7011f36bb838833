"""Atomicity: a process ingesting a large file is killed with SIGKILL mid-file; the database is
then as before that file, and a rerun gives exactly the result of a clean run (records.md 2)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import duckdb
import pytest

from data.samples.make_samples import league_lines
from ingest.pipeline import ingest_paths
from scoring.checks import run_checks
from tests.ingest.conftest import ROOT, SAMPLES
from tests.ingest.fakes import FakeSettlement, fake_scorer
from tests.ingest.test_pipeline import snapshot

CHILD = textwrap.dedent("""
    import sys
    from ingest.pipeline import ingest_paths
    from tests.ingest.fakes import FakeSettlement, fake_scorer, fake_settlements

    def tick(p):
        print(p.records, flush=True)

    ingest_paths([sys.argv[1]], sys.argv[2], score=fake_scorer(FakeSettlement()),
                 progress=tick, batch=500)
    print("done", flush=True)
""")


@pytest.mark.slow
def test_sigkill_mid_file_leaves_database_as_before(tmp_path: Path) -> None:
    big = tmp_path / "big.jsonl"
    big.write_text("\n".join(league_lines(40, 500, cards=False, prefix="kill")) + "\n")
    total = 40 * 501
    db, clean = tmp_path / "killed.duckdb", tmp_path / "clean.duckdb"
    first = SAMPLES / "league.jsonl"
    ingest_paths([first], db, score=fake_scorer(FakeSettlement()))
    before = snapshot(db)

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(big), str(db)], cwd=ROOT, env=env,
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    seen = 0
    for text in child.stdout:
        seen = int(text) if text.strip().isdigit() else -1
        if 0 < seen < total:
            break
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert 0 < seen < total, "the child finished before it could be killed mid-file"

    assert snapshot(db) == before
    conn = duckdb.connect(str(db), read_only=True)
    try:
        assert [f.check for f in run_checks(conn) if not f.finding] == []
    finally:
        conn.close()

    (r,) = ingest_paths([big], db, score=fake_scorer(FakeSettlement()))
    assert (r.records, r.stored) == (total, total)
    ingest_paths([first, big], clean, score=fake_scorer(FakeSettlement()))
    assert snapshot(db) == snapshot(clean)
