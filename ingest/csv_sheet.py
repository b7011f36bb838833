"""The CSV club score sheet (``docs/csv-score-sheet.md``).

A sheet holds a game: a header section of ``# key: value`` lines (``game_id``, ``variant``,
``players`` in turn order, ``league``, ``started_at``, ``rules.<flag>`` ...) and/or a sidecar
``<name>.game.json`` holding the game record, then a column header row and one row per deal.
A ``#`` line giving a field of a game below the table starts the next game of the sheet, with a
header section and header row of its own (the sidecar, if any, is the first game's).

Columns (records.md 1.2): ``deal_no`` (optional: rows are numbered 1, 2, ... when absent),
``dealer``, ``declarer``, ``contract``, ``defence.<player>`` (each defender's decision),
``tricks.<player>`` (each player's tricks), ``kontra.<player>`` (Balkan: the length of the
doubling chain with that defender, a number or a word, balkan.md 5.3), ``contra.<player>``
(Swabian: ``contra`` or ``recontra``, swabian.md 5), ``flags`` (words such as ``four_aces
preliminary``, ``hand kunstwerk``, ``refa repealed``, each set to true). Any other column ``x``
becomes the deal field ``x``; the variant's schema decides whether it exists. Empty cells are
absent fields. The delimiter is ``,``, ``;`` or a tab (whichever the header row uses most). A row
is one line (no line breaks inside quoted cells).
"""

from __future__ import annotations

import csv
import json
import os
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from itertools import islice
from pathlib import Path
from typing import Any

from ingest import text as text_codec
from ingest.jsonl import MAX_DEPTH, RepeatedKey, load_json, quote, too_deep
from ingest.source import Issue, Raw
from model import variants
from model.problems import Code, counted
from model.variant import UnknownVariant

SIDECAR_SUFFIX = ".game.json"
DELIMITERS = (",", ";", "\t")
NAMED_TABLES = (".csv", ".tsv")
"""The names of a table a spreadsheet exports as comma or tab separated values."""
TABLE_SUFFIXES = (*NAMED_TABLES, ".txt", "")
"""Where a table may be: also Excel's "Text (Tab delimited)" and "Unicode Text" (UTF-16)
exports, ``.txt``, and a file saved without a name's extension (read by content)."""
GAME_KEYS = frozenset({"game_id", "variant", "players", "league", "event", "started_at",
                       "stake"})
"""The ``# key: value`` lines of a game's fields (and ``rules.<flag>``): one below a table starts
the next game."""
SHEET_KEYS = frozenset({"game_id", "variant", "players"})
"""The lines that make a ``.txt`` or unnamed file a score sheet (a note may give an event)."""
GROUPS = ("defence", "tricks", "kontra", "contra")
"""Columns ``<group>.<player>``: one map per deal from player to value (records.md 1.2)."""
KONTRA_WORDS = {"kontra": 1, "rekontra": 2, "subkontra": 3, "mortkontra": 4}
"""The Balkan doubling chain's names (balkan.md 5.3), as a sheet may write them."""
CONTRA_WORDS = {"contra": "contra", "kontra": "contra", "k": "contra",
                "recontra": "recontra", "rekontra": "recontra", "re": "recontra", "r": "recontra"}
"""How a Swabian sheet writes the announcements (swabian.md 5): Contra, Re(contra)."""
TRUE_WORDS = frozenset({"true", "yes", "y", "1", "x"})
FALSE_WORDS = frozenset({"false", "no", "n", "0"})


def sidecar_of(path: Path) -> Path:
    """``league/t1.csv`` -> ``league/t1.game.json``."""
    return path.with_name(path.stem + SIDECAR_SUFFIX)


def scalar(text: str) -> Any:
    """A cell or header value as JSON would hold it: int, float (ASCII digits), bool or string.
    A cell has no type, so a whole number written with a fraction (``6.0``, as some
    spreadsheets export it) is the int, and so is one written with a decimal comma and a zero
    fraction (``6,0``, as a spreadsheet set to a comma locale exports it: one or two zeros, never
    a thousands group); the records refuse a float where they count (``model.base.Integer``)."""
    t = text.strip()
    low = t.lower()
    if low in ("true", "false"):
        return low == "true"
    if _WHOLE.fullmatch(t):
        return int(t)
    if _WHOLE_WITH_COMMA.fullmatch(t):
        return int(t.partition(",")[0])
    if not _DECIMAL.fullmatch(t):  # int() and float() would read ², ١٢, 1_000, 1e3, inf
        return t
    number = float(t)
    return int(number) if number.is_integer() else number


