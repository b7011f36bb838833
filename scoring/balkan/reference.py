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

from model.balkan.paper import DealEntries, Sheet, score_change, settle_deal
from model.balkan.params import BalkanRules


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


