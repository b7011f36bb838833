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

from collections.abc import Mapping
from typing import Any

import duckdb
import polars as pl

from model.problems import Code
from model.schema import Table, sql_type

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
UPGRADES = "upgrades"

MERGED = "{n} records at this line: "
"""How a quarantine row holding the issues of several records of one line starts."""
FILE_KEY = "(the file)"
"""The ``record_key`` of a quarantine row that holds issues of the file alone, no record
(``ingest.source.Issue.of_file``)."""
HELD_RECORDS = (f"CASE WHEN record_key = '{FILE_KEY}' THEN 0 ELSE "
                r"coalesce(try_cast(regexp_extract(message, '^(\d+)"
                + MERGED.removeprefix("{n}") + "', 1) AS INTEGER), 1) END")
"""SQL: the records a quarantine row holds (:data:`MERGED`: several of one line, none in a row
of the file's issues alone, :data:`FILE_KEY`, else one)."""
DROPPED_ROW = f"(line = 0 AND code = '{Code.DEAL_CONFLICT}')"
"""SQL: a quarantine row that holds no record of its file: the deals of an earlier version the
file left out, kept as conflicts (docs/ingest.md, "Versions of a source")."""

SIMULATED = "simulated"
"""The ``source`` of the games and deals a simulation stored (``trickbook simulate --db``): no
file, so no line and no version a file could replace."""
ENTERED = "entry/"
"""How the ``source`` of a record typed on the Entry page starts (``entry/<game id>/game``,
``entry/<game id>/<deal>``: ``dashboards.entry.source_of``): no file of that name."""

CONTENT_HASH_DIGITS = 16
"""Hex digits of a file's content hash that start the name it is saved under (an upload,
``dashboards.uploads.stored_name``: ``9f3a6c2e1b7d4a50-week12.csv``): such a file is a version of
every file of the same name so saved in its folder (``ingest.source.CONTENT_NAME``)."""
VERSIONS_OF = (rf"regexp_replace(source, '(^|/)[0-9a-f]{{{CONTENT_HASH_DIGITS}}}-([^/]+)$', "
               r"'\1\2')")
"""SQL: the file a ``source`` is a version of (:data:`CONTENT_HASH_DIGITS`): ``<name>`` in its
folder, whose latest read's quarantine replaced the earlier versions'; any other source is its
own."""

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
    Table(UPGRADES, {"upgrade": _S, "deals": _I32}, required=("deals",), key=("upgrade",)),
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
docs/ingest.md "People"); ``upgrades``: the one-time upgrades of the stored records applied to
the database (``ingest/upgrades.py``: its name and the deals it changed)."""

DDL: dict[str, str] = {name: table.ddl for name, table in TABLES.items()}
"""The generated ``CREATE TABLE IF NOT EXISTS`` of each of these tables, by name."""


def interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` is DuckDB's word for a Ctrl-C that came while it ran a statement
    (``RuntimeError: Query interrupted``, or its ``InterruptException``), or DuckDB's error in
    handling that stop (a ``duckdb.Error`` whose ``__context__`` or ``__cause__`` is one, or a
    ``KeyboardInterrupt``): the user's stop, to be handled as ``KeyboardInterrupt``, not a
    failure of the work. A stopped statement aborts its transaction, so that the clean-up
    after it (dropping the statement's view, the next statement) fails with ``Current
    transaction is aborted``, which had hidden the stop: a file said "not stored", a game "not
    scored"."""
    seen: set[int] = set()
    at: BaseException | None = exc
    while at is not None and id(at) not in seen:
        if isinstance(at, duckdb.InterruptException | KeyboardInterrupt) or (
                type(at) is RuntimeError and str(at) == "Query interrupted"):
            return True
        if not isinstance(at, duckdb.Error):
            return False
        seen.add(id(at))
        at = at.__cause__ or at.__context__
    return False


def stop_if_interrupted(exc: BaseException) -> None:
    """Raise ``KeyboardInterrupt`` when ``exc`` is a Ctrl-C that DuckDB met in a statement
    (:func:`interrupted`): a stop, which rolls back the open transaction, not a file or a
    settlement that failed."""
    if interrupted(exc):
        raise KeyboardInterrupt from exc


def has_table(conn: duckdb.DuckDBPyConnection, table: str) -> bool:
    """Whether the database holds ``table`` (tables written only by some commands, e.g. the
    review's, may be missing)."""
    rows = conn.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = ?", [table]
    ).fetchall()  # every row fetched: the connection is free for the next query
    return bool(rows[0][0])


def columns_lacking(conn: duckdb.DuckDBPyConnection,
                    declared: Mapping[str, Table]) -> dict[str, list[str]]:
    """The columns of ``declared`` that the tables of the connection's database (its current
    schema) lack, by table, in declared order: a table it does not hold is not named."""
    found: dict[str, set[str]] = {}
    for table, column in conn.execute(
            "SELECT table_name, column_name FROM duckdb_columns() "
            "WHERE database_name = current_database() AND schema_name = current_schema() "
            "AND table_oid IN (SELECT table_oid FROM duckdb_tables())"  # not a view's
    ).fetchall():
        found.setdefault(str(table), set()).add(str(column))
    return {name: lacking for name, t in declared.items() if name in found
            and (lacking := [c for c in t.columns if c not in found[name]])}


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


