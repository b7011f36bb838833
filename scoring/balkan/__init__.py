"""Balkan preferans settlement (``../shared/spec/balkan.md`` section 7) behind ``Settlement``.

``SETTLEMENT.settle(games, deals)`` runs the vectorised kernel (``kernel.py``);
``settle_reference(games, deals)`` runs the per-deal reference (``reference.py``) and returns the
same frames, so the two can be held equal.

Columns written (records.md 2): ``settlements.cash`` = the deal's change of the player's final
score in soup points (7.5, zero-sum per deal); ``bula_delta``, ``bula_after``; ``soups_left`` /
``soups_right`` = soups the player wrote this deal against his left / right neighbour (which
neighbour is which follows ``direction``); ``refa_used`` = this deal used one of his refe.
``transfers``: each soup as a payment from the declarer to the defender who wrote it.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import polars as pl

from model.balkan.frame import MODES
from model.balkan.paper import BULA_POINT
from model.balkan.params import BalkanRules
from model.balkan.records import BalkanGame
from model.tables import DEALS_BALKAN
from scoring.balkan.kernel import SEATS, Booked, Deals, book
from scoring.balkan.reference import settle_game
from scoring.registry import Settled

VARIANT = "balkan"


def rules_of(text: str | dict[str, Any] | None) -> BalkanRules:
    """The rules of a ``games.rules`` JSON value (presets expanded, missing = defaults)."""
    data = json.loads(text) if isinstance(text, str) else (text or {})
    game = BalkanGame.model_validate(
        {"variant": "balkan", "game_id": "-", "players": ["a", "b", "c", "d"][
            : 4 if data.get("four_players") else 3], "rules": data})
    return game.rules


def _arrays(deals: pl.DataFrame, game_index: dict[str, int], n_players: dict[str, int]) -> Deals:
    def col(name: str, fill: int) -> np.ndarray:
        return deals[name].fill_null(fill).to_numpy().astype(np.int32)

    gid = deals["game_id"]
    game = gid.replace_strict(game_index, return_dtype=pl.Int32).to_numpy()
    mode = deals["mode"].cast(pl.String).replace_strict(
        {m: i for i, m in enumerate(MODES)}, return_dtype=pl.Int64).to_numpy()
    return Deals(
        game=game,
        n_players=gid.replace_strict(n_players, return_dtype=pl.Int32).to_numpy(),
        dealer=col("dealer", 0),
        declarer=col("declarer", -1),
        number=col("number", 0),
        igra=deals["igra"].fill_null(False).to_numpy().astype(bool),
        mode=mode.astype(np.int32),
        lead=col("lead_defender", -1),
        kontra=np.stack([col(f"kontra_{i}", 0) for i in range(SEATS)], axis=1),
        tricks=np.stack([col(f"tricks_{i}", -1) for i in range(SEATS)], axis=1),
        repealed=deals["repealed"].fill_null(False).to_numpy().astype(bool),
    )


def _seat_names(games: pl.DataFrame) -> pl.DataFrame:
    """``(game_id, seat, player)`` of every game."""
    return (games.select("game_id", pl.col("players").alias("player"))
            .with_columns(pl.int_ranges(pl.col("player").list.len()).alias("seat"))
            .explode("player", "seat")
            .with_columns(pl.col("seat").cast(pl.Int8)))


def _frames(games: pl.DataFrame, deals: pl.DataFrame, parts: list[tuple[pl.DataFrame, Booked,
            BalkanRules]]) -> Settled:
    names = _seat_names(games)
    s_rows: list[pl.DataFrame] = []
    t_rows: list[pl.DataFrame] = []
    for sub, b, rules in parts:
        npl = sub.join(games.select("game_id", pl.col("players").list.len().alias("n")),
                       on="game_id", how="left", maintain_order="left")["n"].to_numpy()
        dec = sub["declarer"].fill_null(-1).to_numpy().astype(np.int64)
        seat = np.arange(SEATS)[None, :]
        in_game = seat < npl[:, None]
        is_dec = seat == dec[:, None]
        soups = b.soups.astype(np.int64)
        against = np.where(is_dec, soups.sum(axis=1)[:, None], 0)
        ds = soups - against - BULA_POINT * b.bula_delta.astype(np.int64)
        mean = ds.sum(axis=1) / npl
        cash = np.where(in_game, ds - mean[:, None], 0.0)
        step = 1 if rules.direction == "clockwise" else -1
        left = (seat + step) % npl[:, None]
        right = (seat - step) % npl[:, None]
        s_left = np.where(left == dec[:, None], b.soups, 0)
        s_right = np.where((right == dec[:, None]) & (left != dec[:, None]), b.soups, 0)
        used = is_dec & (b.refa == 2)[:, None]
        rr, ss = np.nonzero(in_game)
        key = sub.select("game_id", "deal_no")
        last = pl.DataFrame({"game_id": sub["game_id"], "finished": b.finished}).group_by(
            "game_id").agg(pl.col("finished").last())
        s_rows.append(key[rr].with_columns(
            pl.Series("seat", ss.astype(np.int8)), pl.lit(VARIANT).alias("variant"),
            pl.Series("cash", cash[rr, ss]),
            pl.Series("bula_delta", b.bula_delta[rr, ss].astype(np.int32)),
            pl.Series("bula_after", b.bula_after[rr, ss].astype(np.int32)),
            pl.Series("soups_left", s_left[rr, ss].astype(np.int32)),
            pl.Series("soups_right", s_right[rr, ss].astype(np.int32)),
            pl.Series("refa_used", used[rr, ss]),
        ).join(names, on=["game_id", "seat"], how="left").join(last, on="game_id", how="left"))
        tr, ts = np.nonzero(b.soups > 0)
        t_rows.append(key[tr].with_columns(
            pl.Series("payer_seat", dec[tr].astype(np.int8)),
            pl.Series("payee_seat", ts.astype(np.int8)),
            pl.Series("amount", b.soups[tr, ts].astype(np.float64)),
        ).join(names.rename({"seat": "payer_seat", "player": "payer"}),
               on=["game_id", "payer_seat"], how="left")
         .join(names.rename({"seat": "payee_seat", "player": "payee"}),
               on=["game_id", "payee_seat"], how="left")
         .select("game_id", "deal_no", "payer", "payee", "amount"))
    cols = ["game_id", "deal_no", "player", "seat", "variant", "cash", "bula_delta",
            "bula_after", "soups_left", "soups_right", "refa_used", "finished"]
    settlements = (pl.concat([x.select(cols) for x in s_rows]) if s_rows
                   else _empty_settlements()).sort("game_id", "deal_no", "seat")
    transfers = pl.concat(t_rows) if t_rows else pl.DataFrame(
        schema={"game_id": pl.String, "deal_no": pl.Int32, "payer": pl.String,
                "payee": pl.String, "amount": pl.Float64})
    standings = settlements.group_by("game_id", "player").agg(
        pl.lit(VARIANT).alias("variant"), pl.col("cash").sum(),
        pl.len().cast(pl.Int32).alias("deals_played"), pl.col("finished").first(),
    ).sort("game_id", "player")
    return Settled(settlements.drop("finished"),
                   transfers.sort("game_id", "deal_no", "payer", "payee"), standings)


def _empty_settlements() -> pl.DataFrame:
    return pl.DataFrame(schema={
        "game_id": pl.String, "deal_no": pl.Int32, "player": pl.String, "seat": pl.Int8,
        "variant": pl.String, "cash": pl.Float64, "bula_delta": pl.Int32,
        "bula_after": pl.Int32, "soups_left": pl.Int32, "soups_right": pl.Int32,
        "refa_used": pl.Boolean, "finished": pl.Boolean})


def _groups(games: pl.DataFrame, deals: pl.DataFrame) -> list[tuple[BalkanRules, pl.DataFrame,
                                                                    dict[str, int]]]:
    """Deals split by rule set (sorted by game and deal number), with players per game."""
    out = []
    deals = deals.sort("game_id", "deal_no")
    rules_text = dict(zip(games["game_id"].to_list(),
                          [r if isinstance(r, str) else json.dumps(r)
                           for r in games["rules"].to_list()], strict=True))
    n_players = {g: len(p) for g, p in zip(games["game_id"].to_list(),
                                           games["players"].to_list(), strict=True)}
    by_rules: dict[str, list[str]] = {}
    present = set(deals["game_id"].unique().to_list())
    for g, text in rules_text.items():
        if g in present:
            by_rules.setdefault(text or "{}", []).append(g)
    for text, ids in by_rules.items():
        sub = deals.filter(pl.col("game_id").is_in(ids))
        out.append((rules_of(text), sub, n_players))
    return out


class BalkanSettlement:
    variant = VARIANT
    deals_table = DEALS_BALKAN

    def settle(self, games: pl.DataFrame, deals: pl.DataFrame) -> Settled:
        parts = []
        for rules, sub, n_players in _groups(games, deals):
            ids = sub["game_id"].unique(maintain_order=True).to_list()
            index = {g: i for i, g in enumerate(ids)}
            parts.append((sub, book(rules, _arrays(sub, index, n_players)), rules))
        return _frames(games, deals, parts)


def settle_reference(games: pl.DataFrame, deals: pl.DataFrame) -> Settled:
    """The same frames as ``SETTLEMENT.settle``, computed deal by deal by ``reference.py``."""
    parts = []
    for rules, sub, n_players in _groups(games, deals):
        n = len(sub)
        r = np.ones(n, np.int64)
        bd = np.zeros((n, SEATS), np.int64)
        so = np.zeros((n, SEATS), np.int64)
        ba = np.zeros((n, SEATS), np.int64)
        fin = np.zeros(n, bool)
        at = 0
        for part in sub.partition_by("game_id", maintain_order=True):
            rows = part.with_columns(pl.col("mode").cast(pl.String)).to_dicts()
            k = n_players[rows[0]["game_id"]]
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
        parts.append((sub, Booked(r, bd, so, ba, fin), rules))
    return _frames(games, deals, parts)


SETTLEMENT = BalkanSettlement()
