"""JSON documents of records (ingest/json_document.py): an array or pretty-printed objects, as
records.md section 1 writes its examples, read as the same records as JSON Lines; broken, cut,
foreign-encoded and odd files cost only what is broken."""

from __future__ import annotations

import json
import random
from pathlib import Path

import duckdb
import pytest

from ingest.formats import expand, no_reader, reader_for
from ingest.json_document import READER as JSON_DOCUMENT
from ingest.json_document import read_text
from ingest.jsonl import READER as JSONL
from ingest.pipeline import ingest_paths
from ingest.source import Issue, Raw
from model.problems import Code
from tests.ingest.conftest import SAMPLES

LEAGUE = SAMPLES / "balkan" / "league.jsonl"
"""Real records (a game and its deals with cards, play and kontra) to write as documents."""


def _records(n: int = 6) -> list[dict[str, object]]:
    return [json.loads(line) for line in LEAGUE.read_text(encoding="utf-8").splitlines()[:n]]


def _array(indent: int | None = 2) -> str:
    return json.dumps(_records(), indent=indent, ensure_ascii=False)


def _stored(db: Path) -> list[tuple[object, ...]]:
    conn = duckdb.connect(str(db), read_only=True)
    try:
        return conn.execute("SELECT game_id, deal_no, record FROM deals ORDER BY 1, 2").fetchall()
    finally:
        conn.close()


def _texts(text: str) -> list[str]:
    """The records' texts as they stand in ``text`` (every record of it whole)."""
    items = list(read_text(text, "x.json"))
    assert all(isinstance(i, Raw) for i in items)
    return [i.text for i in items if isinstance(i, Raw)]


def _kinds(items: list[Raw | Issue]) -> list[tuple[str, int]]:
    return [(type(i).__name__, i.line) for i in items]


@pytest.mark.parametrize("indent", [2, 4, None])
def test_an_array_stores_what_the_same_records_as_json_lines_store(
        tmp_path: Path, indent: int | None) -> None:
    doc, lines = tmp_path / "doc" / "export.json", tmp_path / "jsonl" / "export.jsonl"
    doc.parent.mkdir()
    lines.parent.mkdir()
    doc.write_text(_array(indent), encoding="utf-8")
    lines.write_text("".join(json.dumps(r) + "\n" for r in _records()), encoding="utf-8")
    assert reader_for(doc) is JSON_DOCUMENT
    (report,) = ingest_paths([doc], tmp_path / "doc.duckdb")
    assert (report.records, report.stored, report.quarantined) == (6, 6, 0)  # a game, 5 deals
    ingest_paths([lines], tmp_path / "jsonl.duckdb")
    assert _stored(tmp_path / "doc.duckdb") == _stored(tmp_path / "jsonl.duckdb")


def test_pretty_objects_one_after_another_are_records_numbered_by_their_first_line() -> None:
    text = "\n".join(json.dumps(r, indent=4) for r in _records(3))
    items = list(read_text(text, "x.json"))
    starts = [n + 1 for n, line in enumerate(text.split("\n")) if line == "{"]
    assert _kinds(items) == [("Raw", n) for n in starts]
    assert [i.data for i in items if isinstance(i, Raw)] == _records(3)


def test_a_broken_record_costs_itself_alone_and_names_its_line_and_column() -> None:
    records = _array().split("\n  {")
    records[2] = records[2].replace('"dealer":', '"dealer"', 1)  # the second deal
    text = "\n  {".join(records)
    items = list(read_text(text, "x.json"))
    issues = [i for i in items if isinstance(i, Issue)]
    assert len([i for i in items if isinstance(i, Raw)]) == 5
    (issue,) = issues
    broken_line = next(n for n, line in enumerate(text.split("\n"), 1) if '"dealer" "' in line)
    assert issue.code is Code.PARSE
    assert f"Expecting ':' delimiter) at line {broken_line} column" in issue.message
    assert "cut short" not in issue.message  # the records after it were read
    assert issue.raw.startswith("{") and '"dealer" "' in issue.raw


@pytest.mark.parametrize("cut", [0.3, 0.5, 0.9])
def test_a_file_cut_short_keeps_every_whole_record_before_the_cut(cut: float) -> None:
    text = _array()
    short = text[:int(len(text) * cut)]
    items = list(read_text(short, "x.json"))
    whole = [json.loads(t) for t in _texts(text) if t in short]
    assert whole and len(whole) < 6
    assert [i.data for i in items if isinstance(i, Raw)] == whole
    assert isinstance(items[-1], Issue) and items[-1].code is Code.PARSE


@pytest.mark.parametrize("cut", [0.5, 0.97])
def test_a_one_line_array_cut_in_a_record_says_what_of_its_line_is_not_read(cut: float) -> None:
    """A one-line array cut in half stored the records before the cut, and its issue said
    "line 1 is not read", in JSON's words cut short ("Unterminated string starting"), never
    that the file may be cut: it says from which column, and why."""
    text = _array(indent=None)
    short = text[:int(len(text) * cut)]
    *records, issue = list(read_text(short, "x.json"))
    assert records and all(isinstance(r, Raw) for r in records)
    assert isinstance(issue, Issue)
    column = short.rfind("{", 0, short.rfind('"record"')) + 1  # where the last record opens
    assert issue.message.endswith(f"; line 1 from column {column} is not read: the text ends "
                                  "inside it, so the file may be cut short"), issue.message
    assert "starting at" not in issue.message and not issue.message.startswith(
        "not JSON (Unterminated string starting")


