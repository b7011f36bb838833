"""A second Ctrl-C at each step of ``trickbook ingest`` (docs/cli.md, docs/ingest.md
"Strict mode, interruption, concurrency"): the command ends in exit 130 with words that say
what the database holds, never a DuckDB error. Each stop is made at its step, in a statement
(``tests/ctrl_c.py``) or as the ``KeyboardInterrupt`` of the signal's handler, never by a
timed signal."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest
import typer
from typer.testing import CliRunner

from data.samples.make_samples import league_lines
from model.tables import PENDING, interrupted
from tests.conftest import ROOT
from tests.ctrl_c import STOPPED, Signalled, able_to_stop
from tests.ingest.conftest import SAMPLES
from trickbook.cli import app

runner = CliRunner()
LEAGUE = SAMPLES / "league.jsonl"


def said(result: object) -> str:
    """The command's stderr as one line of words."""
    return " ".join(str(getattr(result, "stderr", "")).split())


def logged(db: Path) -> tuple[int, int]:
    """The files logged in ``db`` and the games waiting to be settled."""
    with duckdb.connect(str(db), read_only=True) as conn:
        files = conn.execute("SELECT count(*) FROM ingest_log").fetchone()
        games = conn.execute(f"SELECT count(*) FROM {PENDING}").fetchone()
    return (files or (0,))[0], (games or (0,))[0]


def test_an_error_of_duckdb_s_after_a_stop_is_the_stop() -> None:
    """A stopped statement aborts its transaction, and DuckDB's dropping of the statement's
    view then fails with "Current transaction is aborted": that error is the stop
    (``model.tables.interrupted``); an error of trickbook's own after one is not."""
    conn = able_to_stop(duckdb.connect())
    conn.execute("BEGIN")
    conn.register("_view", pa.table({"a": [1]}))
    with pytest.raises(duckdb.TransactionException) as aborted:
        try:
            conn.sql(STOPPED).pl()
        finally:
            conn.unregister("_view")
    assert interrupted(aborted.value)
    assert not interrupted(duckdb.TransactionException("Current transaction is aborted"))
    try:
        raise typer.Exit(130) from KeyboardInterrupt()
    except typer.Exit as exc:
        assert not interrupted(exc)


def test_a_ctrl_c_in_a_statement_of_the_load_rolls_the_file_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C inside a statement that stores the file's rows said "not stored:
    TransactionException: ... Current transaction is aborted (please ROLLBACK)", exit 1 (the
    dropping of the statement's view failed and hid the stop). It is a stop: the file is
    rolled back, the command says so, and the next run stores it."""
    import ingest.store
    import model.tables

    real_connect, real_over_rows = ingest.store.connect, model.tables.over_rows

    def connect(*args: object, **kwargs: object) -> duckdb.DuckDBPyConnection:
        return able_to_stop(real_connect(*args, **kwargs))  # type: ignore[arg-type]

    def stopped_once(rows: duckdb.DuckDBPyRelation, name: str, sql: str) -> object:
        monkeypatch.setattr(model.tables, "over_rows", real_over_rows)
        monkeypatch.setattr(ingest.store, "over_rows", real_over_rows)
        return real_over_rows(Signalled(rows), name, sql)  # type: ignore[arg-type]

    big = tmp_path / "big.jsonl"  # rows enough for a statement over an Arrow table
    big.write_text("\n".join(league_lines(2, 300, cards=False)) + "\n")
    monkeypatch.setattr(ingest.store, "connect", connect)
    monkeypatch.setattr(model.tables, "over_rows", stopped_once)
    monkeypatch.setattr(ingest.store, "over_rows", stopped_once)
    db = tmp_path / "x.duckdb"
    result = runner.invoke(app, ["ingest", str(big), "--db", str(db)])
    assert result.exit_code == 130, result.output
    assert f"interrupted: {big} was rolled back: nothing of it is stored" in said(result)
    assert "Exception" not in result.output and "not stored" not in result.output
    assert logged(db) == (0, 0)
    monkeypatch.undo()
    again = runner.invoke(app, ["ingest", str(big), "--db", str(db)])
    assert again.exit_code == 0 and "skipped" not in again.stdout, again.output


def test_a_ctrl_c_in_the_settlement_leaves_the_stored_file_pending(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C inside a statement of the settlement, once the file was committed, said "not
    scored, kept for the next run: game ...: TransactionException", then "data check failed"
    (the games were not settled yet), exit 1. It is a stop: the command says the file is
    stored and its games wait, exit 130; the next ingest settles them."""
    import scoring.store

    real = scoring.store._of_games

    def stopped_once(conn: duckdb.DuckDBPyConnection, games: object, sql: str) -> object:
        monkeypatch.setattr(scoring.store, "_of_games", real)
        return real(able_to_stop(conn), games, STOPPED)  # type: ignore[arg-type]

    monkeypatch.setattr(scoring.store, "_of_games", stopped_once)
    db = tmp_path / "x.duckdb"
    result = runner.invoke(app, ["ingest", str(LEAGUE), "--db", str(db)])
    assert result.exit_code == 130, result.output
    files, games = logged(db)
    assert files == 1 and games > 0
    assert f"interrupted: {LEAGUE} is stored (committed before the Ctrl-C)" in said(result)
    assert f"{games} games stored and not settled" in said(result)
    assert "Exception" not in result.output and "data check" not in result.output
    again = runner.invoke(app, ["ingest", str(LEAGUE), "--db", str(db)])
    assert again.exit_code == 0 and "skipped (unchanged)" in again.stdout, again.output
    assert logged(db) == (1, 0)


