"""JSON documents (``.json``): the records of ``../shared/spec/records.md`` section 1 as an
array, or written one after another over several lines (pretty-printed, as the spec shows them).

A file is read whole. Each record is read as a JSON Lines line is (``jsonl.parse_line``: a
key given twice, nesting too deep, not an object), numbered by the line it starts on, and its
text is kept as the file has it. A record with bytes that are not UTF-8 (or not UTF-16 or
UTF-32, in a file with such a byte order mark) is an issue of its own, which keeps its text
readable (``text.readable``). Where the text is not
JSON, the issue names its line and column, and reading goes on at the next line that opens an
object as the records before did (the same indentation), so one broken record costs only
itself and what stands between it and the next; a comma missing between records costs
nothing.

A ``.json`` file is this format's when its first 4 KiB name a record (``"record": "game"`` or
``"deal"``); other JSON (settings, a manifest, a sidecar game of a score sheet) is not read.
One record per line in a ``.json`` file is JSON Lines, and read as such (``ingest/jsonl.py``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ingest.jsonl import parse_line, quote
from ingest.source import Issue, Raw
from ingest.text import HEAD, UNDECODED, head_text, readable, wide
from model.problems import Code

RECORD = re.compile(r'"record"\s*:\s*"(?:game|deal)"')
"""What a document of records shows in its first bytes (records.md 1.1, 1.2)."""
_SPACE = re.compile(r"[ \t\n\r]*")
"""JSON's white space (RFC 8259 section 2)."""
_NOT_DECODED = re.compile("[\udc80-\udcff]")
"""What stands for bytes that do not decode (``surrogateescape``, or ``UNDECODED``'s mark)."""
_DECODER = json.JSONDecoder()


class JsonDocumentReader:
    """Reads ``*.json`` files of records: an array, or objects one after another."""

    name = "json"
    extensions = (".json",)

    def sniff(self, path: Path, head: bytes) -> bool:
        return path.suffix.lower() in self.extensions and RECORD.search(head_text(head)) is not None

    def read(self, path: Path) -> Iterator[Raw | Issue]:
        data = path.read_bytes()
        yield from read_text(_text(data), str(path), escaped=wide(data[:HEAD]) is None)


def _text(data: bytes) -> str:
    """The file's text: UTF-8 (with or without a byte order mark), or UTF-16 or UTF-32 with
    theirs; bytes that do not decode are kept as marks (:data:`_NOT_DECODED`), so that only the
    record that holds them is an issue."""
    encoding = wide(data[:HEAD])
    if encoding is not None:
        return data.decode(encoding, errors=UNDECODED).lstrip("\ufeff")
    return data.decode("utf-8", errors="surrogateescape").removeprefix("\ufeff")


@dataclass
class _Cursor:
    """Where the reading stands in ``text``, and the line of that place."""

    text: str
    source: str
    at: int = 0
    line: int = 1

    def skip_space(self) -> None:
        self.move(_SPACE.match(self.text, self.at).end())  # type: ignore[union-attr]

    def move(self, to: int) -> None:
        self.line = _place(self.text, to, self.line, self.at)[0]
        self.at = to


def _place(text: str, at: int, line: int = 1, start: int = 0) -> tuple[int, int]:
    """Line and column of position ``at`` of ``text``, counting from ``line`` at ``start``."""
    return line + text.count("\n", start, at), at - text.rfind("\n", 0, at)


def read_text(text: str, source: str, escaped: bool = True) -> Iterator[Raw | Issue]:
    """The records of a JSON document's ``text``, each a ``Raw`` or an ``Issue``; ``escaped``:
    the bytes of UTF-8 text that do not decode are kept as ``surrogateescape`` keeps them (not
    UTF-16 or UTF-32 units that do not decode, which are marks only)."""
    c = _Cursor(text, source)
    c.skip_space()
    in_array = c.text.startswith("[", c.at)
    if in_array:
        c.move(c.at + 1)
    indent: str | None = None
    """How the first record's line opens, as a pattern (where reading goes on after text that
    is not JSON): its indentation, or any when the record shares its line with the ``[``."""
    cut = False
    """The text up to the end was not read (its issue says so)."""
    while True:
        c.skip_space()
        if c.at >= len(text):
            if in_array and not cut:
                yield _broken(c, c.at, "the array is not closed (']' is missing: the file "
                                       "may be cut short)", of_file=True)  # records all read
            return
        if in_array and text[c.at] == "]":
            c.move(c.at + 1)
            c.skip_space()
            if c.at < len(text):
                yield _broken(c, c.at, "text after the array's end", skip_to=len(text),
                              of_file=True)
            return
        if indent is None:
            opening = text[text.rfind("\n", 0, c.at) + 1:c.at]
            indent = re.escape(opening) if not opening.strip() else "[ \t]*"
        try:
            _, end = _DECODER.raw_decode(text, c.at)
        except (ValueError, RecursionError) as exc:
            at = getattr(exc, "pos", c.at)
            skip_to = _next_record(text, c.at + 1, indent)
            cut = skip_to == len(text)
            yield _broken(c, at, _why(exc), skip_to, CUT if cut and _ran_out(text, exc) else "")
            continue
        yield _record(source, c.line, text[c.at:end], escaped)
        c.move(end)
        c.skip_space()
        if in_array and text.startswith(",", c.at):
            c.move(c.at + 1)


