"""The bridge tables (model/bridge/frame.py, scoring/bridge/): the frames written to them fit
their DDL."""

from __future__ import annotations

import duckdb
import polars as pl

from ingest.traveller_csv import READER
from model import tables as T
from model.bridge.frame import TABLE as DEALS_BRIDGE
from model.bridge.frame import deal_row, deals_frame
from scoring.bridge import DUPLICATE
from scoring.bridge.dd import DD_TABLE
from scoring.bridge.event import EVENT_RESULTS, event_results
from tests.conftest import ROOT
from tests.ingest.bridge_ingest import ingest


def columns(conn: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    return [r[0] for r in conn.execute(f"DESCRIBE {table}").fetchall()]


def test_frames_fit_the_tables() -> None:
    got = ingest(READER, ROOT / "data" / "samples" / "bridge" / "club-pairs-travellers.csv")
    deals = deals_frame(deal_row(g, d) for g, d, _ in got.deals)
    games = pl.DataFrame([{"game_id": g.game_id, "variant": g.variant, "players": list(g.players),
                           "rules": "{}"} for g in got.games.values()])
    settled = DUPLICATE.settle(games, deals)
    results = event_results(deals, settled.settlements)
    conn = duckdb.connect()
    for table in (DEALS_BRIDGE, EVENT_RESULTS, DD_TABLE,
                  *(T.TABLES[t] for t in (T.SETTLEMENTS, T.STANDINGS, T.TRANSFERS))):
        conn.execute(table.ddl)
    assert columns(conn, DEALS_BRIDGE.name) == deals.columns
    assert columns(conn, EVENT_RESULTS.name) == results.columns
    for table, frame in ((DEALS_BRIDGE.name, deals), (EVENT_RESULTS.name, results),
                         (T.SETTLEMENTS, settled.settlements), (T.STANDINGS, settled.standings),
                         (T.TRANSFERS, settled.transfers)):
        assert set(frame.columns) <= set(columns(conn, table))
        conn.register("batch", frame.to_arrow())
        conn.execute(f"INSERT INTO {table} BY NAME SELECT * FROM batch")
        conn.unregister("batch")
        assert conn.execute(f"SELECT count(*) FROM {table}").fetchone() == (frame.height,)
    # zero-sum per deal in the stored settlements (records.md 2)
    bad = conn.execute("SELECT game_id, deal_no FROM settlements GROUP BY ALL "
                       "HAVING sum(cash) <> 0").fetchall()
    assert bad == []


def test_refresh_event_results_from_the_database() -> None:
    from scoring.bridge.event import refresh

    got = ingest(READER, ROOT / "data" / "samples" / "bridge" / "club-pairs-travellers.csv")
    deals = deals_frame(deal_row(g, d) for g, d, _ in got.deals)
    games = pl.DataFrame([{"game_id": g.game_id, "variant": g.variant, "players": list(g.players),
                           "rules": "{}"} for g in got.games.values()])
    settled = DUPLICATE.settle(games, deals)
    conn = duckdb.connect()
    for table, frame in ((DEALS_BRIDGE, deals), (T.TABLES[T.SETTLEMENTS], settled.settlements)):
        conn.execute(table.ddl)
        conn.register("batch", frame.to_arrow())
        conn.execute(f"INSERT INTO {table.name} BY NAME SELECT * FROM batch")
        conn.unregister("batch")
    assert refresh(conn) == 17
    assert refresh(conn) == 17  # replaces, does not append
    rows = conn.execute("SELECT count(*), sum(mp_ns + mp_ew), count(team_imp_ns) "
                        "FROM event_results").fetchone()
    assert rows == (17, 17 * 4.0, 0)  # a pairs event: matchpoints, no team IMPs
