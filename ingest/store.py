"""The one place that writes DuckDB for ingest (STYLE.md practice 7).

Tables come from ``model.tables.DDL`` (records.md section 2) plus ingest's own bookkeeping table
``rescore_pending``. Rows go in as polars frames with an explicit schema, through Arrow, by column
name; every value is bound, never spliced into SQL. Table names are constants.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import duckdb
import polars as pl

from model import tables as T
from scoring.store import PENDING, PENDING_DDL

EXTRA_DDL: dict[str, str] = {PENDING: PENDING_DDL}
"""Ingest's bookkeeping beside the stable tables: the games waiting for a rescore."""

UTC = pl.Datetime("us", "UTC")

GAMES_SCHEMA: dict[str, pl.DataType] = {
    "game_id": pl.String(), "variant": pl.String(), "players": pl.List(pl.String()),
    "rules": pl.String(), "started_at": UTC, "league": pl.String(), "event": pl.String(),
    "stake": pl.String(), "source": pl.String(), "line": pl.Int32(), "record": pl.String(),
}
DEALS_SCHEMA: dict[str, pl.DataType] = {
    "game_id": pl.String(), "deal_no": pl.Int32(), "deal_key": pl.String(),
    "variant": pl.String(), "dealer": pl.String(), "declarer": pl.String(),
    "contract": pl.String(), "has_cards": pl.Boolean(), "source": pl.String(),
    "line": pl.Int32(), "record": pl.String(),
}
QUARANTINE_SCHEMA: dict[str, pl.DataType] = {
    "source": pl.String(), "line": pl.Int32(), "record_key": pl.String(), "code": pl.String(),
    "message": pl.String(), "raw": pl.String(), "ingested_at": UTC,
}
INGEST_LOG_SCHEMA: dict[str, pl.DataType] = {
    "source": pl.String(), "sha256": pl.String(), "records": pl.Int32(), "stored": pl.Int32(),
    "duplicates": pl.Int32(), "quarantined": pl.Int32(), "ingested_at": UTC,
}


def create_tables(conn: duckdb.DuckDBPyConnection) -> None:
    for ddl in (*T.DDL.values(), *EXTRA_DDL.values()):
        conn.execute(ddl)


def connect(db_path: str | Path, *, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """Open the database; read-write opens create it and its tables.

    Other processes (dashboards) may hold it read-only; open read-write only while writing."""
    path = Path(db_path)
    if read_only:
        return duckdb.connect(str(path), read_only=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = duckdb.connect(str(path))
    create_tables(conn)
    return conn


def insert(conn: duckdb.DuckDBPyConnection, table: str, frame: pl.DataFrame) -> int:
    """Append ``frame`` to ``table`` by column name (missing columns are null)."""
    if frame.height == 0:
        return 0
    conn.register("_trickbook_batch", frame.to_arrow())
    try:
        conn.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _trickbook_batch")
    finally:
        conn.unregister("_trickbook_batch")
    return frame.height


def frame(rows: list[dict[str, object]], schema: dict[str, pl.DataType]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=schema, orient="row")


def already_logged(conn: duckdb.DuckDBPyConnection, source: str, sha256: str) -> bool:
    rows = conn.execute(
        f"SELECT count(*) FROM {T.INGEST_LOG} WHERE source = ? AND sha256 = ?", [source, sha256]
    ).fetchall()
    return bool(rows[0][0])


def stored_game(conn: duckdb.DuckDBPyConnection, game_id: str) -> tuple[str, str] | None:
    """``(variant, canonical record JSON)`` of a stored game."""
    rows = conn.execute(
        f"SELECT variant, record::VARCHAR FROM {T.GAMES} WHERE game_id = ?", [game_id]
    ).fetchall()
    return (str(rows[0][0]), str(rows[0][1])) if rows else None


def stored_deal_keys(
    conn: duckdb.DuckDBPyConnection, wanted: Iterable[tuple[str, int]]
) -> dict[tuple[str, int], str]:
    """``deal_key`` of each stored ``(game_id, deal_no)`` among ``wanted`` (one bound join)."""
    ids = list(wanted)
    if not ids:
        return {}
    probe = pl.DataFrame(ids, schema={"game_id": pl.String(), "deal_no": pl.Int32()},
                         orient="row")
    conn.register("_trickbook_probe", probe.to_arrow())
    try:
        rows = conn.execute(
            f"SELECT d.game_id, d.deal_no, d.deal_key FROM {T.DEALS} d "
            "JOIN _trickbook_probe p USING (game_id, deal_no)"
        ).fetchall()
    finally:
        conn.unregister("_trickbook_probe")
    return {(g, n): k for g, n, k in rows}


def clear_quarantine(conn: duckdb.DuckDBPyConnection, source: str) -> None:
    """Drop a source's earlier quarantine rows: a new ingest of it replaces them."""
    conn.execute(f"DELETE FROM {T.QUARANTINE} WHERE source = ?", [source])


def mark_pending(conn: duckdb.DuckDBPyConnection, game_ids: Iterable[str]) -> None:
    ids = sorted(set(game_ids))
    if ids:
        conn.execute(
            f"INSERT OR IGNORE INTO {PENDING} SELECT unnest(?::VARCHAR[])", [ids]
        )


def pending_games(conn: duckdb.DuckDBPyConnection) -> list[str]:
    return [r[0] for r in conn.execute(f"SELECT game_id FROM {PENDING} ORDER BY 1").fetchall()]
