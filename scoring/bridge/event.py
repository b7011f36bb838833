"""Comparing a board across tables: matchpoints (Neuberg) and IMPs (cross-IMPs, team matches).

bridge.md names matchpoints and IMPs without their tables; the scales below are the Laws'
(Law 78A matchpoints, Law 78B IMP scale) and the usual Neuberg adjustment, marked [bk] like the
spec's background rules. Matchpoints are on the 2-per-beaten, 1-per-tie scale (top 2(n-1)).
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter

import duckdb
import polars as pl

from model.bridge.frame import TABLE as DEALS_BRIDGE
from model.schema import Table
from model.tables import SETTLEMENTS, insert
from scoring.frames import runs

IMP_BOUNDS = (10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590, 740, 890, 1090, 1290,
              1490, 1740, 1990, 2240, 2490, 2990, 3490, 3990)
"""Upper bound of each IMP step (Law 78B [bk]): 0-10 = 0, 20-40 = 1, ..., 4000 and more = 24."""

EVENT_RESULTS = Table("event_results", {
    "event": pl.String(), "board": pl.Int32(), "game_id": pl.String(), "deal_no": pl.Int32(),
    "match": pl.String(), "room": pl.String(), "ns_pair": pl.String(), "ew_pair": pl.String(),
    "ns_team": pl.String(), "ew_team": pl.String(),
    "score_ns": pl.Int32(), "tables": pl.Int32(), "mp_ns": pl.Float64(), "mp_ew": pl.Float64(),
    "pct_ns": pl.Float64(), "cross_imp_ns": pl.Float64(), "team_imp_ns": pl.Int32(),
}, required=("event", "board", "score_ns", "tables", "mp_ns", "mp_ew"),
    key=("game_id", "deal_no"))
"""Each duplicate board's result compared across its tables: matchpoints and IMPs."""
SCHEMA = EVENT_RESULTS.schema
TABLE = EVENT_RESULTS.name


def imps(diff: int) -> int:
    """IMPs for a score difference (Law 78B [bk]), signed like ``diff``."""
    n = bisect_left(IMP_BOUNDS, abs(diff))
    return n if diff >= 0 else -n


def matchpoints(scores: list[int]) -> list[float]:
    """NS matchpoints of each result: 2 for each result beaten, 1 for each tie (Law 78A [bk]).
    Counted over the distinct scores, so a board played at many tables costs n log n."""
    counts = Counter(scores)
    beaten: dict[int, int] = {}
    below = 0
    for score in sorted(counts):
        beaten[score] = below
        below += counts[score]
    return [float(2 * beaten[s] + counts[s] - 1) for s in scores]


def neuberg(mp: float, results: int, tables: int) -> float:
    """Neuberg's formula [bk]: a board played ``results`` times, scored as if played ``tables``
    times. On the 1/0.5 scale it is ``(MP + 0.5) * N / n - 0.5``; on this 2/1 scale
    ``(mp + 1) * tables / results - 1``. Over a board's results it keeps the average at half
    the new top (the results' matchpoints sum to ``results * (tables - 1)``)."""
    return (mp + 1.0) * tables / results - 1.0


def cross_imps(scores: list[int]) -> list[float]:
    """Each result against every other, in IMPs, averaged over the others [bk]. Summed over the
    distinct scores (a board has a few dozen at most, however many tables played it)."""
    n = len(scores)
    if n < 2:
        return [0.0] * n
    counts = Counter(scores)
    total = {s: sum(imps(s - o) * c for o, c in counts.items()) for s in counts}
    return [total[s] / (n - 1) for s in scores]


