"""The vectorised Russian settlement, registered as ``SETTLEMENT``: ``deals_russian`` + ``games``
-> ``RussianSettled``, frames in and out around the scan.

The scan (``scan.py``) walks the pulya and gives the pairwise gains times D in integers, once
per pair of seats (the other way round is the negation); the transfers divide them by D: i gains
from j ``(D (W_ij - W_ji) + 10 (H_j - H_i)) / D`` (``reference.received``), and ``cash_i`` is
their sum over j, divided once.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import polars as pl

from model.russian.frame import TABLE
from model.russian.params import RussianRules
from scoring.frames import each_rules
from scoring.russian import frames, reference
from scoring.russian.frames import RussianSettled, read_rules
from scoring.russian.scan import (
    AGAINST,
    INCIDENCE,
    N_RULES,
    PAIR,
    SIGN,
    WRITER,
    Columns,
    Scan,
    gains,
    rule_row,
    scan,
)
from scoring.settlement import Settled, Settlement


def columns(deals: pl.DataFrame, g: np.ndarray, rules: list[RussianRules], players: np.ndarray
            ) -> Columns:
    def col(name: str) -> np.ndarray:
        # always a copy: polars gives a read-only view where it can, a writable copy where it
        # cannot, and each is a type of its own to the scan, which numba compiles once per type
        return deals[name].cast(pl.Int8).fill_null(-1).to_numpy(writable=True)

    return Columns(
        game=g.astype(np.int32), dealer=col("dealer"), declarer=col("declarer"),
        level=col("level"), misere=col("misere"), defender_1=col("defender_1"),
        defender_2=col("defender_2"), defence_1=col("defence_1"), defence_2=col("defence_2"),
        tricks=np.stack([col(f"tricks_{i}") for i in range(4)], axis=1),
        rules=np.stack([rule_row(r) for r in rules]) if rules else np.zeros((0, N_RULES), np.int64),
        players=players.astype(np.int64),
    )


def settle(games: pl.DataFrame, deals: pl.DataFrame) -> RussianSettled:
    """The kernel's settlement of every game at once (``Settlement.settle``)."""
    ids = games["game_id"].to_list()
    rules = each_rules(games, read_rules)
    names = [list(p) for p in games["players"].to_list()]
    players = np.array([len(p) for p in names] or [3], dtype=np.int64)
    index = pl.DataFrame({"game_id": ids, "_g": np.arange(len(ids), dtype=np.int32)},
                         schema={"game_id": pl.String(), "_g": pl.Int32()})
    deals = deals.join(index, on="game_id", how="inner").sort("_g", "deal_no")
    g = deals["_g"].to_numpy().astype(np.int64)
    c = columns(deals, g, rules, players[: len(ids)])
    s = scan(c)
    pairs, d = gains(c, s)
    dd = d[g].astype(np.float64)
    cash = (pairs @ INCIDENCE) / dd[:, None]
    times_d = _ordered(pairs)
    n_of = players[g]
    row, seat = np.nonzero((np.arange(4)[None, :] < n_of[:, None]) & ~s.after_end[:, None])
    flat = pl.Series([p for ps in names for p in ps], dtype=pl.String())
    start = np.concatenate([[0], np.cumsum(players[: len(ids)])])[:-1].astype(np.int64)
    keys = deals.select("game_id", "deal_no")[row]
    filled: dict[str, object] = {
        "player": flat.gather(start[g[row]] + seat), "seat": seat.astype(np.int8),
        "variant": pl.repeat(frames.VARIANT, len(row), eager=True), "cash": cash[row, seat],
        "pool_delta": s.pool[row, seat], "pool_after": s.pool_after[row, seat],
        "hill_delta": s.hill[row, seat], "hill_after": s.hill_after[row, seat],
        "whists_delta": s.whists.reshape(-1, 4, 3)[row, seat].sum(axis=1),
    }
    settlements = frames.settlements_frame(
        {"game_id": keys["game_id"], "deal_no": keys["deal_no"], **filled})  # type: ignore[dict-item]
    pair = np.nonzero(times_d > 0)
    transfers = deals.select("game_id", "deal_no")[pair[0]].with_columns(
        payer=flat.gather(start[g[pair[0]]] + AGAINST[pair[1]]),
        payee=flat.gather(start[g[pair[0]]] + WRITER[pair[1]]),
        amount=pl.Series(times_d[pair] / dd[pair[0]], dtype=pl.Float64()),
    )
    wrote = np.nonzero(s.whists)
    whists = deals.select("game_id", "deal_no")[wrote[0]].with_columns(
        writer=flat.gather(start[g[wrote[0]]] + WRITER[wrote[1]]),
        against=flat.gather(start[g[wrote[0]]] + AGAINST[wrote[1]]),
        amount=pl.Series(s.whists[wrote], dtype=pl.Int32()),
    )
    return RussianSettled(
        settlements=settlements,
        transfers=transfers.select(list(frames.frames.TRANSFERS)),
        standings=_standings(ids, names, g, row, seat, n_of, c.dealer, cash, s),
        whists=whists.select(list(frames.WHISTS)),
    )


