"""The rows the columnar card path stores: the ``deals`` and ``deals_greek`` columns, the
canonical JSON the kernel wrote (records.md 1) and the deal key (``model.identity.deal_key``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl
import pyarrow as pa

from ingest import fastpath_cards as per_line
from ingest.fastpath_columns import kernel
from ingest.fastpath_columns.games import Games
from ingest.fastpath_columns.layout import CONTRACTS, DENOM, LEVEL, MODES
from model.identity import finish_key

OUTPUT_SCHEMA = per_line.OUTPUT_SCHEMA


@dataclass(frozen=True)
class Checked:
    """What the kernel found, one entry per line of the batch (seats are indices into the
    game's players, -1 for none; ``kernel.check_lines`` says what each holds)."""

    idx: np.ndarray
    """The line's position in the batch."""
    canonical: np.ndarray
    """The taken lines' canonical JSON, those of each part of the batch one after the other
    from the part's first byte."""
    length: np.ndarray
    status: np.ndarray
    g: np.ndarray
    deal_no: np.ndarray
    dealer: np.ndarray
    declarer: np.ndarray
    contract: np.ndarray
    mode: np.ndarray
    whister: np.ndarray
    tricks: np.ndarray
    bidder: np.ndarray
    calls: np.ndarray

    @classmethod
    def empty(cls, idx: np.ndarray, size: int) -> Checked:
        """Room for the findings on the lines at ``idx`` of ``size`` bytes in all."""
        n = len(idx)

        def ints() -> np.ndarray:
            return np.zeros(n, dtype=np.int64)

        return cls(idx, np.empty(size, dtype=np.uint8), ints(), np.zeros(n, dtype=np.int8), ints(),
                   ints(), ints(), ints(), ints(), ints(), ints(),
                   np.zeros((n, 4), dtype=np.int64), ints(),
                   np.zeros((n, kernel.MAX_CALLS), dtype=np.uint8))


@dataclass(frozen=True)
class Records:
    """The canonical JSON (an Arrow string column) and deal keys (``model.identity.deal_key``:
    the sha256 of the game id, a NUL and the canonical JSON) of lines the kernel took, and their
    positions in the batch."""

    at: np.ndarray
    json: pa.ChunkedArray
    keys: list[str]

    @classmethod
    def of(cls, c: Checked, games: Games, part: slice, base: int) -> Records:
        """A part's taken lines: the kernel wrote their JSON one after the other from ``base``
        (the first two parts of each key are hashed once per game)."""
        at = np.flatnonzero(c.status[part] == kernel.TAKEN) + part.start
        offsets = np.zeros(len(at) + 1, dtype=np.int64)
        np.cumsum(c.length[at], out=offsets[1:])
        body = c.canonical[base:base + int(offsets[-1])]
        json = pa.LargeStringArray.from_buffers(len(at), pa.py_buffer(offsets),
                                                pa.py_buffer(body))
        view = body.data
        keys = []
        for game, lo, hi in zip(c.g[at].tolist(), offsets[:-1].tolist(), offsets[1:].tolist(),
                                strict=True):
            keys.append(finish_key(games.prefix[game], view[lo:hi]))
        return cls(at, pa.chunked_array([json], pa.large_string()), keys)

    @classmethod
    def join(cls, parts: list[Records]) -> Records:
        return cls(np.concatenate([p.at for p in parts]),
                   pa.chunked_array([c for p in parts for c in p.json.chunks],
                                    pa.large_string()),
                   [k for p in parts for k in p.keys])

    def where(self, ok: np.ndarray) -> Records:
        """Those of the lines ``ok`` (by position in the batch)."""
        keep = ok[self.at]
        if keep.all():
            return self
        return Records(self.at[keep], self.json.filter(pa.array(keep)),
                       [k for k, m in zip(self.keys, keep.tolist(), strict=True) if m])


def taken_rows(games: Games, c: Checked, records: Records) -> pl.DataFrame:
    """The rows of the taken lines: columns, canonical JSON and deal key."""
    take = records.at
    if not len(take):
        return pl.DataFrame(schema=OUTPUT_SCHEMA)
    g = c.g[take]
    dealer, declarer = c.dealer[take], c.declarer[take]
    contract, whister, tricks = c.contract[take], c.whister[take], c.tricks[take]
    flat = pl.Series([(players + (None,) * 4)[s] for players in games.names for s in range(4)],
                     dtype=pl.String)
    named = {"dealer": dealer, "declarer": declarer}
    optional = {"declarer": declarer, "g_declarer": declarer, "contract": contract,
                "g_level": contract, "g_denom": contract, "g_whister": whister,
                **{f"g_tricks_{i}": tricks[:, i] for i in range(4)}}
    out = pl.DataFrame({
        "idx": pl.Series(c.idx[take], dtype=pl.Int32),
        "game_id": pl.Series(games.ids, dtype=pl.String).gather(g),
        "deal_no": pl.Series(c.deal_no[take], dtype=pl.Int32),
        **{k: flat.gather(g * 4 + np.maximum(v, 0)) for k, v in named.items()},
        "contract": pl.Series(CONTRACTS, dtype=pl.String).gather(np.maximum(contract, 0)),
        "record": pl.Series("record", records.json),
        "deal_key": pl.Series(records.keys, dtype=pl.String),
        "g_dealer": dealer,
        "g_declarer": np.maximum(declarer, 0),
        "g_level": LEVEL[np.maximum(contract, 0)],
        "g_denom": DENOM[np.maximum(contract, 0)],
        "g_mode": pl.Series(MODES, dtype=pl.String).gather(c.mode[take]),
        "g_whister": np.maximum(whister, 0),
        **{f"g_tricks_{i}": np.maximum(tricks[:, i], 0) for i in range(4)},
        "has_cards": np.ones(len(take), dtype=bool),
        **{f"_has_{k}": v >= 0 for k, v in optional.items()},
    }).with_columns(pl.when(pl.col(f"_has_{k}")).then(pl.col(k)).alias(k) for k in optional)
    return out.select(list(OUTPUT_SCHEMA)).cast(pl.Schema(OUTPUT_SCHEMA))
