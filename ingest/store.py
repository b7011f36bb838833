"""The one place that writes DuckDB for ingest (STYLE.md practice 7).

Tables come from ``model.tables.DDL`` (records.md section 2) plus ingest's own bookkeeping table
``rescore_pending``. Rows go in as polars frames with an explicit schema, through Arrow, by column
name; every value is bound, never spliced into SQL. Table names are constants.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

import duckdb
import polars as pl

from model import tables as T
from model.tables import PENDING, PENDING_DDL
from model.tables import insert as insert  # the one writer of rows, for ingest callers

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
    """Every table, in one round trip (each statement ``CREATE TABLE IF NOT EXISTS``)."""
    conn.execute("\n;\n".join(ddl.strip().rstrip(";") for ddl in (*T.DDL.values(),
                                                                    *EXTRA_DDL.values())))


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


def stored_games(
    conn: duckdb.DuckDBPyConnection, game_ids: Iterable[str]
) -> dict[str, tuple[str, str] | None]:
    """:func:`stored_game` of each of ``game_ids`` in one query (``None`` for one not stored)."""
    ids = sorted(set(game_ids))
    if not ids:
        return {}
    rows = conn.execute(
        f"SELECT game_id, variant, record::VARCHAR FROM {T.GAMES} "
        "WHERE game_id IN (SELECT unnest(?::VARCHAR[]))", [ids]
    ).fetchall()
    found: dict[str, tuple[str, str] | None] = dict.fromkeys(ids)
    for gid, variant, record in rows:
        found[str(gid)] = (str(variant), str(record))
    return found


def stored_deal_keys(
    conn: duckdb.DuckDBPyConnection, wanted: Iterable[tuple[str, int]],
    staged: list[str] | None = None,
) -> dict[tuple[str, int], str]:
    """``deal_key`` of each stored (or ``staged``) ``(game_id, deal_no)`` among ``wanted``."""
    ids = list(wanted)
    if not ids:
        return {}
    probe = pl.DataFrame(ids, schema={"game_id": pl.String(), "deal_no": pl.Int32()},
                         orient="row")
    found = deal_keys(conn, probe, staged)
    return {(g, n): k for g, n, k in found.iter_rows()}


def deal_keys(
    conn: duckdb.DuckDBPyConnection, probe: pl.DataFrame, staged: list[str] | None = None
) -> pl.DataFrame:
    """``game_id, deal_no, deal_key`` of the deals of ``probe`` (its ``game_id, deal_no``) that
    are stored, or staged in the Parquet files ``staged`` (one bound join)."""
    known = f"SELECT game_id, deal_no, deal_key FROM {T.DEALS}"
    params: list[object] = []
    if staged:
        known += " UNION ALL SELECT game_id, deal_no, deal_key FROM read_parquet(?)"
        params.append(staged)
    conn.register("_trickbook_probe", probe.select("game_id", "deal_no").to_arrow())
    try:
        table = conn.sql(
            f"SELECT k.game_id, k.deal_no, k.deal_key FROM ({known}) k "
            "JOIN _trickbook_probe p USING (game_id, deal_no)", params=params or None
        ).to_arrow_table()
    finally:
        conn.unregister("_trickbook_probe")
    found = pl.from_arrow(table)
    assert isinstance(found, pl.DataFrame)
    return found.cast({"game_id": pl.String(), "deal_no": pl.Int32(), "deal_key": pl.String()})


LOAD_MEMORY_LIMIT = "64MiB"
"""DuckDB's memory limit while a file's staged rows are loaded (the previous limit is restored
after): with it DuckDB writes the new row groups to the database file as it goes instead of
holding the whole file's rows in memory until the commit."""


