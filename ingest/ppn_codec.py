"""PPN (Portable Preferans Notation) codes: cards, bids, kontra, summary tokens, and the bracketed
deal record split into its fields. The grammar is summarised in ``../shared/data/README.md``
("prefko-ppn"); docs/ppn.md restates it.

Card alphabet (rank order 7 8 9 10 J Q K A within each suit): spades ``1``-``8``, diamonds
``9 A``-``G``, hearts ``H``-``O``, clubs ``P``-``W``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from model.cards import SEVEN, Card, Suit, card, format_card, rank_of, suit_of

CARD_CODES = "12345678" + "9ABCDEFG" + "HIJKLMNO" + "PQRSTUVW"
_SUITS = (Suit.SPADES, Suit.DIAMONDS, Suit.HEARTS, Suit.CLUBS)
KONTRA_LETTERS = {"K": 1, "R": 2, "S": 3, "M": 4}
"""Kontra chain letters (PPN field 9): kontra, rekontra, subkontra, mortkontra; ``I`` = invite."""


class PpnError(ValueError):
    """PPN text that cannot be read, or a record PPN cannot express; quotes the bad text."""


def decode_card(ch: str) -> Card:
    i = CARD_CODES.find(ch)
    if len(ch) != 1 or i < 0:
        raise PpnError(f"not a PPN card code: {ch!r} (1-8, 9, A-W)")
    return card(_SUITS[i // 8], SEVEN + i % 8)


def encode_card(c: Card) -> str:
    return CARD_CODES[_SUITS.index(Suit(suit_of(c))) * 8 + rank_of(c) - SEVEN]


def card_name(ch: str) -> str:
    return format_card(decode_card(ch))


@dataclass(frozen=True, slots=True)
class Follower:
    """A summary token: ``0`` (wrote nothing), ``F<t>:L<n>[:<m>]`` / ``R``, ``M<t>:<n>``."""

    role: str
    """``none``, ``follower`` or ``main``."""
    tricks: int = 0
    side: str = ""
    """``L`` or ``R``: the column a follower wrote in."""
    soup: int = 0
    bula: int = 0
    """Added to the middle column (a failed follower, or the main player: +lost / -made)."""


_FOLLOWER = re.compile(r"^F([0-9]+):([LR])([0-9]+)(?::([0-9]+))?$")
_MAIN = re.compile(r"^M([0-9]+):([+-]?[0-9]+)$")


def parse_summary_token(tok: str) -> Follower:
    if tok == "0":
        return Follower("none")
    m = _FOLLOWER.match(tok)
    if m:
        return Follower("follower", int(m[1]), m[2], int(m[3]), int(m[4] or 0))
    m = _MAIN.match(tok)
    if m:
        return Follower("main", int(m[1]), bula=int(m[2]))
    raise PpnError(f"not a PPN summary token: {tok!r} (0, F<tricks>:L<n>[:<m>], M<tricks>:<n>)")


def format_summary_token(f: Follower) -> str:
    if f.role == "none":
        return "0"
    if f.role == "main":
        return f"M{f.tricks}:{f.bula}"
    return f"F{f.tricks}:{f.side}{f.soup}" + (f":{f.bula}" if f.bula else "")


BID_TOKEN = re.compile(r"^(P|[2-8]|M[2-8]|G[2-8]?)$")


@dataclass(frozen=True, slots=True)
class Record:
    """One bracketed deal record split into fields (field numbers of the PPN README)."""

    line: int
    text: str
    fields: list[str]

    @property
    def has_refa(self) -> bool:
        return len(self.fields) == 14


TAG = re.compile(r'^\[(?P<name>[A-Za-z][A-Za-z0-9_]*)\s+'
                 r'(?:(?P<quoted>"(?:[^"\\]|\\.)*")|(?P<value>[^\]]*?))\s*\]$')
"""A tag pair: its value double-quoted, where a ``\\"`` is a quote and ``\\\\`` a backslash, as
in PGN (8.1.1), which PPN follows; or bare, up to the closing ``]`` (a value in quotes with a
bare quote inside, as exports before the escapes wrote a ``Rules`` tag, loses its outer
quotes)."""
DEAL = re.compile(r"^\[(?P<body>[0-9]+\s.*)\]$")
_ESCAPED = re.compile(r'\\([\\"])')
_QUOTED = re.compile(r'^"|[\s\]]')
"""What a tag value cannot be written bare with: a space, a ``]``, a quote at its start."""


def split_line(text: str) -> tuple[str, str] | list[str] | None:
    """A tag line as ``(name, value)``, a deal line as its fields, else ``None``."""
    t = text.strip()
    m = DEAL.match(t)
    if m:
        return m["body"].split()
    m = TAG.match(t)
    if m is None:
        return None
    if m["quoted"] is not None:
        return m["name"], _ESCAPED.sub(r"\1", m["quoted"][1:-1])
    v = m["value"]  # a value quoted without escapes (a quote inside) is read as it stands
    return m["name"], v[1:-1] if v.startswith('"') and v.endswith('"') and len(v) > 1 else v


def tag_line(name: str, value: str) -> str:
    """A tag pair as :func:`split_line` reads it back: the value bare (a quote or a backslash
    inside it as it stands: a ``Rules`` tag's JSON), or quoted, its quotes and backslashes
    escaped (PGN 8.1.1), when it holds a space or a ``]``, starts with a quote, or is empty."""
    if value and not _QUOTED.search(value):
        return f"[{name} {value}]"
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'