def test_an_array_cut_between_records_says_the_file_may_be_cut_short() -> None:
    text = _array()
    short = text[:text.rfind("\n  {")]  # ends with the comma after the fifth record
    items = list(read_text(short, "x.json"))
    assert len([i for i in items if isinstance(i, Raw)]) == 5
    assert isinstance(items[-1], Issue) and "may be cut short" in items[-1].message


def test_a_comma_missing_between_records_costs_nothing() -> None:
    items = list(read_text(_array().replace("},\n  {", "}\n  {"), "x.json"))
    assert all(isinstance(i, Raw) for i in items) and len(items) == 6


def test_text_after_the_array_is_an_issue_with_its_line() -> None:
    text = _array() + "\noops"
    items = list(read_text(text, "x.json"))
    assert isinstance(items[-1], Issue)
    assert items[-1].line == text.count("\n") + 1 and items[-1].raw == "oops"


def test_a_record_given_a_key_twice_is_an_issue_as_in_json_lines() -> None:
    text = '[{"record": "deal", "deal_no": 1, "deal_no": 2}, {"record": "game"}]'
    first, second = read_text(text, "x.json")
    assert isinstance(first, Issue) and "given twice" in first.message
    assert isinstance(second, Raw)


def test_utf16_is_read_and_a_stray_latin1_byte_costs_its_record(tmp_path: Path) -> None:
    text = _array()
    wide = tmp_path / "wide.json"
    wide.write_bytes(text.encode("utf-16"))
    assert [i.data for i in JSON_DOCUMENT.read(wide) if isinstance(i, Raw)] == _records()
    latin = tmp_path / "latin.json"
    data = text.encode("utf-8")
    at = data.rfind(b'"Jelena"')  # in the last deal
    latin.write_bytes(data[:at] + '"Jel\xe9na"'.encode("latin-1") + data[at + 8:])
    items = list(JSON_DOCUMENT.read(latin))
    assert len([i for i in items if isinstance(i, Raw)]) == 5
    (issue,) = [i for i in items if isinstance(i, Issue)]
    line = data[:at].count(b"\n") + 1
    assert f"not text in its encoding (UTF-8, or UTF-16 or UTF-32 with a byte order mark) " \
           f"at line {line} column" in issue.message


def test_bytes_not_text_outside_a_record_cost_no_record_that_was_read(tmp_path: Path) -> None:
    """A stray byte after the array, before a record or a character cut at the end: its
    issue's text held what stands for the byte (a lone surrogate), which no table stores, so
    the whole file failed and its good records were not stored."""
    data = _array().encode("utf-8")
    first = data.index(b"{", data.index(b"{") + 1)  # the second record
    files = {"after.json": data + b"\n\xdc", "before.json": data[:first] + b"\xdc" + data[first:],
             "cut.json": data[:-1] + "é".encode()[:1]}
    for name, mutant in files.items():
        (tmp_path / name).write_bytes(mutant)
    db = tmp_path / "t.duckdb"
    reports = ingest_paths([tmp_path / n for n in files], db)
    for r in reports:
        assert not r.failed and r.stored + r.duplicates >= 5, r
        assert r.records == r.stored + r.duplicates + r.quarantined
    with duckdb.connect(str(db), read_only=True) as conn:
        raws = [raw for (raw,) in conn.execute("SELECT raw FROM quarantine").fetchall()]
    assert len(raws) == 3 and all("\ufffd" in raw for raw in raws[:2]), raws


def test_mutants_never_lose_a_record_without_an_issue(tmp_path: Path) -> None:
    """Bytes flipped, cut or inserted (seeded): the reader never raises, and every record
    stands as a record or inside an issue's text."""
    data = _array().encode("utf-8")
    texts = _texts(_array())
    rng = random.Random(5)
    for n in range(60):
        at = rng.randrange(len(data))
        mutant = [data[:at] + bytes([rng.randrange(256)]) + data[at + 1:], data[:at],
                  data[:at] + rng.choice([b"{", b"}", b"[", b",", b'"', b"\n"]) + data[at:]][n % 3]
        path = tmp_path / f"m{n}.json"
        path.write_bytes(mutant)
        items = list(JSON_DOCUMENT.read(path))
        told = "".join(i.text if isinstance(i, Raw) else i.raw for i in items)
        for shown in texts:
            if shown in mutant.decode("utf-8", "replace"):
                assert shown in told, (n, shown[:60])


def test_in_a_folder_json_of_records_is_read_and_other_json_passed_over(tmp_path: Path) -> None:
    folder = tmp_path / "week"
    folder.mkdir()
    (folder / "export.json").write_text(_array(), encoding="utf-8")
    (folder / "settings.json").write_text('{\n  "theme": "dark"\n}\n', encoding="utf-8")
    (folder / "lines.json").write_text(LEAGUE.read_text(encoding="utf-8"), encoding="utf-8")
    found = [p for p, _ in expand([folder]) if reader_for(p) is not None]
    assert sorted(p.name for p in found) == ["export.json", "lines.json"]
    assert reader_for(folder / "lines.json") is JSONL  # a record a line: JSON Lines
    reports = ingest_paths([folder / "export.json", folder / "lines.json"],
                           tmp_path / "t.duckdb")
    assert (reports[0].stored, reports[1].duplicates) == (6, 6)
    assert reports[1].stored == reports[1].records - 6 and not reports[1].quarantined
    assert "names no record" in no_reader(folder / "settings.json")
