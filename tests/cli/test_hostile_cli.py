"""The command under hostile conditions (issue 14): each failure is one clear line and a
non-zero exit, never a traceback (``--debug`` shows it)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

import scoring.registry
from ingest import store
from model import tables
from tests.ingest.conftest import ROOT, SAMPLES
from tests.ingest.fakes import FakeSettlement, fake_settlements
from trickbook.cli import app
from trickbook.console import SHOWN_CHARS

runner = CliRunner()


@pytest.fixture(autouse=True)
def fake_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scoring.registry, "settlement", fake_settlements(FakeSettlement()))


def trickbook(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed command in a fresh process (what a user sees on stderr)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "trickbook", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_db_whose_parent_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    done = trickbook("ingest", str(SAMPLES / "league.jsonl"), "--db",
                     str(tmp_path / "file" / "t.duckdb"))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "is not a folder" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("name", ["x.csv", "x.jsonl", "x.parquet", "notes.txt"])
def test_db_naming_an_existing_non_duckdb_file(tmp_path: Path, name: str) -> None:
    target = tmp_path / name
    target.write_bytes((SAMPLES / "league.jsonl").read_bytes())
    result = runner.invoke(app, ["ingest", str(SAMPLES / "league.jsonl"), "--db", str(target)])
    assert result.exit_code == 2
    assert "not a DuckDB database" in result.output and "read" not in result.stdout
    assert target.read_bytes() == (SAMPLES / "league.jsonl").read_bytes()


def test_a_db_path_s_control_characters_are_escaped(tmp_path: Path) -> None:
    """A ``--db`` named with an escape sequence was printed raw (``no database at
    .../x^[[31m.duckdb``, turning the terminal red), where a file's name is escaped."""
    missing = runner.invoke(app, ["score", "--db", str(tmp_path / "x\x1b[31m.duckdb")])
    parent = tmp_path / "no\x1b[31mfolder"
    parent.write_text("not a folder")
    refused = runner.invoke(app, ["ingest", str(SAMPLES / "league.jsonl"), "--db",
                                  str(parent / "x.duckdb")])
    for result in (missing, refused):
        assert result.exit_code == 2
        assert "\x1b" not in result.output and "\\x1b[31m" in result.output, result.output


@pytest.mark.parametrize("command", [["ingest", str(SAMPLES / "league.jsonl")], ["score"],
                                     ["report", "standings"]])
def test_db_naming_an_empty_file(tmp_path: Path, command: list[str]) -> None:
    """An empty file (``touch x.duckdb``) ended in DuckDB's "IO Error: ... is not a valid
    DuckDB database file!": it is said in the command's words, and left as it is."""
    target = tmp_path / "x.duckdb"
    target.touch()
    result = runner.invoke(app, [*command, "--db", str(target)])
    shown = " ".join(result.output.split())
    assert result.exit_code == 2, shown
    assert "is an empty file, not a DuckDB database" in shown and "IO Error" not in shown
    assert target.read_bytes() == b""


def test_score_on_a_read_only_filesystem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "t.duckdb"
    assert runner.invoke(app, ["ingest", str(SAMPLES / "league.jsonl"), "--db",
                               str(db)]).exit_code == 0

    def read_only_fs(*args: object, **kwargs: object) -> duckdb.DuckDBPyConnection:
        raise duckdb.IOException(f'IO Error: Cannot open file "{db}": Read-only file system')

    monkeypatch.setattr(store.duckdb, "connect", read_only_fs)
    result = runner.invoke(app, ["score", "--db", str(db)])
    assert result.exit_code == 2
    assert "read-only file system" in result.output
    assert "another process" not in result.output


def test_lock_error_says_it_is_a_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "t.duckdb"
    monkeypatch.setattr(store, "LOCK_POLL", 0.01)

    def locked(*args: object, **kwargs: object) -> duckdb.DuckDBPyConnection:
        raise duckdb.IOException(f'IO Error: Could not set lock on file "{db}": Conflicting '
                                 "lock is held in /usr/bin/python (PID 1)")

    monkeypatch.setattr(store.duckdb, "connect", locked)
    seen: list[float] = []
    with pytest.raises(store.DatabaseError, match="locked by another process"):
        store.connect(db, wait=0.05, waiting=seen.append)
    assert seen


def locked_twice(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """The database's lock held by another process for the first two tries of an open (the
    tries counted in the dict returned)."""
    real = duckdb.connect
    tries = {"n": 0}
    monkeypatch.setattr(store, "LOCK_POLL", 0.01)

    def busy_twice(*args: object, **kwargs: object) -> duckdb.DuckDBPyConnection:
        tries["n"] += 1
        if tries["n"] <= 2:
            raise duckdb.IOException("IO Error: Could not set lock on file: Conflicting lock")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(store.duckdb, "connect", busy_twice)
    return tries


def test_ingest_waits_for_the_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A writer that meets another process's lock tries again until it is free."""
    db = tmp_path / "t.duckdb"
    tries = locked_twice(monkeypatch)
    result = runner.invoke(app, ["ingest", str(SAMPLES / "league.jsonl"), "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "another process holds its lock" in result.output and tries["n"] >= 3


def test_full_disk_at_commit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = tables.insert

    def insert(conn: duckdb.DuckDBPyConnection, table: str, rows: object) -> int:
        if table == "ingest_log":
            raise OSError(28, "No space left on device")
        return real(conn, table, rows)  # type: ignore[arg-type]

    monkeypatch.setattr(tables, "insert", insert)
    result = runner.invoke(app, ["ingest", str(SAMPLES / "league.jsonl"), "--db",
                                 str(tmp_path / "t.duckdb")])
    assert result.exit_code == 1
    assert "not stored: OSError: [Errno 28] No space left on device" in result.output
    assert "Traceback" not in result.output


def test_unexpected_error_is_one_line_and_debug_shows_the_traceback(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    args = ("report", "standings", "--db", str(tmp_path / "file"))
    plain = trickbook(*args)
    assert plain.returncode == 2 and "Traceback" not in plain.stderr
    debug = trickbook("--debug", *args)
    assert debug.returncode == 2 and "Traceback" in debug.stderr


def test_report_csv_neutralises_formulas(tmp_path: Path) -> None:
    """Issue 14: ``report standings --format csv`` wrote ``=HYPERLINK(...)`` names verbatim."""
    import csv
    import io

    names = {"Anna": '=HYPERLINK(""http://x/"",""y"")', "Boris": "@SUM(A1)", "Chris": "+1-2"}
    text = (SAMPLES / "league.jsonl").read_text()
    for old, new in names.items():
        text = text.replace(f'"{old}"', json_string(new))
    src = tmp_path / "names.jsonl"
    src.write_text(text)
    db = tmp_path / "t.duckdb"
    assert runner.invoke(app, ["ingest", str(src), "--db", str(db)]).exit_code == 0
    result = runner.invoke(app, ["report", "standings", "--db", str(db), "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    players = {r["player"] for r in rows}
    assert players >= {"'" + n.replace('""', '"') for n in names.values()}
    assert all(not r["player"].startswith(("=", "+", "-", "@")) for r in rows)
    assert any(r["cash"].startswith("-") for r in rows)  # numbers are left as they are


def test_report_csv_escapes_control_characters(tmp_path: Path) -> None:
    """The quarantine's offending text of a line with a NUL and an escape sequence was written
    raw to the CSV (a NUL ends a CSV reader's line; the escape recolours the terminal); the table
    and JSON forms escape them, and now the CSV does too."""
    import csv
    import io

    src = tmp_path / "odd.jsonl"
    src.write_bytes(b'{"record": "deal", \x1b[31m red \x00 nul\n')
    db = tmp_path / "t.duckdb"
    runner.invoke(app, ["ingest", str(src), "--db", str(db)])
    result = runner.invoke(app, ["report", "quarantine", "--db", str(db), "--format", "csv"])
    assert result.exit_code == 0 and "\x00" not in result.stdout and "\x1b" not in result.stdout
    (row,) = list(csv.DictReader(io.StringIO(result.stdout)))
    assert "\\x1b[31m red \\x00 nul" in row["raw"]


def json_string(text: str) -> str:
    import json

    return json.dumps(text.replace('""', '"'))


SERVE_STAND_IN = """
import sys
import dashboards.serve as serve
from trickbook.cli import app
from trickbook.console import SHOWN_CHARS
# the server is a stand-in that says its pid and waits (streamlit itself is not needed here)
serve.command = lambda port, headless=True: [sys.executable, "-c",
    "import os, time; print(os.getpid(), flush=True); time.sleep(600)"]
if sys.argv[2] == "trickbook":
    app(["dashboard", "--db", sys.argv[1], "--port", "1"], prog_name="trickbook")
else:  # python -m dashboards.serve
    raise SystemExit(serve.main(sys.argv[1], 1))
"""


@pytest.mark.parametrize("entry", ["trickbook", "dashboards.serve"])
def test_sigterm_to_dashboard_stops_the_server(tmp_path: Path, entry: str) -> None:
    """SIGTERM to ``trickbook dashboard`` or ``python -m dashboards.serve`` stops its Streamlit
    server and exits 143 (docs/cli.md)."""
    import signal

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cli = subprocess.Popen([sys.executable, "-c", SERVE_STAND_IN, str(tmp_path / "t.duckdb"),
                            entry], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    assert cli.stdout is not None
    server = int(cli.stdout.readline())  # the server runs
    cli.send_signal(signal.SIGTERM)
    assert cli.wait(timeout=120) == 143
    with pytest.raises(ProcessLookupError):  # reaped by the command before it exited
        os.kill(server, 0)


BROKEN_SCHEMA = """
import sys
import trickbook.cli as cli
cli.records_schema = lambda: 1 / 0  # a bug in a command
cli.app(sys.argv[1:], prog_name="trickbook")
"""


@pytest.mark.parametrize("debug", [False, True])
def test_a_bug_is_one_line_unless_debug(debug: bool) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = ["--debug", "schema"] if debug else ["schema"]
    done = subprocess.run([sys.executable, "-c", BROKEN_SCHEMA, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert ("Traceback" in done.stderr) is debug
    if not debug:
        assert done.stderr.strip() == ("trickbook: ZeroDivisionError: division by zero (run "
                                       "with --debug for the traceback)")


def test_score_on_a_full_disk_changes_nothing(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import scoring.store

    db = tmp_path / "t.duckdb"
    assert runner.invoke(app, ["ingest", str(SAMPLES / "league.jsonl"), "--db",
                               str(db)]).exit_code == 0

    def full(*args: object, **kwargs: object) -> object:
        raise duckdb.IOException("IO Error: Could not write file: No space left on device")

    monkeypatch.setattr(scoring.store, "rescore", full)
    result = runner.invoke(app, ["score", "--db", str(db)])
    assert result.exit_code == 2
    assert "nothing was changed: no space left on the device" in result.output


def test_ingest_says_what_a_new_version_dropped(tmp_path: Path) -> None:
    """docs/ingest.md "Versions of a source": the deals an earlier version stored that the new
    one does not hold are kept as conflicts, or removed with --replace; the summary says which."""
    db, p = tmp_path / "t.duckdb", tmp_path / "results.jsonl"
    lines = (SAMPLES / "league.jsonl").read_text().splitlines()
    p.write_text("\n".join(lines) + "\n")
    assert runner.invoke(app, ["ingest", str(p), "--db", str(db)]).exit_code == 0
    p.write_text("\n".join(lines[:3] + lines[4:]) + "\n")  # deal 3 of the first game left out
    kept = runner.invoke(app, ["ingest", str(p), "--db", str(db)])
    assert kept.exit_code == 0, kept.output
    assert "1 deal of the earlier version not in this one kept as conflicts" in kept.output
    assert "0: deal-conflict: deal 3 of game" in kept.output and "--replace" in kept.output
    removed = runner.invoke(app, ["ingest", str(p), "--db", str(db), "--replace"])
    assert removed.exit_code == 0, removed.output
    assert "1 deal of the earlier version not in this one removed" in removed.output


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder holding a database of the samples in which no file can be made: ``chmod``, or
    for root (whom modes do not stop) the immutable attribute; skipped where neither holds."""
    folder = tmp_path / "shared"
    folder.mkdir()
    assert runner.invoke(app, ["ingest", str(SAMPLES / "league.jsonl"), "--db",
                               str(folder / "t.duckdb")]).exit_code == 0
    folder.chmod(0o555)
    immutable = False
    if _writable(folder) and shutil.which("chattr"):
        immutable = subprocess.run(["chattr", "+i", str(folder)], capture_output=True,
                                   check=False).returncode == 0
    try:
        if _writable(folder):
            pytest.skip("no folder here refuses a new file (root, without chattr)")
        yield folder
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        folder.chmod(0o755)


def _writable(folder: Path) -> bool:
    try:
        (folder / "probe").touch()
    except OSError:
        return False
    (folder / "probe").unlink()
    return True


def test_a_database_in_a_read_only_folder_is_said_before_anything_runs(
        read_only_folder: Path) -> None:
    """DuckDB writes its log ``<db>.wal`` beside the database: in a folder that refuses a new
    file, ``analyse`` and ``balance`` ended in DuckDB's raw "Cannot open file ... .wal" after
    their work, ``players rename`` in a FATAL error. Each says the folder and exits 2, and the
    database is unchanged (``ingest.store.check_folder_writable``)."""
    db = read_only_folder / "t.duckdb"
    before = db.read_bytes()
    for command in (["players", "rename", "greek-prefa:Anna", "Annie"], ["analyse"],
                    ["balance", "--variant", "greek-prefa", "--games", "2",
                     "--deals-per-game", "2", "--seed", "1"]):
        done = trickbook(*command, "--db", str(db))
        assert done.returncode == 2, (command, done.stderr)
        assert "Traceback" not in done.stderr and ".wal" in done.stderr
        assert f"its folder {read_only_folder} does not let a file be made" in " ".join(
            done.stderr.split()), command
    assert db.read_bytes() == before


@pytest.mark.parametrize("command", [
    ["export", "--format", "pbn"],
    ["simulate", "--variant", "greek-prefa", "--games", "1", "--deals-per-game", "2"]])
def test_out_never_overwrites_a_database(tmp_path: Path, command: list[str]) -> None:
    """``--out`` given the database's path (or another database's) overwrote it with text and
    exited 0: every stored game was gone."""
    db = tmp_path / "t.duckdb"
    assert runner.invoke(app, ["ingest", str(SAMPLES / "league.jsonl"), "--db",
                               str(db)]).exit_code == 0
    before = db.read_bytes()
    own_db = ["--db", str(db)] if command[0] == "export" else []
    result = runner.invoke(app, [*command, *own_db, "--out", str(db)])
    assert result.exit_code == 2
    assert "is a DuckDB database: --out does not overwrite one" in result.output
    assert db.read_bytes() == before


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_simulate_out_to_a_full_disk_names_the_file() -> None:
    done = trickbook("simulate", "--variant", "greek-prefa", "--games", "1",
                     "--deals-per-game", "2", "--out", "/dev/full")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "cannot write /dev/full: No space left on device" in done.stderr


OUTPUTS = {"csv": ["report", "standings", "--format", "csv"],
           "json": ["report", "standings", "--format", "json"],
           "table": ["report", "standings"], "schema": ["schema"]}
"""A command writing to stdout by each of its ways: ``csv.writer``, ``sys.stdout.write``,
rich's console (and ``schema`` without a database)."""


def to_stdout(tmp_path: Path, output: str, stdout: int, buffered: bool
              ) -> subprocess.CompletedProcess[str]:
    """``trickbook`` writing ``output`` (:data:`OUTPUTS`) of the sample league to ``stdout``
    (its output buffered as Python buffers a file's, or written at once)."""
    db = tmp_path / "t.duckdb"
    assert runner.invoke(app, ["ingest", str(SAMPLES / "league.jsonl"), "--db",
                               str(db)]).exit_code == 0
    args = OUTPUTS[output] + ([] if output == "schema" else ["--db", str(db)])
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env |= {"PYTHONPATH": str(ROOT)} | ({} if buffered else {"PYTHONUNBUFFERED": "1"})
    return subprocess.run([sys.executable, "-m", "trickbook", *args], cwd=ROOT, env=env,
                          stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=300)


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("output", list(OUTPUTS))
def test_a_reader_that_closed_the_pipe_ends_the_command_quietly(tmp_path: Path, output: str,
                                                                buffered: bool) -> None:
    """``trickbook report --format csv DB | head -1``: the reader closing the pipe ended the
    command with exit 1 and nothing said (typer's handler, rich's), or Python's "Exception
    ignored" and exit 120; now it ends quietly, exit 0 (``console.output_checked``)."""
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line: every write meets EPIPE
    try:
        done = to_stdout(tmp_path, output, write, buffered)
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("output", list(OUTPUTS))
def test_output_to_a_full_disk_says_it_is_standard_output(tmp_path: Path, output: str,
                                                           buffered: bool) -> None:
    """``trickbook report ... > /dev/full`` said "OSError: [Errno 28] No space left on device",
    or Python's "Exception ignored" and exit 120, not what could not be written."""
    with open("/dev/full", "w") as full:
        done = to_stdout(tmp_path, output, full.fileno(), buffered)
    assert done.returncode == 2
    assert done.stderr == "cannot write to standard output: No space left on device\n"


THEIRS = {"empty": "", "a table of its own": "CREATE TABLE foo (x INTEGER)",
          "a games table of its own": "CREATE TABLE games (x INTEGER)",
          "a deals table of its own": "CREATE TABLE deals (a INTEGER, b VARCHAR)"}
"""Databases of another program (docs/cli.md: refused, exit 2, naming what it is)."""
SAID = {"empty": "theirs.duckdb: an empty database (no tables): run `trickbook ingest` into it "
                 "first",
        "a table of its own": "theirs.duckdb: another program's database: it holds tables (foo) "
                              "but not trickbook's; name a trickbook database, or a new file",
        "a games table of its own": "theirs.duckdb: its table 'games' lacks the columns game_id, "
                                    "variant",
        "a deals table of its own": "theirs.duckdb: its table 'deals' lacks the columns game_id, "
                                    "deal_no"}


@pytest.mark.parametrize("theirs", list(THEIRS))
@pytest.mark.parametrize("command", [
    ["report", "standings"], ["check"], ["players", "list"], ["export", "--format", "pbn"],
    ["score"], ["players", "rename", "a", "b"], ["players", "merge", "a", "b"], ["analyse"]])
def test_a_database_without_trickbook_s_tables_is_said(tmp_path: Path, command: list[str],
                                                       theirs: str) -> None:
    """An empty DuckDB file (made by another tool) gave "CatalogException: Table with name
    standings does not exist!"; one with a ``games`` table of its own a "BinderException";
    and ``score``, ``players rename``/``merge`` and ``analyse`` added trickbook's twenty
    tables to another program's database. Each is refused, and the file left as it was; only
    an empty one is told to be ingested into (ingest refuses the others)."""
    db = tmp_path / "theirs.duckdb"
    with duckdb.connect(str(db)) as conn:
        if THEIRS[theirs]:
            conn.execute(THEIRS[theirs])
        before = conn.execute("SELECT table_name FROM duckdb_tables()").fetchall()
    result = runner.invoke(app, [*command, "--db", str(db)])
    said = " ".join(result.output.split())
    assert result.exit_code == 2, said
    assert SAID[theirs] in said and ("ingest" in said) == (theirs == "empty"), said
    assert "Catalog" not in said and "Binder" not in said
    with duckdb.connect(str(db), read_only=True) as conn:
        assert conn.execute("SELECT table_name FROM duckdb_tables()").fetchall() == before


@pytest.mark.parametrize("theirs", [t for t in THEIRS if t != "empty"])
def test_every_command_names_another_program_s_database_alike(tmp_path: Path,
                                                              theirs: str) -> None:
    """``report`` said of a database with a ``deals`` table of its own "run `trickbook ingest`
    into it first", which ingest then refused ("its table 'deals' lacks the columns ..."); one
    with a table ``foo`` alone had trickbook's tables added by ingest. Every command, reading
    or writing, now says the same of it (one definition, ``ingest.store._not_foreign``), and
    its advice is one that works."""
    db = tmp_path / "theirs.duckdb"
    with duckdb.connect(str(db)) as conn:
        conn.execute(THEIRS[theirs])
    said = {" ".join(runner.invoke(app, [*command, "--db", str(db)]).output.split())
            for command in (["report", "standings"], ["score"],
                            ["ingest", str(SAMPLES / "league.jsonl")])}
    assert len(said) == 1, said
    assert said.pop().endswith("name a trickbook database, or a new file")
    with duckdb.connect(str(db), read_only=True) as conn:
        assert len(conn.execute("SELECT table_name FROM duckdb_tables()").fetchall()) == 1


@pytest.mark.parametrize("command", [["ingest", str(SAMPLES / "bridge")], ["score"],
                                     ["report", "standings"]])
def test_an_older_trickbook_s_database_gains_the_columns_added_since(
        tmp_path: Path, command: list[str]) -> None:
    """A database an older trickbook made, whose ``deals_bridge`` has no ``ns_team`` and
    ``ew_team`` (the teams a deal's pairs play for, docs/bridge.md; docs/ingest.md "Databases
    made before"): ingest said "not stored: BinderException: ... does not have a column with
    name "ns_team"" of each file. A command that writes adds the columns (null in the rows
    stored before) and goes on; one that reads leaves the file as it was."""
    db = tmp_path / "older.duckdb"
    with duckdb.connect(str(db)) as conn:
        store.create_tables(conn)
        conn.execute("ALTER TABLE deals_bridge DROP COLUMN ns_team")
        conn.execute("ALTER TABLE deals_bridge DROP COLUMN ew_team")
    result = runner.invoke(app, [*command, "--db", str(db)])
    assert result.exit_code == 0, result.output
    with duckdb.connect(str(db), read_only=True) as conn:
        columns = {c for (c,) in conn.execute(
            "SELECT column_name FROM duckdb_columns() WHERE table_name = 'deals_bridge'"
        ).fetchall()}
    writes = command[0] != "report"
    assert ({"ns_team", "ew_team"} <= columns) is writes, columns
    if command[0] == "ingest":
        assert "0 quarantined" in result.output and " 0 stored" not in result.output


def test_a_table_without_a_column_trickbook_requires_is_refused(tmp_path: Path) -> None:
    """A table of trickbook's name that lacks a column trickbook requires (``deals.record``)
    is not an older trickbook's: every command refuses the database, naming the column."""
    db = tmp_path / "other.duckdb"
    with duckdb.connect(str(db)) as conn:
        store.create_tables(conn)
        conn.execute("ALTER TABLE deals DROP COLUMN record")
    result = runner.invoke(app, ["ingest", str(SAMPLES / "bridge"), "--db", str(db)])
    said = " ".join(result.output.split())
    assert result.exit_code == 2, said
    assert "its table 'deals' lacks the columns record that trickbook writes" in said, said


def test_another_program_s_database_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    """Ingest into a database whose ``games`` table is another program's said "not stored:
    BinderException", after adding trickbook's twenty tables to it."""
    db = tmp_path / "theirs.duckdb"
    conn = duckdb.connect(str(db))
    conn.execute("CREATE TABLE games (id INTEGER, name VARCHAR)")
    conn.close()
    result = runner.invoke(app, ["ingest", str(SAMPLES / "league.jsonl"), "--db", str(db)])
    assert result.exit_code == 2
    assert "its table 'games' lacks the columns game_id, variant" in result.output
    conn = duckdb.connect(str(db), read_only=True)
    try:
        assert conn.execute("SELECT table_name FROM duckdb_tables()").fetchall() == [("games",)]
    finally:
        conn.close()


@pytest.mark.parametrize("command", [["report", "standings"], ["check"], ["players", "list"],
                                     ["score"]])
def test_every_command_says_it_waits_for_the_lock(tmp_path: Path, command: list[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Only ingest said so: the other commands were silent for up to 30 s under another
    process's lock."""
    db = tmp_path / "t.duckdb"
    assert runner.invoke(app, ["ingest", str(SAMPLES / "league.jsonl"), "--db",
                               str(db)]).exit_code == 0
    locked_twice(monkeypatch)
    result = runner.invoke(app, [*command, "--db", str(db)])
    assert result.exit_code in (0, 1), result.output
    assert result.output.count("another process holds its lock") == 1


def test_ctrl_c_while_ingest_waits_for_the_lock_stops_it(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while another process held the lock said "stopping after the current file" and
    waited the whole 30 s all the same (then exit 2); had the lock come free, it said "nothing
    to ingest: no file ... is one of the formats read". It now stops at once, exit 130."""
    import os
    import signal

    db = tmp_path / "t.duckdb"
    monkeypatch.setattr(store, "LOCK_POLL", 0.01)
    tries = {"n": 0}

    def held(*args: object, **kwargs: object) -> duckdb.DuckDBPyConnection:
        tries["n"] += 1
        if tries["n"] == 2:
            os.kill(os.getpid(), signal.SIGINT)  # the user's Ctrl-C, as the lock is held
        raise duckdb.IOException("IO Error: Could not set lock on file: Conflicting lock")

    monkeypatch.setattr(store.duckdb, "connect", held)
    result = runner.invoke(app, ["ingest", str(SAMPLES / "league.jsonl"), "--db", str(db)])
    assert result.exit_code == 130, result.output
    assert "interrupted while waiting for another process's lock: nothing was read" in \
        " ".join(result.stderr.split())
    assert tries["n"] < 10 and "nothing to ingest" not in result.output


def test_ctrl_c_before_the_first_file_says_so(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import signal

    import ingest.pipeline

    real = ingest.pipeline.expand

    def found_then_stopped(paths: object) -> object:
        os.kill(os.getpid(), signal.SIGINT)
        return real(paths)  # type: ignore[arg-type]

    monkeypatch.setattr(ingest.pipeline, "expand", found_then_stopped)
    result = runner.invoke(app, ["ingest", str(SAMPLES / "league.jsonl"), "--db",
                                 str(tmp_path / "t.duckdb")])
    assert result.exit_code == 130, result.output
    assert "stopped before any file was read" in result.stderr
    assert "nothing to ingest" not in result.output


def test_players_list_shows_control_characters_escaped(tmp_path: Path) -> None:
    """A right-to-left override in a name turned the rest of the terminal's line around in
    ``players list`` (``report`` escaped it)."""
    sheet = tmp_path / "rtl.jsonl"
    text = (SAMPLES / "league.jsonl").read_text(encoding="utf-8")
    sheet.write_text(text.replace("Anna", "An\u202ena"), encoding="utf-8")
    db = tmp_path / "t.duckdb"
    assert runner.invoke(app, ["ingest", str(sheet), "--db", str(db)]).exit_code == 0
    result = runner.invoke(app, ["players", "list", "--db", str(db)])
    assert result.exit_code == 0
    assert "An\\u202ena" in result.output and "\u202e" not in result.output


def test_an_issue_quoting_a_huge_value_is_one_short_line(tmp_path: Path) -> None:
    """A LIN file of one ``vg`` value of 1 MB and no board printed the whole value in its issue
    (a hostile run's 10 MB file: 10 MB on the terminal); the summary cuts each issue to
    ``console.SHOWN_CHARS`` characters and counts the rest (``ingest.store.bounded``), the
    event name to 60."""
    path = tmp_path / "huge.lin"
    path.write_text("vg|" + "A" * (1 << 20) + "|", encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(path), "--db", str(tmp_path / "t.duckdb")])
    assert result.exit_code == 0, result.output
    (line,) = [x for x in result.output.splitlines() if "has no boards" in x]
    assert len(line) < 600 and "A" * 61 not in line
    assert "quarantined" in result.output and len(result.output) < 2_000
    stray = tmp_path / "stray.lin"  # no board, and 60 parts out of step: a long message
    stray.write_text("vg|E|" + "".join(f"|junk{i}|" for i in range(60)), encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(stray), "--db", str(tmp_path / "t.duckdb")])
    (line,) = [x for x in result.output.splitlines() if "has no boards" in x]
    assert len(line) < SHOWN_CHARS + 100 and "more characters cut]" in line
