"""A UTF-8 file with a few bytes that are not UTF-8 (a byte flipped, a character cut at the end
of the file) is still read as UTF-8 (docs/ingest.md, "Encodings"): its accented names are not
turned into another code page's letters, and only the lines with the bad bytes suffer."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from ingest import text as text_codec
from ingest.formats import reader_for
from ingest.pipeline import ingest_paths
from ingest.source import Issue, Raw
from tests.ingest.conftest import SAMPLES

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
NAMED = [
    (SAMPLES / "club-sheet-2026-11-22.csv", "Anna", "Zoë Ñúñez"),
    (SAMPLES / "bridge" / "club-pairs-travellers.csv", "Riverside", "Rivérside Café"),
    (SAMPLES / "balkan" / "league.ppn", "Jelena", "Jeléna Đurić"),
    (SHARED / "endplay-fixtures" / "pbn" / "example1.pbn", "Gloyer A", "Glöyer Ä"),
    (SHARED / "bbo-vugraph-lin" / "00001.lin", "Bakkeren", "Bäkkerén"),
]
MOJIBAKE = ("cp1252", "cp1250", "cp1251", "cp1253", "latin-1")


def read_all(path: Path) -> list[Raw | Issue]:
    reader = reader_for(path)
    assert reader is not None
    return list(reader.read(path))


def stray_byte(data: bytes) -> bytes:
    """A byte that is not UTF-8 at the end of the line in the middle of the file."""
    lines = data.split(b"\n")
    lines[len(lines) // 2] += b"\xff"
    return b"\n".join(lines)


def cut_character(data: bytes) -> bytes:
    """The file ends in the first byte of a two-byte character, as a cut download does."""
    return data.rstrip(b"\r\n") + " Noé".encode()[:-1]


@pytest.mark.parametrize("defect", [stray_byte, cut_character], ids=lambda f: f.__name__)
@pytest.mark.parametrize(("path", "plain", "accented"), NAMED, ids=[
    "sheet", "traveller", "ppn", "pbn", "lin"])
def test_accented_names_survive_a_few_bad_bytes(tmp_path: Path, path: Path, plain: str,
                                                accented: str, defect: object) -> None:
    text = path.read_text(encoding="utf-8").replace(plain, accented)
    clean = tmp_path / "clean" / path.name
    clean.parent.mkdir()
    clean.write_text(text, encoding="utf-8")
    p = tmp_path / path.name
    p.write_bytes(defect(text.encode()))  # type: ignore[operator]
    items = read_all(p)
    records = " ".join(str(i.data) for i in items if isinstance(i, Raw))
    assert accented in records
    for page in MOJIBAKE:
        wrong = accented.encode().decode(page, errors="ignore")
        assert wrong not in records, page
    spoilt = sum(isinstance(i, Raw) for i in read_all(clean)) - sum(isinstance(i, Raw)
                                                                     for i in items)
    assert spoilt <= 2
    assert all(i.line > 0 for i in items if isinstance(i, Issue))


def deals_of(items: list[Raw | Issue]) -> int:
    return sum(isinstance(i, Raw) and i.data.get("record") == "deal" for i in items)


def stray_0x81_in_a_word(data: bytes) -> bytes:
    """``0x81`` inside a name in the middle of a plain ASCII file: cp1251 reads it as ``Ѓ``,
    the other code pages not at all, and no code page makes a word of it."""
    lines = data.split(b"\n")
    i = next(i for i in range(len(lines) // 2, len(lines))
             if re.search(rb"[A-Za-z]{3}", lines[i]))
    lines[i] = re.sub(rb"([A-Za-z])([A-Za-z])", lambda m: m[1] + b"\x81" + m[2], lines[i],
                      count=1)
    return b"\n".join(lines)


@pytest.mark.parametrize(("path", "plain"), [(p, plain) for p, plain, _ in NAMED],
                         ids=["sheet", "traveller", "ppn", "pbn", "lin"])
def test_one_stray_byte_in_an_ascii_file_costs_at_most_its_record(
        tmp_path: Path, path: Path, plain: str) -> None:
    """ingest/text.py ``stray_bytes_only``: the file is read as UTF-8, not refused whole."""
    data = path.read_bytes()
    assert data.isascii()
    p = tmp_path / path.name
    p.write_bytes(stray_0x81_in_a_word(data))
    items = read_all(p)
    assert deals_of(read_all(path)) - deals_of(items) <= 1
    assert all(i.line > 0 for i in items if isinstance(i, Issue))


def test_a_few_stray_bytes_on_two_lines_cost_those_two_lines(tmp_path: Path) -> None:
    """ingest/text.py ``STRAY_FEW``: two stray bytes in a short sheet used to refuse it whole."""
    data = (SAMPLES / "club-sheet-2026-11-22.csv").read_bytes()
    lines = data.split(b"\n")
    deals = [i for i, line in enumerate(lines) if line[:2] in (b"5,", b"6,")]
    for i, byte in zip(deals, (b"\x88", b"\x81"), strict=True):  # after a contract's letters
        lines[i] = re.sub(rb"([A-Z]),", lambda m, b=byte: m[1] + b + b",", lines[i], count=1)
    p = tmp_path / "sheet.csv"
    p.write_bytes(b"\n".join(lines))
    items = read_all(p)
    issues = [i for i in items if isinstance(i, Issue)]
    assert [i.line for i in issues] == [i + 1 for i in deals]
    assert all("(a stray byte" in i.message for i in issues)
    assert deals_of(items) == deals_of(read_all(SAMPLES / "club-sheet-2026-11-22.csv")) - 2


@pytest.mark.parametrize(("path", "plain"), [(p, plain) for p, plain, _ in NAMED],
                         ids=["sheet", "traveller", "ppn", "pbn", "lin"])
def test_a_stray_byte_and_a_nul_cost_their_lines_not_the_file(tmp_path: Path, path: Path,
                                                              plain: str) -> None:
    """A NUL alone, or a stray byte alone, costs only its line; both in one file refused the
    file whole ('not UTF-8 ... nor UTF-16, and no code page reads it'), as if it were binary."""
    lines = stray_0x81_in_a_word(path.read_bytes()).rstrip(b"\r\n").split(b"\n")
    lines[-1] += b"\x00"  # the last line: a PPN game's later deals hang on its earlier ones
    p = tmp_path / path.name
    p.write_bytes(b"\n".join(lines))
    items = read_all(p)
    assert deals_of(read_all(path)) - deals_of(items) <= 2
    assert not any("cannot read the file" in i.message for i in items if isinstance(i, Issue))


def binary_block(data: bytes) -> bytes:
    """400 bytes of binary (controls, bytes that are not UTF-8, two line ends) pasted into the
    middle line of the file, as a broken copy or a disk error leaves them."""
    block = bytearray(random.Random(7).randbytes(400).replace(b"\n", b"").replace(b"\r", b""))
    block[100:100] = b"\n"
    block[300:300] = b"\n"
    lines = data.split(b"\n")
    middle = len(lines) // 2
    lines[middle] = lines[middle][:5] + bytes(block) + lines[middle][5:]
    return b"\n".join(lines)


@pytest.mark.parametrize(("path", "lost"), [(NAMED[0][0], 3), (NAMED[1][0], 3),
                                            (NAMED[2][0], None)], ids=["sheet", "traveller", "ppn"])
def test_a_block_of_binary_costs_its_lines_not_the_file(tmp_path: Path, path: Path,
                                                        lost: int | None) -> None:
    """ingest/text.py ``few_bad_lines``: a file that no encoding reads whole, but that is UTF-8
    save for a few lines, is read as UTF-8 (it was one issue, 'cannot read the file'). A CSV
    file loses the lines the block spans; a PPN game keeps the deals before it."""
    data = path.read_bytes()
    p = tmp_path / path.name
    p.write_bytes(broken := binary_block(data))
    assert not text_codec.stray_bytes_only(broken) and not text_codec.mostly_utf8(broken)
    items = read_all(p)
    assert not any("cannot read" in i.message for i in items if isinstance(i, Issue))
    assert all(i.line > 0 for i in items if isinstance(i, Issue))
    before, after = deals_of(read_all(path)), deals_of(items)
    if lost is not None:
        assert before - after <= lost
    else:
        assert 0 < after < before


IMAGE = bytes(range(256)) * 2000
"""Binary data (an image saved under a format's name): a NUL byte in every 256."""


@pytest.mark.parametrize("name", ["image.pbn", "image.jsonl", "image.lin", "image.ppn",
                                  "junk.pbn"])
def test_a_file_that_is_not_text_is_one_issue_and_the_run_goes_on(tmp_path: Path,
                                                                   name: str) -> None:
    """An image named ``image.pbn`` was read line by line as hundreds of quarantined records of
    garbage ("110 read, 110 quarantined"; as ``.jsonl`` 248), while the Upload page refused the
    same file as not text. ``ingest.formats.not_text`` is the one test of both: the file is one
    quarantined issue that names it and says why, and the other files of the run are read."""
    data = IMAGE if name.startswith("image") else bytes(range(0x80, 0x100)) * 12
    (tmp_path / name).write_bytes(data)
    good = NAMED[3][0]
    bad, read = ingest_paths([tmp_path / name, good], tmp_path / "t.duckdb")
    assert (bad.records, bad.stored, bad.quarantined, bad.file_issues) == (0, 0, 0, 1)
    (issue,) = bad.issues
    assert issue.line == 1 and issue.message.startswith(f"{name} is not ")
    assert "binary data, not text" in issue.message if data is IMAGE else \
        "no code page" in issue.message
    assert read.stored > 0 and read.quarantined == 0


def test_a_sheet_that_is_not_text_is_skipped_as_not_text(tmp_path: Path) -> None:
    """No reader takes an image named ``.csv`` (a sheet is read by its first line): it is
    reported as not text, not as a score sheet whose header row lacks columns."""
    (tmp_path / "image.csv").write_bytes(IMAGE)
    (report,) = ingest_paths([tmp_path / "image.csv"], tmp_path / "t.duckdb")
    assert report.skipped is not None and report.skipped.startswith("no reader: not a text file")