SMALL_ROWS = 256
"""Rows at most inserted with their columns bound as lists (:func:`bind_rows`): one statement of
about 0.5-1.5 ms, where an Arrow scan costs four statements of DuckDB's relation layer (about
3 ms in all), which weighs on every small file (``bench bridge``, "LIN files")."""


def insert(conn: duckdb.DuckDBPyConnection, table: str, frame: pl.DataFrame,
           or_ignore: bool = False) -> int:
    """Append ``frame`` to ``table`` by column name (missing columns are null; values are bound,
    never spliced into SQL). The one way rows enter the tables: a frame of at most
    :data:`SMALL_ROWS` rows as bound lists (:func:`bind_rows`), a larger one (or one with a
    column type :func:`bind_rows` does not name) through Arrow (:func:`scan_rows`); both store
    the same rows (tests/model/test_tables_insert.py). ``or_ignore``: a row whose key the
    table holds already is left out (``INSERT OR IGNORE``)."""
    if frame.height == 0:
        return 0
    if frame.height > SMALL_ROWS or not bind_rows(
            conn, table, {name: frame.get_column(name).to_list() for name in frame.columns},
            dict(zip(frame.columns, frame.dtypes, strict=True)), or_ignore):
        scan_rows(conn, table, frame, or_ignore)
    return frame.height


def _insert_into(table: str, or_ignore: bool) -> str:
    return f"INSERT {'OR IGNORE ' if or_ignore else ''}INTO {table}"


def scan_rows(conn: duckdb.DuckDBPyConnection, table: str, frame: pl.DataFrame,
              or_ignore: bool = False) -> None:
    """Append ``frame`` by column name through an Arrow scan of it."""
    over_rows(conn.from_arrow(frame.to_arrow()), "_trickbook_rows",
              f"{_insert_into(table, or_ignore)} BY NAME SELECT * FROM _trickbook_rows")


def bind_rows(conn: duckdb.DuckDBPyConnection, table: str,
              columns: Mapping[str, list[Any]], types: Mapping[str, pl.DataType],
              or_ignore: bool = False) -> bool:
    """Append rows given as equally long lists per column name, in one statement, each list
    bound as a parameter and read as the Arrow scan of a frame of ``types`` reads its column
    (:func:`bound_cast`); the insert then casts it to the table's column alike. False, with
    nothing written, when a column has no type in ``types`` or one without a DuckDB name
    (``model.schema.sql_type``): the caller scans the rows through Arrow.

    A column whose values are all null is left out (unless every one is): it is null all the
    same, as no table declares a default, and each column the statement does not bind saves it
    a parameter, an ``unnest`` and the conversion of its values. The names are the frame's
    columns, never data."""
    kept = [name for name, values in columns.items() if any(v is not None for v in values)]
    if not kept:
        kept = list(columns)[:1]
    try:
        casts = [bound_cast(types[name]) for name in kept]
    except (KeyError, TypeError):
        return False
    names = ", ".join(f'"{name}"' for name in kept)
    values = ", ".join(f"unnest(${k}){cast}" for k, cast in enumerate(casts, 1))
    conn.execute(f"{_insert_into(table, or_ignore)} ({names}) SELECT {values}",
                 [columns[n] for n in kept])
    return True


_READ_EXACTLY = (pl.String, pl.Enum, pl.Categorical, pl.Boolean, pl.Float64, pl.Date, pl.Null)


def bound_cast(dtype: pl.DataType) -> str:
    """The cast (``::FLOAT``) that makes DuckDB read a bound list of a ``dtype`` column's Python
    values as the Arrow scan reads the column, or ``""`` when none is needed.

    DuckDB types a bound list by its values, not by the table: a ``str`` as ``VARCHAR``, a
    ``bool`` as ``BOOLEAN``, a ``float`` as ``DOUBLE``, an ``int`` as the narrowest integer
    type holding the list's values, a ``datetime`` as ``TIMESTAMP`` (``TIMESTAMPTZ`` when it
    has a zone), a ``date`` as ``DATE``, ``None`` as ``NULL``. For a column of text, an enum,
    flags, ``Float64``, any integer type, dates, microsecond timestamps, or lists of these, that
    reading holds the values exactly and the insert's cast to the table's column gives what it
    gives the Arrow scan's (tests/model/test_tables_insert.py, on every declared table). Any
    other type is cast to its own DuckDB type: a ``Float32`` column's values, read as
    ``DOUBLE``, would be written to text with all their binary digits. TypeError when the
    type has no DuckDB name."""
    if isinstance(dtype, pl.List):
        inner = dtype.inner if isinstance(dtype.inner, pl.DataType) else dtype.inner()
        return bound_cast(inner) and f"::{sql_type(dtype)}"
    if (isinstance(dtype, _READ_EXACTLY) or dtype.is_integer()
            or (isinstance(dtype, pl.Datetime) and dtype.time_unit == "us")):
        return ""
    return f"::{sql_type(dtype)}"