_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.[0-9]*|\.[0-9]+)")
_WHOLE_WITH_COMMA = re.compile(r"[+-]?[0-9]+,0{1,2}")


def _flag(text: str) -> Any:
    low = text.strip().lower()
    if low in TRUE_WORDS:
        return True
    if low in FALSE_WORDS:
        return False
    return scalar(text)


_DECLARATION = re.compile(r"(?:encoding|charset|coding)\s*[:=]", re.IGNORECASE)
"""A ``#`` line declaring the file's encoding (``ingest/text.py`` reads it; not a game field)."""


def _header_game(lines: list[tuple[int, str]], source: str
                 ) -> tuple[dict[str, Any], list[Issue], bool]:
    """The game fields of the ``# key: value`` lines, an issue for each unreadable line, and
    whether the game is refused (a key given twice with two values: the fields read so far).
    Delimiters that end a line are not its value: a spreadsheet saves a sheet back with every
    row padded to the table's width (``# variant: greek-prefa,,,,,,``)."""
    game: dict[str, Any] = {}
    issues: list[Issue] = []
    given: dict[str, tuple[int, str]] = {}
    for line_no, text in lines:
        body = text.strip().rstrip("".join(DELIMITERS)).lstrip()[1:].strip()
        if not body:
            continue
        key, sep, value = _key_value(body)
        if _DECLARATION.match(body):
            continue  # "# encoding: cp1252", read by ingest/text.py
        if not sep or not key:
            issues.append(Issue(source, line_no, None, Code.PARSE,
                                f"a header line is '# key: value', got {quote(text)}", text,
                                of_file=True))
            continue
        first, before = given.setdefault(key, (line_no, value))
        if before != value:  # which one holds is not for the reader to guess
            issues.append(Issue(source, line_no, None, Code.PARSE,
                                f"the header gives {key!r} twice, {quote(before, 40)} at line "
                                f"{first} and {quote(value, 40)} here: the game is not read "
                                "until one of them is removed", text))
            return game, issues, True
        if key == "players":
            game["players"] = [p.strip() for p in value.split(",") if p.strip()]
        elif key.startswith("rules."):
            game.setdefault("rules", {})[key.removeprefix("rules.")] = scalar(value)
        elif key in ("game_id", "variant", "started_at", "league", "event", "stake"):
            game[key] = value
        else:
            game[key] = scalar(value)
    return game, issues, False


def _group_value(group: str, text: str) -> Any:
    """A ``<group>.<player>`` cell as the record holds it; text that is not understood is kept
    as written, so validation quarantines it quoting the cell."""
    if group == "tricks":
        return scalar(text)
    if group == "kontra":
        return KONTRA_WORDS.get(text.lower(), scalar(text))
    if group == "contra":
        return CONTRA_WORDS.get(text.lower(), text)
    return text


def _deal(header: list[str], cells: list[str], ordinal: int, game_id: Any) -> dict[str, Any]:
    deal: dict[str, Any] = {"record": "deal", "game_id": game_id}
    for col, cell in zip(header, cells, strict=True):
        value = cell.strip()
        if not value:
            continue
        group, dot, player = col.partition(".")
        if dot and group in GROUPS:
            deal.setdefault(group, {})[player] = _group_value(group, value)
        elif col == "flags":
            for word in value.replace(",", " ").split():
                deal[word] = True
        elif col in ("dealer", "declarer", "contract"):
            deal[col] = value
        elif col == "deal_no":
            deal[col] = scalar(value)  # not a flag: "1" is the number 1, not true
        else:
            deal[col] = _flag(value)
    deal.setdefault("deal_no", ordinal)
    return deal


