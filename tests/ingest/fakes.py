"""A small stand-in settlement for ingest tests (the real Greek one is scoring's).

Rule of the fake (not Greek Prefa): in every deal with a declarer, each other seat that has a trick
count pays the declarer 1 chip; a game ends after ``rules.initial_kassa`` deals, and deals after its
end are not settled. Zero-sum per deal, settled by payments, so the data checks apply to it.
"""

from __future__ import annotations

import functools
import json

import polars as pl

from scoring.settlement import Settled, Settlement
from scoring.store import score_pending

SETTLEMENT_SCHEMA = {"game_id": pl.String(), "deal_no": pl.Int32(), "player": pl.String(),
                     "seat": pl.Int8(), "cash": pl.Float64(), "chips": pl.Float64(),
                     "kassa_after": pl.Int32()}
TRANSFER_SCHEMA = {"game_id": pl.String(), "deal_no": pl.Int32(), "payer": pl.String(),
                   "payee": pl.String(), "amount": pl.Float64()}
STANDING_SCHEMA = {"game_id": pl.String(), "player": pl.String(), "cash": pl.Float64(),
                   "deals_played": pl.Int32(), "finished": pl.Boolean()}


class FakeSettlement(Settlement):
    variant = "greek-prefa"
    deals_table = "deals_greek"

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def settle(self, games: pl.DataFrame, deals: pl.DataFrame) -> Settled:
        self.calls.append(sorted(games["game_id"].to_list()))
        srows: list[dict[str, object]] = []
        trows: list[dict[str, object]] = []
        strows: list[dict[str, object]] = []
        for g in games.iter_rows(named=True):
            players = list(g["players"])
            limit = json.loads(g["rules"]).get("initial_kassa", 31)
            total = dict.fromkeys(players, 0.0)
            mine = deals.filter(pl.col("game_id") == g["game_id"]).sort("deal_no")
            played = 0
            for d in mine.iter_rows(named=True):
                if played >= limit:
                    break
                played += 1
                cash = dict.fromkeys(players, 0.0)
                if d["declarer"] is not None:
                    decl = players[d["declarer"]]
                    for i, p in enumerate(players):
                        if i != d["declarer"] and d.get(f"tricks_{i}") is not None:
                            trows.append({"game_id": g["game_id"], "deal_no": d["deal_no"],
                                          "payer": p, "payee": decl, "amount": 1.0})
                            cash[p] -= 1
                            cash[decl] += 1
                for i, p in enumerate(players):
                    total[p] += cash[p]
                    srows.append({"game_id": g["game_id"], "deal_no": d["deal_no"],
                                  "player": p, "seat": i, "cash": cash[p], "chips": cash[p],
                                  "kassa_after": limit - played})
            for p in players:
                strows.append({"game_id": g["game_id"], "player": p, "cash": total[p],
                               "deals_played": played, "finished": played >= limit})
        return Settled(pl.DataFrame(srows, schema=SETTLEMENT_SCHEMA, orient="row"),
                       pl.DataFrame(trows, schema=TRANSFER_SCHEMA, orient="row"),
                       pl.DataFrame(strows, schema=STANDING_SCHEMA, orient="row"))


def fake_settlements(fake: FakeSettlement):  # type: ignore[no-untyped-def]
    """A settlement lookup that knows only ``fake`` (like ``scoring.registry.settlement``)."""

    def lookup(name: str) -> FakeSettlement:
        if name != fake.variant:
            raise KeyError(name)
        return fake

    return lookup


def fake_scorer(fake: FakeSettlement):  # type: ignore[no-untyped-def]
    """A ``score`` for ``ingest_paths`` that settles with ``fake`` (others stay pending)."""
    return scorer(fake_settlements(fake))


def scorer(lookup):  # type: ignore[no-untyped-def]
    """``scoring.store.score_pending`` with its settlement lookup fixed."""
    return functools.partial(score_pending, settlements=lookup)
