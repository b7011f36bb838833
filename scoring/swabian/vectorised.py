"""Frames in, frames out around the kernel: ``deals_swabian`` + ``games`` -> ``Settled``.

Each deal's game rules and player names are looked up by index, the kernel pays every deal, and
the per-seat columns are laid out as ``settlements`` (three rows per deal), ``transfers`` (one row
per pair that exchanged units, netted) and ``standings``. Rows come out in the order of ``deals``
(the registry passes them sorted by game and deal number; nothing but the balance carries across
deals, so the order changes no amount).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from scoring.settlement import Settled
from scoring.swabian import schema
from scoring.swabian.kernel import Columns, pay
from scoring.swabian.schema import read_rules


def columns(deals: pl.DataFrame, units: np.ndarray) -> Columns:
    """The kernel's columns from a ``deals_swabian`` frame (``units`` per deal)."""

    def col(name: str, fill: int) -> np.ndarray:
        return deals[name].fill_null(fill).to_numpy().astype(np.int16)

    declarer = col("declarer", -1)
    t = [col(f"tricks_{i}", 0) for i in range(3)]
    tricks = np.where(declarer == 0, t[0], np.where(declarer == 1, t[1], t[2]))
    return Columns(
        dealer=col("dealer", 0),
        declarer=declarer,
        game=np.where(declarer >= 0, col("game", 0), 0).astype(np.int16),
        hand=col("hand", 0),
        tricks=np.where(declarer >= 0, tricks, 0).astype(np.int16),
        contra_0=col("contra_0", 1),
        contra_1=col("contra_1", 1),
        contra_2=col("contra_2", 1),
        kunstwerk=col("kunstwerk", 0),
        kunstwerk_units=units.astype(np.int16),
    )


def settle(games: pl.DataFrame, deals: pl.DataFrame) -> Settled:
    """The vectorised settlement of every game at once (``Settlement.settle``)."""
    ids = games["game_id"].to_list()
    rules = [read_rules(r) for r in games["rules"].to_list()]
    names = [list(p) for p in games["players"].to_list()]
    index = pl.DataFrame(
        {"game_id": ids, "_g": np.arange(len(ids), dtype=np.int32)},
        schema={"game_id": pl.String(), "_g": pl.Int32()},
    )
    # Deals of games missing from ``games`` are not settled (no rows), as in every variant.
    deals = deals.join(index, on="game_id", how="inner", maintain_order="left")
    g = deals["_g"].to_numpy()
    unit_of = np.array([r.kunstwerk_units for r in rules] or [0], dtype=np.int32)
    paid = pay(columns(deals, unit_of[g]))
    n = deals.height
    row = np.repeat(np.arange(n), 3)
    seat = np.tile(np.arange(3, dtype=np.int8), n)
    flat_names = pl.Series([p for ps in names for p in ps], dtype=pl.String())
    cash = np.stack(paid.cash, axis=1).ravel().astype(np.float64)
    keys = deals.select("game_id", "deal_no")[row]
    settlements = keys.with_columns(
        player=flat_names.gather(g[row] * 3 + seat),
        seat=pl.Series(seat, dtype=pl.Int8()),
        variant=pl.lit(schema.VARIANT),
        cash=pl.Series(cash),
        **{c: pl.lit(None, dtype=schema.SETTLEMENTS[c]) for c in schema.UNUSED},
    ).select(list(schema.SETTLEMENTS))

    owes = np.stack(paid.owes, axis=1).ravel()
    declarer = np.repeat(deals["declarer"].fill_null(-1).to_numpy().astype(np.int64), 3)
    hit = np.flatnonzero(owes)
    payer = np.where(owes[hit] > 0, seat[hit], declarer[hit])
    payee = np.where(owes[hit] > 0, declarer[hit], seat[hit])
    base = g[row[hit]] * 3
    transfers = deals.select("game_id", "deal_no")[row[hit]].with_columns(
        payer=flat_names.gather(base + payer),
        payee=flat_names.gather(base + payee),
        amount=pl.Series(np.abs(owes[hit]).astype(np.float64)),
    )

    slot = g[row] * 3 + seat
    totals = np.bincount(slot, weights=cash, minlength=3 * len(ids))
    played = np.bincount(g, minlength=len(ids))
    has = np.flatnonzero(played)
    standings = pl.DataFrame(
        {
            "game_id": [ids[i] for i in has for _ in range(3)],
            "player": [p for i in has for p in names[i]],
            "variant": schema.VARIANT,
            "cash": [float(totals[3 * i + s]) for i in has for s in range(3)],
            "deals_played": [int(played[i]) for i in has for _ in range(3)],
            "finished": [schema.finished(rules[i], int(played[i])) for i in has for _ in range(3)],
        },
        schema=schema.STANDINGS,
    )
    return Settled(
        settlements=settlements,
        transfers=transfers.select(list(schema.TRANSFERS)).cast(schema.TRANSFERS),  # type: ignore[arg-type]
        standings=standings,
    )
