"""What a reader yields: a raw record with where it came from, or an issue.

Readers stream ``Raw | Issue`` and never raise on bad input (STYLE.md practice 5). A ``Raw`` is a
record in canonical form (records.md section 1: a ``dict`` with ``"record": "game" | "deal"``) that
has not been validated yet; the validation stage turns it into a pydantic record or an ``Issue``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from model.problems import Code


@dataclass(frozen=True, slots=True)
class Raw:
    source: str
    line: int
    """1-based line of the source where the record starts (for formats without lines: the
    record's ordinal position)."""
    data: dict[str, Any]
    text: str
    """The record's text as it stands in the source (quoted in quarantine)."""


@dataclass(frozen=True, slots=True)
class Issue:
    source: str
    line: int
    record_key: str | None
    """What the record is, as far as it could be read: ``game_id#deal_no``, a board id, ..."""
    code: Code
    message: str
    raw: str

    def __str__(self) -> str:
        key = f" [{self.record_key}]" if self.record_key else ""
        return f"{self.source}:{self.line}{key}: {self.code}: {self.message}"


class Reader(Protocol):
    name: str

    def sniff(self, path: Path, head: bytes) -> bool:
        """True when ``head`` (the first bytes of the file) looks like this format."""
        ...

    def read(self, path: Path) -> Iterator[Raw | Issue]: ...
