"""Batches of JSON Lines as :meth:`ingest.jsonl.JsonlReader.read_lines` hands them over.

A batch is a list of ``(line, text)`` or, for a line that is not UTF-8, an ``Issue``. A batch of
*plain* lines (ASCII, no blank line, no ``"\\r"``, each starting a JSON object: what the
simulator and most tools write) is a :class:`PlainLines` instead: the bytes as they were read
and where each line starts and ends, searched as bytes and a line turned into text only when
asked for.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import overload

import numpy as np

from ingest.source import Issue

Item = tuple[int, str] | Issue
OPEN = ord("{")


class PlainLines(Sequence[tuple[int, str]]):
    """Plain lines ``first, first + 1, ...``: line ``first + k`` is
    ``data[starts[k]:ends[k]]``, one ``"\\n"`` between a line and the next."""

    def __init__(self, data: bytes, starts: np.ndarray, ends: np.ndarray, first: int) -> None:
        self.data = data
        self.starts = starts
        self.ends = ends
        self.first = first
        self._texts: list[str] | None = None

    def __len__(self) -> int:
        return len(self.starts)

    @overload
    def __getitem__(self, k: int) -> tuple[int, str]: ...

    @overload
    def __getitem__(self, k: slice) -> list[tuple[int, str]]: ...

    def __getitem__(self, k: int | slice) -> tuple[int, str] | list[tuple[int, str]]:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        if not -len(self) <= k < len(self):
            raise IndexError(k)
        k %= len(self)
        return self.first + k, self.text(k)

    def text(self, k: int) -> str:
        """Line ``first + k`` as text."""
        if self._texts is not None:
            return self._texts[k]
        return str(memoryview(self.data)[self.starts[k]:self.ends[k]], "ascii")

    def texts(self) -> list[str]:
        """Every line as text (decoded at once)."""
        if self._texts is None:
            self._texts = str(self.blob, "ascii").split("\n")
        return self._texts

    @property
    def blob(self) -> memoryview:
        """The lines' bytes, one ``"\\n"`` between two."""
        return memoryview(self.data)[int(self.starts[0]):int(self.ends[-1])]

    def holding(self, needle: bytes) -> np.ndarray:
        """Whether each line holds ``needle`` (which has no line end): every place it is found
        in the bytes, placed by line."""
        if not needle:
            return np.ones(len(self), dtype=bool)
        at, end, found = int(self.starts[0]), int(self.ends[-1]), []
        while (at := self.data.find(needle, at, end)) >= 0:
            found.append(at)
            at += 1
        out = np.zeros(len(self), dtype=bool)
        out[np.searchsorted(self.starts, np.array(found, dtype=np.int64), side="right") - 1] = True
        return out

    @property
    def chars(self) -> int:
        """Characters of the lines, line ends not counted."""
        return int(self.ends[-1] - self.starts[0]) - len(self) + 1


def plain_spans(data: bytes, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray] | None:
    """Where the lines of ``data[lo:hi]`` start and end, when they are plain (ASCII, no
    ``"\\r"``, each starting with ``{``); ``None`` otherwise."""
    if hi <= lo or data.find(b"\r", lo, hi) >= 0:
        return None
    block = np.frombuffer(data, dtype=np.uint8, count=hi - lo, offset=lo)
    if block.max() >= 0x80:
        return None
    breaks = np.flatnonzero(block == ord("\n"))
    starts = np.empty(len(breaks) + 1, dtype=np.int64)
    starts[0], starts[1:] = lo, breaks + (lo + 1)
    ends = np.empty_like(starts)
    ends[:-1], ends[-1] = breaks + lo, hi
    if not ((ends > starts).all() and (block[starts - lo] == OPEN).all()):
        return None
    return starts, ends


class Batch:
    """The batch being filled: plain pieces while every line of it is plain, else items."""

    def __init__(self) -> None:
        self.items: list[Item] = []
        self.pieces: list[PlainLines] = []
        self.n = 0
        self.chars = 0

    def add_plain(self, data: bytes, starts: np.ndarray, ends: np.ndarray, first: int) -> None:
        piece = PlainLines(data, starts, ends, first)
        if self.items:
            self.items.extend(piece)
        else:
            self.pieces.append(piece)
        self.n += len(piece)
        self.chars += piece.chars

    def add(self, items: Iterable[Item], n: int, chars: int) -> None:
        self._materialise()
        self.items.extend(items)
        self.n += n
        self.chars += chars

    def take(self) -> list[Item] | PlainLines:
        """The batch (and a new one begins)."""
        out = _joined(self.pieces) if self.pieces else None
        if out is None:
            self._materialise()
        done: list[Item] | PlainLines = out if out is not None else self.items
        self.items, self.pieces, self.n, self.chars = [], [], 0, 0
        return done

    def _materialise(self) -> None:
        for piece in self.pieces:
            self.items.extend(piece)
        self.pieces = []


def _joined(pieces: list[PlainLines]) -> PlainLines | None:
    """The pieces as one batch: in their own buffer when they follow one another in it (the
    usual case), else copied into one; ``None`` when their line numbers do not follow."""
    first = pieces[0]
    together = True
    for before, p in pairwise(pieces):
        if p.first != before.first + len(before):
            return None
        together = together and p.data is before.data and int(p.starts[0]) == int(
            before.ends[-1]) + 1
    if len(pieces) == 1:
        return first
    if together:
        return PlainLines(first.data, np.concatenate([p.starts for p in pieces]),
                          np.concatenate([p.ends for p in pieces]), first.first)
    data = b"\n".join(p.blob for p in pieces)
    starts, ends, base = [], [], 0
    for p in pieces:
        shift = base - int(p.starts[0])
        starts.append(p.starts + shift)
        ends.append(p.ends + shift)
        base += len(p.blob) + 1
    return PlainLines(data, np.concatenate(starts), np.concatenate(ends), first.first)


class Texts(Sequence[str]):
    """The lines of a :class:`PlainLines` as text, each decoded when asked for."""

    def __init__(self, lines: PlainLines) -> None:
        self.lines = lines

    def __len__(self) -> int:
        return len(self.lines)

    @overload
    def __getitem__(self, k: int) -> str: ...

    @overload
    def __getitem__(self, k: slice) -> list[str]: ...

    def __getitem__(self, k: int | slice) -> str | list[str]:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        return self.lines[k][1]