class CsvSheetReader:
    """Reads a club score sheet (``*.csv``, ``*.tsv``, or a ``.txt`` known by its content) with
    its header section or sidecar game file."""

    name = "csv-sheet"

    def sniff(self, path: Path, head: bytes) -> bool:
        """A table (:data:`TABLE_SUFFIXES`) with a ``#`` header section, a sidecar, or a
        ``dealer`` column; a ``.txt`` or unnamed file only when a ``#`` line gives a field of
        a game's id, variant or players or a house rule, as a note does not."""
        suffix = path.suffix.lower()
        if suffix not in TABLE_SUFFIXES:
            return False
        if sidecar_of(path).is_file():
            return True
        lines = [t.strip() for t in text_codec.head_text(head).splitlines()]
        lines = [t for t in lines if t]
        if not lines:
            return False
        if header_line(lines[0]) is not None:
            return suffix in NAMED_TABLES or any(_gives_a_game_field(line, SHEET_KEYS)
                                                 for line in lines)
        cells = {c.strip().strip('"').lower() for c in lines[0].replace(";", ",").replace(
            "\t", ",").split(",")}
        return "dealer" in cells

    def read(self, path: Path) -> Iterator[Raw | Issue]:
        source = str(path)
        game, sidecar_text, sidecar_issue = _sidecar(path)
        try:
            encoding = text_codec.file_encoding(path)
        except text_codec.EncodingError as exc:
            if sidecar_issue is not None:
                yield sidecar_issue
            yield unreadable(source, path, exc)
            return
        header_lines: list[tuple[int, str]] = []
        table: _Table | None = None  # the table of the game being read, from its header row
        games: dict[str, tuple[int, dict[str, Any]]] = {}  # this file's: first line, record
        lines = Lines(text_codec.lines(path, encoding))

        def cut_here() -> bool:  # the row just read ends the file, without a line end
            return lines.last() and text_codec.unended(path, encoding)

        for line_no, text in lines:
            if isinstance(text, text_codec.EncodingError):
                if table is not None:
                    table.ordinal += 1
                yield Issue(source, line_no, None, Code.PARSE, str(text), "",
                            of_file=table is None)  # above the table: a '#' line, no deal
                continue
            if not text.strip():
                continue
            in_cell = table is not None and table.open_from  # a quoted cell's next line
            if not in_cell and (line := header_line(text)) is not None:
                if table is not None and _gives_a_game_field(line):  # the next game's section
                    game, table, header_lines = {}, None, []
                    sidecar_text, sidecar_issue = "", None
                if table is None:
                    header_lines.append((line_no, line))
                continue
            if table is None:
                made = list(_game(source, path, game, header_lines, sidecar_text,
                                  sidecar_issue, line_no))
                refused = (_again(made, games, header_lines, path) or _no_game(made, line_no)
                           or _no_sidecar_game(made, path, sidecar_issue))
                yield from made
                table = _Table.of(text, line_no, game, refused)
                if table.said is not None:
                    yield Issue(source, line_no, None, Code.PARSE, table.said, text,
                                of_file=True)  # a header row is no record
                continue
            if not table.open_from and never_closed(text, table.delimiter, lines):
                table.ordinal += 1
                yield Issue(source, line_no, None, Code.PARSE, NEVER_CLOSED, text)
                continue
            if (row := table.row(source, line_no, text, cut_here)) is not None:
                yield row
        if table is None:
            yield from _game(source, path, game, header_lines, sidecar_text, sidecar_issue)


def _again(made: list[Raw | Issue], games: dict[str, tuple[int, dict[str, Any]]],
           header_lines: list[tuple[int, str]], path: Path) -> str | None:
    """Why the deals of a sheet's game are not read, when its game id is an earlier game's of
    the same file (``games``, to which it is added otherwise) and its game is not that one:
    they would be taken for that game's deals. ``made`` (the game's record and issues) then
    has the issue in place of the record."""
    found = [(k, m) for k, m in enumerate(made) if isinstance(m, Raw)]
    if not found:
        return None
    at, record = found[0]
    line, gid = (header_lines[0][0] if header_lines else 0), str(record.data.get("game_id"))
    if gid not in games:
        games[gid] = (line, record.data)
        return None
    first, data = games[gid]
    if data == record.data:
        return None  # the same game again (a sheet pasted twice): its deals are duplicates
    named = (f" (without a '# game_id' line a game is named after the file, {path.stem!r})"
             if gid == path.stem else "")
    made[at] = Issue(str(path), line, None, Code.GAME_CONFLICT,
                     f"game {gid!r} is the sheet's game of line {first} already, with other "
                     f"fields{named}: each game of a sheet needs an id of its own; this game and "
                     "its deals are not read", record.text)
    return f"game {gid!r} of line {line} is not read (its id is the game's of line {first})"


