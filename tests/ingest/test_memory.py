"""Ingest's memory stays flat (issue 14, "memory flat"; docs/ingest.md "Memory").

The soak itself (``bench/bench_soak.py``) measures resident memory; these tests hold the two
causes it found in check: nothing is registered on the connection inside a file's transaction
(DuckDB kept every registered Arrow table until the commit), and the Python heap does not grow
from file to file; and the games of a large file are settled a part at a time (settling the
342,720 deals of one 200 MB file at once took about 600 MiB more than its read), and so are the
boards of duplicate events compared across tables (``event_results``, read whole each time)."""

from __future__ import annotations

import gc
import tracemalloc
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest

from data.samples.make_samples import league_lines
from ingest import store
from ingest.pipeline import ingest_file, ingest_paths
from scoring import store as scoring_store
from scoring.bridge import event
from scoring.greek.kernel import GreekSettlement
from scoring.settlement import Settled
from scoring.store import score_pending
from tests.conftest import DATA
from tests.ingest.conftest import snapshot


class NoRegister:
    """A connection that refuses ``register``: anything else goes to the real one."""

    def __init__(self, conn: duckdb.DuckDBPyConnection) -> None:
        self._conn = conn

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    def register(self, *args: object, **kwargs: object) -> None:
        raise AssertionError("conn.register inside ingest: DuckDB keeps the view's Arrow table "
                             "until the transaction commits")


def _league(path: Path, games: int, deals: int, seed: int, prefix: str) -> Path:
    path.write_text("\n".join(league_lines(games, deals, cards=False, seed=seed,
                                           prefix=prefix)) + "\n")
    return path


def test_a_file_transaction_registers_nothing(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Many batches, rows spilled to Parquet (``HOLD_BYTES`` 0) and duplicates looked up among
    stored and staged deals: every statement over Arrow rows goes through a relation
    (``model.tables.over_rows``), none through ``conn.register``."""
    monkeypatch.setattr(store, "HOLD_BYTES", 0)
    first = _league(tmp_path / "a.jsonl", 3, 40, 1, "mem")
    again = tmp_path / "b.jsonl"  # the same games and deals, and a bad line
    again.write_text(first.read_text() + "this line is not JSON\n")
    conn = store.connect(tmp_path / "m.duckdb")
    try:
        reports = [ingest_file(NoRegister(conn), p, batch=25) for p in (first, again)]  # type: ignore[arg-type]
        deals = conn.execute("SELECT count(*) FROM deals").fetchall()[0][0]
    finally:
        conn.close()
    assert [(r.records, r.stored, r.duplicates, r.quarantined) for r in reports] == [
        (123, 123, 0, 0), (124, 0, 123, 1)]
    assert deals == 120


def test_python_heap_does_not_grow_from_file_to_file(tmp_path: Path) -> None:
    """After a warm-up (imports, caches), ingesting 24 more small files leaves the traced
    Python heap within 1 MiB: nothing is kept per file (a file's validator, report or rows)."""
    files = [_league(tmp_path / f"club-{i:03d}.jsonl", 1, 4, i, f"heap-{i:03d}")
             for i in range(32)]
    db = tmp_path / "h.duckdb"
    ingest_paths(files[:8], db)
    tracemalloc.start()
    try:
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        for at in range(8, 32, 8):
            ingest_paths(files[at:at + 8], db)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert after - before < 1 << 20, f"{(after - before) / 1024:.0f} KiB kept over 24 files"


@pytest.mark.parametrize(("most", "parts"), [(70, [60, 60, 60, 30]), (20, [30] * 7)])
def test_a_large_file_is_settled_a_part_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  most: int, parts: list[int]) -> None:
    """The games a file touched are settled whole games of at most ``SETTLE_DEALS`` deals at a
    time, a game of more deals alone (``scoring.store.rescore``), so the settlement's frames
    and the rows inserted at once do not grow with the file; every table holds what one
    settlement of all the games stores."""
    path = _league(tmp_path / "league.jsonl", 7, 30, 5, "parts")
    whole = tmp_path / "whole.duckdb"
    ingest_paths([path], whole, score=score_pending)
    monkeypatch.setattr(scoring_store, "SETTLE_DEALS", most)
    settled: list[int] = []
    settle = GreekSettlement.settle

    def counted(self: GreekSettlement, games: pl.DataFrame, deals: pl.DataFrame) -> Settled:
        settled.append(deals.height)
        return settle(self, games, deals)

    monkeypatch.setattr(GreekSettlement, "settle", counted)
    in_parts = tmp_path / "parts.duckdb"
    ingest_paths([path], in_parts, score=score_pending)
    assert settled == parts
    assert snapshot(in_parts) == snapshot(whole)


class CommitWatch:
    """A connection that notes DuckDB's memory limit when a transaction commits."""

    def __init__(self, conn: duckdb.DuckDBPyConnection) -> None:
        self._conn = conn
        self.limits: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "COMMIT":
            self.limits.append(self._limit())
        return self._conn.execute(sql, *args)

    def _limit(self) -> str:
        return str(self._conn.execute("SELECT current_setting('memory_limit')").fetchall()[0][0])


def test_a_large_load_is_committed_under_the_lowered_memory_limit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The commit of a file whose load lowered DuckDB's settings (``store.LOAD_SETTINGS``) runs
    under them, and they are given back after it: its checkpoint, given the whole memory limit,
    kept some 8 MiB per MB of a large PBN file resident (a 20 MB file: 166 MiB more at the
    commit)."""
    monkeypatch.setattr(store, "LOAD_SETTINGS_FROM", 0)
    path = _league(tmp_path / "a.jsonl", 2, 30, 3, "commit")
    conn = store.connect(tmp_path / "c.duckdb")
    try:
        watch = CommitWatch(conn)
        conn.execute("SET memory_limit = ?", ["1GiB"])
        before = watch._limit()
        conn.execute("SET memory_limit = ?", [store.LOAD_MEMORY_LIMIT])
        lowered = watch._limit()
        conn.execute("SET memory_limit = ?", ["1GiB"])
        report = ingest_file(watch, path)  # type: ignore[arg-type]
        assert report.stored > 0
        assert watch.limits == [lowered] and lowered != before
        assert watch._limit() == before
    finally:
        conn.close()


def test_event_results_are_compared_a_run_of_events_at_a_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The refresh of ``event_results`` after a settlement compares whole events of at most
    ``REFRESH_ROWS`` results at a time (an event of more alone), so its frames do not grow with
    the database (read whole, a 100 MB PBN file's boards took about 400 MiB more than their
    ingest); the table holds what one comparison of every board stores."""
    pbn = DATA / "pbn-tournaments-slovesnov"
    files = [pbn / "A1A12525.PBN", pbn / "Aulpll23.pbn",  # 39 and 48 boards stored
             DATA / "endplay-fixtures" / "pbn" / "example1.pbn"]  # 2 boards
    whole = tmp_path / "whole.duckdb"
    ingest_paths(files, whole, score=score_pending)
    monkeypatch.setattr(event, "REFRESH_ROWS", 45)
    compared: list[int] = []
    results = event.event_results

    def counted(deals: pl.DataFrame, settlements: pl.DataFrame) -> pl.DataFrame:
        compared.append(deals.height)
        return results(deals, settlements)

    monkeypatch.setattr(event, "event_results", counted)
    in_runs = tmp_path / "runs.duckdb"
    ingest_paths(files, in_runs, score=score_pending)
    assert compared == [2 + 39, 48]  # in event order: two events, and one of more alone
    assert snapshot(in_runs) == snapshot(whole)