def test_a_ctrl_c_once_the_commit_is_done_says_the_file_is_stored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C that DuckDB met as the commit ended (the file committed) said "the file in
    progress was rolled back", while a rerun said "skipped (unchanged)". The command asks the
    database, and says the file is stored and its games wait."""
    import ingest.store

    real = ingest.store.Group.commit

    def committed_then_stopped(group: ingest.store.Group) -> None:
        real(group)
        raise RuntimeError("Query interrupted")  # DuckDB's word for it

    monkeypatch.setattr(ingest.store.Group, "commit", committed_then_stopped)
    db = tmp_path / "x.duckdb"
    result = runner.invoke(app, ["ingest", str(LEAGUE), "--db", str(db)])
    assert result.exit_code == 130, result.output
    assert f"interrupted: {LEAGUE} is stored (committed before the Ctrl-C)" in said(result)
    assert "rolled back" not in result.output and logged(db)[0] == 1


def test_a_third_ctrl_c_while_the_database_is_asked_says_it_cannot_tell(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C that comes while the command asks the database what the stop left (after the
    rollback) does not make it guess: it says it cannot tell, and that a rerun finds out."""
    import ingest.store

    real = ingest.store.Group.commit

    def committed_then_stopped(group: ingest.store.Group) -> None:
        real(group)
        monkeypatch.setattr(ingest.store, "log_state", ctrl_c)
        raise KeyboardInterrupt

    def ctrl_c(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(ingest.store.Group, "commit", committed_then_stopped)
    db = tmp_path / "x.duckdb"
    result = runner.invoke(app, ["ingest", str(LEAGUE), "--db", str(db)])
    assert result.exit_code == 130, result.output
    assert f"interrupted: whether {LEAGUE} is stored could not be told" in said(result)
    assert "rolled back" not in result.output


@pytest.mark.parametrize("stop", [RuntimeError("Query interrupted"), KeyboardInterrupt()])
def test_a_ctrl_c_in_the_data_checks_says_the_files_are_stored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stop: BaseException) -> None:
    """A Ctrl-C while the data checks ran after the load said "nothing it had not committed
    was kept", under files that were stored and settled. It says so, and how to run the
    checks."""
    import scoring.checks

    def stopped(conn: object) -> None:
        raise stop

    monkeypatch.setattr(scoring.checks, "run_checks", stopped)
    db = tmp_path / "x.duckdb"
    result = runner.invoke(app, ["ingest", str(LEAGUE), "--db", str(db)])
    assert result.exit_code == 130, result.output
    assert "interrupted during the data checks: the files reported above are stored; " \
        f"`trickbook check --db {db}` runs the checks" in said(result)
    assert logged(db) == (1, 0)


