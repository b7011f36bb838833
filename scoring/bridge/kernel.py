"""The vectorised bridge scorer (STYLE.md practice 4).

The finite part, contract x tricks x vulnerability x doubling, is enumerated once per rule set from
the reference (``score_table``) and every deal is settled by a join. The running rubber state
(games won, partscores toward game, vulnerability) is a scan over the deal index, one step per
deal position, across all rubber games at once (numpy arrays indexed by game). Chicago's cycle
position is a cumulative count within each game, so it needs no scan.
"""

from __future__ import annotations

from functools import lru_cache

import duckdb
import numpy as np
import polars as pl

from model.bridge.contracts import Contract
from model.bridge.frame import TABLE
from model.bridge.params import BridgeRules
from scoring.bridge import reference as ref
from scoring.bridge.event import EVENT_RESULTS, refresh
from scoring.bridge.frames import PER_DEAL, assemble, game_modes
from scoring.settlement import Settled, Settlement

KEY = ["level", "denom", "doubled", "tricks", "vul"]


@lru_cache(maxsize=32)
def score_table(rules: BridgeRules) -> pl.DataFrame:
    """Every (level, denom, doubled, tricks, vul) with the reference's values for the declaring
    side: duplicate score ``dup``, ``below`` (trick score), rubber premiums ``adecl`` / ``adef``."""
    rows = []
    for level in range(1, 8):
        for denom in range(5):
            for doubled in range(3):
                c = Contract(level, denom, doubled)
                for vul in (False, True):
                    for tricks in range(14):
                        e = ref.rubber_entries(c, tricks, vul, rules)
                        rows.append((level, denom, doubled, tricks, vul,
                                     ref.duplicate_score(c, tricks, vul, rules),
                                     e.below, e.above_declarer, e.above_defenders))
    return pl.DataFrame(rows, orient="row", schema={
        "level": pl.Int8(), "denom": pl.Int8(), "doubled": pl.Int8(), "tricks": pl.Int8(),
        "vul": pl.Boolean(), "dup": pl.Int32(), "below": pl.Int32(), "adecl": pl.Int32(),
        "adef": pl.Int32(),
    })


Frames = tuple[pl.DataFrame, pl.DataFrame]


def per_deal_vectorised(games: pl.DataFrame, deals: pl.DataFrame) -> Frames:
    modes = game_modes(games)
    groups: dict[tuple[BridgeRules, str], list[str]] = {}
    for gid, key in modes.items():
        groups.setdefault(key, []).append(gid)
    outs: list[pl.DataFrame] = []
    done: list[pl.DataFrame] = []
    base = deals.with_columns(pl.col("doubled").fill_null(0))
    for (rules, mode), ids in groups.items():
        part = base.filter(pl.col("game_id").is_in(ids)).sort("game_id", "deal_no")
        if mode == "rubber":
            per, fin = _rubber(part, rules)
        else:
            per, fin = _per_board(part, rules, mode)
        outs.append(per)
        done.append(fin)
    if not outs:
        return (pl.DataFrame(schema=PER_DEAL),
                pl.DataFrame(schema={"game_id": pl.String(), "finished": pl.Boolean()}))
    return pl.concat(outs).sort("game_id", "deal_no"), pl.concat(done)


