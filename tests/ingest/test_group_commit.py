"""Group commit (docs/ingest.md "Group commit"): small files share one transaction, and the
result is that of one transaction per file; a file that fails (or makes its group's commit
fail) fails alone while the others are stored; an interruption mid-group leaves every file
either fully in or fully out (records.md 2: a file is stored whole or not at all)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import pytest

from ingest import pipeline, store
from ingest.pipeline import FileReport, Progress, ingest_paths
from scoring.store import score_pending
from tests.ingest.conftest import ROOT, SAMPLES, snapshot

SHARED = ROOT.parent / "shared" / "data"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Small files of every reader: the samples (a copy of one among them), three Vugraph LIN
    files and two endplay PBN fixtures, in the order a run reads them."""
    root = tmp_path_factory.mktemp("small")
    shutil.copytree(SAMPLES, root / "samples", ignore=shutil.ignore_patterns("*.py", "*.json"))
    shutil.copy(SAMPLES / "league.jsonl", root / "samples" / "copy-of-league.jsonl")
    for name in ("00001.lin", "05000.lin", "08000.lin"):
        shutil.copy(SHARED / "bbo-vugraph-lin" / name, root / name)
    for name in ("example1.pbn", "example4.pbn"):
        shutil.copy(SHARED / "endplay-fixtures" / "pbn" / name, root / name)
    found = pipeline.files_to_read([root])
    assert len(found) >= 12
    return found


def run(paths: list[Path], db: Path, **kw: Any) -> list[FileReport]:
    return ingest_paths(paths, db, score=score_pending, **kw)


def alone(paths: list[Path], db: Path, **kw: Any) -> list[FileReport]:
    """The run with one transaction per file."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pipeline, "GROUP_FILES", 1)
        return run(paths, db, **kw)


def commits(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of files' games of each group committed (spied on ``store.Group``)."""
    seen: list[int] = []
    commit = store.Group.commit

    def counted(self: store.Group) -> None:
        if self.open:
            seen.append(len(self.games))
        commit(self)

    monkeypatch.setattr(store.Group, "commit", counted)
    return seen


def logged(db: Path) -> dict[str, tuple[Any, ...]]:
    """Each source's ``ingest_log`` row (without its time)."""
    conn = duckdb.connect(str(db), read_only=True)
    try:
        rows = conn.execute("SELECT source, sha256, records, stored, duplicates, quarantined "
                            "FROM ingest_log").fetchall()
    finally:
        conn.close()
    return {str(r[0]): tuple(r[1:]) for r in rows}


