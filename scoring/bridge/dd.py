"""Double-dummy tables and par for deals with all four hands (issue 4, ``trickbook analyse``).

Uses the DDS solver through endplay (optional extra ``dds``: ``pip install trickbook[dds]``),
imported once per process on first use. ``analyse(conn)`` fills the ``dd_tables`` table: for every
stored bridge deal with hands and no table yet, the tricks each seat takes as declarer in each
denomination, and the par score (North-South view) with its contracts. Par uses the deal's
vulnerability (stated, else by board number, else none) and its dealer.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import lru_cache
from types import ModuleType
from typing import Any

import duckdb
import polars as pl

from model.bridge.seats import SEATS, Vulnerable, board_vulnerable, parse_vulnerable
from model.schema import Table
from model.tricks import card_index

EP_DENOM_OF = (3, 2, 1, 0, 4)
"""endplay's Denom index (S H D C NT) of our denominations C D H S NT."""
VUL_NAMES = {"None": "none", "NS": "ns", "EW": "ew", "All": "both"}
DD_TABLE = Table("dd_tables", {
    "game_id": pl.String(), "deal_no": pl.Int32(), "denom": pl.Int8(), "declarer": pl.Int8(),
    "tricks": pl.Int8(), "par_ns": pl.Int32(), "par_contracts": pl.String(),
}, required=("tricks", "par_ns", "par_contracts"),
    key=("game_id", "deal_no", "denom", "declarer"))
"""Per deal, the tricks each seat takes as declarer in each denomination, and the par."""
DD_TABLES = DD_TABLE.name
BATCH = 32
"""Deals per DDS call (endplay's calc_all_tables batches tables internally)."""


class DdsUnavailable(RuntimeError):
    pass


@lru_cache(maxsize=1)
def _endplay() -> tuple[ModuleType, ModuleType]:
    try:
        import endplay.dds as dds
        import endplay.types as types
    except ImportError as exc:
        raise DdsUnavailable(
            "double-dummy analysis needs endplay's DDS: pip install 'trickbook[dds]'"
        ) from exc
    return types, dds


def pbn_deal(hands: list[list[str]]) -> str:
    """``N:S.H.D.C ...`` of four hands by seat (N E S W), cards named as in the records."""
    out = []
    for cards in hands:
        suits: dict[int, list[int]] = {0: [], 3: [], 2: [], 1: []}
        for name in cards:
            c = card_index(name)
            suits[c >> 4].append(c & 15)
        out.append(".".join("".join("23456789TJQKA"[r] for r in sorted(suits[s], reverse=True))
                            for s in (0, 3, 2, 1)))
    return "N:" + " ".join(out)


def _solve(deals: list[str]) -> list[Any]:
    """endplay DD tables of PBN deal strings, solved in batches."""
    types, dds = _endplay()
    out: list[Any] = []
    for start in range(0, len(deals), BATCH):
        out += list(dds.calc_all_tables([types.Deal(d) for d in deals[start:start + BATCH]]))
    return out


def _cells(table: Any) -> dict[tuple[int, int], int]:
    types, _ = _endplay()
    return {(denom, seat): int(table[types.Denom(EP_DENOM_OF[denom]), types.Player(seat)])
            for denom in range(5) for seat in range(4)}


def dd_tables(deals: Iterable[str]) -> list[dict[tuple[int, int], int]]:
    """For each PBN deal string: (our denom, seat) -> declarer's double-dummy tricks."""
    return [_cells(t) for t in _solve(list(deals))]


def par_of(
    deal: str, vulnerable: Vulnerable, dealer: int, table: Any = None
) -> tuple[int, list[str]]:
    """Par score for North-South and the par contracts (``4SN=``: level, denomination,
    declarer, result), given the vulnerability and the dealer's seat (``table``: an endplay DD
    table of the deal already solved)."""
    types, dds = _endplay()
    if table is None:
        table = dds.calc_dd_table(types.Deal(deal))
    result = dds.par(table, types.Vul.find(VUL_NAMES[vulnerable]), types.Player(dealer))
    names = [str(c).translate(str.maketrans("♠♥♦♣", "SHDC"))
             for c in result]
    return int(result.score), names


def deal_vulnerable(rec: dict[str, Any]) -> Vulnerable:
    """A deal's vulnerability for par: stated, else by board number, else none (a rubber's
    state is not in the deal record)."""
    vul = rec.get("vulnerable")
    if vul:
        return parse_vulnerable(vul)
    return board_vulnerable(rec["board"]) if rec.get("board") else "None"


def analyse(conn: duckdb.DuckDBPyConnection) -> int:
    """Store the DD table and par of every bridge deal with four hands not analysed yet; returns
    the number of deals analysed."""
    conn.execute(DD_TABLE.ddl)
    rows = conn.execute(
        f"""SELECT d.game_id, d.deal_no, d.record::VARCHAR, g.players
            FROM deals d JOIN games g USING (game_id)
            WHERE d.variant IN ('bridge-rubber', 'bridge-duplicate') AND d.has_cards
              AND NOT EXISTS (SELECT 1 FROM {DD_TABLES} t
                              WHERE t.game_id = d.game_id AND t.deal_no = d.deal_no)
            ORDER BY d.game_id, d.deal_no"""
    ).fetchall()
    todo: list[tuple[str, int, str, Vulnerable, int]] = []
    for game_id, deal_no, text, players in rows:
        rec: dict[str, Any] = json.loads(text)
        hands = rec.get("hands") or {}
        if len(hands) != 4:
            continue
        seat = {p: i for i, p in enumerate(players)}
        by_seat = [hands[p] for p in players]
        todo.append((game_id, deal_no, pbn_deal(by_seat), deal_vulnerable(rec),
                     seat[rec["dealer"]]))
    if not todo:
        return 0
    tables = _solve([t[2] for t in todo])
    out = []
    for (game_id, deal_no, deal, vulnerable, dealer), table in zip(todo, tables, strict=True):
        score, contracts = par_of(deal, vulnerable, dealer, table)
        text = " ".join(contracts)
        out += [(game_id, deal_no, denom, s, tricks, score, text)
                for (denom, s), tricks in _cells(table).items()]
    conn.executemany(f"INSERT INTO {DD_TABLES} VALUES (?, ?, ?, ?, ?, ?, ?)", out)
    return len(todo)


__all__ = ["SEATS", "DdsUnavailable", "analyse", "dd_tables", "par_of", "pbn_deal"]