def _per_board(part: pl.DataFrame, rules: BridgeRules, mode: str) -> Frames:
    """Duplicate and Chicago: each deal settled by one join with the score table."""
    played = pl.col("level").is_not_null() & pl.col("declarer").is_not_null()
    if mode == "chicago":
        counts = played if rules.passed_out != "zero" else pl.lit(True)
        part = part.with_columns(counts.alias("_counts"))
        part = part.with_columns(
            (pl.col("_counts").cast(pl.Int32).cum_sum().over("game_id")
             - pl.col("_counts").cast(pl.Int32)).alias("_pos")
        )
        k = pl.col("_pos") % 4
        dealer_ns = (pl.col("dealer") % 2) == 0
        part = part.with_columns(
            ((k == 3) | (k.is_in([1, 2]) & dealer_ns)).alias("vul_ns"),
            ((k == 3) | (k.is_in([1, 2]) & ~dealer_ns)).alias("vul_ew"),
        )
        honours = rules.honours_for("bridge-rubber")
    else:
        honours = rules.honours_for("bridge-duplicate")
    part = part.with_columns(
        pl.col("vul_ns").fill_null(False), pl.col("vul_ew").fill_null(False),
        (pl.col("declarer") % 2).alias("_side"),
    ).with_columns(
        pl.when(pl.col("_side") == 0).then(pl.col("vul_ns")).otherwise(pl.col("vul_ew"))
        .alias("vul")
    )
    j = part.join(score_table(rules), on=KEY, how="left").with_columns(
        pl.col("dup").fill_null(0), pl.col("below").fill_null(0)
    )
    ns = pl.col("_side") == 0
    made = pl.col("dup") > 0
    below_decl = pl.when(made).then(pl.col("below")).otherwise(0)
    above_decl = pl.when(made).then(pl.col("dup") - pl.col("below")).otherwise(0)
    above_def = pl.when(made).then(0).otherwise(-pl.col("dup"))
    h_ns = pl.col("honours_ns").cast(pl.Int32) if honours else pl.lit(0, pl.Int32)
    h_ew = pl.col("honours_ew").cast(pl.Int32) if honours else pl.lit(0, pl.Int32)
    per = j.select(
        "game_id", "deal_no",
        pl.when(ns).then(below_decl).otherwise(0).cast(pl.Int32).alias("below_ns"),
        pl.when(ns).then(0).otherwise(below_decl).cast(pl.Int32).alias("below_ew"),
        (pl.when(ns).then(above_decl).otherwise(above_def) + h_ns).cast(pl.Int32).alias("above_ns"),
        (pl.when(ns).then(above_def).otherwise(above_decl) + h_ew).cast(pl.Int32).alias("above_ew"),
        "vul_ns", "vul_ew",
        (pl.when(ns).then(pl.col("dup")).otherwise(-pl.col("dup")) + h_ns - h_ew)
        .cast(pl.Int32).alias("score_ns"),
    )
    if mode == "chicago":
        last = part.group_by("game_id").agg(
            ((pl.col("_counts").cast(pl.Int32).sum() % 4 == 0)
             & (pl.col("_counts").cast(pl.Int32).sum() > 0)).alias("finished")
        )
    else:
        last = part.select(pl.col("game_id").unique(), pl.lit(True).alias("finished"))
    return per, last.select("game_id", "finished")


