"""The bytes of a batch of JSON lines of a known shape, as numpy arrays (the columnar card path).

The spaces between tokens are dropped, and each string is known by the positions of its quotes;
strings of up to sixteen bytes are compared as little-endian uint64 words. :func:`segments`
joins pieces of the bytes row by row (the canonical JSON is assembled that way).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl
import pyarrow as pa

LOW_BYTES = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [2**64 - 1], dtype=np.uint64)
"""The mask of the first ``k`` bytes of a uint64 (k = 0..8)."""


def packed(word: bytes) -> int:
    return int.from_bytes(word.ljust(8, b"\0"), "little")


@dataclass(frozen=True)
class Vocab:
    """Tokens of at most sixteen bytes whose first eight bytes differ, looked up by their packed
    bytes (two little-endian uint64 words) and length."""

    first: np.ndarray
    second: np.ndarray
    lengths: np.ndarray
    codes: np.ndarray

    @classmethod
    def of(cls, tokens: Sequence[str]) -> Vocab:
        raw = [t.encode() for t in tokens]
        assert all(len(b) <= 16 for b in raw) and len({b[:8] for b in raw}) == len(raw)
        first = np.array([packed(b[:8]) for b in raw], dtype=np.uint64)
        order = np.argsort(first)
        second = np.array([packed(b[8:]) for b in raw], dtype=np.uint64)
        lengths = np.array([len(b) for b in raw], dtype=np.int64)
        return cls(first[order], second[order], lengths[order], order.astype(np.int64))

    def code(self, text: Text, start: np.ndarray, length: np.ndarray) -> np.ndarray:
        """The index in the vocabulary of each string (``start``, ``length``), -1 if none."""
        w0 = text.word(start, length)
        at = np.minimum(np.searchsorted(self.first, w0), len(self.first) - 1)
        same = (self.first[at] == w0) & (self.lengths[at] == length)
        if (self.second != 0).any():
            same &= self.second[at] == text.word(start, length, 1)
        return np.where(same, self.codes[at], -1)


@dataclass
class Text:
    """The lines' bytes without the spaces between tokens, and their strings: ``start`` and
    ``length`` of each string's content, ``first`` string and number of strings of each line."""

    data: np.ndarray
    u64: np.ndarray
    line_end: np.ndarray
    open: np.ndarray
    close: np.ndarray
    first: np.ndarray
    count: np.ndarray
    intact: np.ndarray
    """Lines whose strings kept every byte when the spaces were dropped."""

    @classmethod
    def of(cls, lines: pl.Series, check_strings: bool = True) -> Text:
        """``check_strings``: find the lines whose strings lost a space (not needed when no
        player or game id of the batch has a comma or colon: such a string then matches no
        name, and the other strings are words of a vocabulary without either)."""
        arrow = lines.to_arrow(compat_level=pl.CompatLevel.oldest())  # large_string
        if isinstance(arrow, pa.ChunkedArray):
            arrow = arrow.combine_chunks()
        _, offsets_buffer, data_buffer = arrow.buffers()
        off = np.frombuffer(offsets_buffer, dtype=np.int64)[
            arrow.offset:arrow.offset + len(arrow) + 1]
        raw = np.frombuffer(data_buffer, dtype=np.uint8)[off[0]:off[-1]]
        off = off - off[0]
        # the shape allows one space after a comma or colon between tokens; one inside a
        # string shortens that string, and :attr:`intact` turns its line down
        sep = (raw[:-1] == ord(",")) | (raw[:-1] == ord(":"))
        drop = np.zeros(len(raw), dtype=bool)
        drop[1:] = sep & (raw[1:] == ord(" "))
        gone = np.flatnonzero(drop)
        data = np.concatenate([raw[~drop], np.zeros(24, dtype=np.uint8)])
        at = off - np.searchsorted(gone, off)
        starts, ends = at[:-1], at[1:]
        q = np.flatnonzero(data == ord('"'))
        opened, closed = q[0::2], q[1::2]
        first = np.searchsorted(opened, starts)
        count = np.searchsorted(opened, ends) - first
        u64 = np.ndarray(shape=(len(data) - 7,), dtype="<u8", buffer=data.data, strides=(1,))
        text = cls(data, u64, ends, opened, closed, first, count,
                   np.ones(len(starts), dtype=bool))
        if not check_strings:
            return text
        raw_q = np.flatnonzero(raw == ord('"'))
        if len(raw_q) != len(q):  # cannot happen: only spaces were dropped
            text.intact[:] = False
            return text
        shorter = (raw_q[1::2] - raw_q[0::2]) != (closed - opened)
        bad_lines = np.searchsorted(starts, opened[shorter], side="right") - 1
        text.intact[bad_lines] = False
        return text

    def strings(self, j: np.ndarray, rows: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
        """``(start, length)`` of the contents of each line's ``j``-th string (``j`` has the
        lines along its first axis; out-of-range ``j`` gives the line's first string)."""
        first = self.first if rows is None else self.first[rows]
        count = self.count if rows is None else self.count[rows]
        shape = (-1,) + (1,) * (j.ndim - 1)
        jj = np.where((j >= 0) & (j < count.reshape(shape)), j, 0)
        s = first.reshape(shape) + jj
        s = np.minimum(s, len(self.open) - 1)
        return self.open[s] + 1, self.close[s] - self.open[s] - 1

    def word(self, start: np.ndarray, length: np.ndarray, k: int = 0) -> np.ndarray:
        """Bytes ``8k .. 8k+7`` of a string, zero beyond its end, as a uint64."""
        rest = np.clip(length - 8 * k, 0, 8)
        return self.u64[start + 8 * k] & LOW_BYTES[rest]


def segments(src: np.ndarray, start: np.ndarray, length: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
    """Each row's pieces ``src[start:start+length]`` joined: the bytes and the rows' offsets."""
    length = np.where(length > 0, length, 0)
    offsets = np.zeros(len(length) + 1, dtype=np.int64)
    np.cumsum(length.sum(axis=1), out=offsets[1:])
    flat_len = length.ravel()
    piece_at = np.cumsum(flat_len) - flat_len
    idx = np.repeat(start.ravel() - piece_at, flat_len)
    idx += np.arange(len(idx), dtype=np.int64)
    return src[idx], offsets


class Literals:
    """Fixed pieces of the canonical JSON, appended after the batch's bytes."""

    def __init__(self, base: int) -> None:
        self.base = base
        self.parts: list[bytes] = []
        self.at: dict[bytes, int] = {}
        self.size = 0

    def __call__(self, piece: str) -> tuple[int, int]:
        b = piece.encode()
        if b not in self.at:
            self.at[b] = self.base + self.size
            self.parts.append(b)
            self.size += len(b)
        return self.at[b], len(b)

    def bytes(self) -> np.ndarray:
        return np.frombuffer(b"".join(self.parts), dtype=np.uint8)