def test_a_second_ctrl_c_before_the_first_file_says_so(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C before the first file said "stopping after the current file", and a second one
    "the file in progress was rolled back": no file was. Both say what is so, exit 130."""
    import ingest.pipeline

    real = ingest.pipeline.expand

    def twice(paths: object) -> object:
        os.kill(os.getpid(), signal.SIGINT)
        os.kill(os.getpid(), signal.SIGINT)
        return real(paths)  # type: ignore[arg-type]

    monkeypatch.setattr(ingest.pipeline, "expand", twice)
    result = runner.invoke(app, ["ingest", str(LEAGUE), "--db", str(tmp_path / "x.duckdb")])
    assert result.exit_code == 130, result.output
    assert said(result) == ("stopping before the first file (Ctrl-C again to stop at once) "
                            "interrupted before any file was read: nothing was stored")


def test_a_ctrl_c_as_the_command_exits_changes_nothing(tmp_path: Path) -> None:
    """A Ctrl-C that came once the command had ended (a thread still hashing a file, the
    workers being stopped) killed the process by the signal or printed a traceback. It is
    ignored: the command's own words and exit status stand."""
    script = ("import atexit, os, signal\n"
              "atexit.register(lambda: os.kill(os.getpid(), signal.SIGINT))\n"
              "from trickbook.cli import app\n"
              f"app(['ingest', {str(LEAGUE)!r}, '--db', {str(tmp_path / 'x.duckdb')!r}], "
              "prog_name='trickbook')\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr


class _CtrlCOnImport:
    """A finder of modules that meets a Ctrl-C when ``name`` is imported: what a Ctrl-C during
    the command's start-up imports raises, without a signal or timing."""

    def __init__(self, name: str) -> None:
        self.name = name

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> None:
        if fullname == self.name:
            raise KeyboardInterrupt


@pytest.mark.parametrize("step", ["import", "database check"])
def test_a_ctrl_c_while_ingest_starts_says_nothing_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str) -> None:
    """Ctrl-C during the imports ``ingest`` starts with (seconds, before any file is opened) or
    its check of ``--db``: nothing was read or stored, and the command says so (not the words
    of a command stopped midway), exit 130, no traceback (docs/cli.md)."""
    import ingest.store

    if step == "import":
        monkeypatch.delitem(sys.modules, "ingest.pipeline")
        monkeypatch.setattr(sys, "meta_path", [_CtrlCOnImport("ingest.pipeline"),
                                               *sys.meta_path])
    else:
        def ctrl_c(path: Path) -> None:
            raise KeyboardInterrupt

        monkeypatch.setattr(ingest.store, "check_database_path", ctrl_c)
    db = tmp_path / "x.duckdb"
    result = runner.invoke(app, ["ingest", str(LEAGUE), "--db", str(db)])
    assert result.exit_code == 130, result.output
    assert said(result) == "interrupted before reading any file: nothing changed"
    assert "Traceback" not in result.output and not db.exists()


class _Broken:
    """A finder of modules under which ``name`` cannot be imported: a library that a Ctrl-C
    left half-imported (polars: ``module 'polars._reexport' has no attribute ...``)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> None:
        if fullname == self.name:
            raise AttributeError("module 'polars._reexport' has no attribute 'DataTypeExpr'")


def test_a_ctrl_c_that_cut_an_import_short_stays_said(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C while ``ingest`` imported polars said "interrupted before reading any file:
    nothing changed", then "trickbook: AttributeError: module 'polars._reexport' ...", exit 1:
    the stop said (``typer.Exit``) was asked whether it was DuckDB's, by importing
    ``model.tables``, which imports the half-imported polars. It ends as said, exit 130."""
    monkeypatch.delitem(sys.modules, "ingest.pipeline")
    monkeypatch.delitem(sys.modules, "model.tables")
    monkeypatch.setattr(sys, "meta_path", [_CtrlCOnImport("ingest.pipeline"),
                                           _Broken("model.tables"), *sys.meta_path])
    db = tmp_path / "x.duckdb"
    result = runner.invoke(app, ["ingest", str(LEAGUE), "--db", str(db)])
    assert result.exit_code == 130, result.output
    assert said(result) == "interrupted before reading any file: nothing changed"
