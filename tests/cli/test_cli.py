"""The ``trickbook`` command line through typer's CliRunner (docs/cli.md)."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

import scoring.registry
from tests.conftest import DATA, ROOT
from tests.ingest.conftest import GREEK_SAMPLES, SAMPLES
from tests.ingest.fakes import FakeSettlement, fake_settlements
from trickbook.cli import app

runner = CliRunner()


@pytest.fixture
def fake_registry(monkeypatch: pytest.MonkeyPatch) -> FakeSettlement:
    fake = FakeSettlement()
    monkeypatch.setattr(scoring.registry, "settlement", fake_settlements(fake))
    return fake


def test_ingest_prints_counts_per_file(tmp_path: Path, fake_registry: FakeSettlement) -> None:
    db = tmp_path / "x.duckdb"
    result = runner.invoke(app, ["ingest", str(SAMPLES), "--db", str(db)])
    assert result.exit_code == 0, result.output
    league = SAMPLES / "league.jsonl"
    assert f"{league}: 36 read, 36 stored, 0 duplicates, 0 quarantined" in result.stdout
    assert "bad-lines.jsonl: 18 read, 2 stored, 0 duplicates, 16 quarantined" in result.stdout
    again = runner.invoke(app, ["ingest", str(SAMPLES / "league.jsonl"), "--db", str(db)])
    assert again.exit_code == 0 and "skipped (unchanged)" in again.stdout


def test_a_table_no_reader_takes_is_reported_from_a_folder(tmp_path: Path) -> None:
    """A ``.csv`` in a folder whose first line is neither a score sheet's nor a traveller's is
    named with why (docs/ingest.md: nothing vanishes); a file of another kind there is not
    ours and is passed over; the good file beside it is stored. The command exits 1."""
    folder = tmp_path / "week"
    folder.mkdir()
    (folder / "week12.csv").write_text("garbage;header\n1;2\n", encoding="utf-8")
    (folder / "notes.md").write_text("not a record\n", encoding="utf-8")
    (folder / "league.jsonl").write_bytes((SAMPLES / "league.jsonl").read_bytes())
    result = runner.invoke(app, ["ingest", str(folder), "--db", str(tmp_path / "x.duckdb")])
    assert result.exit_code == 1, result.output  # its records were not read
    assert (f"{folder / 'week12.csv'}: skipped (no reader: not a score sheet" in result.stdout
            and "nor a traveller (columns board, ns_pair, ew_pair, contract)" in result.stdout)
    assert "notes.md" not in result.stdout
    assert "league.jsonl: 36 read, 36 stored" in result.stdout



def test_a_packed_file_is_reported_even_from_a_folder(tmp_path: Path) -> None:
    """A gzip or zip file of records, or a workbook, found in a folder was passed over without
    a word (its records silently missed), and named it said only that its first bytes are not
    text. Each is now named with what to do (docs/ingest.md, "pick a reader"); the command
    exits 1, as for a table no reader takes."""
    import gzip
    import zipfile

    folder = tmp_path / "week"
    folder.mkdir()
    data = (SAMPLES / "league.jsonl").read_bytes()
    (folder / "league.jsonl.gz").write_bytes(gzip.compress(data))
    with zipfile.ZipFile(folder / "archive.zip", "w") as z:
        z.writestr("league.jsonl", data)
    with zipfile.ZipFile(folder / "sheet.xlsx", "w") as z:
        z.writestr("xl/workbook.xml", "<workbook/>")
    result = runner.invoke(app, ["ingest", str(folder), "--db", str(tmp_path / "x.duckdb")])
    assert result.exit_code == 1, result.output
    said = " ".join(result.stdout.split())
    assert "league.jsonl.gz: skipped (no reader: a gzip file: unpack it" in said
    assert "archive.zip: skipped (no reader: a zip archive: unpack it" in said
    assert "sheet.xlsx: skipped (no reader: a spreadsheet workbook: save its sheet as CSV" in said


def test_a_packed_file_named_as_a_format_is_reported_as_packed(tmp_path: Path) -> None:
    """A gzip file named ``.csv`` was "not a score sheet", one named ``.ppn`` "not UTF-8", an
    xz file named ``.lin`` or a zip named ``.pbn`` or ``.json`` quarantined rows of junk (a
    zip that stores its file unpacked, even its records): the name said a format and the
    first bytes were not looked at. Each is now said to be packed, named or in a folder."""
    import gzip
    import lzma
    import zipfile

    data = (SAMPLES / "league.jsonl").read_bytes()
    folder = tmp_path / "week"
    folder.mkdir()
    (folder / "sheet.csv").write_bytes(gzip.compress(data))
    (folder / "g.ppn").write_bytes(gzip.compress(data))
    (folder / "x.lin").write_bytes(lzma.compress(data))
    for name in ("z.pbn", "z.json"):
        with zipfile.ZipFile(folder / name, "w", compression=zipfile.ZIP_STORED) as z:
            z.writestr("league.jsonl", data)
    db = tmp_path / "x.duckdb"
    for given in ([folder], sorted(folder.iterdir())):
        result = runner.invoke(app, ["ingest", *map(str, given), "--db", str(db)])
        assert result.exit_code == 1, result.output
        said = " ".join(result.stdout.split())
        for name, kind in (("sheet.csv", "a gzip file"), ("g.ppn", "a gzip file"),
                           ("x.lin", "an xz file"), ("z.pbn", "a zip archive"),
                           ("z.json", "a zip archive")):
            assert f"{name}: skipped (no reader: {kind}: unpack it" in said, (name, said)
        assert "0 read" in said


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".ppn", ".pbn", ".lin", ".txt"])
def test_an_empty_file_is_said_to_be_empty_in_every_format(tmp_path: Path, suffix: str) -> None:
    """An empty file (nothing, or a byte order mark and blank lines) was "0 read" as JSON Lines,
    PPN or PBN, one quarantined record as LIN, "no reader" (exit 1) as a table or DDS file,
    and logged, so that a second empty file was "same content as" the first. Each is now
    skipped as empty, whatever its name, and logged nowhere (it holds no record)."""
    first, second = tmp_path / f"a{suffix}", tmp_path / f"b{suffix}"
    first.write_bytes(b"")
    second.write_bytes(b"\xef\xbb\xbf\r\n  \n")
    db = tmp_path / "x.duckdb"
    runner.invoke(app, ["ingest", str(SAMPLES / "league.jsonl"), "--db", str(db)])
    result = runner.invoke(app, ["ingest", str(first), str(second), "--db", str(db)])
    assert result.exit_code == 0, result.output
    for path in (first, second):
        assert f"{path}: skipped (empty: the file holds no records)" in result.stdout
    with duckdb.connect(str(db), read_only=True) as conn:
        assert conn.execute("SELECT count(*) FROM ingest_log").fetchone() == (1,)  # the league

@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".ppn", ".pbn", ".lin", ".txt"])
def test_a_file_of_zero_bytes_is_damaged_not_empty(tmp_path: Path, suffix: str) -> None:
    """A file of 4,096 zero bytes (a disk's or a copy's damage) was "skipped (empty: the file
    holds no records)", exit 0, as a file saved before anything was typed into it; a file of
    UTF-16 white space, half zero bytes, is still empty."""
    zeros, blank = tmp_path / f"zeros{suffix}", tmp_path / f"blank{suffix}"
    zeros.write_bytes(b"\x00" * 4096)
    blank.write_bytes(" \r\n\t".encode("utf-16"))
    result = runner.invoke(app, ["ingest", str(zeros), str(blank), "--db",
                                 str(tmp_path / "x.duckdb")])
    said = " ".join(result.stdout.split())
    assert re.search(re.escape(f"{zeros}: ") + r"(\d+ read, 0 stored, 0 duplicates, ([1-9]\d* "
                     r"quarantined|0 quarantined, and 1 issue of the file)|skipped \(no reader: )",
                     said), said  # said, as damage is (not text: an issue of the file)
    assert f"{blank}: skipped (empty: the file holds no records)" in result.stdout


def test_repaired_deals_are_counted_where_the_file_is_reported(tmp_path: Path) -> None:
    """example3.pbn's first board needs two repairs (docs/bridge.md): they were recorded in the
    repairs table, and the command's report of the file said nothing of them."""
    pbn = tmp_path / "board1.pbn"
    example3 = DATA / "endplay-fixtures" / "pbn" / "example3.pbn"
    pbn.write_text("\n".join(example3.read_text().splitlines()[:27]) + "\n")
    result = runner.invoke(app, ["ingest", str(pbn), "--db", str(tmp_path / "x.duckdb")])
    assert result.exit_code == 0, result.output
    assert "  1 deal repaired as read (each repair is in the repairs table)" in result.stdout


