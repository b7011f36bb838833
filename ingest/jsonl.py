"""Canonical JSON Lines reader (``../shared/spec/records.md`` section 1).

One JSON object per line, UTF-8. Blank lines are skipped; a line that is not a JSON object is an
``Issue`` with code ``PARSE`` and never stops the file. The reader streams: it holds one line at a
time, so a file of any size reads in constant memory.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections.abc import Iterator
from itertools import accumulate
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
    ) -> Iterator[list[tuple[int, str] | Issue]]:
        """The file's non-blank lines, unparsed, ``size`` at a time (fewer when their text
        reaches ``max_chars`` characters first): ``(line, text)`` or, for a line that is not
        UTF-8, an issue (the fast path of ``ingest/fastpath.py`` reads these).

        Reads blocks of whole lines and decodes each block at once (line by line only for a
        block that is not valid UTF-8)."""
        chunk: list[tuple[int, str] | Issue] = []
        line_no = 0
        chars = 0
        limit = max_chars if max_chars is not None else -1
        for block in _blocks(path):
            try:
                text = block.decode("utf-8")
            except UnicodeDecodeError:
                lines: list[str | Issue] = [_decode(str(path), line_no + i, b)
                                            for i, b in enumerate(block.split(b"\n"), start=1)]
            else:
                if not (not text or "\r" in text or text[0].isspace() or text[-1] == "\n"
                        or _SPACE_AFTER_LINE_END.search(text)):
                    # no blank line, no "\r": the lines go as they are, a slice at a time (the
                    # same chunks as the loop below makes)
                    plain = text.split("\n")
                    at = 0
                    while at < len(plain):
                        take = plain[at:at + size - len(chunk)]
                        if limit >= 0:
                            sums = list(accumulate(map(len, take), initial=chars))
                            take = take[:max(1, bisect_left(sums, limit, lo=1))]
                            chars = sums[len(take)]
                        chunk.extend(zip(range(line_no + 1, line_no + 1 + len(take)), take,
                                         strict=True))
                        line_no += len(take)
                        at += len(take)
                        if len(chunk) >= size or 0 <= limit <= chars:
                            yield chunk
                            chunk = []
                            chars = 0
                    continue
                lines = list(text.split("\n"))
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
                    yield chunk
                    chunk = []
                    chars = 0
        if chunk:
            yield chunk


_SPACE_AFTER_LINE_END = re.compile(r"\n\s")
"""A line that is empty or starts with white space (``str.strip``'s): a block without such a
line (nor a ``\r``) has no blank line, so it is read without looking at its lines one by
one."""

BLOCK = 1 << 22
"""Bytes read at a time by :meth:`JsonlReader.read_lines` (then cut at the last line end)."""


def _blocks(path: Path) -> Iterator[bytes]:
    """The file in blocks of whole lines, without their final line end."""
    rest = b""
    with path.open("rb") as fh:
        while data := fh.read(BLOCK):
            data = rest + data
            cut = data.rfind(b"\n")
            if cut < 0:
                rest = data
                continue
            yield data[:cut]
            rest = data[cut + 1:]
    if rest:
        yield rest


def _decode(source: str, line_no: int, blob: bytes) -> str | Issue:
    try:
        return blob.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = blob.decode("utf-8", errors="replace").rstrip("\r")
        return Issue(source, line_no, None, Code.PARSE,
                     f"not UTF-8 (byte {exc.start}): {quote(bad)}", bad)


READER = JsonlReader()
