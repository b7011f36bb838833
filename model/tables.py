"""The stable DuckDB tables (``../shared/spec/records.md`` section 2): names and columns.

Table names are constants; every writer and every query uses them from here. Each table is declared
once as a :class:`model.schema.Table` (its polars schema; its DDL is generated). Columns a variant
does not use are null (Greek fills ``kassa_*`` and ``chips``, Balkan ``bula_*`` and ``soups_*``,
bridge ``below_line`` ...). A variant declares its own flat ``deals_<variant>`` table, the input
of its settlement kernel, in its package (``model/<variant>/frame.py``).

``deals`` and ``deals_greek`` declare no key: ``(game_id, deal_no)`` and ``deal_key`` are unique
there because ingest enforces it (it looks every deal up before storing it,
``ingest/pipeline.py``); a key index in DuckDB is an in-memory ART that grows with the table and
costs memory on every bulk load (docs/ingest.md "Memory").

``deals.record`` is VARCHAR holding the canonical JSON (records.md 1), which DuckDB's JSON
functions (``->``, ``->>``, ``json_extract_string`` ...) read as is: ingest writes only JSON it has
validated, and a JSON column would parse every record again on the way in. (A database made
before keeps its JSON column; both read alike.) ``deals.record`` and ``deals.deal_key`` are
stored with zstd: quicker to write at the commit than DuckDB's default string compression, and
smaller (docs/ingest.md "Speed").
"""

from __future__ import annotations

from typing import Any

import duckdb
import polars as pl

from model.schema import Table

GAMES = "games"
DEALS = "deals"
SETTLEMENTS = "settlements"
TRANSFERS = "transfers"
STANDINGS = "standings"
QUARANTINE = "quarantine"
INGEST_LOG = "ingest_log"
PENDING = "rescore_pending"
REPAIRS = "repairs"
SUPERSEDED = "superseded"
CARD_REVIEW = "card_review"
DEAL_REVIEW = "deal_review"
DECISION_REVIEW = "decision_review"
PLAYERS = "players"
PLAYER_NAMES = "player_names"

UTC = pl.Datetime("us", "UTC")
_S, _I8, _I32, _F64, _B = pl.String(), pl.Int8(), pl.Int32(), pl.Float64(), pl.Boolean()

