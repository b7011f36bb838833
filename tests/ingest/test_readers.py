"""Golden files for the readers (input next to expected JSON) and their bad-input behaviour.

Format sources: records.md 1 (canonical JSONL), docs/csv-score-sheet.md (the club sheet).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ingest.csv_sheet import READER as CSV_SHEET
from ingest.formats import expand, reader_for
from ingest.jsonl import READER as JSONL
from ingest.source import Issue, Raw
from model.problems import Code
from tests.conftest import DATA
from tests.ingest.conftest import SAMPLES

GOLDEN = Path(__file__).parent / "golden"


def as_golden(items: list[Raw | Issue]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for item in items:
        if isinstance(item, Raw):
            out.append({"line": item.line, "data": item.data})
        else:
            out.append({"line": item.line, "code": str(item.code), "raw": item.raw})
    return out


@pytest.mark.parametrize("name", ["mixed", "crlf"])
def test_jsonl_golden(name: str) -> None:
    path = GOLDEN / "jsonl" / f"{name}.jsonl"
    expected = json.loads((GOLDEN / "jsonl" / f"{name}.expected.json").read_text())
    assert as_golden(list(JSONL.read(path))) == expected


@pytest.mark.parametrize("name", ["header", "sidecar"])
def test_csv_golden(name: str) -> None:
    path = GOLDEN / "csv" / f"{name}.csv"
    expected = json.loads((GOLDEN / "csv" / f"{name}.expected.json").read_text())
    assert as_golden(list(CSV_SHEET.read(path))) == expected


def test_jsonl_bad_line_quotes_text_and_continues(tmp_path: Path) -> None:
    p = tmp_path / "x.jsonl"
    p.write_bytes(b'{"record": "game"\n\xff\xfe{}\n{"record": "deal"}\n')
    items = list(JSONL.read(p))
    assert [(type(i).__name__, i.line) for i in items] == [("Issue", 1), ("Issue", 2), ("Raw", 3)]
    first, second = items[0], items[1]
    assert isinstance(first, Issue) and isinstance(second, Issue)
    assert first.code is Code.PARSE and "'{\"record\": \"game\"'" in first.message
    assert second.code is Code.PARSE and "not UTF-8" in second.message
    assert "save the file as UTF-8" in second.message  # what to do about it


def test_csv_bad_header_line_and_cell_count(tmp_path: Path) -> None:
    p = tmp_path / "s.csv"
    p.write_text("# variant: greek-prefa\n# nonsense without colon\n# players: A, B, C\n"
                 "dealer,declarer\nA,B,C\nB,\n")
    items = list(CSV_SHEET.read(p))
    issues = [(i.line, i.code) for i in items if isinstance(i, Issue)]
    assert issues == [(2, Code.PARSE), (5, Code.PARSE)]
    game = next(i for i in items if isinstance(i, Raw) and i.data["record"] == "game")
    assert game.data["game_id"] == "s"  # the file's stem when the header names no game_id
    deals = [i.data for i in items if isinstance(i, Raw) and i.data["record"] == "deal"]
    assert deals == [{"record": "deal", "game_id": "s", "dealer": "B", "deal_no": 2}]


def test_csv_bad_sidecar_without_header_loses_the_game(tmp_path: Path) -> None:
    """docs/csv-score-sheet.md: a sidecar that gives no game is an issue at line 0, with where
    it stopped, and the rows point at it: they were filed under a game named after the file."""
    (tmp_path / "t.game.json").write_text('{"record": "game",\n "variant": "greek-prefa')
    (tmp_path / "t.csv").write_text("dealer\nA\n")
    items = list(CSV_SHEET.read(tmp_path / "t.csv"))
    assert not [i for i in items if isinstance(i, Raw)]
    side, row = (i for i in items if isinstance(i, Issue))
    assert (side.line, side.code, row.line, row.code) == (0, Code.PARSE, 2, Code.PARSE)
    assert "t.game.json is not JSON (Unterminated string starting at line 2, column 13)" \
        in side.message
    assert row.message.startswith("the sheet's game is in t.game.json, which gives none (line 0)")


@pytest.mark.parametrize("kind", ["folder", "pipe"])
def test_csv_sidecar_that_is_not_a_file_is_said(tmp_path: Path, kind: str) -> None:
    """A sidecar name taken by a folder or a pipe (never opened: a pipe would wait) is an issue
    of its own, not "no t.game.json beside it"."""
    side = tmp_path / "t.game.json"
    side.mkdir() if kind == "folder" else os.mkfifo(side)
    (tmp_path / "t.csv").write_text("dealer\nA\n")
    items = list(CSV_SHEET.read(tmp_path / "t.csv"))
    assert next(i.message for i in items if isinstance(i, Issue)) == \
        "sidecar t.game.json is not a file"
    assert not [i for i in items if isinstance(i, Raw)]


def test_a_sheet_without_its_game_says_so_at_its_header_row(tmp_path: Path) -> None:
    """A sheet whose game is in its sidecar, uploaded or copied without it (the table of
    data/samples/club-sheet-2026-11-29.csv alone), was quarantined as "line 0: schema: variant:
    field required", and each deal as "its game line at line 0 was quarantined": the file has
    no line 0. The header row's line says what is missing and every deal refers to it
    (docs/csv-score-sheet.md: a game's fields come from '#' lines or the sidecar)."""
    sheet = tmp_path / "week.csv"
    table = (SAMPLES / "club-sheet-2026-11-29.csv").read_text(encoding="utf-8")
    sheet.write_text(table, encoding="utf-8")
    items = list(CSV_SHEET.read(sheet))
    assert not [i for i in items if isinstance(i, Raw)]
    assert [(i.line, i.code) for i in items if isinstance(i, Issue)] == [
        (n, Code.PARSE) for n in range(1, len(table.splitlines()) + 1)]
    first, *deals = (i.message for i in items if isinstance(i, Issue))
    assert "'# variant:'" in first and "week.game.json" in first
    assert all(m.startswith("the sheet names no game (line 1)") for m in deals)


def test_formats_pick_reader_and_skip_sidecars(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text("{}\n")
    (tmp_path / "b.csv").write_text("dealer\n")
    (tmp_path / "b.game.json").write_text("{}")
    (tmp_path / "notes.txt").write_text("hello")
    (tmp_path / "export.log").write_text('{"record": "game"}\n')
    (tmp_path / "travellers.csv").write_text("board,ns,ew,contract\n1,3,4,3NT\n")
    assert reader_for(tmp_path / "a.jsonl") is JSONL
    assert reader_for(tmp_path / "b.csv") is CSV_SHEET
    assert reader_for(tmp_path / "b.game.json") is None
    assert reader_for(tmp_path / "notes.txt") is None
    assert reader_for(tmp_path / "travellers.csv") is not CSV_SHEET  # no dealer column
    assert reader_for(tmp_path / "export.log") is JSONL  # sniffed from its content
    found = [(p.name, explicit) for p, explicit in expand([tmp_path, tmp_path / "a.jsonl"])]
    assert ("a.jsonl", False) in found and len(found) == 6
    assert [p.name for p, _ in expand([str(tmp_path / "*.csv")])] == ["b.csv", "travellers.csv"]



def test_a_glob_of_any_folders_below_does_not_follow_links_to_folders(tmp_path: Path) -> None:
    """``**`` walks as a folder argument is walked (docs/ingest.md, "Folders"): two links
    back up the tree made Python's ``glob`` follow them into ever longer paths (exponentially
    many: the command ran for minutes and a first Ctrl-C did not stop it). Each file is found
    once by its own path; a hidden folder is matched only by a pattern that names it."""
    sub = tmp_path / "sub"
    (sub / ".hidden").mkdir(parents=True)
    for name in ("sub/a.jsonl", "sub/.hidden/b.jsonl", "c.jsonl"):
        (tmp_path / name).write_text("{}\n")
    (sub / "up").symlink_to("..")
    (sub / "again").symlink_to("../sub")
    found = [p.relative_to(tmp_path).as_posix() for p, _ in expand([f"{tmp_path}/**/*.jsonl"])]
    assert found == ["c.jsonl", "sub/a.jsonl"]
    hidden = expand([f"{tmp_path}/**/.hidden/*.jsonl"])
    assert [p.relative_to(tmp_path).as_posix() for p, _ in hidden] == ["sub/.hidden/b.jsonl"]
    assert [p.name for p, _ in expand([f"{tmp_path}/sub/a**.jsonl"])] == ["a.jsonl"]

DECLARED_FILES = [DATA / "endplay-fixtures" / "pbn" / "example1.pbn",
                  DATA / "endplay-fixtures" / "lin" / "example1.lin",
                  DATA / "dds-hands" / "list10.txt", SAMPLES / "balkan" / "league.ppn"]


@pytest.mark.parametrize("path", DECLARED_FILES, ids=lambda p: p.name)
def test_an_encoding_declared_as_advised_is_no_line_of_the_file(tmp_path: Path,
                                                                 path: Path) -> None:
    """The message of a file no encoding reads advises a first line '# encoding: <name>'
    (ingest/text.py): a PBN, LIN, PPN or DDS file with it reads as without it (it was one
    issue, or it broke the next LIN board, or no reader took the DDS file). The file is
    written in the code page it names."""
    from ingest.pipeline import ingest_paths

    declared = tmp_path / "declared" / path.name
    declared.parent.mkdir()
    text = path.read_bytes().decode("utf-8-sig")
    declared.write_bytes(b"# encoding: cp1251\n" + text.encode("cp1251", errors="strict"))
    (plain,) = ingest_paths([path], tmp_path / "plain.duckdb")
    (read,) = ingest_paths([declared], tmp_path / "declared.duckdb")
    assert read.reader == plain.reader and not read.issues
    assert (read.records, read.stored) == (plain.records, plain.stored)


def test_not_json_quotes_the_place_of_the_error(tmp_path: Path) -> None:
    """A long line broken far from its start quotes the text around the column named; it quoted
    the line's first 80 characters, which were fine."""
    line = '{"record": "deal", "game_id": "g", "deal_no": 1, "dealer": "Anna", ' \
           '"declarer": "Anna", "contract": "6S", "tricks": {"Anna": 6 "Boris": 2}}'
    p = tmp_path / "x.jsonl"
    p.write_text(line + "\n", encoding="utf-8")
    (issue,) = list(JSONL.read(p))
    column = line.index(' "Boris') + 2  # json.loads: expecting ',' at the space before it
    assert isinstance(issue, Issue) and f"column {column}" in issue.message, issue.message
    assert '6 "Boris' in issue.message


LIN_FILE = sorted((DATA / "bbo-vugraph-lin").glob("*.lin"))[0]
PBN_FILE = DATA / "endplay-fixtures" / "pbn" / "example1.pbn"
PPN_FILE = SAMPLES / "balkan" / "league.ppn"
DDS_FILE = DATA / "dds-hands" / "list10.txt"
SHEET_FILE = SAMPLES / "club-sheet-2026-11-22.csv"
TRAVELLER_FILE = SAMPLES / "bridge" / "club-pairs-travellers.csv"


@pytest.mark.parametrize(("source", "saved_as", "reader"), [
    (LIN_FILE, "board.pbn", "lin"), (PPN_FILE, "league.pbn", "ppn"),
    (DDS_FILE, "list10.pbn", "dds-hands"), (PBN_FILE, "example1.lin", "pbn"),
    (PBN_FILE, "example1.ppn", "pbn"), (LIN_FILE, "board.ppn", "lin"),
    (LIN_FILE, "bom:board.pbn", "lin"), (PPN_FILE, "bom:league.pbn", "ppn"),
    (DDS_FILE, "list10.dat", "dds-hands"), (DDS_FILE, "list10.csv", "dds-hands"),
    (DDS_FILE, "list10", "dds-hands"), (SHEET_FILE, "week12.pbn", "csv-sheet"),
    (SHEET_FILE, "bom:week12.lin", "csv-sheet"),
    (TRAVELLER_FILE, "pairs.pbn", "bridge-traveller-csv"),
])
def test_a_file_under_another_format_s_name_is_read_as_what_it_is(
        tmp_path: Path, source: Path, saved_as: str, reader: str) -> None:
    """A LIN, PPN or DDS file, a score sheet or a traveller saved as ``.pbn`` was quarantined
    whole as a PBN file without tags ("token 'vg|2005' before any tag ..."), and a DDS file
    not named ``.txt`` had no reader; a reader that takes a file by its name gives it up to one
    that knows its content (``formats.reader_for``), and the file reads as it does under its
    own name. (Data: data/README.md, bbo-vugraph-lin, endplay-fixtures, dds-hands;
    data/samples' sheet and travellers.)"""
    from ingest.pipeline import ingest_paths

    bom, _, saved_as = saved_as.rpartition(":")  # "bom:": saved with UTF-8's byte order mark
    renamed = tmp_path / "renamed" / saved_as
    renamed.parent.mkdir()
    renamed.write_bytes(b"\xef\xbb\xbf" * bool(bom) + source.read_bytes())
    found = reader_for(renamed)
    assert found is not None and found.name == reader
    (own,) = ingest_paths([source], tmp_path / "own.duckdb")
    (other,) = ingest_paths([renamed], tmp_path / "other.duckdb")
    assert (other.stored, other.quarantined) == (own.stored, own.quarantined) and own.stored


@pytest.mark.parametrize("name", ["event.ppn", "event.pbn", "event.txt", "event"])
def test_a_ppn_file_that_opens_with_an_event_tag_is_ppn(tmp_path: Path, name: str) -> None:
    """A PPN file that opens with an ``Event`` tag, as a PBN file does, was read as PBN (the
    PBN reader came first); its ``Bula`` tag says PPN, and PPN reads it, whatever its name."""
    from ingest.pipeline import ingest_paths

    ppn = tmp_path / name
    ppn.write_text('[Event "Club night"]\n' + PPN_FILE.read_text(encoding="utf-8"),
                   encoding="utf-8")
    found = reader_for(ppn)
    assert found is not None and found.name == "ppn"
    (own,) = ingest_paths([PPN_FILE], tmp_path / "own.duckdb")
    (tagged,) = ingest_paths([ppn], tmp_path / "tagged.duckdb")
    assert (tagged.stored, tagged.quarantined) == (own.stored, own.quarantined) and own.stored


@pytest.mark.parametrize(("head", "said"), [
    (b"\xd0\x90\xd0\xbdNUMBER 10\n", "its first line 'АнNUMBER 10' opens no format"),
    (bytes(range(1, 32)) * 20, "its first bytes, which are not text, open no format"),
    (b" \n\t\n", "the file has no text"),
])
def test_a_named_file_without_a_reader_says_what_it_opens_with(
        tmp_path: Path, head: bytes, said: str) -> None:
    """A DDS hand file with stray bytes before its first line was skipped as only "no reader",
    which told a user neither which names are read nor what was wrong with the file."""
    from ingest.formats import no_reader, reader_for

    path = tmp_path / "hands.txt"
    path.write_bytes(head)
    assert reader_for(path) is None
    reason = no_reader(path)
    assert reason.startswith("no reader: ") and said in reason