def _ordered(pairs: np.ndarray) -> np.ndarray:
    """D times what ``WRITER[k]`` gains from ``AGAINST[k]`` (column k) from the gains per pair."""
    out = np.empty((len(pairs), len(PAIR)), dtype=pairs.dtype)
    for k in range(len(PAIR)):
        out[:, k] = pairs[:, PAIR[k]] * SIGN[k]
    return out


def _standings(ids: list[str], names: list[list[str]], g: np.ndarray, row: np.ndarray,
               seat: np.ndarray, n_of: np.ndarray, dealer: np.ndarray, cash: np.ndarray,
               s: Scan) -> pl.DataFrame:
    """Each player's cash and the deals he played (not those he sat out as the dealer of
    four) of each game with a settled deal."""
    totals = np.zeros((max(len(ids), 1), 4))
    np.add.at(totals, (g[row], seat), cash[row, seat])
    settled = np.bincount(g[~s.after_end], minlength=len(ids))
    has = [i for i in range(len(ids)) if settled[i]]
    in_deal = (n_of[row] < 4) | (seat != dealer[row])  # with four the dealer sits out (1)
    played = np.zeros((max(len(ids), 1), 4), dtype=np.int64)
    np.add.at(played, (g[row], seat), in_deal)
    return pl.DataFrame(
        {
            "game_id": [ids[i] for i in has for _ in names[i]],
            "player": [p for i in has for p in names[i]],
            "variant": frames.VARIANT,
            "cash": [float(totals[i, k]) for i in has for k in range(len(names[i]))],
            "deals_played": [int(played[i, k]) for i in has for k in range(len(names[i]))],
            "finished": [bool(s.finished[i]) for i in has for _ in names[i]],
        },
        schema=frames.frames.STANDINGS,
    )


class RussianSettlement(Settlement):
    """The ``Settlement`` of the registry for Russian preferans."""

    variant = frames.VARIANT
    deals_table = TABLE.name
    tables = (frames.WHISTS_TABLE,)

    def rows(self, settled: Settled) -> Mapping[str, pl.DataFrame]:
        if not isinstance(settled, RussianSettled):
            raise TypeError(f"not a Russian settlement: {type(settled).__name__}")
        return {frames.WHISTS_TABLE.name: settled.whists}

    def settle(self, games: pl.DataFrame, deals: pl.DataFrame) -> Settled:
        """The kernel (``settle``)."""
        return settle(games, deals)

    def settle_reference(self, games: pl.DataFrame, deals: pl.DataFrame) -> Settled:
        """The per-deal reference (``reference.settle``), for tests and benchmarks."""
        return reference.settle(games, deals)


SETTLEMENT = RussianSettlement()
