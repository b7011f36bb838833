"""Play canonical Russian records through the checks, the kernel and the reference.

``run`` validates every record (schema and ``check_deal``), settles the game with the kernel and
with the reference, asserts the two agree, and returns a :class:`Totals` of the pulya.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import polars as pl
from polars.testing import assert_frame_equal

from model.russian.check import check_deal
from model.russian.frame import deal_row, deals_frame
from model.russian.records import RussianDeal, RussianGame
from scoring.russian import SETTLEMENT
from scoring.russian.frames import RussianSettled

GAME = "g"


@dataclass(frozen=True)
class Totals:
    """A settled game: pool, hill and cash per player, whists[(writer, against)], standings."""

    pool: dict[str, int]
    hill: dict[str, int]
    cash: dict[str, float]
    whists: dict[tuple[str, str], int]
    finished: bool
    settled: RussianSettled

    def w(self, writer: str, against: str) -> int:
        return self.whists.get((writer, against), 0)


def game(players: list[str], rules: dict[str, Any] | None = None) -> RussianGame:
    return RussianGame.model_validate(
        {"record": "game", "game_id": GAME, "variant": "russian", "players": players,
         "rules": rules or {}})


def deals(g: RussianGame, records: list[dict[str, Any]]) -> list[RussianDeal]:
    out = []
    for k, r in enumerate(records, 1):
        d = RussianDeal.model_validate({"game_id": GAME, "deal_no": k, **r})
        problems = check_deal(g, d)
        assert problems == [], problems
        out.append(d)
    return out


def frames(g: RussianGame, ds: list[RussianDeal]) -> tuple[pl.DataFrame, pl.DataFrame]:
    games = pl.DataFrame({"game_id": [GAME], "players": [list(g.players)],
                          "rules": [g.rules.model_dump_json()]})
    return games, deals_frame(deal_row(g, d) for d in ds)


def both(games: pl.DataFrame, deals_: pl.DataFrame) -> RussianSettled:
    """The kernel's settlement, after asserting the reference gives the same frames."""
    fast = SETTLEMENT.settle(games, deals_)
    slow = SETTLEMENT.settle_reference(games, deals_)
    assert isinstance(fast, RussianSettled) and isinstance(slow, RussianSettled)
    keys = ["game_id", "deal_no", "seat"]
    assert_frame_equal(fast.settlements.sort(keys), slow.settlements.sort(keys))
    pairs = ["game_id", "deal_no", "payer", "payee"]
    assert_frame_equal(fast.transfers.sort(pairs), slow.transfers.sort(pairs))
    wkeys = ["game_id", "deal_no", "writer", "against"]
    assert_frame_equal(fast.whists.sort(wkeys), slow.whists.sort(wkeys))
    assert_frame_equal(fast.standings.sort("game_id", "player"),
                       slow.standings.sort("game_id", "player"))
    return fast


def run(players: list[str], records: list[dict[str, Any]],
        rules: dict[str, Any] | None = None) -> Totals:
    g = game(players, rules)
    s = both(*frames(g, deals(g, records)))
    last = s.settlements.group_by("player").agg(
        pl.col("pool_after").last(), pl.col("hill_after").last(), pl.col("cash").sum())
    whists = {(r["writer"], r["against"]): 0 for r in s.whists.iter_rows(named=True)}
    for r in s.whists.iter_rows(named=True):
        whists[(r["writer"], r["against"])] += r["amount"]
    rows = {r["player"]: r for r in last.iter_rows(named=True)}
    return Totals(
        pool={p: rows[p]["pool_after"] for p in players},
        hill={p: rows[p]["hill_after"] for p in players},
        cash={p: rows[p]["cash"] for p in players},
        whists=whists,
        finished=bool(s.standings["finished"].all()),
        settled=s,
    )


def contract(declarer: str, contract_: str, defence: dict[str, str] | None,
             tricks: dict[str, int] | None, dealer: str, **extra: Any) -> dict[str, Any]:
    """A contract deal record."""
    rec: dict[str, Any] = {"dealer": dealer, "declarer": declarer, "contract": contract_}
    if defence is not None:
        rec["defence"] = defence
    if tricks is not None:
        rec["tricks"] = tricks
    return {**rec, **extra}
