"""What a record is, for PPN and LIN files damaged as a whole (docs/ingest.md, "Every record
exactly once"): a file cut short, a tag section that cannot be read, text outside any game or
board. The records read are the file's games and deals (each read, or the one issue in its
place); each stretch of text outside any record is an issue of the file, holding that text,
as the PBN reader's text before a game's first tag is: quarantined and reported, not counted
as a record read. One problem is one issue, and a problem outside a record costs no record."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest

from ingest.lin import READER as LIN_READER
from ingest.pipeline import FileReport, ingest_paths
from ingest.ppn import read_text as ppn_text
from ingest.source import Issue
from scoring.checks import CHECKS, run_checks
from tests.conftest import DATA
from tests.ingest.conftest import SAMPLES

LEAGUE_PPN = SAMPLES / "balkan" / "league.ppn"
"""One Balkan game of 82 deals, all of them clean: 83 records."""
VUGRAPH = DATA / "bbo-vugraph-lin" / "40000.lin"
"""Ten boards of one room, all of them clean: a game and 10 deals, 11 records."""
JUNK = "some junk text here"
COUNTS = tuple(c for c in CHECKS if c.name in (
    "ingest_log_counts_every_record_once", "quarantine_matches_last_ingest",
    "stored_records_logged"))
"""The data checks of the counts (the games are not settled here)."""


def ingested(tmp_path: Path, name: str, text: str) -> tuple[FileReport, list[tuple[object, ...]]]:
    """The report of ``text`` ingested as ``name`` and its quarantine rows (line, message,
    raw), after the data checks of the counts held (:data:`COUNTS`: the quarantine holds as
    many records as the report quarantined)."""
    path = tmp_path / name
    tmp_path.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    db = tmp_path / "t.duckdb"
    (report,) = ingest_paths([path], db)
    assert report.records == report.stored + report.duplicates + report.quarantined
    conn = duckdb.connect(str(db), read_only=True)
    try:
        assert run_checks(conn, COUNTS) == []
        rows = conn.execute("SELECT line, message, raw FROM quarantine ORDER BY line").fetchall()
    finally:
        conn.close()
    return report, rows


def _ppn_lines() -> list[str]:
    return LEAGUE_PPN.read_text(encoding="utf-8").rstrip("\n").split("\n")


def _deal_at(lines: list[str], no: int) -> int:
    return next(i for i, line in enumerate(lines) if line.startswith(f"[{no} "))


def test_the_clean_files_are_their_records(tmp_path: Path) -> None:
    report, _ = ingested(tmp_path, "league.ppn", LEAGUE_PPN.read_text(encoding="utf-8"))
    assert (report.records, report.stored) == (83, 83)
    if VUGRAPH.is_file():
        report, _ = ingested(tmp_path, "v.lin", VUGRAPH.read_text(encoding="utf-8"))
        assert (report.records, report.stored) == (11, 11)


CUTS: dict[str, Callable[[list[str]], list[str]]] = {
    # deal 13 cut off before its ']' (a line lost its end), or run on after it
    "deal cut off": lambda ls: [*ls[:(at := _deal_at(ls, 13))], ls[at][:-1], *ls[at + 1:]],
    "deal run on": lambda ls: [*ls[:(at := _deal_at(ls, 13))], ls[at] + "xx", *ls[at + 1:]],
    # the file cut short inside its last deal
    "file cut short": lambda ls: [*ls[:-1], ls[-1][:40]],
}


@pytest.mark.parametrize("damage", sorted(CUTS))
def test_a_ppn_deal_line_that_cannot_be_read_costs_that_deal_alone(
        tmp_path: Path, damage: str) -> None:
    """A deal line that cannot be read was an issue outside its game: the game's sheet went
    on without that deal, so a later deal was quarantined as "the game ended before this deal"
    and, cut short at its end, the file got a third issue saying the Result tags are final
    results of an unfinished game. Now it is a deal of its game, quarantined; the game's end is
    not checked after it; the records read are the game and its 82 deals."""
    lines = CUTS[damage](_ppn_lines())
    report, rows = ingested(tmp_path, "league.ppn", "\n".join(lines) + "\n")
    assert (report.records, report.stored, report.quarantined) == (83, 82, 1)
    ((_, message, _),) = rows
    assert message.endswith("the game's end is not checked after this deal")


def test_a_ppn_file_cut_inside_a_tag_is_one_issue_of_its_game(tmp_path: Path) -> None:
    """A file that ends inside its game's tags (``[Player3 Ma``) was two issues, the game
    without the required tags and the line that is no tag: now it is the game's one issue, cut
    short, holding the tags read and the line cut off."""
    lines = _ppn_lines()
    at = next(i for i, line in enumerate(lines) if line.startswith("[Player3 "))
    report, rows = ingested(tmp_path, "cut.ppn", "\n".join([*lines[:at], lines[at][:11]]))
    assert (report.records, report.quarantined) == (1, 1)
    ((line, message, raw),) = rows
    assert line == 1 and message.startswith("the file ends inside this game's tags: its last "
                                             "line '[Player3 Ma' stops inside a tag")
    assert "[Bula 40]" in raw and raw.endswith("[Player3 Ma")


def test_a_ppn_tag_line_without_its_bracket_is_its_games_issue(tmp_path: Path) -> None:
    """A tag line without its ``]`` inside a game's tags was an issue of its own while the game
    was read without that tag (without ``Player2``: one more issue, the game's; without
    ``Date``, under another id than the file's game). Which tag it gives is not known, so the
    game's tags cannot be read, as with a tag given twice: one issue for the game, and its
    deals say so."""
    lines = _ppn_lines()
    at = next(i for i, line in enumerate(lines) if line.startswith("[Player2 "))
    broken = [*lines[:at], lines[at].rstrip("]"), *lines[at + 1:]]
    report, rows = ingested(tmp_path, "broken.ppn", "\n".join(broken) + "\n")
    assert (report.records, report.stored, report.quarantined) == (83, 0, 83)
    assert rows[0][:2] == (1, f"the tag line {lines[at].rstrip(']')!r} at line {at + 1} has no "
                              "closing ']': which tag it gives is not known")


def test_ppn_text_outside_any_record_is_one_issue_of_its_own(tmp_path: Path) -> None:
    """A line that is no tag and no deal (appended, or between a game's deals) is one issue
    holding its text; every record is stored."""
    lines = _ppn_lines()
    at = _deal_at(lines, 13)
    report, rows = ingested(tmp_path, "junk.ppn",
                            "\n".join([*lines[:at], JUNK, *lines[at:], JUNK]) + "\n")
    assert (report.records, report.stored, report.quarantined) == (83, 83, 0)
    assert report.file_issues == 2
    assert [(line, raw) for line, _, raw in rows] == [(at + 1, JUNK), (len(lines) + 2, JUNK)]


needs_vugraph = pytest.mark.skipif(not VUGRAPH.is_file(),
                                   reason="../shared/data/bbo-vugraph-lin is absent")


@needs_vugraph
def test_lin_text_after_the_last_board_costs_no_board(tmp_path: Path) -> None:
    """A line of text appended after a LIN file's last board made that board quarantined (``'
    some junk' is not a LIN key (a '|' missing or doubled before it?)``), one of its 10 good
    deals lost; text between two boards was an issue of its own. Now text on lines of its own
    after the last board is an issue of its own too, at its line and holding it (the issue of
    text outside any board held nothing), and every board is stored."""
    text = VUGRAPH.read_text(encoding="utf-8")
    lines = text.count("\n")
    report, rows = ingested(tmp_path, "junk.lin", text + JUNK + "\n")
    assert (report.records, report.stored, report.quarantined, report.file_issues) == \
        (11, 11, 0, 1)
    assert rows == [(lines + 1, f"skipped: line {lines + 1}: {JUNK!r} is not LIN (text after "
                                "the last board)", JUNK)]
    cut_key = text.rstrip() + "\nmd"  # a key cut off is no text after it: the board's issue
    assert [i.line for i in LIN_READER.read_text(cut_key, "k.lin")
            if isinstance(i, Issue)] == [text[:text.rindex("qx|")].count("\n") + 1]


@needs_vugraph
def test_lin_text_between_boards_is_kept_in_its_issue(tmp_path: Path) -> None:
    text = VUGRAPH.read_text(encoding="utf-8")
    at = text.index("qx|o12|")
    report, rows = ingested(tmp_path, "mid.lin", text[:at] + JUNK + "\n" + text[at:])
    assert (report.records, report.stored, report.quarantined, report.file_issues) == \
        (11, 11, 0, 1)
    ((_, message, raw),) = rows
    assert "(text between two boards)" in message and raw == JUNK


@needs_vugraph
def test_a_lin_file_cut_short_before_its_first_board_is_one_issue(tmp_path: Path) -> None:
    """A file that holds no board is one issue (``30000.lin``); cut short in its header it was
    two, the file without boards and the value it ends inside: now the one says both."""
    text = VUGRAPH.read_text(encoding="utf-8")
    report, rows = ingested(tmp_path, "head.lin", text[:text.index("pn|") + 20])
    assert (report.records, report.quarantined, report.file_issues) == (0, 0, 1)
    ((line, message, _),) = rows
    assert line == 1 and "has no boards (no qx/md records): nothing to ingest; line 3: the " \
        "file ends inside the value" in message


def test_ppn_reader_yields_one_item_per_record_of_a_game_cut_in_its_tags() -> None:
    """The reader alone: a game cut in its tags with deals before the next game yields the
    game's issue and one per deal, nothing else."""
    text = ("[Bula 40]\n[Refe 4]\n[Player1 A]\n[Player2 B\n"
            "[1 231 6KA13D4QOB2T9PRH7VWLJMNG8IS5FCEU G,P,G7 1 XX G7 0 0 0 16 2 0 0,0,M10:-16]\n")
    items = list(ppn_text("t.ppn", text))
    assert [(i.line, str(i.code)) for i in items if isinstance(i, Issue)] == [
        (1, "parse"), (5, "unknown-game")]
    assert len(items) == 2


def test_a_file_that_is_not_text_reads_no_record(tmp_path: Path) -> None:
    """An image saved as ``.pbn`` is one issue of the file: reported and quarantined (its row
    keyed ``(the file)``, holding no record), while ``N read`` counts records, and it has none:
    ``0 read, ..., 0 quarantined, and 1 issue of the file`` (it said ``1 read, 1 quarantined``)."""
    from typer.testing import CliRunner

    from trickbook.cli import app

    path = tmp_path / "image.pbn"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(4000))
    db = tmp_path / "t.duckdb"
    result = CliRunner().invoke(app, ["ingest", str(path), "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert f"{path}: 0 read, 0 stored, 0 duplicates, 0 quarantined, and 1 issue of the " \
        "file" in result.stdout
    assert "1: parse: image.pbn is not a text file" in result.stdout
    conn = duckdb.connect(str(db), read_only=True)
    try:
        assert run_checks(conn, COUNTS) == []
        assert conn.execute("SELECT line, record_key, code FROM quarantine").fetchall() == [
            (1, "(the file)", "parse")]
        assert conn.execute("SELECT records, quarantined FROM ingest_log").fetchall() == [
            (0, 0)]
    finally:
        conn.close()


def test_a_line_of_records_and_an_issue_of_the_file_counts_the_records(tmp_path: Path) -> None:
    """A PPN game's ``Result`` tags its deals contradict are an issue beside the stored game,
    not a record: every record is stored, and the issue is reported and quarantined."""
    lines = _ppn_lines()
    at = next(i for i, line in enumerate(lines) if line.startswith("[Result1 "))
    lines[at] = "[Result1 7]"
    report, rows = ingested(tmp_path, "result.ppn", "\n".join(lines) + "\n")
    assert (report.records, report.stored, report.quarantined, report.file_issues) == \
        (83, 83, 0, 1)
    assert [(line, "Result1..3 = 7" in message) for line, message, _ in rows] == [(at + 1, True)]


SHEET = SAMPLES / "club-sheet-2026-11-22.csv"
"""A Greek sheet: its game (seven ``#`` lines) and 8 deal rows, all clean: 9 records."""
TRAVELLERS = SAMPLES / "bridge" / "club-pairs-travellers.csv"
"""Bridge travellers: 17 table results of their games, all clean."""
BAD_SIDECAR = '{"record": "game", "variant": "greek-prefa", "variant": "balkan"}\n'
"""A sidecar game that names a key twice (records.md 1: each field once): it gives no game."""


def _header_with(path: Path, column: str) -> str:
    """The table ``path`` with an unknown column ``column`` first in its header row, empty in
    every row (docs/csv-score-sheet.md: the header row's issue; no row fills it)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if not line.startswith("#"))
    return "\n".join([*lines[:at], f"{column},{lines[at]}",
                      *[f",{line}" for line in lines[at + 1:]]]) + "\n"


@pytest.mark.parametrize(("name", "sample"), [
    ("sheet.csv", SHEET), ("travellers.csv", TRAVELLERS)])
def test_a_header_rows_issue_is_no_record(tmp_path: Path, name: str, sample: Path) -> None:
    """A header row naming a column the reader does not know is one issue of the header row,
    which holds no record: the records read are those of the clean file, every one stored (it
    counted the header row as a record read and quarantined: 10 read of the sheet's 9)."""
    clean, _ = ingested(tmp_path / "clean", name, sample.read_text(encoding="utf-8"))
    report, rows = ingested(tmp_path / "bad", name, _header_with(sample, "bogus"))
    assert (report.records, report.stored, report.quarantined, report.file_issues) == \
        (clean.records, clean.records, 0, 1)
    ((_, message, _),) = rows
    assert message.startswith("unknown column 'bogus'")


def _sheet_with_sidecar(tmp_path: Path, header: bool) -> tuple[FileReport, list[tuple[object,
                                                                                       ...]]]:
    tmp_path.mkdir()
    (tmp_path / "s.game.json").write_text(BAD_SIDECAR, encoding="utf-8")
    lines = SHEET.read_text(encoding="utf-8").splitlines()
    return ingested(tmp_path, "s.csv", "\n".join(
        line for line in lines if header or not line.startswith("#")) + "\n")


def test_a_bad_sidecar_beside_the_header_sections_game_is_no_record(tmp_path: Path) -> None:
    """A sidecar that names a key twice, beside a header section that gives the game, is an
    issue of the file beside the game stored (docs/csv-score-sheet.md: the header's keys
    override the sidecar's): it was a record read and quarantined besides the game, 10 read of
    9 records. Without a header section the sidecar's issue stands in the game's place: the
    game is one record read, quarantined, and its deals each say so."""
    report, rows = _sheet_with_sidecar(tmp_path / "with", header=True)
    assert (report.records, report.stored, report.quarantined, report.file_issues) == \
        (9, 9, 0, 1)
    assert [(line, "'variant' is given twice" in str(m)) for line, m, _ in rows] == [(0, True)]
    report, rows = _sheet_with_sidecar(tmp_path / "alone", header=False)
    assert (report.records, report.stored, report.quarantined, report.file_issues) == \
        (9, 0, 9, 0)


def test_a_header_key_given_twice_is_the_games_one_issue(tmp_path: Path) -> None:
    """A ``#`` key given twice with two values refuses the game: that issue stands in the
    game's place (docs/csv-score-sheet.md, "the game is not read until one is removed"), so the
    records read are the clean file's 9, the game's and its deals', all quarantined."""
    report, rows = ingested(tmp_path, "twice.csv",
                            "# variant: balkan\n" + SHEET.read_text(encoding="utf-8"))
    assert (report.records, report.quarantined, report.file_issues) == (9, 9, 0)
    assert "the header gives 'variant' twice" in str(rows[0][1])


def _json_array() -> str:
    records = [json.loads(line) for line in
               (SAMPLES / "league.jsonl").read_text(encoding="utf-8").splitlines()[:4]]
    return json.dumps(records, indent=2)


JSON_DAMAGE: dict[str, Callable[[str], str]] = {
    "text after the array's end": lambda t: t + "\nexported by a tool\n",
    "the array is not closed": lambda t: t.removesuffix("]"),
    "a comma doubled between records": lambda t: t.replace("},\n  {", "},,\n  {", 1),
}


@pytest.mark.parametrize("damage", sorted(JSON_DAMAGE))
def test_json_text_outside_any_record_is_no_record(tmp_path: Path, damage: str) -> None:
    """Text of a JSON document where no object opens (after the array, between records) and an
    array never closed are issues of the file: the 4 records read are all stored (each such
    issue was a fifth record read and quarantined)."""
    report, rows = ingested(tmp_path, "d.json", JSON_DAMAGE[damage](_json_array()))
    assert (report.records, report.stored, report.quarantined, report.file_issues) == \
        (4, 4, 0, 1)
    assert len(rows) == 1


def test_a_broken_json_record_is_still_a_record(tmp_path: Path) -> None:
    """Text that opens an object and is not JSON is a record's issue, in its place."""
    text = _json_array().replace('"record": "deal"', '"record": "deal" oops', 1)
    report, _ = ingested(tmp_path, "d.json", text)
    assert (report.records, report.stored, report.quarantined, report.file_issues) == \
        (4, 3, 1, 0)


@pytest.mark.parametrize(("sample", "at"), [(SHEET, 3), (TRAVELLERS, 0)])
def test_a_line_above_the_table_that_does_not_decode_is_no_record(
        tmp_path: Path, sample: Path, at: int) -> None:
    """A stray byte in a UTF-8 table's ``#`` line (a sheet's game section, a traveller's note
    above its header row) is that line's issue, beside the records: it was counted as a record
    read and quarantined (10 read of the sheet's 9)."""
    lines = sample.read_bytes().split(b"\n")
    text = b"\n".join([*lines[:at], "# a note in Ünicode, then a stray byte: caf".encode()
                       + b"\xff", *lines[at:]])
    path = tmp_path / sample.name
    path.write_bytes(text)
    clean = ingest_paths([sample], tmp_path / "clean.duckdb")[0]
    (report,) = ingest_paths([path], tmp_path / "t.duckdb")
    assert (report.records, report.stored, report.quarantined, report.file_issues) == \
        (clean.records, clean.records, 0, 1)
    assert "its byte" in report.issues[0].message and report.issues[0].line == at + 1
