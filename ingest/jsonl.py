"""Canonical JSON Lines reader (``../shared/spec/records.md`` section 1).

One JSON object per line, UTF-8 (with or without a byte order mark), or UTF-16 or UTF-32 (with a
byte order mark, or detected by its zero bytes: ``ingest.text.wide``). Blank lines are skipped; a
line that is not a JSON object is an ``Issue`` with code ``PARSE`` and never stops the file. The
reader streams: it holds about one batch of lines at a time (``read_lines``), so a file of any
size reads in bounded memory.
"""

from __future__ import annotations

import codecs
import json
import re
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from itertools import accumulate
from pathlib import Path
from typing import Any

from ingest.lines import Batch, Item, Run
from ingest.source import Issue, NamedOrRecognised, Raw
from ingest.text import HEAD, code_page, readable, utf8, wide
from model.problems import Code

QUOTE_LIMIT = 500
"""Longest bad text quoted in a message (the whole line is kept in ``Issue.raw``)."""


def quote(text: str, limit: int = 80, at: int = 0) -> str:
    """``text`` as ``repr``, cut to ``limit`` characters with an ellipsis; where position ``at``
    would be cut off, the part around it (what a message about that place must show)."""
    if at > limit - 20:
        start = at - limit // 2
        part = text[start:start + limit - 2]
        return repr("…" + part + ("…" if start + limit - 2 < len(text) else ""))
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


MAX_DEPTH = 32
"""Deepest nesting of arrays and objects a record may have (a record is at most four deep; a
line nested a thousand deep would exhaust Python's recursion limit)."""


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """True when ``text`` opens more than ``limit`` arrays or objects inside each other (brackets
    inside strings count too: a record needs nothing near the limit). The depth is worked out
    once per sequence of brackets (:func:`_deepest`): the lines of a file share a few."""
    if text.count("[") + text.count("{") <= limit:
        return False
    return _deepest(text.encode("utf-8", "surrogatepass").translate(None, _NOT_BRACKETS)) > limit


_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
"""Every byte but the brackets (a bracket is one byte in UTF-8, never inside another
character)."""


@lru_cache(maxsize=1024)
def _deepest(brackets: bytes) -> int:
    """How deep a sequence of brackets nests at its deepest (a closing one steps out)."""
    depth = deepest = 0
    for b in brackets:
        depth += 1 if b in b"[{" else -1
        deepest = max(deepest, depth)
    return deepest


_CR_HINT = ("; the line holds carriage returns: JSON Lines end a line with a line feed, so a "
            "file with old Mac line ends (a lone CR) reads as one line")
"""Said of a line that is not JSON and holds a carriage return (the reader drops one only
before a line feed)."""


class RepeatedKey(ValueError):
    """An object of the JSON names one key twice. RFC 8259 section 4: the names within an
    object SHOULD be unique, and where they are not, readers differ in which value they keep;
    so a record that says a field twice does not say what it means."""

    def __init__(self, key: str, first: object, then: object) -> None:
        first_text, then_text = (json.dumps(v, ensure_ascii=False)[:40] for v in (first, then))
        super().__init__(f"{key!r} is given twice in one object ({first_text}, then "
                         f"{then_text}): a record names each field once (RFC 8259 4)")


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's pairs as a dict, or :class:`RepeatedKey` when a key comes twice."""
    found = dict(pairs)
    if len(found) < len(pairs):
        seen: dict[str, object] = {}
        for key, value in pairs:
            if key in seen:
                raise RepeatedKey(key, seen[key], value)
            seen[key] = value
    return found


def load_json(text: str) -> Any:
    """``text`` parsed as ``json.loads`` parses it, except that an object naming a key twice
    raises :class:`RepeatedKey` (``json.loads`` keeps the last value silently)."""
    return json.loads(text, object_pairs_hook=_once_each)


def parse_line(source: str, line_no: int, text: str) -> Raw | Issue:
    """One line of a JSONL file as a ``Raw`` record or a ``PARSE`` issue."""
    if too_deep(text):
        return Issue(source, line_no, None, Code.PARSE,
                     f"nested deeper than {MAX_DEPTH} arrays or objects: {quote(text)}", text)
    try:
        data = load_json(text)
    except RepeatedKey as exc:
        return Issue(source, line_no, None, Code.PARSE, f"{exc}: {quote(text)}", text)
    except json.JSONDecodeError as exc:
        hint = _CR_HINT if "\r" in text else ""
        return Issue(source, line_no, None, Code.PARSE,  # "Invalid control character at"
                     f"not JSON ({exc.msg.removesuffix(' at')} at column {exc.colno}{hint}): "
                     f"{quote(text, at=exc.pos)}", text)
    except (RecursionError, ValueError) as exc:  # nesting, an int of more than 4,300 digits
        why = ("a number of more than 4,300 digits" if "integer string conversion" in str(exc)
               else f"nested too deep to read ({str(exc)[:80]})")
        return Issue(source, line_no, None, Code.PARSE,
                     f"not readable JSON ({why}): {quote(text)}", text)
    if not isinstance(data, dict):
        return Issue(source, line_no, None, Code.PARSE,
                     f"a record is a JSON object, not {json_kind(data)}: {quote(text)}", text)
    return Raw(source, line_no, data, text)