def _rubber(part: pl.DataFrame, rules: BridgeRules) -> Frames:
    """Rubber (Laws 72-74, 80): a scan over deal positions, all games at once."""
    t = score_table(rules)
    j = part.with_row_index("_row")
    for v, suffix in ((False, "_nv"), (True, "_v")):
        tv = t.filter(pl.col("vul") == v).drop("vul", "dup").rename(
            {"below": "below" + suffix, "adecl": "adecl" + suffix, "adef": "adef" + suffix})
        j = j.join(tv, on=["level", "denom", "doubled", "tricks"], how="left")
    j = j.sort("_row").with_columns(
        pl.col("game_id").rank("dense").cast(pl.Int64).alias("_g") - 1,
        (pl.col("deal_no").rank("ordinal").over("game_id").cast(pl.Int64) - 1).alias("_k"),
    )
    n = j.height
    g = j["_g"].to_numpy()
    k = j["_k"].to_numpy()
    played = (j["level"].is_not_null() & j["declarer"].is_not_null()).to_numpy()
    side = np.where(played, j["declarer"].fill_null(0).to_numpy() % 2, 0).astype(np.int64)
    ent = {c: j[c].fill_null(0).to_numpy().astype(np.int64)
           for c in ("below_nv", "adecl_nv", "adef_nv", "below_v", "adecl_v", "adef_v")}
    honours = rules.honours_for("bridge-rubber")
    hon = np.stack([j["honours_ns"].to_numpy(), j["honours_ew"].to_numpy()], axis=1)
    hon = hon.astype(np.int64)
    if not honours:
        hon[:] = 0
    n_games = int(g.max()) + 1 if n else 0
    depth = int(k.max()) + 1 if n else 0
    at = np.full((n_games, depth), -1, dtype=np.int64)
    at[g, k] = np.arange(n)
    won = np.zeros((n_games, 2), dtype=np.int64)
    part_score = np.zeros((n_games, 2), dtype=np.int64)
    below = np.zeros((n, 2), dtype=np.int64)
    above = hon.copy()
    vul = np.zeros((n, 2), dtype=bool)
    over = np.zeros(n, dtype=bool)
    for step in range(depth):
        rows = at[:, step]
        gi = np.nonzero(rows >= 0)[0]
        r = rows[gi]
        s = side[r]
        vul[r] = won[gi] > 0
        v_decl = vul[r, s]
        b = np.where(played[r], np.where(v_decl, ent["below_v"][r], ent["below_nv"][r]), 0)
        ad = np.where(played[r], np.where(v_decl, ent["adecl_v"][r], ent["adecl_nv"][r]), 0)
        af = np.where(played[r], np.where(v_decl, ent["adef_v"][r], ent["adef_nv"][r]), 0)
        below[r, s] += b
        above[r, s] += ad
        above[r, 1 - s] += af
        part_score[gi, s] += b
        game = part_score[gi, s] >= 100
        gg = gi[game]
        won[gg, s[game]] += 1
        part_score[gg] = 0
        rubber = game & (won[gi, s] == 2)
        gr, sr, rr = gi[rubber], s[rubber], r[rubber]
        above[rr, sr] += np.where(won[gr, 1 - sr] == 0, 700, 500)
        won[gr] = 0
        over[rr] = True
    # Law 80: an unfinished rubber at the end of the session.
    last = at[np.arange(n_games), (at >= 0).sum(axis=1) - 1] if n else np.zeros(0, np.int64)
    open_ = ~over[last]
    one_game, partscore = rules.incomplete_rubber_bonus
    for sd in (0, 1):
        extra = np.where(won[:, sd] > 0, one_game, 0) + np.where(part_score[:, sd] > 0,
                                                                  partscore, 0)
        above[last, sd] += np.where(open_, extra, 0)
    score_ns = below[:, 0] + above[:, 0] - below[:, 1] - above[:, 1]
    per = pl.DataFrame({
        "game_id": j["game_id"], "deal_no": j["deal_no"],
        "below_ns": below[:, 0], "below_ew": below[:, 1],
        "above_ns": above[:, 0], "above_ew": above[:, 1],
        "vul_ns": vul[:, 0], "vul_ew": vul[:, 1], "score_ns": score_ns,
    }).cast(PER_DEAL)  # type: ignore[arg-type]
    fin = pl.DataFrame({
        "game_id": j["game_id"].gather(last) if n else pl.Series([], dtype=pl.String()),
        "finished": over[last],
    }, schema={"game_id": pl.String(), "finished": pl.Boolean()})
    return per, fin


class BridgeSettlement(Settlement):
    """The ``Settlement`` of the registry for one bridge variant name; duplicate games also feed
    ``event_results`` (matchpoints and IMPs across tables, ``event.py``)."""

    deals_table = TABLE.name

    def __init__(self, variant: str, *, compared_across_tables: bool) -> None:
        self.variant = variant
        self.compared_across_tables = compared_across_tables
        self.refreshed = (EVENT_RESULTS,) if compared_across_tables else ()

    def settle(self, games: pl.DataFrame, deals: pl.DataFrame) -> Settled:
        """The vectorised settlement of every game at once."""
        mine = games.filter(pl.col("variant") == self.variant)
        per_deal, finished = per_deal_vectorised(mine, deals)
        return assemble(mine, per_deal, finished)

    def refresh(self, conn: duckdb.DuckDBPyConnection) -> int:
        return refresh(conn) if self.compared_across_tables else 0


RUBBER = BridgeSettlement("bridge-rubber", compared_across_tables=False)
DUPLICATE = BridgeSettlement("bridge-duplicate", compared_across_tables=True)
