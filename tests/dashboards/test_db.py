"""Read-only opening with a writer holding the lock (dashboards/db.py)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from dashboards.db import DatabaseBusy, DatabaseError, DatabaseMissing, one_per_run, read_only


def test_missing_file_says_how_to_build_one(tmp_path: Path) -> None:
    with pytest.raises(DatabaseMissing, match="trickbook ingest"), read_only(
        tmp_path / "nope.duckdb"
    ):
        pass
    assert not (tmp_path / "nope.duckdb").exists()  # read-only never creates the file


def test_a_folder_given_as_the_database_is_said_to_be_one(tmp_path: Path) -> None:
    """``trickbook dashboard --db FOLDER``: the pages said there was no database yet and to
    upload files, whose ingest then failed on the folder."""
    with pytest.raises(DatabaseError, match="is a folder, not a database file"), read_only(
        tmp_path
    ):
        pass


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


def test_one_connection_per_run_closed_at_its_end(fixture_copy: Path) -> None:
    """Within ``one_per_run`` every batch reads through the one connection the first opened;
    after the run the file is free for a writer (docs/dashboards.md, "Speed")."""
    import duckdb

    with one_per_run():
        with read_only(fixture_copy) as first:
            first.execute("SELECT 1").fetchall()
        with read_only(fixture_copy) as second:
            assert second is first
            second.execute("SELECT count(*) FROM games").fetchall()
    with pytest.raises(duckdb.Error):  # closed when the run ended
        first.execute("SELECT 1")
    writer = duckdb.connect(str(fixture_copy))  # nothing of the run holds the file
    writer.close()


def test_a_write_in_a_run_releases_its_connection(fixture_copy: Path) -> None:
    """A page that writes (Upload, Entry) goes through ``uploads.retrying``, which closes the
    run's read-only connection first: DuckDB refuses a read-write open of a file this process
    holds read-only."""
    import duckdb

    from dashboards.uploads import retrying

    def write() -> int:
        con = duckdb.connect(str(fixture_copy))
        try:
            return len(con.execute("SELECT * FROM games").fetchall())
        finally:
            con.close()

    with one_per_run():
        with read_only(fixture_copy) as con:
            games = len(con.execute("SELECT * FROM games").fetchall())
        assert retrying(write) == games
        with read_only(fixture_copy) as again:  # a later query of the run opens it again
            assert again is not con
            assert len(again.execute("SELECT * FROM games").fetchall()) == games
