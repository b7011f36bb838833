"""Canonical JSON Lines reader (``../shared/spec/records.md`` section 1).

One JSON object per line, UTF-8. Blank lines are skipped; a line that is not a JSON object is an
``Issue`` with code ``PARSE`` and never stops the file. The reader streams: it holds one line at a
time, so a file of any size reads in constant memory.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections.abc import Callable, Iterator
from itertools import accumulate, repeat
from pathlib import Path

from ingest.source import Issue, Raw
from model.problems import Code

QUOTE_LIMIT = 500
"""Longest bad text quoted in a message (the whole line is kept in ``Issue.raw``)."""


def quote(text: str, limit: int = 80) -> str:
    """``text`` as ``repr``, cut to ``limit`` characters with an ellipsis."""
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def parse_line(source: str, line_no: int, text: str) -> Raw | Issue:
    """One line of a JSONL file as a ``Raw`` record or a ``PARSE`` issue."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return Issue(source, line_no, None, Code.PARSE,
                     f"not JSON ({exc.msg} at column {exc.colno}): {quote(text)}", text)
    if not isinstance(data, dict):
        return Issue(source, line_no, None, Code.PARSE,
                     f"a record is a JSON object, got {type(data).__name__}: {quote(text)}", text)
    return Raw(source, line_no, data, text)


class Lines(list[tuple[int, str] | Issue]):
    """A batch of :meth:`JsonlReader.read_lines`: ``(line, text)`` or an issue per line."""

    blob: memoryview | None = None
    """The lines' bytes, one ``"\\n"`` between two, when every line of the batch is ASCII and
    read as it is (no issue, no blank line, no ``"\\r"``): a line's offset in ``blob`` is then
    its offset in the lines joined by ``"\\n"``. ``None`` otherwise."""