class Staging:
    """The new rows of one file's big tables (``deals``, ``deals_<variant>``), written to Parquet
    batch by batch in a private temporary folder and loaded into their tables at the end of the
    file with one ``INSERT ... SELECT FROM read_parquet`` each, inside the file's transaction.

    One bulk statement lets DuckDB write the rows to the database file under
    :data:`LOAD_MEMORY_LIMIT`, where appending batch after batch to one open transaction keeps
    them all in memory: the process's memory stays flat whatever the file's size.

    The folder sits next to the database file (``.<db name>.stage-*``; in the system's temporary
    folder for an in-memory database) and is removed by :meth:`close`. A killed process leaves it
    behind, never anything in the database; :meth:`sweep` removes such leftovers (DuckDB lets
    one process write a database, so while it holds the database open for writing every such
    folder is stale)."""

    def __init__(self, conn: duckdb.DuckDBPyConnection | None = None) -> None:
        self._root: Path | None = None
        self._prefix = "trickbook-stage-"
        if conn is not None:
            rows = conn.execute(
                "SELECT path FROM duckdb_databases() WHERE database_name = current_database()"
            ).fetchall()
            if rows and rows[0][0]:
                db = Path(rows[0][0])
                self._root, self._prefix = db.parent, f".{db.name}.stage-"
        self._dir: Path | None = None
        self.files: dict[str, list[str]] = {}
        self._games: dict[str, list[frozenset[str]]] = {}
        self._limit: str | None = None
        """The memory limit to restore, while :meth:`load` has lowered it."""

    def add(self, table: str, rows: pl.DataFrame) -> None:
        if rows.height == 0:
            return
        if self._dir is None:
            self._dir = Path(tempfile.mkdtemp(prefix=self._prefix, dir=self._root))
        files = self.files.setdefault(table, [])
        path = self._dir / f"{table}-{len(files):06d}.parquet"
        rows.with_columns(pl.col(pl.Enum, pl.Categorical).cast(pl.String())).write_parquet(
            path, compression="lz4", statistics=True)
        files.append(str(path))
        self._games.setdefault(table, []).append(frozenset(rows["game_id"].unique().to_list()))

    def sweep(self) -> None:
        """Remove the staging folders that killed processes left next to this database."""
        if self._root is not None:
            for stale in self._root.glob(self._prefix + "*"):
                if stale.is_dir() and stale != self._dir:
                    shutil.rmtree(stale, ignore_errors=True)

    def files_with(self, table: str, game_ids: Iterable[str]) -> list[str]:
        """The staged files of ``table`` holding rows of any of ``game_ids`` (a batch's deals are
        looked up in these only, so the lookups do not grow with the file)."""
        wanted = set(game_ids)
        return [f for f, held in zip(self.files.get(table, []), self._games.get(table, []),
                                     strict=True) if not held.isdisjoint(wanted)]

    def load(self, conn: duckdb.DuckDBPyConnection) -> None:
        """Insert every staged table (by column name) into the database."""
        if not self.files:
            return
        before = conn.execute("SELECT current_setting('memory_limit')").fetchall()[0][0]
        on_disk = conn.execute(
            "SELECT path IS NOT NULL FROM duckdb_databases() "
            "WHERE database_name = current_database()").fetchall()
        if on_disk and on_disk[0][0]:  # an in-memory database cannot write its rows out
            conn.execute("SET memory_limit = ?", [LOAD_MEMORY_LIMIT])
            self._limit = before
        for table, files in self.files.items():
            conn.execute(f"INSERT INTO {table} BY NAME SELECT * FROM read_parquet(?)", [files])
        self._restore(conn)
        self.files, self._games = {}, {}

    def _restore(self, conn: duckdb.DuckDBPyConnection) -> None:
        if self._limit is not None:
            conn.execute("SET memory_limit = ?", [self._limit])
            self._limit = None

    def close(self, conn: duckdb.DuckDBPyConnection | None = None) -> None:
        """Remove the staged files; after a failed :meth:`load` (the caller has rolled back),
        give ``conn`` its memory limit back."""
        if conn is not None:
            self._restore(conn)
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None
        self.files, self._games = {}, {}


def clear_quarantine(conn: duckdb.DuckDBPyConnection, source: str) -> None:
    """Drop a source's earlier quarantine rows: a new ingest of it replaces them."""
    conn.execute(f"DELETE FROM {T.QUARANTINE} WHERE source = ?", [source])


def mark_pending(conn: duckdb.DuckDBPyConnection, game_ids: Iterable[str]) -> None:
    ids = sorted(set(game_ids))
    if ids:
        conn.execute(
            f"INSERT OR IGNORE INTO {PENDING} SELECT unnest(?::VARCHAR[])", [ids]
        )