@dataclass
class _Table:
    """One game's table: its header row and what its rows need to be read."""

    written: list[str]
    """The header row's cells as written."""
    header: list[str]
    """Its columns as the records name them (:func:`column_names`)."""
    delimiter: str
    at: int
    """The header row's line."""
    game_id: Any
    unknown: set[str]
    fault: str | None
    """Why no row is read (a column named twice, a header row that cannot be read, a game
    that is not read), or ``None``."""
    said: str | None
    """The issue of the header row itself, or ``None``."""
    ordinal: int = 0
    """Deal rows so far (a deal's number when the table has no ``deal_no``)."""
    open_from: int = 0
    """The line of a quoted cell not closed yet (0: none)."""

    @classmethod
    def of(cls, text: str, line_no: int, game: dict[str, Any], refused: str | None) -> _Table:
        delimiter = delimiter_of(text)
        cells = cells_of(text, delimiter)
        written = [c.strip() for c in cells] if isinstance(cells, list) else []
        header = column_names(written, game)
        unknown = unknown_columns(header, game)
        said = (f"the header row is not read: {cells}" if isinstance(cells, str) else
                unknown_said(unknown, f"not a field of a {game.get('variant')} deal nor "
                                      f"<{'|'.join(GROUPS)}>.<player>") if any(unknown) else None)
        fault = refused or (f"the header row of line {line_no} is not read"
                            if isinstance(cells, str) else twice(header))
        return cls(written, header, delimiter, line_no, game["game_id"], unknown, fault, said)

    def row(self, source: str, line_no: int, text: str, cut_here: Callable[[], bool]
            ) -> Raw | Issue | None:
        """The deal of a row, or its issue; ``None`` for a row of empty cells (a spreadsheet
        pads a table with them). ``cut_here``: whether the row ends the file without a line end
        (a row short of cells there is a file cut short, as LIN's last value is)."""
        before = self.open_from
        self.open_from, why = in_quoted_cell(before, text, self.delimiter, line_no)
        if why is not None:  # a line break inside a quoted cell
            self.ordinal += not before  # the deal's first line
            return Issue(source, line_no, None, Code.PARSE, why, text)
        cells = cells_of(text, self.delimiter)
        if isinstance(cells, list) and not any(c.strip() for c in cells):
            return None
        if isinstance(cells, list) and [c.strip() for c in cells] == self.written:
            return Issue(source, line_no, None, Code.PARSE,
                         header_again(self.at, "sheet", "deals of the same game"), text,
                         of_file=True)
        self.ordinal += 1
        if isinstance(cells, str):
            return Issue(source, line_no, None, Code.PARSE, cells, text)
        if self.fault is not None:
            return Issue(source, line_no, None, Code.PARSE, f"{self.fault}: {quote(text)}", text)
        if len(cells) != len(self.header):
            cut = (" (the file ends inside this row, with no line end after it: it may be cut "
                   "short)" if len(cells) < len(self.header) and cut_here() else "")
            return Issue(source, line_no, None, Code.PARSE,
                         f"{counted(len(cells), 'cell')} but the header row has "
                         f"{counted(len(self.header), 'column')}{cut}: {quote(text)}", text)
        if filled := filled_unknown(self.header, cells, self.unknown, self.at):
            return Issue(source, line_no, None, Code.PARSE, filled, text)
        return Raw(source, line_no, _deal(self.header, cells, self.ordinal, self.game_id), text)


def column_names(header: list[str], game: dict[str, Any]) -> list[str]:
    """The columns of ``header`` as the records name them: a field of the game's variant's deal,
    ``flags`` or a ``<group>.`` prefix written in capitals (``Dealer``, ``Tricks.Anna``, as a
    spreadsheet user titles a column) is read in small letters; a player's name keeps its own."""
    try:
        fields = set(variants.variant(str(game.get("variant"))).deal_model.model_fields)
    except UnknownVariant:
        return header
    known = fields | {"flags"}

    def named(h: str) -> str:
        group, dot, player = h.partition(".")
        if h in known or (dot and group in GROUPS):
            return h
        if h.lower() in known:
            return h.lower()
        return f"{group.lower()}.{player}" if dot and group.lower() in GROUPS else h

    return [named(h) for h in header]


def unknown_columns(header: list[str], game: dict[str, Any]) -> set[str]:
    """The columns of ``header`` that are not a field of the game's variant's deal nor
    ``<group>.<player>`` (``GROUPS``): a damaged name (``defe›ce.Bojan``), or one without a
    name. Nothing when the variant is not known (the game line says why)."""
    try:
        fields = set(variants.variant(str(game.get("variant"))).deal_model.model_fields)
    except UnknownVariant:
        return set()
    return {h for h in header if h not in fields and h != "flags"
            and h.partition(".")[0] not in GROUPS}