def test_a_folder_without_records_says_so(tmp_path: Path) -> None:
    """An empty folder, or one of files no reader takes, says there was nothing to ingest (it
    printed a blank line); it is not an error (docs/cli.md)."""
    folder = tmp_path / "week"
    folder.mkdir()
    db = str(tmp_path / "x.duckdb")
    result = runner.invoke(app, ["ingest", str(folder), "--db", db])
    assert result.exit_code == 0 and f"nothing to ingest: no file in {folder}" in result.stdout
    (folder / "notes.md").write_text("not a record\n", encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(folder), "--db", db])
    assert result.exit_code == 0 and "nothing to ingest" in result.stdout


def test_a_traveller_with_a_damaged_header_says_which_column(tmp_path: Path) -> None:
    """A traveller whose header row misspells one of its columns is named with that column
    (it was told all four), and the command exits 1: none of its rows were read."""
    text = (SAMPLES / "bridge" / "club-pairs-travellers.csv").read_text(encoding="utf-8")
    path = tmp_path / "tuesday.csv"
    path.write_text(text.replace("contract", "contrct", 1), encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(path), "--db", str(tmp_path / "x.duckdb")])
    assert result.exit_code == 1, result.output
    assert "nor a traveller: its header row lacks 'contract')" in result.stdout


