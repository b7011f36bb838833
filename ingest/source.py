"""What a reader yields: a raw record with where it came from, or an issue.

Readers stream ``Raw | Issue`` and never raise on bad input (STYLE.md practice 5). A ``Raw`` is a
record in canonical form (records.md section 1: a ``dict`` with ``"record": "game" | "deal"``) that
has not been validated yet; the validation stage turns it into a pydantic record or an ``Issue``.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from model.problems import Code
from model.tables import CONTENT_HASH_DIGITS


@dataclass(frozen=True, slots=True)
class Repair:
    """A named, unambiguous fix a reader made to a record (docs/ingest.md, "Repairs"), kept in
    the ``repairs`` table with the record's source and line."""

    code: str
    """``opening-passes``, ``contract-double``, ``play-dropped``."""
    message: str
    """What was changed, quoting the record's text."""


@dataclass(frozen=True, slots=True)
class Raw:
    source: str
    line: int
    """1-based line of the source where the record starts (for formats without lines: the
    record's ordinal position)."""
    data: dict[str, Any]
    text: str
    """The record's text as it stands in the source (quoted in quarantine)."""
    repairs: tuple[Repair, ...] = ()
    """The fixes the reader made to ``data`` (``--strict`` refuses a record that needs one)."""


@dataclass(frozen=True, slots=True)
class Issue:
    source: str
    line: int
    record_key: str | None
    """What the record is, as far as it could be read: ``game_id#deal_no``, a board id, ..."""
    code: Code
    message: str
    raw: str
    of_file: bool = False
    """The issue is of the file, not of a record: text outside any record, a file no encoding
    reads or that is not text, a file without records, a header line, a tag a record's
    neighbours contradict beside the stored record. It is reported and quarantined, and counts
    as no record read (docs/ingest.md, "Every record exactly once")."""

    def __str__(self) -> str:
        key = f" [{self.record_key}]" if self.record_key else ""
        return f"{self.source}:{self.line}{key}: {self.code}: {self.message}"


TWICE_SHOWN = 40
"""Characters of each value :func:`given_twice` quotes (a PBN ``Deal`` is 67, eight LIN names
about 70)."""


def given_twice(subject: str, where: str, first: tuple[str, int], then: tuple[str, int]
                ) -> str:
    """How a reader says that ``subject`` (``'Contract' is``, ``tag Bula is``) was given twice
    ``where`` (``in one game``, ``with no board between them``) with other values: both, cut to
    :data:`TWICE_SHOWN` characters, with their lines (``first`` and ``then``: value and line)."""

    def shown(value: str) -> str:
        return repr(value if len(value) <= TWICE_SHOWN else value[:TWICE_SHOWN - 1] + "…")

    return (f"{subject} given twice {where} ({shown(first[0])} at line {first[1]}, "
            f"then {shown(then[0])} at line {then[1]})")


INT32_MAX = 2**31 - 1
"""Largest number a reader takes from a file (the INTEGER columns: boards, deal numbers,
tricks, scores); a larger one is a reason to quarantine its record."""
_ASCII_INT = re.compile(r"[+-]?[0-9]+", re.ASCII)


def ascii_int(text: str, what: str, *, signed: bool = False) -> int:
    """A whole number written in ASCII digits (``int`` would also read ``²`` or ``١٢``),
    within the INTEGER range; ``ValueError`` naming ``what`` otherwise."""
    t = text.strip()
    if not _ASCII_INT.fullmatch(t) or (not signed and t[0] in "+-"):
        shown = t if len(t) <= 40 else t[:39] + "…"
        raise ValueError(f"{what} {shown!r} is not a {'' if signed else 'non-negative '}whole "
                         "number in digits 0-9")
    if len(t) > 12 or not -INT32_MAX - 1 <= int(t) <= INT32_MAX:
        raise ValueError(f"{what} {t[:40]!r} is out of range (at most {INT32_MAX})")
    return int(t)


def is_ascii_int(text: str) -> bool:
    """True when ``text`` is a non-negative whole number in digits 0-9 within the INTEGER
    range (``ascii_int`` would read it)."""
    t = text.strip()
    return bool(_ASCII_INT.fullmatch(t)) and t[0] not in "+-" and len(t) <= 10 and (
        int(t) <= INT32_MAX)


CONTENT_NAME = re.compile(rf"[0-9a-f]{{{CONTENT_HASH_DIGITS}}}-(?P<name>.+)")
"""A file saved under its content's name (``dashboards.uploads.stored_name``): a version of
every such file of the same ``name`` in its folder (``ingest/versions.py``)."""


def safe_name(name: str) -> str:
    """A file name without directories or unusual characters (``../x;y.jsonl`` -> ``x_y.jsonl``);
    letters and digits of any script are kept (``Σάββατο.jsonl`` stays as it is): the name an
    upload is saved under after its content's hash (``dashboards.uploads.stored_name``)."""
    base = unicodedata.normalize("NFC", name.replace("\\", "/").rsplit("/", 1)[-1])
    cleaned = re.sub(r"[^\w.-]", "_", base).lstrip(".")[:120]
    return cleaned or "upload"


def file_name(source: str) -> str:
    """The name the file of ``source`` goes by, as an upload of it would be saved
    (:func:`safe_name`): an upload's name after its content's hash (:data:`CONTENT_NAME`),
    another file's base name (``some/folder/week 12.jsonl`` and an upload of ``week 12.jsonl``
    are both ``week_12.jsonl``). Files of one name in other places may be versions of one file
    (``ingest.versions.namesakes``, docs/ingest.md "Versions of a source")."""
    base = source.replace("\\", "/").rsplit("/", 1)[-1]
    named = CONTENT_NAME.fullmatch(base)
    return safe_name(named["name"] if named else base)


def content_id(key: object) -> str:
    """16 hex digits of the sha256 of ``key`` as JSON: a game's id from its content (event,
    date, players, ...), never from the file's path (STYLE.md 6)."""
    text = json.dumps(key, ensure_ascii=False, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class Reader(Protocol):
    name: str

    def sniff(self, path: Path, head: bytes) -> bool:
        """True when ``head`` (the first bytes of the file) looks like this format."""
        ...

    def read(self, path: Path) -> Iterator[Raw | Issue]: ...


class NamedOrRecognised:
    """A reader that takes a file by its name (``extensions``) or by its content
    (``looks_like``, which ``ingest.formats.reader_for`` also asks of a file another reader
    took by its name)."""

    extensions: tuple[str, ...] = ()

    def looks_like(self, head: bytes) -> bool:
        raise NotImplementedError

    def sniff(self, path: Path, head: bytes) -> bool:
        return path.suffix.lower() in self.extensions or self.looks_like(head)