TABLES: dict[str, Table] = {t.name: t for t in (
    Table(GAMES, {
        "game_id": _S, "variant": _S, "players": pl.List(_S), "rules": _S, "started_at": UTC,
        "league": _S, "event": _S, "stake": _S, "source": _S, "line": _I32, "record": _S,
    }, required=("variant", "players", "rules", "source", "record"), key=("game_id",),
        sql={"rules": "JSON", "record": "JSON"}),
    Table(DEALS, {
        "game_id": _S, "deal_no": _I32, "deal_key": _S, "variant": _S, "dealer": _S,
        "declarer": _S, "contract": _S, "has_cards": _B, "source": _S, "line": _I32,
        "record": _S,
    }, required=("game_id", "deal_no", "deal_key", "variant", "dealer", "has_cards", "source",
                 "record"), zstd=("deal_key", "record")),
    Table(SETTLEMENTS, {
        "game_id": _S, "deal_no": _I32, "player": _S, "seat": _I8, "variant": _S,
        "cash": _F64, "chips": _F64, "kassa_delta": _I32, "kassa_after": _I32,
        "bula_delta": _I32, "bula_after": _I32, "soups_left": _I32, "soups_right": _I32,
        "refa_used": _B, "below_line": _I32, "above_line": _I32, "vulnerable": _B,
        "score_ns": _I32, "pool_delta": _I32, "pool_after": _I32, "hill_delta": _I32,
        "hill_after": _I32, "whists_delta": _I32,
    }, required=("seat", "variant", "cash"), key=("game_id", "deal_no", "player"),
        indexed=False),
    Table(TRANSFERS, {
        "game_id": _S, "deal_no": _I32, "payer": _S, "payee": _S, "amount": _F64,
    }, required=("amount",), key=("game_id", "deal_no", "payer", "payee"), indexed=False),
    Table(STANDINGS, {
        "game_id": _S, "player": _S, "variant": _S, "cash": _F64, "deals_played": _I32,
        "finished": _B,
    }, required=("variant", "cash", "deals_played", "finished"), key=("game_id", "player"),
        indexed=False),
    Table(QUARANTINE, {
        "source": _S, "line": _I32, "record_key": _S, "code": _S, "message": _S, "raw": _S,
        "ingested_at": UTC,
    }, required=("code", "message", "raw", "ingested_at"), key=("source", "line")),
    Table(INGEST_LOG, {
        "source": _S, "sha256": _S, "records": _I32, "stored": _I32, "duplicates": _I32,
        "quarantined": _I32, "ingested_at": UTC,
    }, required=("records", "stored", "duplicates", "quarantined", "ingested_at"),
        key=("source", "sha256")),
    Table(PENDING, {"game_id": _S}, key=("game_id",)),
    Table(REPAIRS, {
        "source": _S, "line": _I32, "record_key": _S, "code": _S, "message": _S,
        "ingested_at": UTC,
    }, required=("source", "line", "code", "message", "ingested_at")),
    Table(SUPERSEDED, {
        "source": _S, "version": _S, "previous": _S, "change": _S, "record_key": _S,
        "line": _I32, "record": _S, "ingested_at": UTC,
    }, required=("source", "version", "change", "record_key", "ingested_at")),
    Table(CARD_REVIEW, {
        "game_id": _S, "deal_no": _I32, "card_no": _I8, "player": _S, "side": _S, "card": _S,
        "value_before": _I8, "value_after": _I8, "cost": _I8, "best_cards": pl.List(_S),
    }, required=("game_id", "deal_no", "card_no", "player", "side", "card", "value_before",
                 "value_after", "cost", "best_cards")),
    Table(DEAL_REVIEW, {
        "game_id": _S, "deal_no": _I32, "variant": _S, "declarer": _S, "contract": _S,
        "fewest": _B, "result": _I8, "value_start": _I8, "value_end": _I8, "claimed": _B,
        "cards": pl.Int16(), "skipped": _S,
    }, required=("game_id", "deal_no", "variant", "cards")),
    Table(DECISION_REVIEW, {
        "game_id": _S, "deal_no": _I32, "decision_no": _I8, "player": _S, "kind": _S,
        "choice": _S, "best": pl.List(_S), "value_choice": _I32, "value_best": _I32,
        "cost": _I32, "correct": _B,
    }, required=("game_id", "deal_no", "decision_no", "player", "kind", "choice", "best",
                 "value_choice", "value_best", "correct")),
    Table(PLAYERS, {"person_id": _S, "name": _S}, required=("name",), key=("person_id",)),
    Table(PLAYER_NAMES, {"variant": _S, "name": _S, "person_id": _S},
          required=("person_id",), key=("variant", "name")),
)}
"""The stable tables every variant shares, and ``rescore_pending``: games whose settlements must
be recomputed (ingest marks them in the same transaction as their deals and the rescore that
follows clears them, so an interrupted rescore is finished by the next run, ``docs/ingest.md``);
``repairs``: the named fixes readers made to records that were then stored
(``ingest.source.Repair``; a source's rows are replaced by each ingest of it, like its quarantine
rows); ``superseded``: what a new version of a source replaced or dropped of the records its
earlier version stored (``ingest/versions.py``: the earlier record, its line and both versions;
kept across ingests); and the review of play (docs/review.md): a row per recorded card and per
decision, a row per reviewed deal. The review tables have no declared key, like ``deals``: the
review writes a deal's rows once, in one transaction, and only for deals without a
``deal_review`` row. ``players``: the people (an id and the name shown for him);
``player_names``: which person each name at the table of each variant is (``ingest/players.py``,
docs/ingest.md "People")."""

DDL: dict[str, str] = {name: table.ddl for name, table in TABLES.items()}
"""The generated ``CREATE TABLE IF NOT EXISTS`` of each of these tables, by name."""


def has_table(conn: duckdb.DuckDBPyConnection, table: str) -> bool:
    """Whether the database holds ``table`` (tables written only by some commands, e.g. the
    review's, may be missing)."""
    rows = conn.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = ?", [table]
    ).fetchall()  # every row fetched: the connection is free for the next query
    return bool(rows[0][0])


def over_rows(rows: duckdb.DuckDBPyRelation, name: str, sql: str) -> list[tuple[Any, ...]]:
    """Run ``sql`` with ``rows`` (``conn.from_arrow(...)``, ``conn.read_parquet(...)``) seen
    as the table ``name`` by this statement only; returns its result rows.

    Not ``conn.register``: a view registered and unregistered inside an open transaction keeps
    its Arrow table alive until the commit, so a file's transaction that looks rows up batch
    after batch held every batch's rows (docs/ingest.md "Memory")."""
    try:
        found = rows.query(name, sql)
    except duckdb.TransactionException as exc:
        # inside a transaction the failing statement aborts it, and DuckDB's dropping of the
        # statement's view then fails too: the statement's own error is the one to raise
        if isinstance(exc.__context__, duckdb.Error):
            raise exc.__context__ from None
        raise
    return [] if found is None else found.fetchall()


def insert(conn: duckdb.DuckDBPyConnection, table: str, frame: pl.DataFrame) -> int:
    """Append ``frame`` to ``table`` by column name through Arrow (missing columns are null;
    values are bound, never spliced into SQL). The one way rows enter the stable tables."""
    if frame.height == 0:
        return 0
    over_rows(conn.from_arrow(frame.to_arrow()), "_trickbook_rows",
              f"INSERT INTO {table} BY NAME SELECT * FROM _trickbook_rows")
    return frame.height