def _record(source: str, line: int, text: str, escaped: bool = True) -> Raw | Issue:
    """A record's text as a ``Raw``, or an issue. A record with bytes that are not UTF-8 keeps
    its text readable (``text.readable``: in the code page it reads as, or each such byte
    written ``\\xNN``), and the message names what it was read as (records.md 1: UTF-8)."""
    if (bad := _NOT_DECODED.search(text)) is not None:
        at = bad.start()
        if escaped:  # in a single-byte code page, the bad byte is at its offset in the bytes
            shown, read_as = readable(text.encode("utf-8", "surrogateescape"))
            if not read_as.endswith("\\xNN"):
                at = len(text[:at].encode("utf-8"))
            read_as = f"; its text, read as {read_as}"
        else:
            shown, read_as = _NOT_DECODED.sub("\ufffd", text), ""
        where, column = _place(text, bad.start(), line)
        return Issue(source, line, None, Code.PARSE,
                     f"bytes that are not text in its encoding (UTF-8, or UTF-16 or UTF-32 "
                     f"with a byte order mark) at line {where} column {column}{read_as}: "
                     f"{quote(shown, at=at)}", shown)
    return parse_line(source, line, text)


CUT = ": the text ends inside it, so the file may be cut short"
"""Said of a last record the text ends inside (:func:`_ran_out`)."""


def _ran_out(text: str, exc: BaseException) -> bool:
    """Whether the JSON reader failed for want of text: at its end, or in a string never
    closed (a file cut in a record)."""
    return isinstance(exc, json.JSONDecodeError) and (
        exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string"))


def _why(exc: BaseException) -> str:
    if isinstance(exc, json.JSONDecodeError):  # "Unterminated string starting at": its words
        return f"not JSON ({exc.msg.removesuffix(' at').removesuffix(' starting')})"
    if isinstance(exc, RecursionError):
        return "nested too deep to read"
    return f"not readable JSON ({str(exc)[:80]})"


def _next_record(text: str, start: int, indent: str) -> int:
    """Where the next record opens after ``start``: a line that opens an object after
    ``indent`` (a pattern), or the end of the text."""
    found = re.compile("\n" + indent + r"(?=\{)").search(text, start)
    return len(text) if found is None else found.end()


def _broken(c: _Cursor, at: int, why: str, skip_to: int | None = None, after: str = "",
            of_file: bool | None = None) -> Issue:
    """An issue for the text from the cursor to ``skip_to`` (where reading goes on), which is
    not read, ``after`` said last; the cursor moves there. It is a record's issue where that
    text opens an object (``{``), and an issue of the file (``Issue.of_file``) where no object
    opens in it (a stray comma, a line of notes), unless ``of_file`` says."""
    line, column = _place(c.text, min(at, len(c.text)), c.line, c.at)
    stop = c.at if skip_to is None else skip_to
    part = _NOT_DECODED.sub("\ufffd", c.text[c.at:stop].rstrip())
    last = _place(c.text, c.at + len(part), c.line, c.at)[0]
    unread = f"; {_unread_lines(c, last)} not read" if part else ""
    issue = Issue(c.source, c.line, None, Code.PARSE,
                  f"{why} at line {line} column {column}{unread}{after}", part,
                  of_file="{" not in part if of_file is None else of_file)
    c.move(stop)
    return issue


def _unread_lines(c: _Cursor, last: int) -> str:
    """The lines from the cursor to ``last`` (``lines 3-9 are``), from the cursor's column
    where records before it on its line were read (``line 1 from column 3237971 is``: a
    one-line array is not lost whole)."""
    start = c.text.rfind("\n", 0, c.at) + 1
    if not c.text[start:c.at].strip():
        return f"lines {c.line}-{last} are" if last > c.line else f"line {c.line} is"
    since = f"line {c.line} from column {c.at - start + 1}"
    return f"{since} to line {last} is" if last > c.line else f"{since} is"


READER = JsonDocumentReader()