def event_results(deals: pl.DataFrame, settlements: pl.DataFrame) -> pl.DataFrame:
    """The ``event_results`` rows of every duplicate board with an event and a board number.

    ``deals``: ``deals_bridge`` rows; ``settlements``: the settle output (its ``score_ns``).
    Boards are compared within (event, board); the Neuberg top is the largest number of results
    of any board of the event. ``team_imp_ns`` compares the two rooms of a match (the two rows
    with the same ``match``); it is null for pairs events (no match).
    """
    scores = settlements.group_by("game_id", "deal_no").agg(pl.col("score_ns").first())
    rows = (
        deals.filter(pl.col("event").is_not_null() & pl.col("board").is_not_null())
        .join(scores, on=["game_id", "deal_no"], how="inner")
        .sort("event", "board", "game_id", "deal_no")
    )
    out: list[dict[str, object]] = []
    tops = rows.group_by("event", "board").len().group_by("event").agg(pl.col("len").max())
    top_of = dict(tops.iter_rows())
    for (event, board), grp in rows.group_by("event", "board", maintain_order=True):
        recs = grp.to_dicts()
        s = [int(r["score_ns"]) for r in recs]
        n = len(s)
        top = int(top_of[event])
        mps = [neuberg(m, n, top) if n < top else m for m in matchpoints(s)]
        cross = cross_imps(s)
        team = _team(recs)
        full = 2.0 * (top - 1)
        for r, mp, ci, ti in zip(recs, mps, cross, team, strict=True):
            out.append({
                "event": event, "board": board, "game_id": r["game_id"], "deal_no": r["deal_no"],
                "match": r["match"], "room": r["room"], "ns_pair": r["ns_pair"],
                "ew_pair": r["ew_pair"], "ns_team": r["ns_team"], "ew_team": r["ew_team"],
                "score_ns": r["score_ns"], "tables": n,
                "mp_ns": mp, "mp_ew": full - mp,
                "pct_ns": 100.0 * mp / full if full > 0 else None,
                "cross_imp_ns": ci if n > 1 else None, "team_imp_ns": ti,
            })
    return pl.DataFrame(out, schema=SCHEMA, orient="row")


def _team(recs: list[dict[str, object]]) -> list[int | None]:
    by_match: dict[object, list[int]] = {}
    for i, r in enumerate(recs):
        by_match.setdefault(r["match"], []).append(i)
    out: list[int | None] = [None] * len(recs)
    for key, idx in by_match.items():
        if len(idx) == 2 and key is not None:
            a, b = idx
            sa, sb = int(recs[a]["score_ns"]), int(recs[b]["score_ns"])  # type: ignore[call-overload]
            out[a], out[b] = imps(sa - sb), imps(sb - sa)
    return out


REFRESH_ROWS = 50_000
"""Results :func:`refresh` compares at a time (whole events: an event of more results alone),
so its frames do not grow with the database: read whole, the 380,000 boards of a 100 MB PBN
file took about 400 MiB more than their ingest."""

COMPARED = ("event", "board", "game_id", "deal_no", "match", "room", "ns_pair", "ew_pair",
            "ns_team", "ew_team")
"""The columns of a ``deals_bridge`` row :func:`event_results` reads."""

_BOARDS = f"FROM {DEALS_BRIDGE.name} WHERE event IS NOT NULL AND board IS NOT NULL"
_OF_EVENTS = f"{_BOARDS} AND event IN (SELECT unnest(?::VARCHAR[]))"


def refresh(conn: duckdb.DuckDBPyConnection) -> int:
    """Recompute the whole ``event_results`` table from the stored duplicate deals and their
    settlements (for ``trickbook score`` / ``analyse``), events of at most
    :data:`REFRESH_ROWS` results at a time, in event order; returns its row count. The table
    is made again from its declaration, so one an earlier version made (without a column
    added since, ``ns_team``) takes the columns it lacked."""
    conn.execute(f"DROP TABLE IF EXISTS {TABLE}")
    conn.execute(EVENT_RESULTS.ddl)
    stored = 0
    for events in _event_runs(conn):
        deals = _frame(conn, f"SELECT {', '.join(COMPARED)} {_OF_EVENTS}", [events])
        settled = _frame(conn, f"SELECT game_id, deal_no, score_ns FROM {SETTLEMENTS} "
                               "WHERE variant = 'bridge-duplicate' AND seat = 0 "
                               f"AND game_id IN (SELECT game_id {_OF_EVENTS})", [events])
        stored += insert(conn, TABLE, event_results(deals, settled))
    return stored


def _event_runs(conn: duckdb.DuckDBPyConnection) -> list[list[str]]:
    """The events of the stored boards, in order, cut into runs of at most
    :data:`REFRESH_ROWS` results (an event of more is a run alone)."""
    counted = conn.execute(f"SELECT event, count(*) {_BOARDS} GROUP BY event ORDER BY event"
                           ).fetchall()
    events = [event for event, _ in counted]
    return [events[run.start:run.stop] for run in runs([n for _, n in counted], REFRESH_ROWS)]


def _frame(conn: duckdb.DuckDBPyConnection, sql: str, params: list[object]) -> pl.DataFrame:
    out = pl.from_arrow(conn.sql(sql, params=params).to_arrow_table())
    assert isinstance(out, pl.DataFrame)
    return out
