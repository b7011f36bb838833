"""CSV travellers: one row per table result of a board, as a club scorer records them.

Columns (header row, names case-insensitive; ../shared/spec/records.md 1.2 for the values):
``event, board, ns_pair, ew_pair, contract, declarer, lead, tricks`` and optionally ``score_ns``,
``north, east, south, west`` (player names; without them a pair's players are named after the
pair at its event, ``NS 3 North (unnamed 3f9c1a2b)``: :func:`pair_player`), ``vulnerable``,
``dealer`` (else from the board number), ``room``, ``match``.
``contract`` is ``4S``, ``3NTX``, ``4Hx`` or ``pass``; ``declarer`` a seat N/E/S/W; ``tricks``
the declarer's tricks (``result`` with ``=``, ``+1``, ``-2`` relative to the contract is accepted
instead). Each pairing of an NS pair with an EW pair in an event is one ``bridge-duplicate`` game.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ingest import text as text_codec
from ingest.bridge_records import GameGroups, game_record, unnamed
from ingest.csv_sheet import (
    NEVER_CLOSED,
    TABLE_SUFFIXES,
    Lines,
    cells_of,
    delimiter_of,
    filled_unknown,
    header_again,
    in_quoted_cell,
    never_closed,
    twice,
    unknown_said,
    unreadable,
)
from ingest.csv_sheet import header_line as comment
from ingest.jsonl import quote
from ingest.source import Issue, Raw, ascii_int
from model.bridge.contracts import ContractError, parse_contract
from model.bridge.seats import SeatError, board_dealer, parse_seat, parse_vulnerable
from model.problems import Code, counted

REQUIRED = ("event", "board", "ns_pair", "ew_pair", "contract")
HEADER_MARK = ("board", "ns_pair", "ew_pair", "contract")
"""The columns that make a table a traveller."""
COLUMNS = frozenset((*REQUIRED, "declarer", "lead", "tricks", "result", "score_ns", "north",
                     "east", "south", "west", "vulnerable", "dealer", "room", "match"))
"""Every column a traveller may have (the module's docstring)."""


def header_line(head: bytes) -> str:
    """The header row of a table whose first bytes are ``head``: its first line that is not
    empty or a ``#`` comment (``""`` when there is none)."""
    return next((t for t in text_codec.head_text(head).splitlines()
                 if t.strip() and comment(t) is None), "")


def lacks(header: str) -> list[str]:
    """The columns of :data:`HEADER_MARK` the header row ``header`` does not name."""
    cols = {c.strip().strip('"').lower() for c in header.split(delimiter_of(header))}
    return [c for c in HEADER_MARK if c not in cols]


def _another_header(text: str, header: list[str]) -> bool:
    """Whether the row ``text`` is the header row of another traveller pasted below (it names
    :data:`HEADER_MARK`, and not as ``header`` does): the rows after it are read under it."""
    if "ns_pair" not in text.lower():  # most rows: no parse
        return False
    cells = cells_of(text, delimiter_of(text))
    return (isinstance(cells, list) and [c.strip().lower() for c in cells] != header
            and not lacks(text))


class TravellerError(ValueError):
    pass


def pair_player(seat: int, event: str, pair: str) -> str:
    """The player at ``seat`` (N E S W) of ``pair`` where the traveller names nobody: a player
    of that pair at that event (``bridge_records.unnamed``), ``NS 3 North (unnamed 3f9c1a2b)``.
    Pairs are numbered per event (a movement's pair numbers), so pair 3 of the next event is
    other people; the same event's rows, in any file, give the same name."""
    side = "NS" if seat % 2 == 0 else "EW"
    return unnamed(seat, ("traveller pair", event, side, pair), f"{side} {pair}")


def _row(row: dict[str, str]) -> tuple[list[str], str, dict[str, Any]]:
    missing = [k for k in REQUIRED if not (row.get(k) or "").strip()]
    if missing:
        raise TravellerError(f"missing {', '.join(missing)}")
    board_text = row["board"].strip()
    board = ascii_int(board_text, "board")
    if board < 1:
        raise TravellerError(f"board {board_text!r} is not a board number")
    ns, ew = row["ns_pair"].strip(), row["ew_pair"].strip()
    names = [(row.get(k) or "").strip() for k in ("north", "east", "south", "west")]
    players = [n or pair_player(seat, row["event"].strip(), ns if seat % 2 == 0 else ew)
               for seat, n in enumerate(names)]
    dealer = parse_seat(row["dealer"]) if (row.get("dealer") or "").strip() else board_dealer(board)
    deal: dict[str, Any] = {"dealer": players[dealer], "board": board, "ns_pair": ns,
                            "ew_pair": ew}
    if (row.get("vulnerable") or "").strip():
        deal["vulnerable"] = parse_vulnerable(row["vulnerable"])
    for k in ("room", "match"):
        if (row.get(k) or "").strip():
            deal[k] = row[k].strip()
    contract_text = row["contract"].strip()
    if contract_text.lower() not in ("pass", "passed", "p", "ap"):
        contract = parse_contract(contract_text)
        if not (row.get("declarer") or "").strip():
            raise TravellerError(f"contract {contract_text} without a declarer")
        declarer = parse_seat(row["declarer"])
        deal["contract"] = str(contract)
        deal["declarer"] = players[declarer]
        tricks_text = (row.get("tricks") or "").strip()
        result_text = (row.get("result") or "").strip()
        if tricks_text:
            deal["tricks"] = ascii_int(tricks_text, "tricks")
        elif result_text:
            diff = 0 if result_text == "=" else ascii_int(result_text, "result", signed=True)
            deal["tricks"] = contract.tricks_needed + diff
        else:
            raise TravellerError(f"no tricks (nor result) for {contract_text}")
        if (row.get("lead") or "").strip():
            deal["lead"] = row["lead"].strip().upper()
    if (row.get("score_ns") or "").strip():
        deal["score_ns"] = ascii_int(row["score_ns"], "score_ns", signed=True)
    return players, row["event"].strip(), deal


class TravellerReader:
    """Reads tables (``*.csv``, ``*.tsv``, ``*.txt`` or unnamed) whose header has board,
    ns_pair, ew_pair and contract columns, separated by commas, semicolons or tabs
    (:func:`csv_sheet.delimiter_of`)."""

    name = "bridge-traveller-csv"

    def sniff(self, path: Path, head: bytes) -> bool:
        """A table (``csv_sheet.TABLE_SUFFIXES``: ``.csv``, ``.tsv``, ``.txt`` or no extension)
        whose header row (its first line not a ``#`` comment, cells separated as
        :func:`csv_sheet.delimiter_of` finds) names :data:`HEADER_MARK`."""
        return path.suffix.lower() in TABLE_SUFFIXES and not lacks(header_line(head))

    def read(self, path: Path) -> Iterator[Raw | Issue]:
        source = str(path)
        try:
            encoding = text_codec.file_encoding(path)
        except text_codec.EncodingError as exc:
            yield unreadable(source, path, exc)
            return
        yield from self.read_lines(text_codec.lines(path, encoding), source, "traveller")

    def read_text(self, text: str, source: str, stem: str = "traveller") -> Iterator[Raw | Issue]:
        yield from self.read_lines(enumerate(text.splitlines(), start=1), source, stem)

    def read_lines(self, numbered: Iterable[tuple[int, str | text_codec.EncodingError]],
                   source: str, stem: str) -> Iterator[Raw | Issue]:
        """The rows of a traveller, one line each (``# ...`` lines before the header, such as
        ``# encoding: cp1252``, are skipped); a header row in another column order below is
        another traveller's, whose rows are read under it."""
        header: list[str] | None = None
        header_at, delimiter = 0, ","
        open_from = 0  # the line of a quoted cell not closed yet (0: none)
        named_twice: str | None = None
        unknown: set[str] = set()
        groups = GameGroups(stem)
        lines = Lines(numbered)
        for line, raw in lines:
            if isinstance(raw, text_codec.EncodingError):
                yield Issue(source, line, None, Code.PARSE, str(raw), "",
                            of_file=header is None)  # above the header row: no table result
                continue
            if not raw.strip() or (header is None and comment(raw) is not None):
                continue
            if header is None or _another_header(raw, header):
                raw = raw.lstrip("\ufeff")
                delimiter, header_at = delimiter_of(raw), line
                cells = cells_of(raw, delimiter)
                header = [c.strip().lower() for c in cells] if isinstance(cells, list) else []
                named_twice = twice(header)
                if isinstance(cells, str):
                    named_twice = f"the header row of line {line} is not read"
                    yield Issue(source, line, None, Code.PARSE,
                                f"the header row is not read: {cells}", raw, of_file=True)
                    continue
                unknown = {c for c in header if c not in COLUMNS}
                if unknown - {""}:
                    yield Issue(source, line, None, Code.PARSE, unknown_said(
                        unknown, f"not a traveller column ({', '.join(sorted(COLUMNS))})"), raw,
                        of_file=True)  # a header row is no record
                continue
            if not open_from and never_closed(raw, delimiter, lines):
                yield Issue(source, line, None, Code.PARSE, NEVER_CLOSED, raw)
                continue
            open_from, why = in_quoted_cell(open_from, raw, delimiter, line)
            if why is not None:  # a line break inside a quoted cell
                yield Issue(source, line, None, Code.PARSE, why, raw)
                continue
            cells = cells_of(raw, delimiter)
            if isinstance(cells, str):
                yield Issue(source, line, None, Code.PARSE, cells, raw)
                continue
            if not any(c.strip() for c in cells):  # a spreadsheet pads a table with such rows
                continue
            if [c.strip().lower() for c in cells] == header:
                yield Issue(source, line, None, Code.PARSE,
                            header_again(header_at, "traveller", "rows of the same traveller"),
                            raw, of_file=True)
                continue
            if named_twice is not None:
                yield Issue(source, line, None, Code.PARSE, f"{named_twice}: {quote(raw)}", raw)
                continue
            row = dict(zip(header, cells, strict=False))
            key = f"board {row.get('board')} {row.get('ns_pair')}-{row.get('ew_pair')}"
            if len(cells) != len(header):  # a row cut short, or cells run together
                yield Issue(source, line, key, Code.PARSE,
                            f"{counted(len(cells), 'field')}, the header has {len(header)}", raw)
                continue
            if filled := filled_unknown(header, cells, unknown, header_at):
                yield Issue(source, line, key, Code.PARSE, filled, raw)
                continue
            try:
                players, event, deal = _row(row)
            except (TravellerError, ContractError, SeatError, ValueError) as exc:
                yield Issue(source, line, key, Code.PARSE, str(exc), raw)
                continue
            gid, no, new = groups.place((event, deal["ns_pair"], deal["ew_pair"], tuple(players)),
                                         deal["board"])
            if new:
                yield Raw(source, line, game_record(gid, players, event), raw)
            yield Raw(source, line, {"record": "deal", "game_id": gid, "deal_no": no, **deal}, raw)


READER = TravellerReader()
