"""Every reader but JSON Lines takes the three line ends, LF, CRLF and a lone CR (old Mac
spreadsheets), with the same records at the same lines; a JSON Lines file with lone CRs is
one line whose issue says so (docs/ingest.md, "Encodings")."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.formats import reader_for
from ingest.source import Issue, Raw
from tests.ingest.conftest import SAMPLES

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
FILES = [
    SAMPLES / "club-sheet-2026-11-22.csv",
    SAMPLES / "bridge" / "club-pairs-travellers.csv",
    SAMPLES / "balkan" / "league.ppn",
    SHARED / "endplay-fixtures" / "pbn" / "example1.pbn",
    SHARED / "bbo-vugraph-lin" / "00001.lin",
    SHARED / "dds-hands" / "list10.txt",
]


def read_all(path: Path) -> list[Raw | Issue]:
    reader = reader_for(path)
    assert reader is not None
    return list(reader.read(path))


@pytest.mark.parametrize("end", [b"\r\n", b"\r"], ids=["crlf", "cr"])
@pytest.mark.parametrize("path", FILES, ids=["sheet", "traveller", "ppn", "pbn", "lin", "dds"])
def test_line_ends(tmp_path: Path, path: Path, end: bytes) -> None:
    p = tmp_path / path.name
    p.write_bytes(path.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", end))
    got, want = read_all(p), read_all(path)
    assert len(want) > 3
    assert [(type(i).__name__, i.line) for i in got] == [(type(i).__name__, i.line)
                                                          for i in want]


def test_json_lines_with_lone_cr_line_ends_say_why_they_are_one_line(tmp_path: Path) -> None:
    """JSON Lines end a line with a line feed only: a file saved with lone CRs is one line, one
    issue whose message names the carriage returns as the cause."""
    p = tmp_path / "league.jsonl"
    p.write_bytes((SAMPLES / "league.jsonl").read_bytes().replace(b"\n", b"\r"))
    (issue,) = read_all(p)
    assert isinstance(issue, Issue) and issue.line == 1
    assert "carriage returns" in issue.message and "lone CR" in issue.message
    (fine,) = [i for i in read_all(SAMPLES / "bad-lines.jsonl") if isinstance(i, Issue)
               and i.message.startswith("not JSON")][:1]
    assert "carriage" not in fine.message
