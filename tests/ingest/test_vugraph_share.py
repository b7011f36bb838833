"""The share of the BBO Vugraph LIN files' records stored (issue 14, "How we will know": at least
95% of the table records stored, every repair recorded, the rest quarantined with reasons). The
files are third-party data read from ``../shared/data/bbo-vugraph-lin`` (its README and
``MANIFEST.json``, which counts each file's table records); the test is skipped without them."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from ingest.pipeline import ingest_paths
from tests.conftest import DATA

LIN = DATA / "bbo-vugraph-lin"


def test_vugraph_files_stored_share(tmp_path: Path) -> None:
    """Measured: 179 of 181 table records (board x room) stored (98.9%), no repair needed;
    quarantined with reasons: 15474.lin board 32 open (a claim the result contradicts) and
    36117.lin board 26 open (a play the result contradicts); 30000.lin, a match shell without
    boards, is one file-level issue."""
    if not (LIN / "MANIFEST.json").is_file():
        pytest.skip("../shared/data/bbo-vugraph-lin is absent")
    manifest = json.loads((LIN / "MANIFEST.json").read_text())["files"]
    files = sorted(LIN.glob("*.lin"))
    records = sum(f["board_room_records"] for f in manifest)
    assert len(files) == len(manifest) and records == 181
    db = tmp_path / "vugraph.duckdb"
    reports = ingest_paths(files, db)
    assert all(r.records == r.stored + r.duplicates + r.quarantined for r in reports)
    conn = duckdb.connect(str(db), read_only=True)
    try:
        (stored,) = conn.execute("SELECT count(*) FROM deals").fetchone()  # type: ignore[misc]
        held = conn.execute("SELECT source, code, record_key, message FROM quarantine "
                            "WHERE record_key LIKE '%#%' ORDER BY source").fetchall()
        (repaired,) = conn.execute("SELECT count(*) FROM repairs").fetchone()  # type: ignore[misc]
        (unkeyed,) = conn.execute("SELECT count(*) FROM quarantine "  # type: ignore[misc]
                                  "WHERE record_key NOT LIKE '%#%'").fetchone()
    finally:
        conn.close()
    assert stored + len(held) == records and stored >= 0.95 * records
    assert (stored, repaired, unkeyed) == (179, 0, 1)
    assert [(Path(s).name, c) for s, c, _, _ in held] == [
        ("15474.lin", "replay-mismatch"), ("36117.lin", "replay-mismatch")]
    assert all(len(m) > 20 for *_, m in held)