class JsonlReader:
    """Reads ``*.jsonl`` / ``*.ndjson``: one record per line."""

    name = "jsonl"
    extensions = (".jsonl", ".ndjson")

    def sniff(self, path: Path, head: bytes) -> bool:
        if path.suffix.lower() in self.extensions:
            return True
        first = head.lstrip()
        return first.startswith(b"{") and b'"record"' in first.split(b"\n", 1)[0]

    def read(self, path: Path) -> Iterator[Raw | Issue]:
        source = str(path)
        for chunk in self.read_lines(path, 10_000):
            for item in chunk:
                yield item if isinstance(item, Issue) else parse_line(source, *item)

    def read_lines(
        self, path: Path, size: int, max_chars: int | None = None
    ) -> Iterator[Lines]:
        """The file's non-blank lines, unparsed, ``size`` at a time (fewer when their text
        reaches ``max_chars`` characters first): ``(line, text)`` or, for a line that is not
        UTF-8, an issue (the fast path of ``ingest/fastpath.py`` reads these).

        Reads blocks of whole lines (of at least ``max_chars`` bytes, so that a batch is
        usually a slice of one block) and decodes each block at once (line by line only for a
        block that is not valid UTF-8). A batch of ASCII lines read as they are keeps their
        bytes (``Lines.blob``)."""
        chunk = Lines()
        # the chunk's bytes while it is plain ASCII: (buffer, first byte, past the last)
        pieces: list[tuple[bytes, int, int]] | None = []
        line_no = 0
        chars = 0
        limit = max_chars if max_chars is not None else -1
        # bytes read at a time: about a batch's worth (at first from the length of the first
        # lines, then the last batch's size), so that a batch is mostly one read
        read = BLOCK
        if limit > BLOCK:
            with path.open("rb") as fh:
                head = fh.read(1 << 16)
            lines_in_head = head.count(b"\n")
            read = max(BLOCK, min(limit, len(head) * size // max(1, lines_in_head)))

        def done() -> Lines:
            nonlocal read
            if pieces:
                chunk.blob = _joined(pieces)
            read = max(BLOCK, min(limit, chars + len(chunk)))
            return chunk

        for data, lo, hi in _blocks(path, lambda: read):
            block = memoryview(data)[lo:hi]
            try:
                text = str(block, "utf-8")
            except UnicodeDecodeError:
                lines: list[str | Issue] = [
                    _decode(str(path), line_no + i, b)
                    for i, b in enumerate(bytes(block).split(b"\n"), start=1)]
            else:
                plain = text.split("\n")
                if "\r" not in text and (
                        # every line starts a JSON object, or at least none is blank
                        all(map(str.startswith, plain, repeat("{")))
                        or not (not text or text[0].isspace() or text[-1] == "\n"
                                or _SPACE_AFTER_LINE_END.search(text))):
                    # no blank line, no "\r": the lines go as they are, a slice at a time (the
                    # same chunks as the loop below makes)
                    ascii_ = len(text) == len(block)  # then a line's bytes are its characters
                    at, pos = 0, lo  # the slice's first line and byte
                    while at < len(plain):
                        take = plain[at:at + size - len(chunk)]
                        sums = list(accumulate(map(len, take), initial=chars))
                        if limit >= 0:
                            take = take[:max(1, bisect_left(sums, limit, lo=1))]
                        end = pos + sums[len(take)] - chars + len(take)  # past the line end
                        chars = sums[len(take)]
                        if pieces is not None and ascii_:
                            pieces.append((data, pos, end - 1))
                        else:
                            pieces = None
                        pos = end
                        chunk.extend(zip(range(line_no + 1, line_no + 1 + len(take)), take,
                                         strict=True))
                        line_no += len(take)
                        at += len(take)
                        if len(chunk) >= size or 0 <= limit <= chars:
                            yield done()
                            chunk, pieces = Lines(), []
                            chars = 0
                    continue
                lines = list(plain)
            pieces = None
            for item in lines:
                line_no += 1
                if isinstance(item, Issue):
                    chunk.append(item)
                    chars += len(item.raw)
                else:
                    text = item.rstrip("\r")
                    if not text.strip():
                        continue
                    chunk.append((line_no, text))
                    chars += len(text)
                if len(chunk) >= size or 0 <= limit <= chars:
                    yield done()
                    chunk = Lines()  # its lines come from this block: no blob
                    chars = 0
        if chunk:
            yield done()


_SPACE_AFTER_LINE_END = re.compile(r"\n\s")
"""A line that is empty or starts with white space (``str.strip``'s): a block without such a
line (nor a ``\r``) has no blank line, so it is read without looking at its lines one by
one."""

BLOCK = 1 << 22
"""Bytes read at a time by :meth:`JsonlReader.read_lines`, at least (then cut at the last line
end)."""


def _blocks(path: Path, size: Callable[[], int]) -> Iterator[tuple[bytes, int, int]]:
    """The file in blocks of whole lines, without their final line end, as ``(data, first,
    past the last byte)``: ``size()`` bytes read at a time (what follows the last line end is
    read again with the next read; a line longer than that is read on until its end), cut into
    blocks of about :data:`BLOCK` bytes (decoded and split while they are in the cache)."""
    with path.open("rb") as fh:
        rest = b""
        while data := fh.read(size()):
            cut = data.rfind(b"\n")
            if cut < 0:
                rest += data
                continue
            if rest:
                data, cut = rest + data, cut + len(rest)
                rest = b""
            fh.seek(cut + 1 - len(data), 1)
            lo = 0
            while lo < cut:
                hi = data.rfind(b"\n", lo, lo + BLOCK) if lo + BLOCK < cut else cut
                if hi < 0:  # a line longer than a block
                    hi = data.find(b"\n", lo + BLOCK, cut)
                    hi = cut if hi < 0 else hi
                yield data, lo, hi
                lo = hi + 1
            if lo == cut:  # the last line is empty
                yield data, lo, cut
        if rest:
            yield rest, 0, len(rest)


def _joined(pieces: list[tuple[bytes, int, int]]) -> memoryview:
    """The bytes of ``pieces`` with a line end between two: a view of their buffer when they
    follow one another in it (the usual case), else a copy."""
    data, lo, hi = pieces[0]
    for d, a, b in pieces[1:]:
        if d is not data or a != hi + 1:
            return memoryview(b"\n".join(memoryview(d)[a:b] for d, a, b in pieces))
        hi = b
    return memoryview(data)[lo:hi]


def _decode(source: str, line_no: int, blob: bytes) -> str | Issue:
    try:
        return blob.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = blob.decode("utf-8", errors="replace").rstrip("\r")
        return Issue(source, line_no, None, Code.PARSE,
                     f"not UTF-8 (byte {exc.start}): {quote(bad)}", bad)


READER = JsonlReader()