MAX_LINE = 1 << 16
"""Longest row read, in characters (a score-sheet row is a few hundred; Python's csv module
refuses a cell over 131,072)."""


def in_quoted_cell(open_from: int, text: str, delimiter: str, line_no: int
                   ) -> tuple[int, str | None]:
    """The line of a quoted cell still open after the row line ``text`` (``open_from``: the
    one open before it; 0: none), and why ``text`` is not read when it is a line of a cell that
    holds a line break (``None``: it is a row of its own)."""
    if not open_from and '"' not in text:  # most rows
        return 0, None
    after = open_from
    if quote_left_open(text, delimiter, bool(open_from)) != bool(open_from):
        after = 0 if open_from else line_no
    return after, (ran_over(open_from) if open_from or after else None)


def quote_left_open(text: str, delimiter: str, inside: bool = False) -> bool:
    """Whether a quoted cell is still open at the end of the line ``text`` (``inside``: the
    line goes on a quoted cell opened above), read as Python's ``csv`` and a spreadsheet read
    it: a cell opens a quote only with its first character, ``""`` is a quote inside one, and
    a ``"`` elsewhere (``inv"ite``) is a character of its cell."""
    at_start = not inside
    k, n = 0, len(text)
    while k < n:
        c = text[k]
        if inside:
            if c == '"':
                if text.startswith('"', k + 1):
                    k += 1
                else:
                    inside = False
        elif c == '"' and at_start:
            inside = True
        at_start = not inside and c == delimiter
        k += 1
    return inside


class Lines:
    """A table's numbered lines, read in turn, that can tell whether a quoted cell opened on the
    line just read closes on a later one (a spreadsheet writes a cell holding a line break so)
    or never does (a stray ``"``, after which every line would be read as the rest of its cell).
    The lines looked at are read from the buffer afterwards; a scan that met the end without a
    closing quote is not made again (no later line closes one either)."""

    def __init__(self, numbered: Iterable[tuple[int, str | text_codec.EncodingError]]) -> None:
        self._lines = iter(numbered)
        self._ahead: deque[tuple[int, str | text_codec.EncodingError]] = deque()
        self._never_closed: str | None = None
        """The delimiter a scan to the end was made with, finding no closing quote."""

    def __iter__(self) -> Iterator[tuple[int, str | text_codec.EncodingError]]:
        return self

    def __next__(self) -> tuple[int, str | text_codec.EncodingError]:
        return self._ahead.popleft() if self._ahead else next(self._lines)

    def last(self) -> bool:
        """Whether the line just read is the file's last."""
        if not self._ahead:
            self._ahead.extend(islice(self._lines, 1))
        return not self._ahead

    def closes_later(self, delimiter: str) -> bool:
        """Whether a later line closes a quoted cell left open by the line just read."""
        if self._never_closed == delimiter:
            return False
        if any(_closes(text, delimiter) for _, text in self._ahead):
            return True
        for line in self._lines:
            self._ahead.append(line)
            if _closes(line[1], delimiter):
                return True
        self._never_closed = delimiter
        return False


def _closes(text: str | text_codec.EncodingError, delimiter: str) -> bool:
    return isinstance(text, str) and '"' in text and not quote_left_open(text, delimiter, True)


def never_closed(text: str, delimiter: str, lines: Lines) -> bool:
    """Whether the row ``text`` opens a quoted cell that no later line closes (a stray ``"``:
    the row alone is not read, :data:`NEVER_CLOSED`)."""
    return '"' in text and quote_left_open(text, delimiter) and not lines.closes_later(delimiter)


NEVER_CLOSED = ("a quoted cell opened in this row is never closed (a stray '\"'?): the row is "
                "not read; the lines after it are read as rows")


def ran_over(open_from: int) -> str:
    """Why a line of a row whose quoted cell runs over lines is not read (a row is one line)."""
    if open_from:
        return (f"the rest of the quoted cell opened at line {open_from}: a cell may not hold a "
                "line break, so neither line is read")
    return ("a quoted cell not closed on its line (a line break inside quotes): the row is not "
            "read, nor the lines up to its closing quote")


