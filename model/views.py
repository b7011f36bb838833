"""DuckDB views over the stable tables: ``deal_outcomes`` (docs/dashboards.md, "deal_outcomes").

``deal_outcomes`` has one row per stored deal of every registered variant:

=================  ==========  =====================================================================
column             type        meaning
=================  ==========  =====================================================================
game_id            VARCHAR     the deal's game
deal_no            INTEGER     the deal's number in the game
variant            VARCHAR     the game's variant (records.md 1.1)
defence_mode       VARCHAR     the variant's own word for how the deal was defended (``none`` when
                               nobody declared): Greek ``pass/both/invite/alone/concede``
                               (greek-prefa.md 6.1, 5), Balkan ``pass/nokontra/both/invite/alone``
                               (balkan.md 5.1), Swabian ``play/contra/recontra`` (swabian.md 5),
                               bridge ``undoubled/doubled/redoubled`` (bridge.md)
declarer_tricks    INTEGER     tricks the declarer (bridge: his side) took; null without play
made               BOOLEAN     the declarer made his contract; null where nobody declared
called             VARCHAR     the contract as called where the deal's ``contract`` does not say it
                               all: a Swabian game aus den Händen, ``hand3`` (swabian.md 3.2: one
                               trick more to make); null elsewhere
=================  ==========  =====================================================================

Each variant contributes one ``SELECT`` over its own ``deals_<variant>`` table
(``Variant.outcome_sql``); :func:`deal_outcomes_sql` joins them with ``UNION ALL``. Variants that
share a table (bridge rubber and duplicate) each select their own games. A variant that lands
later appears in the view once it is registered, without a change here.
"""

from __future__ import annotations

from collections.abc import Iterable

import duckdb
import polars as pl

from model import tables as T
from model.variants import Variant, registered, tables

DEAL_OUTCOMES = "deal_outcomes"
COLUMNS: tuple[tuple[str, str], ...] = (
    ("game_id", "VARCHAR"),
    ("deal_no", "INTEGER"),
    ("variant", "VARCHAR"),
    ("defence_mode", "VARCHAR"),
    ("declarer_tricks", "INTEGER"),
    ("made", "BOOLEAN"),
    ("called", "VARCHAR"),
)
"""The view's columns and types, in order."""

_EMPTY = "SELECT " + ", ".join(f"NULL::{t} AS {c}" for c, t in COLUMNS) + " WHERE FALSE"
"""The body of the view when no variant table exists yet (the right columns, no rows)."""


def _branch(sql: str) -> str:
    """One variant's SELECT with the view's column names, order and types fixed."""
    cols = ", ".join(f"CAST({c} AS {t}) AS {c}" for c, t in COLUMNS)
    return f"SELECT {cols} FROM ({sql.strip()})"


def deal_outcomes_sql(variants: Iterable[Variant] | None = None) -> str:
    """The ``SELECT ... UNION ALL ...`` body of ``deal_outcomes`` over ``variants`` (default:
    every registered variant)."""
    chosen = registered() if variants is None else list(variants)
    branches = [_branch(v.outcome_sql) for v in chosen]
    return "\nUNION ALL\n".join(branches) if branches else _EMPTY


def _existing_tables(conn: duckdb.DuckDBPyConnection) -> set[str]:
    rows = conn.execute("SELECT table_name FROM duckdb_tables() WHERE NOT temporary").fetchall()
    return {r[0] for r in rows}


def create_views(conn: duckdb.DuckDBPyConnection, *, temporary: bool = False) -> None:
    """``CREATE OR REPLACE VIEW deal_outcomes`` on ``conn``.

    On a writable connection (``temporary=False``) the tables the view reads are created first
    when missing (``model.variants.tables``), so the view always binds. On a read-only connection
    pass ``temporary=True``: the view is a session-only ``TEMP`` view over the
    variant tables that exist (DuckDB allows temporary objects on a read-only database)."""
    reg = registered()
    if temporary:
        have = _existing_tables(conn)
        reg = [v for v in reg if v.deals_table in have and T.GAMES in have]
    else:
        every = tables()
        for table in sorted({T.GAMES, *(v.deals_table for v in reg)}):
            conn.execute(every[table].ddl)
    kind = "TEMP VIEW" if temporary else "VIEW"
    conn.execute(f"CREATE OR REPLACE {kind} {DEAL_OUTCOMES} AS {deal_outcomes_sql(reg)}")


def ensure_views(conn: duckdb.DuckDBPyConnection) -> None:
    """Make ``deal_outcomes`` visible on a read-only connection: nothing to do when the database
    has it with every column of :data:`COLUMNS` (written by the last rescore,
    ``scoring/store.py``), else a temporary one, which hides a stored view of fewer columns (a
    database last scored before a column was added) until the next rescore replaces it."""
    found = {r[0] for r in conn.execute(
        "SELECT column_name FROM duckdb_columns() WHERE table_name = ? "
        "AND database_name = current_database()",
        [DEAL_OUTCOMES]).fetchall()}
    if not found >= {c for c, _ in COLUMNS}:
        create_views(conn, temporary=True)


def outcomes(variant: Variant, deals: pl.DataFrame) -> pl.DataFrame:
    """The ``deal_outcomes`` rows of ``deals`` (a frame of the variant's ``deals_<variant>``
    table, not yet stored): the variant's one definition of "made" and of the defence mode,
    for callers that hold the deals in memory (balance studies)."""
    conn = duckdb.connect()
    try:
        conn.register(variant.table.name, deals.to_arrow())
        return conn.sql(_branch(variant.outcome_sql)).pl()
    finally:
        conn.close()
