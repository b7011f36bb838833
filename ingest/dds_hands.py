"""DDS golden hand files (../shared/data/README.md, dds-hands) -> unplayed bridge deals.

Two forms. A file starts with ``NUMBER n``; then 6-line records: ``PBN dealer vul trump first
"deal"``, ``FUT``, ``TABLE`` (20 numbers: declarer's tricks for S H D C NT x declarer N E S W),
``PAR``, ``PAR2``, ``PLAY``, ``TRACE``. Each becomes a deal with its hands, dealer,
vulnerability, the stated double-dummy table and the PAR2 score (NS). ``FUT``, ``PLAY`` and
``TRACE`` (solver traces for one trump and leader) are not kept. Any other line is an issue of
its own, and so is a ``NUMBER`` that is not the count of the deals after it (a file cut short);
a line given twice in one deal, or a dealer or vulnerability digit outside 0-3, makes the deal
an issue. Lines end at LF, CR LF or CR only, as an editor numbers them.
The GIB one-line form of ``sol10.txt`` (hands W N E S, then 20 hex digits: strains NT S H D C,
declarer E N W S, each the tricks North-South take)
has no dealer or vulnerability: dealer North, none vulnerable. One ``bridge-duplicate`` game per
file, its four players unnamed (``bridge_records.unnamed``: nobody sat at a solved deal, and the
players of two files are not one person); the deals are ``unplayed`` (kept, not settled: nobody
played them).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ingest import text as text_codec
from ingest.bridge_records import (
    SEAT_NAMES,
    HandError,
    content_id,
    game_record,
    hand_names,
    parse_hand,
    seat_players,
)
from ingest.source import Issue, NamedOrRecognised, Raw, is_ascii_int
from model.bridge.seats import SEATS
from model.problems import Code

DDS_VUL = ("None", "All", "NS", "EW")
TABLE_DENOMS = ("S", "H", "D", "C", "NT")
GIB_DENOMS = ("NT", "S", "H", "D", "C")
GIB_SEATS = (1, 0, 3, 2)
"""Seat (N E S W) of the GIB declarer order E, N, W, S."""
_PBN = re.compile(r'^PBN ([0-3]) ([0-3]) ([0-4]) ([0-3]) "([NESW]):([^"]+)"')
"""A deal's first line: dealer and vulnerability (0-3), trump (0-4), the first seat's digit and
the hands from the seat named."""
_LINES = re.compile(r"\r\n|\r|\n")
"""A line end of the file (``str.splitlines`` would also end a line at a form feed or U+2028,
and number the lines after it unlike an editor)."""
_GIB = re.compile(r"^([^:]+):([0-9A-Fa-f]{20})\s*$")
KEYWORDS = ("PBN", "FUT", "TABLE", "PAR", "PAR2", "PLAY", "TRACE")
"""The lines of a deal of the six-line form, each named by its first word."""


class DdsFormatError(ValueError):
    pass


def _hands(first: int, text: str) -> dict[str, list[str]]:
    parts = text.split()
    if len(parts) != 4:
        raise DdsFormatError(f"a deal has four hands: {text[:60]!r}")
    return {SEAT_NAMES[(first + i) % 4]: hand_names(parse_hand(h, dotted=True))
            for i, h in enumerate(parts)}


def _record(lines: list[tuple[int, str]]) -> dict[str, Any]:
    deal: dict[str, Any] = {"unplayed": True}
    seen: set[str] = set()
    for no, line in lines:
        keyword = line.split(" ", 1)[0]
        if keyword in seen:
            raise DdsFormatError(f"a second {keyword} line in one deal, at line {no}")
        seen.add(keyword)
        if line.startswith("PBN "):
            m = _PBN.match(line)
            if m is None:
                raise DdsFormatError(f"PBN line not 'PBN dealer vul trump first \"deal\"': "
                                     f"{line[:60]!r}")
            deal["dealer"] = SEAT_NAMES[int(m.group(1))]
            deal["vulnerable"] = DDS_VUL[int(m.group(2))]
            deal["hands"] = _hands(SEATS.index(m.group(5)), m.group(6))
        elif line.startswith("TABLE "):
            nums = line.split()[1:]
            if len(nums) != 20 or not all(is_ascii_int(n) for n in nums):
                raise DdsFormatError(f"TABLE needs 20 numbers: {line[:80]!r}")
            deal["dd_table"] = {f"{TABLE_DENOMS[k // 4]}_{SEATS[k % 4]}": int(n)
                                for k, n in enumerate(nums)}
        elif line.startswith("PAR2 "):
            score = re.findall(r'"([^"]*)"', line)
            if not score or not re.fullmatch(r"-?[0-9]{1,9}", score[0]):
                raise DdsFormatError(f"PAR2 without a score: {line[:60]!r}")
            deal["par_ns"] = int(score[0])
    if "hands" not in deal:
        raise DdsFormatError("record without a PBN line (no deal)")
    return deal


def _gib(line: str) -> dict[str, Any]:
    m = _GIB.match(line)
    if m is None:
        raise DdsFormatError(f"not 'W N E S hands:20 hex digits': {line[:60]!r}")
    table: dict[str, int] = {}
    for k, digit in enumerate(m.group(2)):
        denom, seat = GIB_DENOMS[k // 4], GIB_SEATS[k % 4]
        ns_tricks = int(digit, 16)
        table[f"{denom}_{SEATS[seat]}"] = ns_tricks if seat % 2 == 0 else 13 - ns_tricks
    return {"unplayed": True, "dealer": "North", "vulnerable": "None",
            "hands": _hands(3, m.group(1)), "dd_table": table}


class DdsHandsReader(NamedOrRecognised):
    """Reads DDS ``hands/`` files (``list*.txt``, ``sol*.txt`` ...), known by their content
    whatever their name (``hands.dat``, ``deals``): the format has no extension of its own."""

    name = "dds-hands"

    def looks_like(self, head: bytes) -> bool:
        """A file that opens with ``NUMBER``, a deal's ``PBN`` line or a GIB line (hands, a
        colon, 20 hex digits), whatever its line ends."""
        text = text_codec.without_declaration(text_codec.head_text(head)).lstrip()
        first = _LINES.split(text, maxsplit=1)[0].strip()
        return (_is_number(first) or _PBN.match(first) is not None
                or _GIB.match(first) is not None)

    def read(self, path: Path) -> Iterator[Raw | Issue]:
        yield from self.read_text(text_codec.decode_or_latin1(path.read_bytes()), str(path),
                                  path.name)

    def read_text(self, text: str, source: str, stem: str = "dds") -> Iterator[Raw | Issue]:
        """The file's deals as games: one game per file joined in it (a ``NUMBER`` line after
        deals starts the next), whose id is the hash of its deals (hands, dealer and
        vulnerability, in order), not of its text or name: the file saved with other line ends,
        or with a stated table or par corrected, is the same game (its deals duplicates, a
        corrected one a conflict), and so is a file joined to another. A file of which no deal
        reads stores no game."""
        read: list[_Read] = []
        blocks, counts, joined = _blocks(text)
        for block in blocks:
            first, raw_text = block[0][0], "\n".join(t for _, t in block)
            gib = _GIB.match(block[0][1]) is not None
            own = [block[0]] + [(no, t) for no, t in block[1:] if not gib and _keyword(t)]
            try:
                read.append((first, raw_text, _gib(block[0][1]) if gib else _record(own)))
            except (DdsFormatError, HandError) as exc:
                read.append((first, raw_text, exc))
            if gib or _keyword(block[0][1]):
                read += [(no, t, DdsFormatError(_STRAY + f": {t[:60]!r}"))
                         for no, t in block[1:] if (no, t) not in own]
        read += counts
        read.sort(key=lambda entry: entry[0])
        if not read:  # no deal, and nothing wrong with one: say so, store no empty game
            yield Issue(source, 1, stem, Code.PARSE, "the file has no deals (no PBN or GIB "
                        "line): nothing to ingest", text[:500], of_file=True)
        files: list[list[_Read]] = [[] for _ in range(len(joined) + 1)]
        for entry in read:
            files[bisect_right(joined, entry[0])].append(entry)
        for own_read in files:
            yield from _game(source, own_read)


_Read = tuple[int, str, dict[str, Any] | Exception]
"""A deal of a DDS file as read: its first line, its text, and its record or why it has none."""


def _game(source: str, read: list[_Read]) -> Iterator[Raw | Issue]:
    """The game of one file's deals (``read``, in order): its game line when a deal reads, each
    deal numbered from 1, each deal that does not read an issue."""
    deals = [d for _, _, d in read if not isinstance(d, Exception)]
    gid = "dds-hands/" + content_id(tuple(
        (d["hands"], d["dealer"], d.get("vulnerable")) for d in deals))
    players = seat_players([None] * 4, lambda: gid)  # nobody sat at a solved deal: unnamed
    if deals:
        yield Raw(source, 1, game_record(gid, players, "DDS hands"), "")
    deal_no = 0
    for first, raw_text, deal in read:
        if isinstance(deal, Exception):
            yield Issue(source, first, f"{gid} line {first}", Code.PARSE, str(deal), raw_text)
            continue
        deal_no += 1
        yield Raw(source, first, {"record": "deal", "game_id": gid, "deal_no": deal_no,
                                  **_seated(deal, players)}, raw_text)


def _seated(deal: dict[str, Any], players: list[str]) -> dict[str, Any]:
    """A deal read by seat (``SEAT_NAMES``) with the game's ``players`` in the seats."""
    of = dict(zip(SEAT_NAMES, players, strict=True))
    return {**deal, "dealer": of[deal["dealer"]],
            "hands": {of[seat]: cards for seat, cards in deal["hands"].items()}}


