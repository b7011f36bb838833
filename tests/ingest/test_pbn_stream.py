"""A PBN file is read a piece at a time (``text.decoded_pieces``, ``pbn_syntax.split_games``):
what it gives is what reading it whole gives, and what is held is a game and a piece, not the
file. Inputs are the real files of ../shared/data (data/README.md: endplay-fixtures,
pbn-tournaments-slovesnov) as they are, and spoilt copies of them: cut inside a game, a bad
record in the middle, line ends written twice, other encodings."""

from __future__ import annotations

import codecs
import io
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest import pipeline, store
from ingest import text as text_codec
from ingest.pbn import READER, PbnReader
from ingest.source import Issue, Raw
from tests.conftest import DATA
from tests.ingest.conftest import snapshot

EP = DATA / "endplay-fixtures"
SL = DATA / "pbn-tournaments-slovesnov"
REAL = [EP / "pbn" / "example1.pbn", EP / "pbn" / "example2.pbn", EP / "pbn" / "example3.pbn",
        EP / "pbn" / "example4.pbn", EP / "examples" / "sample.pbn", SL / "A1A12525.PBN",
        SL / "Aulpll23.pbn", SL / "Gboplo27.pbn"]
EXAMPLE2 = (EP / "pbn" / "example2.pbn").read_bytes()