def header_again(header_at: int, table: str, rows_are: str) -> str:
    """Said of the header row met again below itself (a ``table`` pasted twice)."""
    return (f"the header row of line {header_at} again (the {table} pasted twice?); the rows "
            f"after it are read as {rows_are}")


def unknown_said(unknown: Iterable[str], why: str) -> str:
    """Said at a header row of its columns that the reader does not know (``why``)."""
    return (f"unknown column {', '.join(map(repr, sorted(filter(None, unknown))))}: {why}; a "
            "row that fills it is not read")


def filled_unknown(header: list[str], cells: list[str], unknown: set[str],
                   header_at: int) -> str | None:
    """Why a row is not read when it fills a column of ``unknown`` (said once at the header row
    of line ``header_at``), or ``None``."""
    filled = [h for h, c in zip(header, cells, strict=False) if h in unknown and c.strip()]
    return (f"a cell under the unknown column {filled[0]!r} of the header row (line "
            f"{header_at})") if filled else None


def _key_value(body: str) -> tuple[str, str, str]:
    """``key, ":", value`` of a header line's text after its ``#``; a key of a game or a house
    rule in small letters (``# Players: ...``, as a user titles a line)."""
    key, sep, value = body.partition(":")
    key, value = key.strip(), value.strip()
    return (key.lower() if _of_a_game(key.lower()) else key), sep, value


def _of_a_game(key: str, keys: frozenset[str] = GAME_KEYS) -> bool:
    """Whether ``key`` is one of ``keys`` or a house rule (``rules.<flag>``)."""
    return key in keys or key.startswith("rules.")


def _gives_a_game_field(line: str, keys: frozenset[str] = GAME_KEYS) -> bool:
    """Whether ``line`` is a header line ``# <key>: value`` of one of ``keys`` or a house rule
    (``# rules.<flag>: value``)."""
    text = header_line(line)
    return text is not None and _of_a_game(_key_value(text.lstrip()[1:])[0], keys)


def header_line(text: str) -> str | None:
    """The ``# key: value`` text of a header-section line, or ``None`` for a table row.

    A spreadsheet quotes a cell that holds its delimiter and pads the row to the table's width,
    so Excel saves ``# players: Anna, Boris, Chris`` as ``"# players: Anna, Boris, Chris",,,,``:
    a row whose first cell starts with ``#`` and whose other cells are empty is that line."""
    stripped = text.lstrip()
    if stripped.startswith("#"):
        return text
    if not stripped.startswith('"#'):
        return None
    if len(stripped) > MAX_LINE:  # too long to read as a row: a header line all the same
        return stripped[1:]
    rows = [cells for d in DELIMITERS if isinstance(cells := cells_of(stripped, d), list)]
    rows = [cells for cells in rows if cells and not any(c.strip() for c in cells[1:])]
    return max(rows, key=len)[0] if rows else None


def delimiter_of(header: str) -> str:
    """The delimiter of a table whose header row is ``header``: whichever of
    :data:`DELIMITERS` it uses most (a comma on a tie), as a spreadsheet's export writes."""
    return max(DELIMITERS, key=header.count)


def cells_of(text: str, delimiter: str) -> list[str] | str:
    """The cells of one CSV row, or why it cannot be read (too long, bad quoting)."""
    if len(text) > MAX_LINE:
        return f"a row of {len(text):,} characters, longer than {MAX_LINE:,}: {quote(text)}"
    try:
        return next(csv.reader([text], delimiter=delimiter), [])
    except csv.Error as exc:
        return f"not a CSV row ({exc}): {quote(text)}"


def twice(header: list[str]) -> str | None:
    """The fault of a header row that names a column twice (a row's two cells under one name:
    which one the row means is not known), or ``None``."""
    seen: set[str] = set()
    for name in header:
        if name and name in seen:
            return f"the header row names the column {name!r} twice"
        seen.add(name)
    return None


def unreadable(source: str, path: Path, exc: Exception) -> Issue:
    """The one issue of a file no encoding reads: the whole file is quarantined."""
    with path.open("rb") as fh:
        head = fh.read(200)
    return Issue(source, 1, None, Code.PARSE, f"cannot read the file: {exc}",
                 head.decode("latin-1"), of_file=True)


