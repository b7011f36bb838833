"""Batches of JSON Lines as :meth:`ingest.jsonl.JsonlReader.read_lines` hands them over.

A batch is a list of ``(line, text)`` or, for a line that is not UTF-8, an ``Issue``. A batch of
lines that follow one another (no blank line, no unreadable line between them: what the
simulator and most tools write) is a :class:`Run` instead: their texts and the first line's
number, so that no pair is made for a line no path asks for.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import overload

import numpy as np

from ingest.source import Issue

Item = tuple[int, str] | Issue


class Run(Sequence[tuple[int, str]]):
    """Lines ``first, first + 1, ...``: line ``first + k`` is ``(first + k, texts[k])``."""

    def __init__(self, texts: list[str], first: int) -> None:
        self.texts = texts
        self.first = first

    def __len__(self) -> int:
        return len(self.texts)

    @overload
    def __getitem__(self, k: int) -> tuple[int, str]: ...

    @overload
    def __getitem__(self, k: slice) -> list[tuple[int, str]]: ...

    def __getitem__(self, k: int | slice) -> tuple[int, str] | list[tuple[int, str]]:
        if isinstance(k, slice):
            at = range(self.first, self.first + len(self.texts))[k]
            return list(zip(at, self.texts[k], strict=True))
        return self.first + range(len(self.texts))[k], self.texts[k]


class Batch:
    """The batch being filled: a run while its lines follow one another, else items."""

    def __init__(self) -> None:
        self.items: list[Item] = []
        self.run: Run | None = None
        self.n = 0
        self.chars = 0

    def add_run(self, texts: list[str], first: int, chars: int) -> None:
        """Lines ``first, first + 1, ...`` with ``chars`` characters in all."""
        run = self.run
        if run is not None and first == run.first + len(run):
            run.texts.extend(texts)
        elif not self.items and run is None:
            self.run = Run(texts, first)
        else:
            self._materialise()
            self.items.extend(zip(range(first, first + len(texts)), texts, strict=True))
        self.n += len(texts)
        self.chars += chars

    def add(self, items: Iterable[Item], n: int, chars: int) -> None:
        self._materialise()
        self.items.extend(items)
        self.n += n
        self.chars += chars

    def take(self) -> list[Item] | Run:
        """The batch (and a new one begins)."""
        done: list[Item] | Run = self.run if self.run is not None else self.items
        self.items, self.run, self.n, self.chars = [], None, 0, 0
        return done

    def _materialise(self) -> None:
        if self.run is not None:
            self.items.extend(self.run[:])
            self.run = None


def holding(texts: Sequence[str], *needles: str) -> list[list[int]]:
    """For each needle (which has no line end), the positions of the texts holding it, found
    in the texts joined by line ends once: a batch without a needle costs one scan for it."""
    blob = "\n".join(texts)
    ends: np.ndarray | None = None
    found: list[list[int]] = []
    for needle in needles:
        at, hits = blob.find(needle), []
        while at >= 0:
            hits.append(at)
            at = blob.find(needle, at + 1)
        if hits and ends is None:
            ends = np.cumsum(np.fromiter(map(len, texts), dtype=np.int64, count=len(texts)) + 1)
        found.append([] if ends is None or not hits else np.unique(np.searchsorted(
            ends, np.array(hits, dtype=np.int64), side="right")).tolist())
    return found
