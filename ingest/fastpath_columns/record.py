"""The rows the columnar card path stores: the ``deals`` and ``deals_greek`` columns, the
canonical JSON (records.md 1: defaults left out, keys sorted, no spaces) assembled from the line's
own bytes, and the deal key (``ingest.validate.deal_key``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl
import pyarrow as pa

from ingest import fastpath_cards as per_line
from ingest.fastpath_columns.games import Games
from ingest.fastpath_columns.layout import (
    AUCTION,
    CONTRACT,
    CONTRACTS,
    DEAL_NO,
    DEALER,
    DECLARER,
    DEFENCE,
    DENOM,
    DISCARD,
    GAME_ID,
    HANDS,
    LEVEL,
    MODES,
    PLAY,
    TALON,
    TRICKS,
)
from ingest.fastpath_columns.text import Literals, Text, segments

OUTPUT_SCHEMA = per_line.OUTPUT_SCHEMA

@dataclass(frozen=True)
class Checked:
    """What the checks found, one entry per line of the batch (seats are indices into the
    game's players, -1 for none)."""

    ok: np.ndarray
    """The line passed every check."""
    g: np.ndarray
    """The line's game (``Games`` index)."""
    at: np.ndarray
    """(lines, keys): the string index of each key, -1 when absent."""
    upto: np.ndarray
    """(lines, keys): the string index where each key's section ends."""
    deal_no: np.ndarray
    dealer: np.ndarray
    declarer: np.ndarray
    contract: np.ndarray
    """Ladder index of the contract (4.1), -1 for none."""
    mode: np.ndarray
    """Index into ``MODES``."""
    whister: np.ndarray
    tricks: np.ndarray
    """(lines, 4): tricks by seat, -1 for a seat not in the play."""
    hand_seat: np.ndarray
    defence_seat: np.ndarray
    tricks_seat: np.ndarray
    n_tricks: np.ndarray


def taken_rows(frame: pl.DataFrame, text: Text, games: Games, c: Checked) -> pl.DataFrame:
    """The taken lines' rows: columns, canonical JSON and deal key."""
    take = np.flatnonzero(c.ok)
    if not len(take):
        return pl.DataFrame(schema=OUTPUT_SCHEMA)
    record, keys = _canonical(text, games, c, take)
    gt = c.g[take]
    names = [games.names[i] for i in gt.tolist()]

    def name(seats: np.ndarray) -> list[str | None]:
        return [p[s] if s >= 0 else None for p, s in zip(names, seats.tolist(), strict=True)]

    decl = np.where(c.at[take, DECLARER] >= 0, c.declarer[take], -1)
    contract = c.contract[take]
    tricks = c.tricks[take]
    whister = c.whister[take]
    out = frame[take].with_columns(
        pl.Series("game_id", [games.ids[i] for i in gt.tolist()], dtype=pl.String),
        pl.Series("deal_no", c.deal_no[take], dtype=pl.Int32),
        pl.Series("dealer", name(c.dealer[take]), dtype=pl.String),
        pl.Series("declarer", name(decl), dtype=pl.String),
        pl.Series("contract", [CONTRACTS[i] if i >= 0 else None for i in contract.tolist()],
                  dtype=pl.String),
        record,
        pl.Series("deal_key", keys, dtype=pl.String),
        pl.Series("g_dealer", c.dealer[take], dtype=pl.Int8),
        pl.Series("g_declarer", np.where(decl >= 0, decl, 0), dtype=pl.Int8),
        pl.Series("g_level", LEVEL[np.maximum(contract, 0)], dtype=pl.Int8),
        pl.Series("g_denom", DENOM[np.maximum(contract, 0)], dtype=pl.Int32),
        pl.Series("g_mode", [MODES[m] for m in c.mode[take].tolist()], dtype=pl.String),
        pl.Series("g_whister", np.maximum(whister, 0), dtype=pl.Int8),
        *(pl.Series(f"g_tricks_{i}", np.maximum(tricks[:, i], 0), dtype=pl.Int8)
          for i in range(4)),
        has_cards=pl.lit(True),
    ).with_columns(
        g_declarer=pl.when(pl.col("declarer").is_not_null()).then(pl.col("g_declarer")),
        g_level=pl.when(pl.col("contract").is_not_null()).then(pl.col("g_level")),
        g_denom=pl.when(pl.col("contract").is_not_null()).then(pl.col("g_denom")),
        g_whister=pl.when(pl.Series(whister >= 0)).then(pl.col("g_whister")),
        **{f"g_tricks_{i}": pl.when(pl.Series(tricks[:, i] >= 0)).then(pl.col(f"g_tricks_{i}"))
           for i in range(4)},
    )
    return out.select(list(OUTPUT_SCHEMA)).cast(pl.Schema(OUTPUT_SCHEMA))


def _canonical(text: Text, games: Games, c: Checked, take: np.ndarray
               ) -> tuple[pl.Series, list[str]]:
    """records.md canonical JSON of the taken lines, and their deal keys (``ingest.validate``
    ``deal_key``: the sha256 of the game id, a NUL and the canonical JSON)."""
    d = text.data
    lit = Literals(len(d))
    n = len(take)
    first = text.first[take]
    at = c.at[take]
    has = at >= 0
    upto = c.upto[take]
    g = c.g[take]
    pieces: list[tuple[np.ndarray, np.ndarray]] = []

    def piece(start: np.ndarray | int, length: np.ndarray | int,
              when: np.ndarray | bool = True) -> None:
        st = np.broadcast_to(np.asarray(start, dtype=np.int64), (n,))
        ln = np.broadcast_to(np.asarray(length, dtype=np.int64), (n,))
        pieces.append((st, np.where(when, ln, 0)))

    def literal(text_: str, when: np.ndarray | bool = True) -> None:
        piece(*lit(text_), when)

    def open_of(j: np.ndarray) -> np.ndarray:
        return text.open[first.reshape((-1,) + (1,) * (j.ndim - 1)) + j]

    def section(k: int) -> tuple[np.ndarray, np.ndarray]:
        """The key and its value as the line has them (spaces dropped): up to the comma or
        brace before the next key, or the line's closing brace."""
        j = np.where(has[:, k], at[:, k], 0)
        s = open_of(j)
        nxt = np.where(upto[:, k] < text.count[take], open_of(np.minimum(
            upto[:, k], text.count[take] - 1)) - 1, text.line_end[take] - 1)
        return s, nxt - s

    def closing(k: int) -> np.ndarray:
        """Where the object of key ``k`` ends: its closing brace."""
        s, ln = section(k)
        return s + ln - 1

    def whole(k: int, comma_before: bool) -> None:
        s, ln = section(k)
        if comma_before:
            literal(",", has[:, k])
        piece(s, ln, has[:, k])
        if not comma_before:
            literal(",", has[:, k])

    def entries(k: int, seats: np.ndarray, size: int, per: int, count: np.ndarray,
                end: np.ndarray) -> None:
        """The ``size`` entries of a ``{name: value}`` object sorted by name; entry ``e`` starts
        at string ``at + 1 + per*e`` and ends where the next starts (``end`` for the last)."""
        rank = np.where(seats >= 0, games.rank[g[:, None], np.maximum(seats, 0)], 9)
        j0 = at[:, k][:, None] + 1 + per * np.arange(size)
        starts = open_of(np.minimum(j0, text.count[take][:, None] - 1))
        ends = np.concatenate([starts[:, 1:] - 1, end[:, None]], axis=1)
        ends = np.where(np.arange(size) == count[:, None] - 1, end[:, None], ends)
        order = np.argsort(np.where(np.arange(size) < count[:, None], rank, 99), axis=1)
        for e in range(size):
            pick = order[:, e]
            s = starts[np.arange(n), pick]
            ln = ends[np.arange(n), pick] - s
            if e:
                literal(",", (e < count) & has[:, k])
            piece(s, ln, (e < count) & has[:, k])

    literal("{")
    whole(AUCTION, False)
    whole(CONTRACT, False)
    whole(DEAL_NO, False)
    s, ln = section(DEALER)
    piece(s, ln)
    whole(DECLARER, True)
    literal(',"defence":{', has[:, DEFENCE])
    def_end = closing(DEFENCE)
    entries(DEFENCE, c.defence_seat[take], 2, 2, np.full(n, 2), def_end)
    literal("}", has[:, DEFENCE])
    whole(DISCARD, True)
    literal(",")
    s, ln = section(GAME_ID)
    piece(s, ln)
    literal(',"hands":{')
    hand_end = closing(HANDS)
    entries(HANDS, c.hand_seat[take], 3, 11, np.full(n, 3), hand_end)
    literal("}")
    whole(PLAY, True)
    whole(TALON, True)
    literal(',"tricks":{', has[:, TRICKS])
    t_end = closing(TRICKS)
    entries(TRICKS, c.tricks_seat[take], 3, 1, c.n_tricks[take], t_end)
    literal("}", has[:, TRICKS])
    literal("}")
    src = np.concatenate([d, lit.bytes()])
    starts = np.stack([p[0] for p in pieces], axis=1)
    lengths = np.stack([p[1] for p in pieces], axis=1)
    body, offsets = segments(src, starts, lengths)
    blob = body.tobytes()
    records = pa.LargeStringArray.from_buffers(n, pa.py_buffer(offsets.astype(np.int64)),
                                               pa.py_buffer(blob))
    return pl.Series("record", records), _keys(games, g, blob, offsets)


def _keys(games: Games, g: np.ndarray, blob: bytes, offsets: np.ndarray) -> list[str]:
    """``ingest.validate.deal_key`` of each record: the sha256 of its game id, a NUL and the
    record (the first two hashed once per game)."""
    view = memoryview(blob)
    out = []
    for game, lo, hi in zip(g.tolist(), offsets[:-1].tolist(), offsets[1:].tolist(),
                            strict=True):
        h = games.prefix[game].copy()
        h.update(view[lo:hi])
        out.append(h.hexdigest()[:32])
    return out