def test_file_names_are_printed_as_they_are(tmp_path: Path) -> None:
    """Brackets in a path are text, not console markup: ``w[/b]x.jsonl`` (the file ``b]x.jsonl``
    in the folder ``w[``) was an error after its file was stored."""
    folder = tmp_path / "w["
    folder.mkdir()
    odd = folder / "b]x.jsonl"
    odd.write_bytes((SAMPLES / "league.jsonl").read_bytes())
    bold = tmp_path / "[bold]q.jsonl"
    bold.write_text('{"record":"game"}\n', encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(odd), str(bold), "--db",
                                 str(tmp_path / "x.duckdb")])
    assert result.exit_code == 0, result.output
    assert f"{tmp_path}/w[/b]x.jsonl: 36 read, 36 stored" in result.stdout
    assert f"{bold}: 1 read, 0 stored, 0 duplicates, 1 quarantined" in result.stdout


def test_strict_exits_non_zero_naming_file_and_line(tmp_path: Path,
                                                    fake_registry: FakeSettlement) -> None:
    db = tmp_path / "x.duckdb"
    result = runner.invoke(app, ["ingest", str(SAMPLES / "bad-lines.jsonl"), "--db", str(db),
                                 "--strict"])
    assert result.exit_code == 1
    assert "bad-lines.jsonl:3" in result.stderr and "parse" in result.stderr


def test_a_run_that_reads_no_file_makes_no_database(tmp_path: Path,
                                                    fake_registry: FakeSettlement) -> None:
    """A mistyped path, or a folder with nothing to ingest, left an empty database behind at
    ``--db``; a run that reads a file makes it as before."""
    db, folder = tmp_path / "new.duckdb", tmp_path / "empty"
    folder.mkdir()
    missing = runner.invoke(app, ["ingest", str(tmp_path / "nothere.jsonl"), "--db", str(db)])
    assert missing.exit_code == 1 and "skipped (missing)" in missing.stdout
    nothing = runner.invoke(app, ["ingest", str(folder), "--db", str(db)])
    assert nothing.exit_code == 0 and "nothing to ingest" in nothing.stdout
    assert not db.exists()
    read = runner.invoke(app, ["ingest", str(SAMPLES / "league.jsonl"), str(tmp_path / "x.jsonl"),
                               "--db", str(db)])
    assert read.exit_code == 1 and "36 stored" in read.stdout and db.exists()


def test_strict_says_the_files_it_stored_before_the_stop(tmp_path: Path,
                                                        fake_registry: FakeSettlement) -> None:
    """Strict mode commits each file; it stopped at a bad line naming only that line, so a
    user could not tell that the files before it were written. It reports them first."""
    folder = tmp_path / "week"
    folder.mkdir()
    (folder / "a-good.jsonl").write_bytes((SAMPLES / "league.jsonl").read_bytes())
    (folder / "b-bad.jsonl").write_bytes((SAMPLES / "bad-lines.jsonl").read_bytes())
    result = runner.invoke(app, ["ingest", str(folder), "--db", str(tmp_path / "x.duckdb"),
                                 "--strict"])
    assert result.exit_code == 1
    assert f"{folder / 'a-good.jsonl'}: 36 read, 36 stored" in result.stdout
    assert "b-bad.jsonl" not in result.stdout and "b-bad.jsonl:3" in result.stderr


def test_reports_in_three_formats(tmp_path: Path, fake_registry: FakeSettlement) -> None:
    db = tmp_path / "x.duckdb"
    runner.invoke(app, ["ingest", str(SAMPLES / "bad-lines.jsonl"), "--db", str(db)])
    as_json = runner.invoke(app, ["report", "quarantine", "--db", str(db), "--format", "json"])
    rows = json.loads(as_json.stdout)
    expected = json.loads((SAMPLES / "bad-lines.expected.json").read_text())
    assert [{"line": r["line"], "code": r["code"]} for r in rows] == expected
    as_csv = runner.invoke(app, ["report", "quarantine", "--db", str(db), "--format", "csv"])
    table = list(csv.DictReader(io.StringIO(as_csv.stdout)))
    assert [int(r["line"]) for r in table] == [e["line"] for e in expected]
    standings = runner.invoke(app, ["report", "standings", "--db", str(db), "--format", "csv"])
    players = {r["player"] for r in csv.DictReader(io.StringIO(standings.stdout))}
    assert players == {"Anna", "Boris", "Chris"}
    shown = runner.invoke(app, ["report", "standings", "--db", str(db)])
    assert shown.exit_code == 0 and "standings (3 rows)" in shown.stdout


