"""Balkan settlement, the plain reference: one deal at a time, read like balkan.md section 7.

Inputs are ``deals_balkan`` rows (``model/balkan/frame.py``) of one game in play order. The sheet
(7.1): every player has a bula (declarer column, starting at ``start_bula``) and writes soups
against his opponents. Refe (7.4) run across deals: an all-pass deal gives every player a refa
(while refe may be written); a player's next declared contract uses one and counts double.

A deal's ``cash`` is the change of each player's final score (7.5): soups written minus soups
written against him minus ten times his bula, less the table's mean, so it sums to zero.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from model.balkan.paper import DealEntries, Sheet, score_change, settle_deal
from model.balkan.params import BalkanRules
from scoring.balkan.booking import SEATS, Booked, Deals
from scoring.balkan.frames import settle_with
from scoring.settlement import Settled


@dataclass(frozen=True, slots=True)
class DealResult:
    deal_no: int
    entries: DealEntries
    bula_after: tuple[int, ...]
    cash: tuple[float, ...]
    finished: bool
    """The game has ended after this deal (7.5)."""


def settle_game(rules: BalkanRules, n_players: int,
                rows: Sequence[Mapping[str, object]]) -> list[DealResult]:
    """Every deal of one game, in order (7.3-7.5)."""
    sheet = Sheet(rules, n_players)
    results = []
    for row in rows:
        entries = settle_deal(sheet, row)
        ds = score_change(entries)
        mean = sum(ds) / n_players
        if not sheet.finished and sheet.is_over():
            sheet.finished = True
        results.append(DealResult(int(row["deal_no"]), entries,  # type: ignore[call-overload]
                                  tuple(sheet.bula), tuple(x - mean for x in ds), sheet.finished))
    return results


# --- over frames: the reference the kernel is held to -----------------------------------


def settle_reference(games: pl.DataFrame, deals: pl.DataFrame) -> Settled:
    """The same frames as ``SETTLEMENT.settle``, computed deal by deal by ``reference.py``."""
    return settle_with(games, deals, _book_reference)


def _book_reference(rules: BalkanRules, d: Deals, sub: pl.DataFrame) -> Booked:
    n = len(sub)
    r = np.ones(n, np.int64)
    bd = np.zeros((n, SEATS), np.int64)
    so = np.zeros((n, SEATS), np.int64)
    ba = np.zeros((n, SEATS), np.int64)
    fin = np.zeros(n, bool)
    at = 0
    for part in sub.partition_by("game_id", maintain_order=True):
        rows = part.with_columns(pl.col("mode").cast(pl.String)).to_dicts()
        k = int(d.n_players[at])
        for res in settle_game(rules, k, rows):
            e = res.entries
            for i in range(k):
                bd[at, i] = e.bula[i]
                so[at, i] = sum(e.soups[i])
                ba[at, i] = res.bula_after[i]
                if e.refa_used[i]:
                    r[at] = 2
            fin[at] = res.finished
            at += 1
    return Booked(r, bd, so, ba, fin)