def _sidecar(path: Path) -> tuple[dict[str, Any], str, Issue | None]:
    """The game record of ``<name>.game.json`` if there is one, its text, and a parse issue."""
    side = sidecar_of(path)
    if not side.is_file():
        if os.path.lexists(side):  # a folder, a pipe, a broken link: never opened
            return {}, "", _sidecar_issue(path, f"sidecar {side.name} is not a file", "")
        return {}, "", None
    try:
        text = text_codec.decode(side.read_bytes())
    except OSError as exc:
        return {}, "", _sidecar_issue(path, f"sidecar {side.name} cannot be read: "
                                            f"{exc.strerror or exc}", "")
    except text_codec.EncodingError as exc:
        return {}, "", _sidecar_issue(path, f"sidecar {side.name}: {exc}", "")
    if too_deep(text):
        return {}, text, _sidecar_issue(path, f"sidecar {side.name} is nested deeper than "
                                              f"{MAX_DEPTH} arrays or objects: {quote(text)}", text)
    try:
        loaded = load_json(text)
    except RepeatedKey as exc:
        return {}, text, _sidecar_issue(path, f"sidecar {side.name}: {exc}: {quote(text)}", text)
    except json.JSONDecodeError as exc:
        return {}, text, _sidecar_issue(
            path, f"sidecar {side.name} is not JSON ({exc.msg.removesuffix(' at')} at line "
                  f"{exc.lineno}, column {exc.colno}): {quote(text)}", text)
    if not isinstance(loaded, dict):
        return {}, text, _sidecar_issue(path, f"sidecar {side.name} is not a JSON object: "
                                              f"{quote(text)}", text)
    return loaded, text, None


def _sidecar_issue(path: Path, message: str, text: str) -> Issue:
    """A sidecar that gives no game: an issue at line 0 (the game it should have given)."""
    return Issue(str(path), 0, None, Code.PARSE, message, text)


def _game(
    source: str, path: Path, game: dict[str, Any], header_lines: list[tuple[int, str]],
    sidecar_text: str, sidecar_issue: Issue | None, table_at: int = 0,
) -> Iterator[Raw | Issue]:
    """The game record of a sheet: the sidecar's fields overridden by the header section's.

    Its line is the first header line, or 0 when the game comes from the sidecar alone; with a bad
    sidecar and no header the game is missing (its deals then have no game), the sidecar's issue
    in its place. Where the header section gives the game (or refuses it), a bad sidecar's issue
    is beside the game's record: an issue of the file. A sheet with neither is a
    :data:`NO_GAME` issue at its header row (``table_at``)."""
    fields, issues, refused = _header_game(header_lines, source)
    if sidecar_issue is not None:
        yield (replace(sidecar_issue, of_file=True) if fields or refused
               else sidecar_issue)
    yield from issues
    if refused:  # its deals have no game
        game["game_id"] = str(fields.get("game_id") or path.stem)
        return
    game.update(fields)
    game.setdefault("record", "game")
    game.setdefault("game_id", path.stem)
    if fields:
        yield Raw(source, header_lines[0][0], game, "\n".join(t for _, t in header_lines))
    elif sidecar_issue is not None:
        return
    elif sidecar_text:
        yield Raw(source, 0, game, sidecar_text)
    else:
        yield Issue(source, table_at, None, Code.PARSE,
                    NO_GAME.format(sidecar=sidecar_of(path).name), "")


NAMES_NO_GAME = "the sheet names no game"
NO_GAME = (NAMES_NO_GAME + ": it has no '# variant:' and '# players:' lines above its header "
           "row, and no {sidecar} beside it (docs/csv-score-sheet.md)")
"""Why a sheet without a header section or a sidecar is not read."""


def _no_sidecar_game(made: list[Raw | Issue], path: Path, sidecar_issue: Issue | None
                     ) -> str | None:
    """Why the rows of a table are not read when its game was to come from a sidecar that gives
    none (and no header section gives one): they are never filed under the file's name."""
    if sidecar_issue is None or any(isinstance(m, Raw) for m in made):
        return None
    return (f"the sheet's game is in {sidecar_of(path).name}, which gives none (line 0), so its "
            "deals are not read")


def _no_game(made: list[Raw | Issue], table_at: int) -> str | None:
    """Why the rows of a table are not read when its sheet names no game (:data:`NO_GAME`)."""
    if any(isinstance(m, Issue) and m.message.startswith(NAMES_NO_GAME) for m in made):
        return f"{NAMES_NO_GAME} (line {table_at}), so its deals are not read"
    return None


READER = CsvSheetReader()