def test_standings_say_each_cash_figure_s_unit_to_two_places(tmp_path: Path) -> None:
    """A Balkan table whose pot splits in thirds (data/samples/balkan/club-sheet-2026-12-01.csv)
    printed 46.333333333333336; every cash figure also says its variant's unit, as the pages do
    (issue 17: money is never summed across units)."""
    db = tmp_path / "x.duckdb"
    for sample in ("balkan/club-sheet-2026-12-01.csv", "league.jsonl"):
        runner.invoke(app, ["ingest", str(SAMPLES / sample), "--db", str(db)])
    result = runner.invoke(app, ["report", "standings", "--db", str(db), "--format", "csv"])
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert {r["variant"]: r["unit"] for r in rows} == {"balkan": "soup points",
                                                       "greek-prefa": "chips"}
    cash = [r["cash"] for r in rows]
    assert any(abs(float(c) % 1 - 1 / 3) < 0.01 for c in cash), cash  # a third is there
    assert all(len(c.partition(".")[2]) <= 2 for c in cash), cash
    # the table printed 49.0 and -18.0 beside 58.67: every figure has its two places
    table = runner.invoke(app, ["report", "standings", "--db", str(db)], env={"COLUMNS": "200"})
    shown = [cells[4].strip() for line in table.stdout.splitlines()
             if len(cells := line.split("│")) > 4 and cells[4].strip()]
    assert len(shown) == len(cash) and all(re.fullmatch(r"-?\d+\.\d\d", c) for c in shown), shown
    assert any(c.endswith(".00") for c in shown), shown


def test_report_tables_show_text_that_looks_like_console_markup(tmp_path: Path) -> None:
    """A quarantined line and a player's name are shown as written: ``[/x]`` in a record
    ended the table report in a MarkupError."""
    source = tmp_path / "odd.jsonl"
    source.write_text(
        '{"record":"deal","game_id":"[/x]","deal_no":1}\n'
        '{"record":"game","game_id":"g","variant":"greek-prefa",'
        '"players":["[bold]Anna[/bold]","B[/i]","C"],"rules":{}}\n', encoding="utf-8")
    db = tmp_path / "x.duckdb"
    assert runner.invoke(app, ["ingest", str(source), "--db", str(db)]).exit_code == 0
    quarantine = runner.invoke(app, ["report", "quarantine", "--db", str(db)])
    assert quarantine.exit_code == 0, quarantine.output
    assert "[/x]" in quarantine.stdout
    standings = runner.invoke(app, ["report", "standings", "--db", str(db)])
    assert standings.exit_code == 0, standings.output
    players = "".join(line.split("│")[2].strip() for line in standings.stdout.splitlines()
                      if line.startswith("│"))  # the column, its names folded or not
    assert "[bold]Anna[/bold]" in players and "B[/i]" in players


@pytest.mark.parametrize("command", [["report", "standings"], ["score"], ["check"],
                                     ["analyse"], ["export", "--format", "pbn"]])
def test_a_command_without_its_database_fails_cleanly(tmp_path: Path, command: list[str]
                                                       ) -> None:
    """A mistyped --db is named, and no empty database is made there (``score`` made one and
    said "0 games settled")."""
    db = tmp_path / "none.duckdb"
    result = runner.invoke(app, [*command, "--db", str(db)])
    assert result.exit_code == 2 and f"no database at {db}" in result.stderr
    assert not db.exists()


def test_score_recomputes_everything(tmp_path: Path, fake_registry: FakeSettlement) -> None:
    db = tmp_path / "x.duckdb"
    runner.invoke(app, ["ingest", str(SAMPLES / "league.jsonl"), "--db", str(db)])
    conn = duckdb.connect(str(db))
    conn.execute("DELETE FROM settlements")
    conn.close()
    result = runner.invoke(app, ["score", "--db", str(db)])
    assert result.exit_code == 0 and result.stdout.startswith("4 games settled")
    conn = duckdb.connect(str(db), read_only=True)
    try:
        n = conn.execute("SELECT count(DISTINCT (game_id, deal_no)) FROM settlements").fetchall()
    finally:
        conn.close()
    # every deal of the league's four games (12 + 6 + 6 + 8), except that the fake ends the
    # kassa-4 game after 4 deals (tests/ingest/fakes.py)
    assert n[0][0] == 12 + 6 + 4 + 8
    check = runner.invoke(app, ["check", "--db", str(db)])
    assert check.exit_code == 0 and "all checks hold" in check.stdout


def test_schema_covers_every_variant() -> None:
    from model.variants import names

    result = runner.invoke(app, ["schema"])
    doc = json.loads(result.stdout)
    assert set(doc["games"]) == set(names()) == set(doc["deals"])
    greek = doc["deals"]["greek-prefa"]
    assert {"deal_no", "dealer", "contract", "defence", "tricks"} <= set(greek["properties"])
    assert greek["additionalProperties"] is False


def test_real_settlement_on_samples_passes_checks(tmp_path: Path) -> None:
    """Integration with the registered Greek settlement (scoring/greek): the data checks hold."""
    db = tmp_path / "x.duckdb"
    result = runner.invoke(app, ["ingest", *map(str, GREEK_SAMPLES), "--db", str(db)])
    assert result.exit_code == 0 and "not scored" not in result.stderr
    check = runner.invoke(app, ["check", "--db", str(db)])
    assert check.exit_code == 0, check.stdout