def _cut_in_a_game() -> bytes:
    """example2.pbn cut off inside the Play section of a game half way through the file."""
    at = EXAMPLE2.index(b"[Play", len(EXAMPLE2) // 2)
    return EXAMPLE2[:EXAMPLE2.index(b"\n", at) + 12]


def _bad_in_the_middle() -> bytes:
    """example2.pbn with a deal of four cards in a game half way through, a ``{`` comment that
    is not closed two games on, and a byte that is not UTF-8 (the file is read as UTF-8 and
    Latin-1 throughout)."""
    at = EXAMPLE2.index(b'[Deal "', len(EXAMPLE2) // 2)
    end = EXAMPLE2.index(b"\n", at)
    data = EXAMPLE2[:at] + b'[Deal "N:AKQJ ... ..."]' + EXAMPLE2[end:]
    later = data.index(b"[Auction", at + 2000)
    return data[:later] + b"{ left open \xe9\n" + data[later:]


SPOILT = {
    "cut-in-a-game.pbn": _cut_in_a_game(),
    "bad-in-the-middle.pbn": _bad_in_the_middle(),
    "cr-cr-lf.pbn": EXAMPLE2[:40_000].replace(b"\r\n", b"\n").replace(b"\n", b"\r\r\n"),
    "old-mac.pbn": EXAMPLE2[:40_000].replace(b"\r\n", b"\n").replace(b"\n", b"\r"),
    "utf-16.pbn": codecs.BOM_UTF16_LE + EXAMPLE2[:30_000].decode("latin-1").replace(
        "Nystrom", "Nyström").encode("utf-16-le"),
    "cp1251.pbn": b"# encoding: cp1251\n" + EXAMPLE2[:30_000].replace(
        b"[North \"", "[North \"Иван ".encode("cp1251"), 3),
    "bom.pbn": codecs.BOM_UTF8 + EXAMPLE2[:20_000],
}
"""Spoilt copies of real files, by name."""


def _whole(data: bytes, source: str) -> list[Raw | Issue]:
    """The records of the file read whole, as the reader read it before it read in pieces."""
    return list(READER.read_text(text_codec.decode_or_latin1(data), source))


def _pieces(data: bytes, source: str, piece: int) -> list[Raw | Issue]:
    return list(READER.read_text(text_codec.decoded_pieces(io.BytesIO(data), piece), source))


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_a_real_file_read_in_pieces_is_the_file_read_whole(path: Path) -> None:
    data = path.read_bytes()
    whole = _whole(data, str(path))
    assert whole and whole == list(READER.read(path))
    for piece in (1, 7, 4096) if len(data) < 400_000 else (4099,):
        assert _pieces(data, str(path), piece) == whole, piece


@pytest.mark.parametrize("name", sorted(SPOILT))
def test_a_spoilt_file_read_in_pieces_is_the_file_read_whole(name: str) -> None:
    data = SPOILT[name]
    assert "".join(text_codec.decoded_pieces(io.BytesIO(data), 5)) \
        == text_codec.decode_or_latin1(data)
    whole = _whole(data, name)
    assert any(isinstance(it, Raw) for it in whole)
    for piece in (1, 5, 4096):
        assert _pieces(data, name, piece) == whole, piece


def test_the_spoilt_files_give_their_issues() -> None:
    """The spoilt copies are what they say: the cut game and the bad deal are issues at their
    lines, and the records after the bad one are read."""
    cut = _whole(SPOILT["cut-in-a-game.pbn"], "cut")
    assert isinstance(cut[-1], Issue) and "the file ends inside this game" in cut[-1].message
    bad = _whole(SPOILT["bad-in-the-middle.pbn"], "bad")
    at = [k for k, it in enumerate(bad) if isinstance(it, Issue)]
    assert at and at[0] > 10 and len(bad) - at[-1] > 10


_BYTES = st.lists(st.sampled_from([
    b"[Event \"a\"]", b"[Board \"1\"]", b"\n", b"\r", b"\r\n", b"\r\r\n", b"\xef\xbb\xbf",
    b"# encoding: cp1253\n", b"\xe9", b"\xc3\xa9", b"\xce\xb1", b"\xff\xfe", b"\x00", b"{",
    b"}", b"x", "Ω".encode(), b"\x85", b"\xe2\x80\xa8",
]), max_size=40).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(data=_BYTES, piece=st.integers(1, 9))
def test_the_pieces_joined_are_the_whole_text(data: bytes, piece: int) -> None:
    """Whatever the bytes (byte order marks, declarations, stray bytes, line ends of every
    kind), ``decoded_pieces`` joined is ``decode_or_latin1``, and ``whole_lines`` cuts it where
    ``lines_of`` of each text gives the lines of the whole."""
    whole = text_codec.decode_or_latin1(data)
    pieces = list(text_codec.decoded_pieces(io.BytesIO(data), piece))
    assert "".join(pieces) == whole
    cut = list(text_codec.whole_lines(pieces))
    assert "".join(cut) == whole
    assert [line for part in cut for line in text_codec.lines_of(part)] == whole.splitlines()


class _Counted(type(Path())):  # type: ignore[misc]
    """A path whose bytes read are counted in ``log`` (the furthest offset read)."""

    log: list[int]

    def open(self, mode: str = "r", *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        assert mode == "rb"
        with Path(self).open("rb") as fh:
            return _CountingBytes(fh.read(), self.log)

    def read_bytes(self) -> bytes:
        data = Path(self).read_bytes()
        self.log.append(len(data))
        return data


class _CountingBytes(io.BytesIO):
    def __init__(self, data: bytes, log: list[int]) -> None:
        super().__init__(data)
        self.log = log

    def read(self, n: int | None = -1) -> bytes:
        data = super().read(n)
        self.log.append(self.tell())
        return data


def _line_offsets(data: bytes) -> list[int]:
    """The byte offset of each line (1-based: index 0 is unused) of an ASCII file."""
    offsets = [0, 0]
    for line in data.split(b"\n"):
        offsets.append(offsets[-1] + len(line) + 1)
    return offsets


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The offsets the PBN reader has read its file to, in order."""
    log: list[int] = []
    read = PbnReader.read

    def counting(self: PbnReader, path: Path) -> Iterator[Raw | Issue]:
        at = _Counted(path)
        at.log = log
        yield from read(self, at)

    monkeypatch.setattr(PbnReader, "read", counting)
    return log


def test_the_pipeline_holds_a_batch_of_the_file_not_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, counted: list[int]) -> None:
    """Deterministic, not resident memory: at each batch's end the reader has read no further
    than the last record handed over, a piece and the sniffed head ahead (``text.HEAD``) and a
    game; and the records handed over from one batch's end to the next are at most the
    records with cards of a batch (``BATCH_CARDS``), their games and the records read ahead to
    look their games up (``LOOKUP_EVERY``): what is held does not grow with the file. (Read
    whole, the file was all read by the first batch.)"""
    piece, cards = 4096, 20
    monkeypatch.setattr(text_codec, "PIECE", piece)
    monkeypatch.setattr(pipeline, "BATCH_CARDS", cards)
    monkeypatch.setattr(pipeline, "LOOKUP_EVERY", ahead := 10)
    path = tmp_path / "example2.pbn"
    path.write_bytes(EXAMPLE2)
    offsets = _line_offsets(EXAMPLE2)
    handed: list[Raw | Issue] = []
    batches: list[tuple[int, int, int]] = []  # (read to, last record's line, records)
    guarded = pipeline.guarded

    def watched(items: Iterator[Raw | Issue], source: str) -> Iterator[Raw | Issue]:
        for item in guarded(items, source):
            handed.append(item)
            yield item

    after = pipeline._after_batch

    def batch_done() -> None:
        batches.append((max(counted), handed[-1].line, len(handed)))
        after()

    monkeypatch.setattr(pipeline, "guarded", watched)
    monkeypatch.setattr(pipeline, "_after_batch", batch_done)
    conn = store.connect(tmp_path / "m.duckdb")
    try:
        report = pipeline.ingest_file(conn, path)
    finally:
        conn.close()
    assert report.stored > 300 and len(batches) > 10
    game = max(b - a for a, b in itertools.pairwise(offsets)) * 40
    for read_to, line, _ in batches[:-1]:
        assert read_to - offsets[line] <= text_codec.HEAD + 2 * piece + game, (read_to, line)
    records = [n for _, _, n in batches]
    assert max(b - a for a, b in zip([0, *records], records, strict=False)) <= ahead + 2 * cards + 2


def _ingested(db: Path, path: Path) -> tuple[dict[str, Any], dict[str, list[tuple[object, ...]]]]:
    conn = store.connect(db)
    try:
        report = pipeline.ingest_file(conn, path)
    finally:
        conn.close()
    kept = ("records", "stored", "duplicates", "quarantined", "file_issues", "conflicts",
            "repaired", "issues", "games")
    return {k: getattr(report, k) for k in kept}, snapshot(db)


def _read_whole(self: PbnReader, path: Path) -> Iterator[Raw | Issue]:
    yield from self.read_text(text_codec.decode_or_latin1(path.read_bytes()), str(path))


@pytest.mark.parametrize("name", ["example2.pbn", "cut-in-a-game.pbn", "bad-in-the-middle.pbn",
                                  "A1A12525.PBN"])
def test_small_pieces_and_batches_store_what_one_batch_of_the_whole_file_stores(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """The same tables (deals, games, quarantine with its line numbers and messages, repairs,
    log) and the same report, read in pieces of 4 KiB and batches of 5 records (at most 3 with
    cards), as read whole in one batch; and ingesting it again changes nothing."""
    data = SPOILT.get(name) or (EP / "pbn" / name if name.startswith("example")
                                 else SL / name).read_bytes()
    path = tmp_path / name
    path.write_bytes(data)

    def run(db: str, patches: dict[tuple[object, str], object]
            ) -> tuple[dict[str, Any], dict[str, Any]]:
        with monkeypatch.context() as m:
            for (where, name), value in patches.items():
                m.setattr(where, name, value)
            return _ingested(tmp_path / db, path)

    whole = run("whole.duckdb", {(PbnReader, "read"): _read_whole,
                                 (pipeline, "BATCH_CARDS"): 10**9,
                                 (pipeline, "BATCH_CHARS"): 10**12, (pipeline, "BATCH"): 10**9})
    small = run("small.duckdb", {(text_codec, "PIECE"): 4096, (pipeline, "BATCH_CARDS"): 3,
                                 (pipeline, "BATCH"): 5})
    assert small[0] == whole[0]
    assert small[1] == whole[1]
    _, again = _ingested(tmp_path / "small.duckdb", path)  # the same file again
    assert again == small[1]


def test_an_interrupt_mid_file_leaves_nothing_of_it(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Interrupted mid-file (a ``KeyboardInterrupt`` from the reader half way, as Ctrl-C
    raises it), read in pieces and many batches: nothing of the file is stored."""
    monkeypatch.setattr(text_codec, "PIECE", 4096)
    monkeypatch.setattr(pipeline, "BATCH_CARDS", 10)
    monkeypatch.setattr(pipeline, "LOOKUP_EVERY", 10)
    path = tmp_path / "example2.pbn"
    path.write_bytes(EXAMPLE2)
    read = PbnReader.read
    flushed: list[int] = []

    def interrupted(self: PbnReader, p: Path) -> Iterator[Raw | Issue]:
        for n, item in enumerate(read(self, p)):
            if n == 300:
                raise KeyboardInterrupt
            yield item

    after = pipeline._after_batch
    monkeypatch.setattr(pipeline, "_after_batch", lambda: (flushed.append(1), after()))
    monkeypatch.setattr(PbnReader, "read", interrupted)
    db = tmp_path / "k.duckdb"
    conn = store.connect(db)
    try:
        empty = snapshot_conn(conn)
        with pytest.raises(KeyboardInterrupt):
            pipeline.ingest_file(conn, path)
        assert len(flushed) > 5  # batches were staged before the interrupt
        assert snapshot_conn(conn) == empty
    finally:
        conn.close()


def snapshot_conn(conn: duckdb.DuckDBPyConnection) -> dict[str, int]:
    return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0]
            for (t,) in conn.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
