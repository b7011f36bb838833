"""Read-only opening with a writer holding the lock (dashboards/db.py)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from dashboards.db import DatabaseBusy, DatabaseMissing, read_only


def test_missing_file_says_how_to_build_one(tmp_path: Path) -> None:
    with pytest.raises(DatabaseMissing, match="trickbook ingest"), read_only(
        tmp_path / "nope.duckdb"
    ):
        pass
    assert not (tmp_path / "nope.duckdb").exists()  # read-only never creates the file


def test_read_only_cannot_write(fixture_path: Path) -> None:
    import duckdb

    with read_only(fixture_path) as con, pytest.raises(duckdb.Error):
        con.execute("DELETE FROM deals")


def test_writer_holding_the_lock_gives_a_clear_message(fixture_copy: Path) -> None:
    script = textwrap.dedent(f"""
        import duckdb, sys, time
        con = duckdb.connect({str(fixture_copy)!r})
        con.execute("BEGIN")
        con.execute("DELETE FROM quarantine")
        print("locked", flush=True)
        sys.stdin.readline()
        con.execute("ROLLBACK")
        con.close()
    """)
    writer = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout is not None and writer.stdout.readline().strip() == "locked"
        start = time.monotonic()
        with pytest.raises(DatabaseBusy, match="being written"), read_only(
            fixture_copy, retry_seconds=0.3
        ):
            pass
        assert time.monotonic() - start >= 0.3  # it retried before giving up
    finally:
        assert writer.stdin is not None
        writer.stdin.write("\n")
        writer.stdin.flush()
        writer.wait(timeout=30)
    with read_only(fixture_copy) as con:  # the writer is gone: reading works again
        assert con.execute("SELECT count(*) FROM quarantine").fetchone() == (3,)