def test_a_named_file_not_there_or_not_a_file_exits_1(tmp_path: Path) -> None:
    """docs/cli.md: a mistyped name, or a pipe, is said and makes the command exit 1; the other
    files are stored all the same."""
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    db = tmp_path / "x.duckdb"
    result = runner.invoke(app, ["ingest", str(tmp_path / "nothere.csv"), str(fifo),
                                 str(GREEK_SAMPLES[0]), "--db", str(db)])
    assert result.exit_code == 1
    assert "nothere.csv: skipped (missing)" in result.stdout
    assert "pipe.jsonl: skipped (not a regular file" in result.stdout
    assert f"{GREEK_SAMPLES[0]}: " in result.stdout and " 0 stored" not in result.stdout


def test_a_pipe_found_in_a_folder_is_reported_not_opened(tmp_path: Path) -> None:
    """docs/ingest.md "Hostile input": a pipe (or a link to a device) named as a format of
    ours in a folder is reported as not a regular file, without opening it (a pipe would wait
    for a writer); it was passed over without a word. A pipe not named so is passed over, as
    any file no reader takes."""
    folder = tmp_path / "week"
    folder.mkdir()
    os.mkfifo(folder / "pipe.jsonl")
    os.mkfifo(folder / "notes")
    (folder / "zero.pbn").symlink_to("/dev/zero")
    shutil.copy(GREEK_SAMPLES[0], folder / "league.jsonl")
    result = runner.invoke(app, ["ingest", str(folder), "--db", str(tmp_path / "x.duckdb")])
    assert result.exit_code == 1, result.stdout
    assert "pipe.jsonl: skipped (not a regular file" in result.stdout
    assert "zero.pbn: skipped (not a regular file" in result.stdout
    assert "notes" not in result.stdout
    assert "league.jsonl: " in result.stdout and " 0 stored" not in result.stdout