_STRAY = ("not a line of a DDS hand file (after a PBN line: " + ", ".join(KEYWORDS[1:])
          + "; a GIB line stands alone)")


def _keyword(line: str) -> bool:
    return line.split(" ", 1)[0] in KEYWORDS


def _blocks(text: str) -> tuple[list[list[tuple[int, str]]],
                                list[tuple[int, str, DdsFormatError]], list[int]]:
    """The numbered lines of each deal of a DDS file (a ``PBN`` line or a GIB line starts one;
    ``NUMBER`` and empty lines are left out), an issue for each ``NUMBER n`` whose ``n`` is
    not the count of deals after it, up to the next ``NUMBER`` (files joined keep theirs), and
    the lines of the ``NUMBER``s that come after deals (each starts a file joined to the one
    before)."""
    blocks: list[list[tuple[int, str]]] = []
    numbers: list[tuple[int, str, int]] = []
    for no, raw in enumerate(_LINES.split(text), start=1):
        line = raw.strip()
        if _is_number(line):  # the count of the deals that follow
            numbers.append((no, line, len(blocks)))
            continue
        if not line:
            continue
        if _starts_deal(line) or not blocks:
            blocks.append([])
        blocks[-1].append((no, line))
    wrong = []
    deals = [_starts_deal(b[0][1]) for b in blocks]
    for i, (no, line, at) in enumerate(numbers):
        count = sum(deals[at:numbers[i + 1][2] if i + 1 < len(numbers) else len(blocks)])
        said = line.split()[1:]
        if len(said) != 1 or not is_ascii_int(said[0]) or int(said[0]) != count:
            wrong.append((no, line, DdsFormatError(
                f"{line[:40]!r} is not the count of the deals that follow it: {count}"
                + (" (the file may be cut short)" if said and is_ascii_int(said[0])
                   and int(said[0]) > count else ""))))
    return blocks, wrong, [no for no, _, at in numbers if at]


def _starts_deal(line: str) -> bool:
    """A deal's first line: its ``PBN`` line, or a GIB line (a deal of its own)."""
    return line.startswith("PBN ") or _GIB.match(line) is not None


def _is_number(line: str) -> bool:
    """A ``NUMBER n`` line (its word alone: ``NUMBERX`` is not one)."""
    return line.split(maxsplit=1)[:1] == ["NUMBER"]


READER = DdsHandsReader()