def json_kind(value: object) -> str:
    """What a parsed JSON value is, in JSON's words: ``an array``, ``null``, ``a number``."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    kinds: dict[type, str] = {list: "an array", str: "a string", dict: "an object"}
    return kinds.get(type(value), "a number")


class JsonlReader(NamedOrRecognised):
    """Reads ``*.jsonl`` / ``*.ndjson``: one record per line."""

    name = "jsonl"
    extensions = (".jsonl", ".ndjson")
    start = 0
    """The byte where reading starts (a line's first; a part of a file, :meth:`part`)."""
    stop: int | None = None
    """The byte where reading stops (after a line end), or the file's end."""
    lines_before = 0
    """The lines of the file before ``start`` (line numbers go on from there)."""

    def part(self, start: int, stop: int, lines_before: int) -> JsonlReader:
        """A reader of the lines from byte ``start`` to ``stop`` of a UTF-8 file (both at a
        line's start), numbered as in the whole file (``ingest/parallel.py``)."""
        reader = JsonlReader()
        reader.start, reader.stop, reader.lines_before = start, stop, lines_before
        return reader

    def looks_like(self, head: bytes) -> bool:
        """A first line that is a JSON object with a ``record`` key, whatever the file's name."""
        first = head.lstrip()
        return first.startswith(b"{") and b'"record"' in first.split(b"\n", 1)[0]

    def read(self, path: Path) -> Iterator[Raw | Issue]:
        source = str(path)
        for chunk in self.read_lines(path, 10_000):
            for item in chunk:
                yield item if isinstance(item, Issue) else parse_line(source, *item)

    def read_lines(
        self, path: Path, size: int, max_chars: int | None = None
    ) -> Iterator[list[Item] | Run]:
        """The file's non-blank lines, unparsed, ``size`` at a time (fewer when their text
        reaches ``max_chars`` characters first): ``(line, text)`` or, for a line that is not
        UTF-8, an issue (the pipeline's fast paths read these). A batch of lines that follow one
        another comes as :class:`ingest.lines.Run` (their texts and the first line's number).

        Reads blocks of whole lines, about a batch's worth at a time (estimated from the first
        lines, then from the last batch), so that a batch is mostly one read, and decodes each
        block at once (line by line only when it is not valid UTF-8)."""
        with path.open("rb") as fh:
            encoding = wide(fh.read(HEAD)) if self.start == 0 else None
        if encoding is not None:
            yield from _wide_lines(path, size, max_chars, encoding)
            return
        fill = _Filling(size, max_chars if max_chars is not None else -1, self.lines_before)
        if fill.limit > BLOCK:
            with path.open("rb") as fh:
                head = fh.read(1 << 16)
            fill.read = max(BLOCK, min(fill.limit,
                                       len(head) * size // max(1, head.count(b"\n"))))
        for data, lo, hi in _blocks(path, lambda: fill.read, self.start, self.stop):
            yield from fill.block(str(path), memoryview(data)[lo:hi])
        if fill.batch.n:
            yield fill.take()


class _Filling:
    """The batches of :meth:`JsonlReader.read_lines` as they fill: at most ``size`` lines, cut
    when their text reaches ``limit`` characters (``-1``: no limit)."""

    def __init__(self, size: int, limit: int, lines_before: int) -> None:
        self.size = size
        self.limit = limit
        self.batch = Batch()
        self.line_no = lines_before
        self.read = BLOCK
        """Bytes to read next: about a batch's worth (from the batch before)."""
        self.page: str | None = None
        """The code page the file's lines that are not UTF-8 read as (``text.code_page`` of
        those of the first block that has any), to show their text (:func:`_decode`)."""

    def full(self) -> bool:
        return self.batch.n >= self.size or 0 <= self.limit <= self.batch.chars

    def take(self) -> list[Item] | Run:
        self.read = max(BLOCK, min(self.limit, self.batch.chars + self.batch.n))
        return self.batch.take()

    def block(self, source: str, block: memoryview) -> Iterator[list[Item] | Run]:
        """A block, decoded at once (line by line when it is not UTF-8)."""
        try:
            text = str(block, "utf-8")
        except UnicodeDecodeError:
            blobs = bytes(block).split(b"\n")
            if self.page is None:
                self.page = code_page(b"\n".join(b for b in blobs if not utf8(b)))
            yield from self.lines([_decode(source, self.line_no + i, b, self.page)
                                   for i, b in enumerate(blobs, start=1)])
            return
        plain = text.split("\n")
        if "\r" in text or not text or text[0].isspace() or text[-1] == "\n" or \
                _SPACE_AFTER_LINE_END.search(text):
            yield from self.lines(plain)
            return
        # no blank line, no "\r": the lines go as they are, a slice at a time (the same
        # batches as :meth:`lines` makes)
        batch = self.batch
        at = 0
        while at < len(plain):
            take = plain[at:at + self.size - batch.n]
            upto = list(accumulate(map(len, take), initial=batch.chars))
            if self.limit >= 0:
                take = take[:max(1, bisect_left(upto, self.limit, lo=1))]
            batch.add_run(take, self.line_no + 1, upto[len(take)] - batch.chars)
            self.line_no += len(take)
            at += len(take)
            if self.full():
                yield self.take()

    def lines(self, lines: Sequence[str | Issue]) -> Iterator[list[Item] | Run]:
        """Lines one by one: blank ones skipped, a ``"\r"`` before the line end dropped."""
        for item in lines:
            self.line_no += 1
            if isinstance(item, Issue):
                self.batch.add((item,), 1, len(item.raw))
            else:
                text = item.rstrip("\r")
                if not text.strip():
                    continue
                self.batch.add(((self.line_no, text),), 1, len(text))
            if self.full():
                yield self.take()


_SPACE_AFTER_LINE_END = re.compile(r"\n\s")
"""A line that is empty or starts with white space (``str.strip``'s): a block without such a
line (nor a ``\r``) has no blank line, so it is read without looking at its lines one by
one."""

BLOCK = 1 << 22
"""Bytes read at a time by :meth:`JsonlReader.read_lines`, at least (then cut at the last line
end), and the size of the pieces a read is decoded and split in (while they are in the cache)."""


def _blocks(path: Path, size: Callable[[], int], start: int = 0,
            stop: int | None = None) -> Iterator[tuple[bytes, int, int]]:
    """The file (from byte ``start`` to ``stop``) in blocks of whole lines, without their final
    line end, as ``(data, first, past the last byte)``: ``size()`` bytes read at a time (what
    follows the last line end is read again with the next read; a line longer than that is read
    on until its end), cut into blocks of about :data:`BLOCK` bytes (decoded and split while
    they are in the cache)."""

    def more() -> int:
        return size() if stop is None else min(size(), stop - fh.tell())

    with path.open("rb") as fh:
        if start:
            fh.seek(start)
        elif fh.read(len(codecs.BOM_UTF8)) != codecs.BOM_UTF8:  # a UTF-8 byte order mark is
            fh.seek(0)                                          # skipped
        rest = b""
        while (want := more()) > 0 and (data := fh.read(want)):
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


UNDECODED = "\udcff"
"""What stands for bytes that are not UTF-16 in a line read (a lone surrogate: strict UTF-16
decoding never yields one, so it cannot be the file's own text)."""


def _undecoded(exc: UnicodeError) -> tuple[str, int]:
    """The codec error handler that marks bytes which do not decode (``UNDECODED``)."""
    assert isinstance(exc, UnicodeDecodeError)
    return UNDECODED, exc.end


codecs.register_error("trickbook-undecoded", _undecoded)


def _wide_lines(path: Path, size: int, max_chars: int | None,
                encoding: str = "utf-16") -> Iterator[list[Item]]:
    """:meth:`JsonlReader.read_lines` of a UTF-16 or UTF-32 file (``encoding``, with its byte
    order mark or ``-le``/``-be`` without, ``ingest.text.wide``): decoded as it is read;
    a line with bytes that do not decode is its own issue, and the lines after it are read."""
    items: list[Item] = []
    chars = 0
    with path.open(encoding=encoding, errors="trickbook-undecoded", newline="") as fh:
        for no, line in enumerate(fh, start=1):
            text = line.rstrip("\r\n")
            if not text.strip():
                continue
            if UNDECODED in text:
                shown = text.replace(UNDECODED, "\ufffd")
                items.append(Issue(str(path), no, None, Code.PARSE,
                                   f"not {encoding.upper()} (the line holds bytes that do not "
                                   f"decode): {quote(shown)}", shown))
            else:
                items.append((no, text))
            chars += len(text)
            if len(items) >= size or (max_chars is not None and chars >= max_chars):
                yield items
                items, chars = [], 0
    if items:
        yield items


def _decode(source: str, line_no: int, blob: bytes, page: str | None = None) -> str | Issue:
    """A line as text, or, when it is not UTF-8 (records.md 1: JSON Lines are UTF-8), a
    ``PARSE`` issue that keeps its text readable (``text.readable``: in the code page ``page``
    the file's other such lines read as, else byte for byte) and says what it was read as."""
    try:
        return blob.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad, read_as = readable(blob.rstrip(b"\r"), page)
        return Issue(source, line_no, None, Code.PARSE,
                     f"not UTF-8 (at byte offset {exc.start}; JSON Lines are read as UTF-8 or "
                     f"UTF-16: save the file as UTF-8); its text, read as {read_as}: "
                     f"{quote(bad)}", bad)


READER = JsonlReader()