def test_a_second_ctrl_c_while_settling_says_what_waits(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A second Ctrl-C that lands while the stored files are settled leaves their games
    pending (docs/ingest.md, "Strict mode, interruption, concurrency"): the command said only
    that the file in progress was rolled back. It now counts the games stored and not
    settled and says how to settle them; ``trickbook score`` then does."""
    import scoring.store
    from model.tables import PENDING

    real = scoring.store.score_pending

    def ctrl_c_once_games_wait(conn: duckdb.DuckDBPyConnection) -> object:
        if conn.execute(f"SELECT count(*) FROM {PENDING}").fetchone() != (0,):
            raise KeyboardInterrupt
        return real(conn)

    monkeypatch.setattr(scoring.store, "score_pending", ctrl_c_once_games_wait)
    db = tmp_path / "x.duckdb"
    result = runner.invoke(app, ["ingest", str(SAMPLES / "league.jsonl"), "--db", str(db)])
    assert result.exit_code == 130, result.output
    with duckdb.connect(str(db), read_only=True) as conn:
        (games,) = conn.execute(f"SELECT count(*) FROM {PENDING}").fetchone() or (0,)
    assert games > 0
    said = " ".join(result.stderr.split())
    assert f"{games} games stored and not settled" in said and "trickbook score" in said
    monkeypatch.setattr(scoring.store, "score_pending", real)
    assert runner.invoke(app, ["score", "--db", str(db)]).exit_code == 0
    with duckdb.connect(str(db), read_only=True) as conn:
        assert conn.execute(f"SELECT count(*) FROM {PENDING}").fetchone() == (0,)



QUERY_INTERRUPTED = RuntimeError("Query interrupted")
"""What DuckDB raises when a Ctrl-C lands inside a statement (``model.tables.interrupted``)."""


def test_a_ctrl_c_inside_a_group_commit_is_a_stop(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A second Ctrl-C that DuckDB met while a group of small files was committed was taken
    for a failed commit: the files were stored again one by one, said "skipped (unchanged)"
    (their first pass was logged), their games left unsettled, exit 130 or 1. It is a stop:
    the group is rolled back, and the next run stores every file."""
    import ingest.store

    real = ingest.store.Group.commit

    def interrupted(group: ingest.store.Group) -> None:
        monkeypatch.setattr(ingest.store.Group, "commit", real)  # once
        raise QUERY_INTERRUPTED

    monkeypatch.setattr(ingest.store.Group, "commit", interrupted)
    files = [SAMPLES / "league.jsonl", SAMPLES / "swabian" / "league.jsonl",
             SAMPLES / "russian" / "league.jsonl"]
    db = tmp_path / "x.duckdb"
    result = runner.invoke(app, ["ingest", *map(str, files), "--db", str(db)])
    assert result.exit_code == 130, result.output
    assert "interrupted" in result.stderr and "skipped (unchanged)" not in result.stdout
    again = runner.invoke(app, ["ingest", *map(str, files), "--db", str(db)])
    assert again.exit_code == 0 and "skipped (unchanged)" not in again.stdout, again.output
    assert runner.invoke(app, ["check", "--db", str(db)]).exit_code == 0


@pytest.mark.parametrize("stop", [QUERY_INTERRUPTED, KeyboardInterrupt()])
def test_every_command_ends_a_ctrl_c_in_exit_130(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 stop: BaseException) -> None:
    """``score`` and ``players list`` said "RuntimeError: Query interrupted" (or "Aborted!")
    and exit 1 (``trickbook.console.interruptible``); what ``score`` had not committed is
    rolled back."""
    import ingest.players
    import scoring.store

    db = tmp_path / "x.duckdb"
    assert runner.invoke(app, ["ingest", str(SAMPLES / "league.jsonl"), "--db", str(db)]
                         ).exit_code == 0
    with duckdb.connect(str(db), read_only=True) as conn:
        before = conn.execute("SELECT count(*), sum(cash) FROM settlements").fetchone()

    def ctrl_c(*args: object, **kwargs: object) -> object:
        raise stop

    real = scoring.store.rescore

    def settled_then_stopped(conn: duckdb.DuckDBPyConnection, *args: object,
                             **kwargs: object) -> object:
        conn.execute("DELETE FROM settlements")  # done, not committed
        real(conn, *args, **kwargs)
        raise stop

    monkeypatch.setattr(scoring.store, "rescore", settled_then_stopped)
    monkeypatch.setattr(ingest.players, "people", ctrl_c)
    for command in (["score"], ["players", "list"]):
        result = runner.invoke(app, [*command, "--db", str(db)])
        assert result.exit_code == 130, (command, result.output)
        assert "interrupted" in result.stderr and "Error" not in result.output
    with duckdb.connect(str(db), read_only=True) as conn:
        assert conn.execute("SELECT count(*), sum(cash) FROM settlements").fetchone() == before


def test_duckdb_s_words_for_a_stop_are_known() -> None:
    """model/tables.py ``interrupted``: DuckDB's own stop of a statement (``interrupt``, from
    another thread) and what a Ctrl-C inside one raises (``RuntimeError: Query interrupted``,
    seen by hand: a child process sent SIGINT under pytest-xdist was not interrupted), and
    nothing else."""
    import threading

    import duckdb

    from model.tables import interrupted

    conn = duckdb.connect()
    timer = threading.Timer(0.5, conn.interrupt)
    timer.start()
    try:
        with pytest.raises(duckdb.InterruptException) as stopped:
            conn.execute("SELECT count(*) FROM range(1000000000000) a")
    finally:
        timer.cancel()
        conn.close()
    assert interrupted(stopped.value) and interrupted(QUERY_INTERRUPTED)
    assert not interrupted(RuntimeError("Query interrupted: no")) and not interrupted(
        duckdb.Error("Query interrupted")) and not interrupted(KeyError("x"))


def test_an_abort_before_the_database_is_made_says_only_that(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch,
                                                             ) -> None:
    """A second Ctrl-C before the database exists (while the files are being found) ended
    with "cannot open the database ... database does not exist" under the interrupted line:
    the check for games left unsettled opened a database never made. Nothing is said of it
    now, and no database is made."""
    import ingest.pipeline

    def interrupted(paths: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(ingest.pipeline, "expand", interrupted)
    db = tmp_path / "x.duckdb"
    result = runner.invoke(app, ["ingest", str(SAMPLES / "league.jsonl"), "--db", str(db)])
    assert result.exit_code == 130, result.output
    assert "interrupted" in result.stderr and "database" not in result.stderr
    assert not db.exists()

@pytest.mark.slow
def test_ctrl_c_stops_between_files(tmp_path: Path) -> None:
    """A first Ctrl-C lets the current file finish and stops before the next (docs/cli.md):
    the files stored are the first few, each whole, and the later ones are not read. (Eight
    files of 5,010 records with cards, so that the signal lands well before the last one
    whatever the machine's speed.)"""
    import signal
    import subprocess
    import sys
    import time

    from data.samples.make_samples import league_lines
    from tests.ingest.conftest import ROOT

    text = "\n".join(league_lines(10, 500, cards=True, prefix="f0")) + "\n"
    files = []
    for i in range(8):
        p = tmp_path / f"{i}.jsonl"
        p.write_text(text.replace('"f0/', f'"f{i}/'))  # other games in each file
        files.append(str(p))
    db = tmp_path / "c.duckdb"
    child = subprocess.Popen([sys.executable, "-m", "trickbook", "ingest", *files, "--db", str(db)],
                             cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wal = Path(str(db) + ".wal")
    deadline = time.monotonic() + 120
    while not wal.exists() and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # the database is open: the first file is being read
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=300)
    assert child.returncode == 130, err
    assert "stopping after the current file" in err
    conn = duckdb.connect(str(db), read_only=True)
    try:
        logged = conn.execute("SELECT source, stored FROM ingest_log").fetchall()
    finally:
        conn.close()
    assert 1 <= len(logged) < len(files)
    assert logged == [(f, 10 * 501) for f in files[:len(logged)]]
    for f in files[:len(logged)]:
        assert f"{f}: 5,010 read, 5,010 stored" in out
    assert files[len(logged)] not in out  # the next file was never read


def test_control_characters_of_a_file_do_not_reach_the_terminal(tmp_path: Path) -> None:
    """An escape sequence or a NUL in a quarantined line (or a file's name) is printed as
    ``\\x1b``/``\\x00`` by ``ingest`` and ``report``: it neither recolours nor clears the
    user's terminal."""
    bad = tmp_path / "evil\x1b[2J.jsonl"
    bad.write_text('{"record": "deal", "game_id": "\x1b[31mred\x00"}\n')
    db = tmp_path / "x.duckdb"
    ingested = runner.invoke(app, ["ingest", str(bad), "--db", str(db)])
    report = runner.invoke(app, ["report", "quarantine", "--db", str(db)])
    for result in (ingested, report):
        assert "\x1b" not in result.output and "\x00" not in result.output
        assert "\\x1b" in result.output


def test_a_right_to_left_override_does_not_turn_the_terminal_s_line(tmp_path: Path) -> None:
    """U+202E in a file's name or a record turns the rest of a terminal's line around, and
    U+2028 breaks it: printed as ``\\u202e``, ``\\u2028`` like the control characters."""
    bad = tmp_path / "\u202eevil.jsonl"
    bad.write_text('{"record": "deal", "game_id": "a\u202eb\u2028c"}\n', encoding="utf-8")
    db = tmp_path / "x.duckdb"
    ingested = runner.invoke(app, ["ingest", str(bad), "--db", str(db)])
    report = runner.invoke(app, ["report", "quarantine", "--db", str(db), "--format", "csv"])
    for result in (ingested, report):
        assert "\u202e" not in result.output and "\u2028" not in result.output
        assert "\\u202eevil.jsonl" in result.output


def test_a_link_loop_or_a_dangling_link_is_said_as_such(tmp_path: Path) -> None:
    """A named link that leads nowhere was reported 'missing', as if mistyped."""
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    (tmp_path / "gone.jsonl").symlink_to(tmp_path / "nothing.jsonl")
    result = runner.invoke(app, ["ingest", str(tmp_path / "a"), str(tmp_path / "gone.jsonl"),
                                 "--db", str(tmp_path / "x.duckdb")])
    assert result.exit_code == 1
    assert "a: skipped (unreadable: a loop of symbolic links)" in result.stdout
    assert "gone.jsonl: skipped (unreadable: a symbolic link to nothing" in result.stdout


def test_dashboard_help_says_which_pages_write() -> None:
    """It said the dashboards open the database read-only, and Entry and Upload write."""
    result = runner.invoke(app, ["dashboard", "--help"])
    text = " ".join(result.stdout.split())
    assert result.exit_code == 0 and "Upload and Entry write" in text


@pytest.mark.parametrize("port", ["0", "99999", "-1"])
def test_dashboard_refuses_a_port_that_is_none(port: str, tmp_path: Path) -> None:
    """A port outside 1-65535 is refused as the option's value, before any server starts
    (before: Streamlit's traceback, ``OverflowError: bind(): port must be 0-65535``)."""
    result = runner.invoke(app, ["dashboard", "--db", str(tmp_path / "x.duckdb"), "--port", port])
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--port'" in result.output and "Traceback" not in result.output


def test_a_line_break_in_a_file_s_name_keeps_the_report_one_line_a_file(tmp_path: Path) -> None:
    """A file named with a line break printed it raw, so its report read as two lines, the
    second 'ok.jsonl: 36 read ...' as if another file's; it is written ``\\x0a``."""
    odd = tmp_path / "week\nok.jsonl"
    odd.write_bytes((SAMPLES / "league.jsonl").read_bytes())
    result = runner.invoke(app, ["ingest", str(odd), "--db", str(tmp_path / "x.duckdb")])
    (line,) = [t for t in result.output.splitlines() if "read," in t]
    assert line.startswith(f"{tmp_path}/week\\x0aok.jsonl: 36 read, 36 stored"), result.output


def test_counts_of_one_read_in_the_singular(tmp_path: Path) -> None:
    """A file of one game with a deal written twice, then ``score``: "1 duplicate" and
    "1 game settled", not "1 duplicates" and "1 games settled" (nor any other count of one
    with a plural)."""
    game, deal = (SAMPLES / "league.jsonl").read_text(encoding="utf-8").splitlines()[:2]
    src, db = tmp_path / "one.jsonl", tmp_path / "x.duckdb"
    src.write_text(f"{game}\n{deal}\n{deal}\n", encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(src), "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert f"{src}: 3 read, 2 stored, 1 duplicate, 0 quarantined" in result.stdout
    scored = runner.invoke(app, ["score", "--db", str(db)])
    assert scored.exit_code == 0, scored.output
    assert scored.stdout.startswith("1 game settled: "), scored.stdout
    assert re.search(r"(?<![\d,])1 [a-z ]+s\b", result.stdout + scored.stdout) is None


def test_a_narrow_terminal_folds_game_ids(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    """``report standings`` in 80 columns cut every game id to ``club-7/202…``, so no game could
    be told from another; the ids fold onto more lines, and each can be read whole."""
    db = tmp_path / "x.duckdb"
    runner.invoke(app, ["ingest", str(SAMPLES / "league.jsonl"), "--db", str(db)])
    monkeypatch.setenv("COLUMNS", "80")
    result = runner.invoke(app, ["report", "standings", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "…" not in result.stdout
    first_column = "".join(line.split("│")[1].strip() for line in result.stdout.splitlines()
                           if line.startswith("│"))
    games = {json.loads(line)["game_id"] for line in
             (SAMPLES / "league.jsonl").read_text(encoding="utf-8").splitlines()}
    assert all(g in first_column for g in games)


def test_a_run_of_several_files_ends_with_its_total(tmp_path: Path) -> None:
    """A folder's files each have their line; a club reading a season's folder had to add them
    up. The run ends with the sum of those lines and what was skipped; a single file has no
    total (its line is one)."""
    db = tmp_path / "x.duckdb"
    result = runner.invoke(app, ["ingest", str(SAMPLES), str(tmp_path / "none.jsonl"),
                                 "--db", str(db)])
    assert result.exit_code == 1, result.output  # the missing path
    counts = re.compile(r": ([\d,]+) read, ([\d,]+) stored, ([\d,]+) duplicates?, "
                        r"([\d,]+) quarantined")
    lines = result.stdout.splitlines()
    files = [line for line in lines[:-1] if not line.startswith(" ")]
    sums = [sum(int(m[k].replace(",", "")) for m in map(counts.search, files) if m)
            for k in (1, 2, 3, 4)]
    assert sums[0] > 300 and sums[3] > 0
    assert lines[-1] == (f"{len(files)} files: {sums[0]:,} read, {sums[1]:,} stored, "
                         f"{sums[2]:,} duplicates, {sums[3]:,} quarantined (1 skipped)")
    one = runner.invoke(app, ["ingest", str(SAMPLES / "league.jsonl"), "--db",
                              str(tmp_path / "y.duckdb")])
    assert len(one.stdout.splitlines()) == 1 and "files:" not in one.stdout


def test_ctrl_c_during_the_last_file_says_every_file_is_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A first Ctrl-C finishes the file being read (docs/cli.md); one that came while the last
    file was read said "stopped early: run the same command again" and exited 130, although
    nothing was left to read."""
    import trickbook.cli as cli

    class DuringTheLastFile(cli._StopFlag):
        """Ctrl-C pressed, but only after the run's last question between files."""

        def __init__(self) -> None:
            super().__init__()
            self.requested = True

        def __call__(self) -> bool:
            return False

    monkeypatch.setattr(cli, "_StopFlag", DuringTheLastFile)
    db = tmp_path / "x.duckdb"
    result = runner.invoke(app, ["ingest", str(SAMPLES / "league.jsonl"), "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "every file is read" in result.stderr and "stopped early" not in result.stderr


def test_progress_bars_leave_nothing_on_a_stderr_that_is_not_a_terminal(tmp_path: Path) -> None:
    """Piped or logged, a progress bar drew nothing but left an empty line on stderr (ingest,
    balance, analyse --play): they are off there."""
    done = subprocess.run([sys.executable, "-m", "trickbook", "ingest", str(SAMPLES / "nope.jsonl"),
                           str(SAMPLES), "--db", str(tmp_path / "x.duckdb")],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 1 and "nope.jsonl: skipped (missing)" in done.stdout
    assert "\n\n" not in "\n" + done.stderr and "━" not in done.stderr, repr(done.stderr[:200])


def test_a_file_s_issues_are_printed_in_line_order(tmp_path: Path) -> None:
    """../shared/data/prefko-ppn/readme-example-game.asgiven.ppn: the game's checks come after
    its deals were read, so its issues were printed at lines 17, 13, 15, 16, then 9."""
    path = DATA / "prefko-ppn" / "readme-example-game.asgiven.ppn"
    result = runner.invoke(app, ["ingest", str(path), "--db", str(tmp_path / "x.duckdb")])
    lines = [int(m.group(1)) for m in re.finditer(r"^  (\d+): ", result.stdout, re.M)]
    assert len(lines) == 5 and lines == sorted(lines), result.stdout


def test_what_the_commands_print_is_not_coloured_at_random() -> None:
    """rich's highlighting coloured the numbers, quotes and paths of any line on a terminal
    (``12`` in ``week12.jsonl``, each count of a summary): the commands colour nothing they do
    not mean to."""
    from trickbook import console

    line = "week12.jsonl: 1,234 records read, 3 quarantined ('bad line' at data/x.jsonl:12)"
    for stream in (console.out, console.err):
        assert stream.render_str(line).spans == []