def test_groups_store_what_one_transaction_per_file_stores(
        files: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    one = alone(files, tmp_path / "one.duckdb")
    groups = commits(monkeypatch)
    grouped = run(files, tmp_path / "grouped.duckdb")
    assert 0 < len(groups) < len(files) / 2  # the small files were committed together
    assert grouped == one
    assert all(r.failed is None and r.score_error is None for r in grouped)
    assert snapshot(tmp_path / "grouped.duckdb") == snapshot(tmp_path / "one.duckdb")
    assert logged(tmp_path / "grouped.duckdb").keys() == {
        r.source for r in grouped if r.skipped is None}
    before = snapshot(tmp_path / "grouped.duckdb")
    again = run(files, tmp_path / "grouped.duckdb")  # re-ingesting changes nothing
    assert {r.skipped for r in again} <= {"unchanged"} | {r.skipped for r in grouped}
    assert snapshot(tmp_path / "grouped.duckdb") == before


def failing_at(monkeypatch: pytest.MonkeyPatch, bad: Path, exc: Exception) -> None:
    """``bad`` fails at its log row, once its rows are in the group's transaction."""
    log = store.log_ingest

    def failing(conn: duckdb.DuckDBPyConnection, row: dict[str, object], *a: Any) -> None:
        if row["source"] == str(bad):
            raise exc
        log(conn, row, *a)

    monkeypatch.setattr(store, "log_ingest", failing)


@pytest.mark.parametrize("at", [0, 3, -1], ids=["first", "middle", "last"])
def test_a_failing_file_fails_alone_and_its_group_is_stored(
        files: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, at: int) -> None:
    """A file that fails inside a group rolls the group back: it is ``failed`` with nothing of
    it stored, the group's files before it are stored again one per transaction and the files
    after it go on; the tables and every other file's log row and report are those of a run
    without it."""
    bad = files[at]
    expected = alone([f for f in files if f != bad], tmp_path / "expected.duckdb")
    failing_at(monkeypatch, bad, OSError(28, "No space left on device"))
    reports = run(files, tmp_path / "t.duckdb")
    failed = [r for r in reports if r.failed]
    assert [r.source for r in failed] == [str(bad)]
    assert "No space left on device" in str(failed[0].failed) and failed[0].stored == 0
    assert [r for r in reports if not r.failed] == expected
    assert snapshot(tmp_path / "t.duckdb") == snapshot(tmp_path / "expected.duckdb")
    assert str(bad) not in logged(tmp_path / "t.duckdb")


def test_a_group_whose_commit_fails_is_stored_one_file_per_transaction(
        files: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    one = alone(files, tmp_path / "one.duckdb")
    commit = store.Group.commit
    failed: list[int] = []

    def once(self: store.Group) -> None:
        if self.open and self.games and not failed:
            failed.append(len(self.games))
            raise duckdb.IOException("IO Error: could not write the WAL")
        commit(self)

    monkeypatch.setattr(store.Group, "commit", once)
    reports = run(files, tmp_path / "t.duckdb")
    assert failed and reports == one
    assert snapshot(tmp_path / "t.duckdb") == snapshot(tmp_path / "one.duckdb")


def interrupted_at(file_no: int) -> Callable[[Progress], None]:
    """A progress callback that presses Ctrl-C as file ``file_no`` is read."""

    def tick(p: Progress) -> None:
        if p.file_no == file_no and p.records:
            raise KeyboardInterrupt

    return tick


@pytest.mark.parametrize("file_no", [2, 6, 11])
def test_an_interruption_mid_group_leaves_whole_files(
        files: list[Path], tmp_path: Path, file_no: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while a file of a group is read (the group's earlier files in its transaction),
    with groups of four files: every file is either fully in (its log row and everything it
    stores) or fully out, the groups committed before stay, and reading the files again gives
    the result of an uninterrupted run."""
    clean = tmp_path / "clean.duckdb"
    alone(files, clean)
    monkeypatch.setattr(pipeline, "GROUP_FILES", 4)
    db = tmp_path / "t.duckdb"
    with pytest.raises(KeyboardInterrupt):
        run(files, db, progress=interrupted_at(file_no))
    whole, kept = snapshot(clean), snapshot(db)
    sources = set(logged(db))
    assert str(files[file_no - 1]) not in sources
    assert not sources.intersection(map(str, files[(file_no - 1) // 4 * 4:]))
    assert bool(sources) == (file_no > 4)
    for table, rows in kept.items():
        if table in {"deals", "games", "quarantine", "ingest_log", "repairs"}:
            at = 0  # ``source`` is the first column of the log and quarantine tables
            if table in {"deals", "games"}:
                at = [c for c, _ in _columns(db, table)].index("source")
            mine = [r for r in whole[table] if r[at] in sources]
            assert sorted(rows, key=repr) == sorted(mine, key=repr), table
    run(files, db)
    assert snapshot(db) == whole


def _columns(db: Path, table: str) -> list[tuple[str, str]]:
    conn = duckdb.connect(str(db), read_only=True)
    try:
        return [(str(r[0]), str(r[1])) for r in conn.execute(f"DESCRIBE {table}").fetchall()
                if r[0] != "ingested_at"]
    finally:
        conn.close()


def test_a_group_lowers_the_load_settings_once_and_gives_them_back(
        files: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file's load counts as large here (``LOAD_SETTINGS_FROM`` 0): the group lowers
    DuckDB's settings at its first load only, and they are back after its commit."""
    monkeypatch.setattr(store, "LOAD_SETTINGS_FROM", 0)
    lowered: list[int] = []
    lower = store.lower
    monkeypatch.setattr(store, "lower",
                        lambda conn, saved: (lowered.append(1), lower(conn, saved))[1])
    restored: list[str] = []
    connect = store.connect

    def watched(*a: Any, **kw: Any) -> duckdb.DuckDBPyConnection:
        conn = connect(*a, **kw)
        restored.append(conn.execute("SELECT current_setting('threads')").fetchall()[0][0])
        return conn

    monkeypatch.setattr(store, "connect", watched)
    commit = store.Group.commit

    def checked(self: store.Group) -> None:
        commit(self)
        threads = self.conn.execute("SELECT current_setting('threads')").fetchall()[0][0]
        assert threads == restored[0]

    monkeypatch.setattr(store.Group, "commit", checked)
    reports = run(files, tmp_path / "t.duckdb")
    stored = sum(1 for r in reports if r.stored)
    assert stored > 2 and len(lowered) == 1


def test_a_group_with_skipped_files_is_stored_again_whole(
        files: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A group that holds a missing file and a file without a reader (reported, nothing read)
    is stored again one file per transaction when a later file of it fails: each keeps its
    report."""
    odd = [tmp_path / "gone.jsonl", tmp_path / "notes.txt"]
    odd[1].write_text("not a record\n")
    paths = [files[0], *odd, *files[1:4]]
    expected = alone([p for p in paths if p != files[3]], tmp_path / "expected.duckdb")
    failing_at(monkeypatch, files[3], RuntimeError("settlement of the disk failed"))
    reports = run(paths, tmp_path / "t.duckdb")
    assert reports[1].skipped == "missing"
    assert (reports[2].skipped or "").startswith("no reader: not named .csv, .json, .jsonl")
    assert [r.source for r in reports if r.failed] == [str(files[3])]
    assert [r for r in reports if not r.failed] == expected
    assert snapshot(tmp_path / "t.duckdb") == snapshot(tmp_path / "expected.duckdb")
