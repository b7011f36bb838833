"""BBO LIN reader: single deals and multi-board Vugraph files -> canonical bridge records.

A LIN file is one stream of ``key|value|`` pairs (line breaks, usually after ``pg||``, carry no
meaning). Keys read here (../shared/data/README.md, "LIN format"): ``vg`` event header, ``rs``
result list (o1, c1, o2, c2, ... from the header's first board), ``pn`` / ``pw`` player names (S,
W, N, E; eight names for the open and closed rooms), ``qx`` board id (``o12`` / ``c12``), ``ah``
board title, ``md`` dealer digit (1 S, 2 W, 3 N, 4 E) and hands S, W, N, E (the fourth may be empty:
inferred), ``sv`` vulnerability, ``mb`` calls (``!`` marks an alert, ``an`` its text), ``pc`` cards
in played order, ``mc`` declarer's trick total after a claim. ``nt`` commentary and the rest are
skipped. ``rs`` and ``mc`` are claims to check, not truth: the contract and declarer the file
states (``rs``) go into the record and the validation compares them with the auction; the result is
``rs``'s, else ``mc``'s, else counted from a complete play. A key a board gives once (:data:`ONCE`)
given twice in one board with different values makes the board an issue (:func:`_once`), as do two
explanations of one alert (:func:`_alert`) and two line-ups with no board between them
(:meth:`Boards._listed`); so does a file that ends inside a value, or that shows it is cut short
in its last board (:func:`cut_short`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ingest import text as text_codec
from ingest.bridge_records import (
    GameGroups,
    HandError,
    attribute_play,
    call_of,
    complete_hands,
    contract_of,
    game_record,
    hand_names,
    is_unnamed,
    parse_hand,
    played,
    seat_players,
    suit_rank_card,
    table_known,
)
from ingest.source import (
    Issue,
    NamedOrRecognised,
    Raw,
    ascii_int,
    given_twice,
    is_ascii_int,
)
from model.bridge.auction import AuctionResult
from model.bridge.check import auction_of
from model.bridge.contracts import TRUMP_SUIT, ContractError, parse_contract
from model.bridge.seats import SEATS, SeatError, parse_vulnerable, partner
from model.problems import Code, counted
from model.tricks import replay

LIN_SEATS = (2, 3, 0, 1)
"""Seat (N E S W index) of the LIN order S, W, N, E; the ``md`` dealer digit d is LIN_SEATS[d-1]."""
_RESULT = re.compile(r"^([1-7])([CDHSN])([NESW])(X{0,2})(=|[+-][0-9]{1,2})$", re.IGNORECASE)


MAX_VALUE = 1 << 16
"""Longest value of a ``key|value|`` pair read, in characters (a board's longest, ``md``, is
about 70; commentary ``nt`` may be long and is cut, unread)."""
RAW_KEPT = 2_000
"""Characters of text outside any board an issue keeps (as ``raw``: what was skipped)."""
READ_KEYS = frozenset({"qx", "ah", "md", "sv", "mb", "an", "pc", "mc", "pn", "pw", "vg", "rs"})
"""The keys this reader reads; an over-long value of one of them makes its board an issue."""


@dataclass
class Board:
    line: int
    qx: str | None = None
    title: str | None = None
    md: str | None = None
    sv: str | None = None
    calls: list[str] = field(default_factory=list)
    alerts: dict[int, str] = field(default_factory=dict)
    cards: list[str] = field(default_factory=list)
    mc: str | None = None
    names: list[str] | None = None
    text: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    given: dict[str, tuple[str, str, int]] = field(default_factory=dict)
    """Of each key the board gives once (:data:`ONCE`), and of each alert's explanation
    (``an 3``: call 3's, :func:`_alert`): the first (key, value, line)."""
    twice: dict[str, str] = field(default_factory=dict)
    """Why, of each key given twice with different values, its first such pair (:func:`_once`,
    :func:`_alert`), and why the names the board took are in doubt (:func:`_take_names`)."""
    header: Header = field(default_factory=lambda: Header())
    """The ``vg``/``rs`` header in force where the board opened (:meth:`Boards.read`)."""


KEYS = frozenset({
    "ah", "an", "at", "bn", "bt", "cg", "cp", "cr", "em", "ha", "hc", "lf", "mb", "mc", "md",
    "mn", "nt", "ob", "pc", "pf", "pg", "pn", "pw", "px", "qx", "rh", "rs", "sk", "st", "sv",
    "tu", "up", "vg", "wt"})
"""The keys of BBO's LIN files. A pair whose key is not one of them means the stream is out of
step (a ``|`` missing or doubled): the reader skips one part and so steps back in. An unknown
two-letter key is taken as a key when a known key follows its value."""
IN_BOARD = KEYS - {"qx", "md", "pn", "pw", "vg", "rs", "ah"}
"""Keys that, inside a board, are only the board's pairs (:func:`_take`): they neither open a
board nor change the file's header or names."""


def _unknown_key(key: str, parts: list[str], i: int) -> bool:
    """A key this reader does not know (two letters) where the stream is in step: the part
    after its value is a known key, or the end."""
    if len(key) != 2 or not key.isascii() or not key.isalpha():
        return False
    after = parts[i + 2].strip().lower() if i + 2 < len(parts) else ""
    return after in KEYS or (i + 3 >= len(parts) and not after)


_KEY_AT_END = re.compile(r"([A-Za-z]{2})\s*\Z")


def _lead(parts: list[str]) -> tuple[str, int]:
    """Text before the first key of a LIN stream (a stray byte, a line of junk: ``"\\0vg"``):
    the first part becomes the key it ends with, and the text before it is returned, with the
    lines it holds, to be skipped. ``("", 0)`` when the first part is a key or ends in none."""
    first = parts[0]
    m = _KEY_AT_END.search(first) if len(parts) > 1 and first not in KEYS else None
    if m is None or m.group(1).lower() not in KEYS:
        return "", 0
    parts[0] = first[m.start():]
    junk = first[:m.start()]
    return junk, junk.count("\n")


BETWEEN = "\n"
"""The key :func:`pairs` gives text that is no LIN before a key that opens a board or sets the
file's header or names (:data:`OPENING`): text between two boards, not of either."""
OPENING = frozenset({"qx", "vg", "pn", "pw", "rs"})
"""The keys that open a board or set the file's header or names."""
CUT = "|"
"""The key :func:`pairs` gives after a last value the text ends in, with no ``|`` after it:
the file ends inside that value, cut short."""
CUT_KEY = "||"
"""The key :func:`pairs` gives for a last key the text ends after (``mb|`` or ``mb``), with no
value: the file ends before that key's value, cut short; the value it gives is that key."""
WHOLE_EMPTY = frozenset({"pg"})
"""Keys whose value is always empty (a page break): a file that ends ``pg|`` misses no value."""
_KEY_ON_ITS_LINE = re.compile(r"\n\s*([A-Za-z]{2})\s*\Z")
"""A key at the start of a line, after text that is no key (junk pasted between two pairs)."""


def _blank_lines(value: str) -> int:
    """The line ends before the first text of ``value``."""
    return value[:len(value) - len(value.lstrip())].count("\n")


def _own_lines(value: str) -> bool:
    """Text out of step that starts on a line of its own (after the line end that follows a
    pair) and is no key cut off (``pc``, ``p``): after a board's last pair, with nothing after
    it, it is text after the board (:meth:`Boards.read`), not a part of it."""
    text = value.strip().lower()
    return _blank_lines(value) > 0 and bool(text) and not any(k.startswith(text) for k in KEYS)


def pairs(text: str) -> Iterator[tuple[str, str, int]]:
    """``(key, value, line)`` of every ``key|value|`` pair; where the stream is out of step
    (a part that is not a LIN key where a key is due), ``("", part, line)`` for the skipped part,
    and the pairs go on from the next part (one missing ``|`` costs the board it is in, not the
    rest of the file). Text before the first key (:func:`_lead`), and a line of text that is no
    key before a key that starts a line (``"junk\\nqx"``; :data:`BETWEEN` boards), are such
    parts, and the key after them is read. Most keys are written bare (``pc``): they are looked
    up as they are, and a part's line ends are counted only where it holds one. The text's end
    inside its last value is :data:`CUT`, after its last key (``mb|``, ``mb``) :data:`CUT_KEY`."""
    parts = text.split("|")
    junk, lines = _lead(parts)
    if junk.strip():
        yield "", junk, 1
    line = 1 + lines
    i = 0
    last = len(parts) - 1
    while i < last:
        key = key_raw = parts[i]
        if key_raw not in KEYS:
            start = line
            if "\n" in key_raw:
                line += key_raw.count("\n")
            key = key_raw.strip().lower()
            if key not in KEYS and not _unknown_key(key, parts, i):
                m = _KEY_ON_ITS_LINE.search(key_raw)
                if m is None or m.group(1).lower() not in KEYS:
                    yield "", key_raw, line
                    i += 1
                    continue
                junk = key_raw[:m.start()]  # a line of junk between two pairs: its own part
                key = m.group(1).lower()
                yield (BETWEEN if key in OPENING else ""), junk, \
                    start + junk[:len(junk) - len(junk.lstrip())].count("\n")
        value = parts[i + 1]
        if i + 1 == last and not value.strip() and key not in WHOLE_EMPTY:  # ``mb|`` ends it
            yield CUT_KEY, key, line
            return
        yield key, value, line
        if "\n" in value:
            line += value.count("\n")
        i += 2
    if i == last and parts[i].strip().lower() in KEYS - WHOLE_EMPTY:  # ``mb`` ends the file
        yield CUT_KEY, parts[i].strip().lower(), line + _blank_lines(parts[i])
    elif i == last and parts[i].strip():
        yield "", parts[i], line + parts[i].count("\n")
    elif i > last and parts[last].strip():  # the last value was taken, with no '|' to end it
        yield CUT, parts[last], line - parts[last].count("\n")


def parse_result(text: str) -> tuple[str, int, int] | None:
    """``3NE+1`` -> (``3NT``, seat E, 10 tricks); ``PASS`` -> None. Raises ContractError."""
    m = _RESULT.match(text.strip())
    if m is None:
        raise ContractError(f"rs entry {text!r} is not <level><strain><declarer>[x|xx](=|+n|-n)")
    level = int(m.group(1))
    contract = str(parse_contract(f"{level}{m.group(2)}{m.group(4).upper()}"))
    diff = 0 if m.group(5) == "=" else int(m.group(5))
    return contract, SEATS.index(m.group(3).upper()), level + 6 + diff


@dataclass
class Header:
    """What a file states for every board: ``vg`` (event, segment, first board, teams), ``rs``
    (results), and the ``pn`` names in force. A ``vg`` after boards begins a new header (files
    joined into one): each board has the header in force where it opened, and an ``rs`` is its
    header's, wherever in the header's part of the file it stands."""

    vg: list[str] = field(default_factory=list)
    rs: list[str] = field(default_factory=list)
    names: list[str] | None = None
    names_twice: str | None = None
    """Why the names in force are not known: two line-ups given with no board between them
    (:meth:`Boards._listed`); each board that takes them is an issue (:func:`_take_names`)."""

    @property
    def event(self) -> str | None:
        return " / ".join(x.strip() for x in self.vg[:2] if x.strip()) or None

    @property
    def match(self) -> str | None:
        """The teams ``vg`` names (``Team 1 v Team 2``): part of a board's game identity."""
        vg = self.vg
        return f"{vg[5].strip()} v {vg[7].strip()}" if len(vg) >= 8 else None

    @property
    def deals_match(self) -> str | None:
        """The match of the file's deals: :attr:`match`, but none where ``vg`` scores the
        event in matchpoints (``P``, a pairs event, whose ``vg`` names placeholder teams,
        ``40000.lin``): a pairs event has no match, so its rooms are not compared in IMPs
        (Law 78B [bk], ``scoring/bridge/event.py``)."""
        pairs = len(self.vg) > 2 and self.vg[2].strip().upper() == "P"
        return None if pairs else self.match

    def seated_teams(self, room: str | None) -> tuple[str, str] | None:
        """The teams of a board's N-S and E-W pairs in ``room``: ``vg``'s first team sits N-S
        in the open room and E-W in the closed one (BBO's order, ``pn`` naming the open room's
        players first: ``08000.lin``, Norway v Sweden); none without a match
        (:attr:`deals_match`) or a room."""
        if self.deals_match is None or room not in ("open", "closed"):
            return None
        first, second = self.vg[5].strip() or "?", self.vg[7].strip() or "?"
        return (first, second) if room == "open" else (second, first)

    @property
    def first(self) -> int:
        """The board number of ``rs``'s first entry."""
        vg = self.vg
        return int(vg[3]) if len(vg) > 3 and is_ascii_int(vg[3]) else 1


@dataclass
class Boards:
    """The boards of a LIN text as its pairs come (:meth:`read`)."""

    header: Header = field(default_factory=Header)
    boards: list[Board] = field(default_factory=list)
    loose: list[tuple[int, str, str]] = field(default_factory=list)
    """Parts out of step outside any board: (line, what, their text)."""
    cur: Board | None = None
    keyed: bool = False
    """A key has been read (what is out of step before it is text before the stream)."""
    listed: tuple[str, str, int] | None = None
    """The first line-up (key, value, line) given outside a board since the last board opened
    or ``vg`` began a header (:meth:`_listed`)."""

    def read(self, text: str) -> Boards:
        held: tuple[str, int] | None = None  # text on lines of its own after a board's pairs
        for key, value, line in pairs(text):
            if held is not None:  # pairs follow it: it is inside the board
                self._out_of_step(*held)
                held = None
            if key in IN_BOARD and self.cur is not None:  # most pairs: a card, a call, pg
                _take(self.cur, key, value, self.header, line)
                continue
            if key in ("", BETWEEN):
                if key == "" and self.cur is not None and _own_lines(value):
                    held = value, line
                    continue
                self._out_of_step(value, line, between=key == BETWEEN)
                continue
            if key in (CUT, CUT_KEY):
                self._cut(value, line, before_value=key == CUT_KEY)
                continue
            self.keyed = True
            if key == "qx" or (self.cur is not None and _next_board(self.cur, key)):
                self._open(line)
            if key in ("pn", "pw"):
                self._names(key, value, line)
                continue
            if key == "vg":
                if self.boards and self.boards[-1].header is self.header:  # a file joined on
                    self.header = Header(names=self.header.names,
                                         names_twice=self.header.names_twice)
                self.header.vg = value.split(",")
                self.listed = None
            elif key == "rs":
                self.header.rs = value.split(",")
            if self.cur is None:
                if key not in OPENS:
                    continue
                self._open(line)
            _take(self.cur, key, value, self.header, line)  # type: ignore[arg-type]
        if held is not None:  # the file ends with it: text after the last board, not of it
            value, line = held
            start = line - value.count("\n") + _blank_lines(value)
            self.loose.append((start, f"line {start}: {value.strip()[:40]!r} is not LIN (text "
                                      "after the last board)", value))
        return self

    def _open(self, line: int) -> None:
        self.cur = Board(line, header=self.header)
        self.boards.append(self.cur)
        self.listed = None

    def _cut(self, value: str, line: int, before_value: bool = False) -> None:
        """The file ends inside its last value (no ``|`` after it), or after its last key
        (``before_value``: ``value`` is that key, ``mb|`` with no call): the board it is in may
        be cut short (a play that stops mid-trick, a claim not reached), so it is an issue,
        as PBN's game the file ends inside is (``pbn.cut_short``)."""
        where = (f"line {line}: the file ends after the key {value!r}, before its value: it "
                 "may be cut short" if before_value else
                 f"line {line}: the file ends inside the value {value.strip()[:40]!r} (no '|' "
                 "after it): it may be cut short")
        if self.cur is not None:
            self.cur.errors.append(where)
        else:
            self.loose.append((line, where, value))

    def _out_of_step(self, value: str, line: int, between: bool = False) -> None:
        """A part that is no LIN: its board's issue, or one of its own outside a board and
        ``between`` two boards."""
        where = f"line {line}: {value.strip()[:40]!r} is not " + (
            "LIN (text between two boards)" if between else
            "a LIN key (a '|' missing or doubled before it?)" if self.keyed else
            "a LIN key (text before the first key)")
        if self.cur is not None and not between:
            self.cur.errors.append(where)
            self.cur.text.append(f"{value[:200]}|")
        else:
            self.loose.append((line, where, value))

    def _names(self, key: str, value: str, line: int) -> None:
        """New names hold from here on; in single-deal files a pn after a deal starts the next
        deal (its md opens the board). Inside a board before its deal they are the board's
        (and part of its text), given once (:func:`_once`); outside a board, see
        :meth:`_listed`."""
        self.header.names = [n.strip() for n in value.split(",")]
        if self.cur is not None and self.cur.md:
            self.cur = None
        if self.cur is None:
            self._listed(key, value, line)
            return
        self.cur.text.append(f"{key}|{value}|")
        self.header.names_twice = None
        if _once(self.cur, key, value, line):
            self.cur.names = self.header.names
            self.cur.twice.pop(NAMES_IN_FORCE, None)  # the board's own names, not in doubt
        else:  # the boards after it take the last list, which is as much in doubt
            self.header.names_twice = (f"it takes the line-up of an earlier board, where "
                                       f"{self.cur.twice['pn']}")

    def _listed(self, key: str, value: str, line: int) -> None:
        """A line-up (``pn``/``pw``) outside a board: at a file's head, between two boards (a
        substitution, docs/bridge.md "lin.py"), or before a single deal's ``md``. It holds
        until the next, so two with no board (and no ``vg``) between them cannot both be
        meant: the same names again are harmless; other names put the names in force in doubt
        (:attr:`Header.names_twice`, the last list kept) until a line-up is given after a
        board opened."""
        first = self.listed
        if first is None:
            self.listed = (key, value, line)
            self.header.names_twice = None
            return
        if _meaning("pn", first[1]) == _meaning("pn", value):
            return
        twice = given_twice(_subject(first[0], key), "with no board between them",
                            (first[1].strip(), first[2]), (value.strip(), line))
        self.header.names_twice = f"{twice}: which line-up plays the board is not known"


ONCE = {"sv": "sv", "ah": "ah", "mc": "mc", "pn": "pn", "pw": "pn"}
"""The keys read as one value of a board, by what they give (``pw`` is the ``pn`` list under its
other name): its vulnerability, title, claim and, after the board's ``qx`` and before its deal,
players. ../shared/data/README.md ("LIN format") gives each as one fact of the board; every
board of its LIN files gives each at most once, as endplay's LIN writer does
(``pn|..|st||md|..|rh||ah|Board n|sv|..|``); the reader kept the last without a word. Not here:
``qx`` and ``md`` (a second one opens the next board), a ``pn`` outside a board (a file's names
or a substitution, in force from there on), ``vg`` and ``rs`` (the file's), the keys that repeat
(``mb``, ``an``, ``pc``, ``nt``, ``pg``) and the keys not read (``rh``, ``st``, ...)."""


NAMES_IN_FORCE = "names in force"
"""The slot of :attr:`Board.twice` that says the names the board took were in doubt
(:attr:`Header.names_twice`)."""


def _meaning(slot: str, value: str) -> object:
    """What a value of a key given once says, as the reader reads it: ``o`` and ``0`` both
    say none vulnerable, ``pn`` names are stripped."""
    value = value.strip()
    if slot == "sv":
        try:
            return parse_vulnerable(value)
        except SeatError:
            return value.lower()
    if slot == "pn":
        return tuple(n.strip() for n in value.split(","))
    return int(value) if slot == "mc" and is_ascii_int(value) else value


def _once(cur: Board, key: str, value: str, line: int) -> bool:
    """Whether a pair of a key the board gives once (:data:`ONCE`) is read: its first, or one
    that says what the first said (harmless). Another value makes the board an issue naming the
    key, both values and their lines (as a PBN tag or a JSON key given twice,
    ``ingest.pbn.repeated_tag``, ``ingest.jsonl.RepeatedKey``): which of the two is meant is
    not known, so the reader does not pick one; the first stays in place for the board's name."""
    slot = ONCE[key]
    first = cur.given.get(slot)
    if first is None:
        cur.given[slot] = (key, value, line)
        return True
    if _meaning(slot, first[1]) == _meaning(slot, value):
        return True
    _twice(cur, slot, _subject(first[0], key), first, (value, line))
    return False


def _subject(first: str, then: str) -> str:
    """What was given twice, by its keys: ``'sv' is``, or ``the names ('pn', then 'pw') are``
    for the one list under both its keys."""
    return f"{then!r} is" if first == then else f"the names ({first!r}, then {then!r}) are"


def _twice(cur: Board, slot: str, what: str, first: tuple[str, str, int],
           then: tuple[str, int]) -> None:
    """The board is an issue: ``what`` (``'sv' is``) was given twice in it, ``first`` (key,
    value, line) and ``then`` (value, line). Only the first such pair of a slot is named."""
    twice = given_twice(what, "in one board", (first[1].strip(), first[2]),
                        (then[0].strip(), then[1]))
    cur.twice.setdefault(slot, f"{twice}: which is meant is not known")


def _alert(cur: Board, value: str, line: int) -> None:
    """``an``: the explanation of the alert of the call before it (docs/bridge.md, "lin.py":
    ``mb`` (+``!``, ``an``)); none is read before the first call. One call has one
    explanation: the same text again is harmless; with another text, which the players were
    given is not known, so the board is an issue naming the call and both texts with their
    lines (:func:`_twice`), as a key given twice is (:func:`_once`)."""
    if not cur.calls:
        return
    call = len(cur.calls) - 1
    slot = f"an {call}"
    first = cur.given.get(slot)
    if first is None:
        cur.given[slot] = ("an", value, line)
        cur.alerts[call] = value.strip()
    elif first[1].strip() != value.strip():
        _twice(cur, slot, f"'an' of call {call + 1} ({cur.calls[call]!r}) is", first,
               (value, line))


def _take_names(cur: Board, header: Header) -> None:
    """The names in force become the board's; where they are in doubt (two line-ups with no
    board between them, :meth:`Boards._listed`), the board is an issue saying so."""
    cur.names = header.names
    if header.names_twice:
        cur.twice[NAMES_IN_FORCE] = header.names_twice


def _take(cur: Board, key: str, value: str, header: Header, line: int) -> None:
    """One ``key|value|`` pair of a board (at ``line``)."""
    if len(value) > MAX_VALUE:
        if key in READ_KEYS:
            cur.errors.append(f"{key} value of {len(value):,} characters, longer than "
                              f"{MAX_VALUE:,}: the board is not read")
        value = value[:200] + f"… [{len(value) - 200:,} characters cut]"
    cur.text.append(f"{key}|{value}|")
    if key in ONCE and not _once(cur, key, value, line):
        return
    if key == "pc":
        cur.cards.append(value.strip())
    elif key == "mb":
        cur.calls.append(value.strip())
    elif key == "qx":
        cur.qx = value.strip()
        _take_names(cur, header)
    elif key == "ah":
        cur.title = value.strip()
    elif key == "md":
        cur.md = value.strip()
        if cur.names is None:
            _take_names(cur, header)
    elif key == "sv":
        cur.sv = value.strip()
    elif key == "an":
        _alert(cur, value, line)
    elif key == "mc":
        cur.mc = value.strip()


class LinReader(NamedOrRecognised):
    """Reads ``*.lin``: each board (and room) is one deal of a ``bridge-duplicate`` game."""

    name = "lin"
    extensions = (".lin",)

    def looks_like(self, head: bytes) -> bool:
        """A file that opens with a LIN key (``vg|``, ``pn|``, ``qx|``, ``md|``, ``rs|``)."""
        return bool(re.match(rb"\s*(vg|pn|qx|md|rs)\|", head))

    def read(self, path: Path) -> Iterator[Raw | Issue]:
        yield from self.read_text(text_codec.decode_or_latin1(path.read_bytes()), str(path))

    def read_text(self, text: str, source: str, stem: str = "lin") -> Iterator[Raw | Issue]:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        found = Boards().read(text)
        header = found.header
        if not found.boards:  # one issue of the file, saying everything wrong with it
            event = header.event
            what = f"event {event[:60]!r}" if event else "the file"
            yield Issue(source, 1, stem, Code.PARSE,
                        f"{what} has no boards (no qx/md records): nothing to ingest"
                        + "".join(f"; {where}" for _, where, _ in found.loose), text[:500],
                        of_file=True)
            return
        for line, where, skipped in found.loose:  # text outside any board: an issue each
            yield Issue(source, line, None, Code.PARSE, f"skipped: {where}",
                        skipped.strip()[:RAW_KEPT], of_file=True)
        last = found.boards[-1]  # a board with errors is their issue already
        if not last.errors and (cut := cut_short(last, found.boards[:-1])) is not None:
            last.errors.append(f"the file ends inside this board: {cut}")
        groups = GameGroups(stem)
        announced: set[str] = set()
        for b in found.boards:
            yield from _records(b, groups, source, announced)


def cut_short(b: Board, before: list[Board]) -> str | None:
    """How the board a file ends with shows that the rest of it is missing, or ``None``. Only
    the last board is asked (as :func:`pbn.cut_short` asks the game a file ends inside): a file
    cut where a line or a pair ends leaves no other trace. It stops before its auction where
    the boards ``before`` it give theirs. In a file with ``rs`` results, which would give the
    board its result whatever is missing, also: its auction stops before it is ended, its play
    before the last card without a claim (``mc``), or it stops right after its auction, no page
    break ending it (:func:`_paged`), where the boards before it give their play. Without
    ``rs`` such a board has no result, and its issue says so. A board without an auction or
    play is whole where no board before it gives one; a claim after all 52 cards is not
    missed."""
    try:
        dealer, _ = _deal_of(b.md or "")
        auction = auction_of(dealer, tuple(call_of(c) for c in b.calls))
    except (HandError, ValueError):  # the board's issue when it is read
        return None
    if (b.mc or "").strip():
        return None
    if not b.calls and not b.cards and any(o.calls for o in before):
        return "it stops before its auction, where the file's other boards give theirs"
    if not b.header.rs:  # the result is the claim's or the play's: without them, no result
        return None
    n = len(b.cards)
    if 0 < n < 52:
        return (f"its play stops after {counted(n, 'card')} ({counted(n // 4, 'trick')} and "
                f"{counted(n % 4, 'card')}) with no claim (mc)")
    if n:
        return None
    if b.calls and not auction.complete:
        return f"its auction stops after {counted(len(b.calls), 'call')}, not ended"
    if auction.contract is not None and any(o.cards for o in before) and not _paged(b):
        return ("it stops right after its auction, with no page break (pg) to end the board, "
                "where the file's other boards give their play")
    return None


def _paged(b: Board) -> bool:
    """A page break (``pg||``) follows the board's last call: BBO ends an auction so (every
    auction of ../shared/data/bbo-vugraph-lin/00001, 05000 and 08000.lin) and every file of
    that folder ends with one, so a last board with its auction so ended and no play is
    whole (the auction stopped there; ``rs`` gives its result). A file cut at a pair just
    after the last call has no page break after it; one cut just after the page break cannot
    be told from a whole file."""
    last_call = max((i for i, pair in enumerate(b.text) if pair.startswith("mb|")), default=-1)
    return last_call >= 0 and "pg||" in b.text[last_call + 1:]


def _records(b: Board, groups: GameGroups, source: str, announced: set[str]
             ) -> Iterator[Raw | Issue]:
    """A board's deal (and its game, when not yet in ``announced``), or its issue."""
    header = b.header
    raw = "".join(b.text)
    key = b.qx or b.title or f"record at line {b.line}"
    if b.errors or b.twice:
        named = _named(b)
        why = [f"{named}: {t}" for t in b.twice.values()]
        yield Issue(source, b.line, key, Code.PARSE, "; ".join([*b.errors, *why]), raw)
        _keep_place(b, groups)
        return
    if not b.md:
        yield Issue(source, b.line, key, Code.PARSE,
                    "board without a deal (no md): nothing to record", raw)
        return
    try:
        players, deal = convert(b, header.rs, header.first)
    except (HandError, SeatError, ContractError, ValueError) as exc:
        yield Issue(source, b.line, key, Code.PARSE, str(exc), raw)
        _keep_place(b, groups)
        return
    event, match = header.event, header.deals_match
    if match:
        deal["match"] = match
    if teams := header.seated_teams(deal.get("room")):
        deal["ns_team"], deal["ew_team"] = teams
    gid, no, _ = groups.place(_game_key(header, deal.get("room"), players),
                              deal.get("board") if table_known(players) else None)
    if gid not in announced:
        announced.add(gid)
        yield Raw(source, b.line, game_record(gid, players, event), raw)
    yield Raw(source, b.line, {"record": "deal", "game_id": gid, "deal_no": no, **deal}, raw)


OPENS = frozenset(("md", "mb", "pc", "ah", "sv", "mc"))
"""Keys of a board that open one where none is open: a deal given without ``qx`` (a single
deal's ``pn|...|st||sv|b|md|...``: its vulnerability before its cards is the deal's)."""


def _next_board(cur: Board, key: str) -> bool:
    """A key that opens the next board where no ``qx`` does: a second deal (``md``), or a
    title (``ah``) after the board's calls or cards (a file that titles each board before its
    deal, ``ah|Board 2|md|...``, where a single deal gives ``md`` first)."""
    return bool(cur.md) if key == "md" else key == "ah" and bool(cur.calls or cur.cards)


def _game_key(header: Header, room: str | None, players: list[str]) -> tuple[Any, ...]:
    """The game a board of ``players`` in ``room`` is of (``GameGroups.place``)."""
    return header.event, header.match, room, tuple(players)


def _keep_place(b: Board, groups: GameGroups) -> None:
    """A board with a deal that cannot be read keeps its number in its game, as a PBN game's
    does (``ingest.pbn._keep_place``): where the deals are numbered in order (the players are
    not known by name), the boards after it keep theirs, and a corrected file numbers them the
    same. Nothing is kept where its players or board cannot be read."""
    if not b.md:
        return
    try:
        room, board = _room_and_board(b)
        players = _players(b, room)
    except ValueError:
        return
    groups.place(_game_key(b.header, room, players), board if table_known(players) else None)


QX = re.compile(r"([oOcC]?)([0-9]+)(?:,.*)?", re.DOTALL)
"""A ``qx`` value: the room (``o`` open, ``c`` closed, or none) and the board number, perhaps
followed by a comma and a title (``o1,BOARD 1``)."""


def _room_and_board(b: Board) -> tuple[str | None, int | None]:
    """The room (``qx`` ``o``/``c``) and board number (``qx``, else the ``ah`` title); a ``qx``
    that gives neither raises ``ValueError``."""
    if b.qx:
        m = QX.fullmatch(b.qx)
        if m is None:
            raise ValueError(f"qx {b.qx[:40]!r} is not a room and board number (o12, c12)")
        room = {"o": "open", "c": "closed"}.get(m.group(1).lower())
        return room, ascii_int(m.group(2), "board number of qx")
    if b.title:
        m = re.search(r"([0-9]+)", b.title)
        return None, ascii_int(m.group(1), "board number of ah") if m else None
    return None, None


def _named(b: Board) -> str:
    """The board as an issue names it (``board 12 open``, as the validation does), else by
    its line."""
    try:
        room, no = _room_and_board(b)
    except ValueError:  # a board number out of range
        room, no = None, None
    if no is None:
        return f"the board at line {b.line}"
    return f"board {no}" + (f" {room}" if room else "")


def _players(b: Board, room: str | None) -> list[str]:
    """The four players by seat N E S W: the room's four of eight ``pn`` names. A seat named
    by its own name (``South`` at South: an operator's placeholder, ../shared/data/README.md)
    names nobody (``seat_players``: unnamed at this game's table)."""
    names = list(b.names or [])
    offset = 4 if room == "closed" and len(names) >= 8 else 0
    if names and len(names) not in (4, 8):
        raise ValueError(f"pn has {len(names)} names, not 4 or 8 (a comma inside a name?): "
                         f"{','.join(names)!r}")
    lin4 = (names[offset:offset + 4] + [""] * 4)[:4]
    by_seat: list[str | None] = [None] * 4
    for i, n in enumerate(lin4):
        by_seat[LIN_SEATS[i]] = None if is_unnamed(n.strip(), LIN_SEATS[i]) else n
    return seat_players(by_seat, lambda: _game_key(b.header, room, []))


def _deal_of(md: str) -> tuple[int, list[int | None]]:
    """``md``: the dealer's seat and the four hands by seat (a missing fourth inferred)."""
    digit, hands_text = (md[0], md[1:]) if md[:1] in "1234" and md[:1] else ("", md)
    if digit not in ("1", "2", "3", "4"):
        raise ValueError(f"md {md[:20]!r} does not start with a dealer digit 1-4")
    hands: list[int | None] = [None] * 4
    for i, h in enumerate([*hands_text.split(","), "", "", "", ""][:4]):
        hands[LIN_SEATS[i]] = parse_hand(h, dotted=False) if h.strip() else None
    return LIN_SEATS[int(digit) - 1], complete_hands(hands)


def _stated(b: Board, rs: list[str], first: int, room: str | None, board_no: int | None,
            ) -> tuple[str, int, int] | tuple[str] | None:
    """The board's ``rs`` entry: (contract, declarer, tricks), ``("pass",)``, or ``None``."""
    if board_no is None or not room or not rs:
        return None
    idx = 2 * (board_no - first) + (0 if room == "open" else 1)
    if 0 <= idx < len(rs) and rs[idx].strip():
        entry = rs[idx].strip()
        return ("pass",) if entry.upper() == "PASS" else parse_result(entry)
    return None


def convert(b: Board, rs: list[str], first: int) -> tuple[list[str], dict[str, Any]]:
    """(players by seat, deal fields) of one board, raising ``ValueError`` (or a subclass) with
    the reason."""
    room, board_no = _room_and_board(b)
    players = _players(b, room)
    dealer, full = _deal_of(b.md or "")
    deal: dict[str, Any] = {"dealer": players[dealer]}
    if board_no is not None:
        deal["board"] = board_no
    if room:
        deal["room"] = room
    if b.sv:
        deal["vulnerable"] = parse_vulnerable(b.sv)
    if all(h is not None for h in full):
        deal["hands"] = {players[s]: hand_names(h or 0) for s, h in enumerate(full)}
    calls = [call_of(c) for c in b.calls]
    deal["auction"] = [{"player": players[(dealer + i) % 4], "call": c}
                       for i, c in enumerate(calls)]
    alerts = {i: t for i, t in b.alerts.items() if t}
    alerts.update({i: "alert" for i, c in enumerate(b.calls) if c.endswith("!")
                   and i not in alerts})
    if alerts:
        deal["alerts"] = dict(sorted(alerts.items()))
    stated = _stated(b, rs, first, room, board_no)
    auction = auction_of(dealer, tuple(calls))
    if stated is not None and stated != ("pass",):
        contract, declarer, tricks = stated  # type: ignore[misc]
    elif stated == ("pass",) or (auction.complete and auction.contract is None):
        return players, deal
    elif auction.complete and auction.contract is not None and auction.declarer is not None:
        contract, declarer, tricks = str(auction.contract), auction.declarer, None
    else:
        raise ValueError("no result: no rs entry and the auction does not reach a contract ("
                         + "; ".join(auction.problems) + ")")
    deal["contract"] = contract
    deal["declarer"] = players[declarer]
    _play(b, deal, players, full, (contract, declarer, tricks), auction)
    return players, deal


def _play(b: Board, deal: dict[str, Any], players: list[str], full: list[int | None],
          result: tuple[str, int, int | None], auction: AuctionResult) -> None:
    """The play, claim and tricks of a board with a contract (``deal`` changed in place): the
    cards follow the auction's contract when it has one (the play happened after it); the
    tricks are ``rs``'s, else ``mc``'s, else counted from a complete play."""
    contract, declarer, tricks = result
    play_contract, play_declarer = contract, declarer
    if auction.complete and auction.contract is not None and auction.declarer is not None:
        play_contract, play_declarer = str(auction.contract), auction.declarer
    order = attribute_play([suit_rank_card(c) for c in b.cards], play_contract, play_declarer)
    if order:
        deal["play"] = played(order, players)
    if b.mc is not None and b.mc.strip():
        deal["claim"] = ascii_int(b.mc, "mc (tricks claimed)")  # -3 or x: the board's issue
    if tricks is None:
        tricks = deal.get("claim")
    if tricks is None and len(order) == 52 and all(h is not None for h in full):
        taken = replay([h or 0 for h in full], (play_declarer + 1) % 4, order,
                       TRUMP_SUIT[contract_of(play_contract).denom], must_trump=False)
        if isinstance(taken, list):
            tricks = taken[play_declarer] + taken[partner(play_declarer)]
    if tricks is None:
        raise ValueError(f"no result for {contract} by {SEATS[declarer]}: no rs entry, no mc "
                         f"claim, and the play stops after {len(order)} cards")
    deal["tricks"] = tricks


READER = LinReader()
