"""The one place that writes DuckDB for ingest (STYLE.md practice 7).

Tables come from ``model.variants.tables()``: the stable tables of records.md section 2, each
variant's ``deals_<variant>`` and the bookkeeping table ``rescore_pending``. Rows go in as polars
frames with an explicit schema, by column name, through ``model.tables.insert`` (or, a file's
staged rows, :class:`Staging`); every value is bound, never spliced into SQL. Table names are
constants.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable
from contextlib import suppress
from datetime import datetime
from pathlib import Path
from typing import Literal, TypeVar

import duckdb
import polars as pl
import pyarrow as pa

from ingest import players, upgrades
from model import tables as T
from model.problems import Code
from model.tables import TABLES, over_rows
from model.variants import tables

GAMES_SCHEMA = TABLES[T.GAMES].schema
DEALS_SCHEMA = TABLES[T.DEALS].schema
QUARANTINE_SCHEMA = TABLES[T.QUARANTINE].schema
INGEST_LOG_SCHEMA = TABLES[T.INGEST_LOG].schema
REPAIRS = T.REPAIRS
REPAIRS_SCHEMA = TABLES[T.REPAIRS].schema


RAW_LIMIT = 64 << 10
"""Characters of a quarantined record's text kept in ``quarantine.raw`` (the rest is cut, and the
cut is said): a 50 MB value must not be copied into the database, nor into memory again."""
MESSAGE_LIMIT = 2_000
"""Characters of an issue's message kept in ``quarantine.message``."""


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""What stands for a byte that did not decode (``surrogateescape``): no text a table holds."""


def bounded(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, saying how much was cut, with U+FFFD for what
    stands for a byte that did not decode (a reader's text of a record it could not read)."""
    if not text.isascii():
        text = _LONE_SURROGATE.sub("\ufffd", text)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… [{len(text) - limit:,} more characters cut]"


def _catalog(conn: duckdb.DuckDBPyConnection) -> dict[str, int]:
    """The tables of the connection's database (its current schema) and their numbers of
    columns, from its catalog."""
    return {str(name): int(count) for name, count in conn.execute(
        "SELECT table_name, column_count FROM duckdb_tables() "
        "WHERE database_name = current_database() AND schema_name = current_schema()"
    ).fetchall()}


def _table_names(conn: duckdb.DuckDBPyConnection) -> set[str]:
    """The tables of the connection's database (its current schema)."""
    return set(_catalog(conn))


def create_tables(conn: duckdb.DuckDBPyConnection) -> None:
    """Every table the database lacks, in one round trip (each statement ``CREATE TABLE IF NOT
    EXISTS``), the columns declared since an older trickbook made a table (:func:`_not_foreign`:
    optional ones, null in the rows it holds; ``deals_bridge``'s ``ns_team``), then the upgrades
    of its stored records it lacks (``ingest/upgrades.py``; a database made now is marked as
    having them). The catalog is asked first, with each table's number of columns: on a
    database that has them all (every open but the first) the twenty statements cost about 8
    ms of CPU, the question well under 1 ms, and every ``ingest_paths`` run opens the database
    (``bench bridge``, "LIN files")."""
    have = _catalog(conn)
    declared = tables()
    missing = [t.ddl for name, t in declared.items() if name not in have]
    older = {}
    if missing or any(have[name] < len(t.columns) for name, t in declared.items()
                      if name in have):
        older = _not_foreign(conn, set(have))
    added = [declared[name].add_column(c) for name, columns in older.items() for c in columns]
    if missing or added:
        conn.execute("\n;\n".join([*missing, *added]))
    upgrades.apply(conn, made_now=not have)


def _not_foreign(conn: duckdb.DuckDBPyConnection, have: set[str]) -> dict[str, list[str]]:
    """A :class:`DatabaseError` when the database is another program's: a table of trickbook's
    name without a column trickbook requires (its ``games`` table failed every insert, after
    trickbook's tables had been added to it), or tables without trickbook's ``games``. An empty
    database (``have`` empty) is not: trickbook makes its tables there; nor is trickbook's with
    a table of the user's beside its own. Returns the optional columns declared since an older
    trickbook made its tables, by table (:func:`create_tables` adds them). The one definition
    of every command (:func:`create_tables`, :func:`_ours`, :func:`check_writable`)."""
    if not have:
        return {}
    declared = tables()
    older: dict[str, list[str]] = {}
    for name, lacking in T.columns_lacking(conn, declared).items():
        if T.GAMES in have and all(map(declared[name].optional, lacking)):
            older[name] = lacking
            continue
        raise DatabaseError(
            f"its table {name!r} lacks the columns {', '.join(lacking[:4])}"
            f"{', ...' if len(lacking) > 4 else ''} that trickbook writes: another "
            f"program's database, or an older trickbook's; {NAME_OURS}")
    if T.GAMES not in have:
        theirs = sorted(have)
        raise DatabaseError(
            f"another program's database: it holds tables ({', '.join(theirs[:3])}"
            f"{', ...' if len(theirs) > 3 else ''}) but not trickbook's; {NAME_OURS}")
    return older


NAME_OURS = "name a trickbook database, or a new file"
"""What to do about another program's database (:func:`_not_foreign`): trickbook neither
adds its tables to it nor reads it."""


CHECKPOINT_THRESHOLD = "1MiB"
"""DuckDB's write-ahead log size beyond which a commit checkpoints (DuckDB's default is 16 MiB).
A file's transaction past it is written straight to the database file at its commit, instead of
to the log first and to the file again at the next checkpoint (the connection's close): the
commit and close of 20,000 deals with cards took about 0.12 s instead of 0.15 s on the 2-core
development machine (docs/ingest.md "Speed")."""


class DatabaseError(Exception):
    """The database cannot be used: what it is and why, in one line for a user."""


DUCKDB_MAGIC = b"DUCK"
"""Bytes 8-11 of every DuckDB database file (its header)."""
LOCK_WAIT = 30.0
"""Seconds a writer waits for another process's lock on the database before giving up."""
LOCK_POLL = 0.2


def check_database_path(path: Path) -> None:
    """Refuse a database path before anything is read: a parent that is not a folder, a folder,
    or an existing file that is not a DuckDB database (a CSV, JSONL or Parquet file named by
    mistake would otherwise be opened as an empty database, or overwritten)."""
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise DatabaseError(f"cannot create the database {path}: {parent} is not a folder")
            break
    if path.is_dir():
        raise DatabaseError(f"{path} is a folder, not a DuckDB database file")
    if path.exists():
        try:
            with path.open("rb") as fh:
                head = fh.read(12)
        except OSError as exc:
            raise DatabaseError(f"cannot read the database {path}: {exc.strerror or exc}") from exc
        if not head:  # DuckDB refuses an empty file too, in its own words
            raise DatabaseError(f"{path} is an empty file, not a DuckDB database (refusing to "
                                "open or overwrite it; remove it, or name a new or an existing "
                                ".duckdb file with --db)")
        if head[8:12] != DUCKDB_MAGIC:
            raise DatabaseError(f"{path} is not a DuckDB database (refusing to open or overwrite "
                                "it; name a new or an existing .duckdb file with --db)")


def check_folder_writable(path: Path) -> None:
    """A :class:`DatabaseError` when no file can be made beside the database ``path``: DuckDB
    writes its log there (``<db>.wal``) on the first change, and a folder that refuses it would
    fail the write half-way, in DuckDB's words. Tried by making and removing a file."""
    try:
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.probe-"):
            pass
    except OSError as exc:
        raise DatabaseError(
            f"cannot write the database {path}: its folder {path.parent} does not let a file "
            f"be made ({exc.strerror or type(exc).__name__}), and DuckDB keeps its log "
            f"{path.name}.wal there; nothing was changed") from exc


def check_writable(path: Path) -> None:
    """Refuse, before the work whose result is to be stored (a simulation, a study of minutes),
    a database that could not be written then: :func:`check_database_path`, a file this
    process may not write (read-only, immutable, a read-only file system), a folder where no
    file can be made (:func:`check_folder_writable`), or another program's database
    (:func:`_not_foreign`, its catalog read read-only). Nothing is created or changed."""
    check_database_path(path)
    folder = next((p for p in path.parents if p.exists()), Path("."))  # made when it is not
    if path.exists() and not os.access(path, os.W_OK):
        raise DatabaseError(f"cannot write the database {path}: the file may not be written "
                            "(read-only, or on a read-only file system); nothing was changed")
    check_folder_writable(folder / path.name)
    if path.is_file():  # a DuckDB database: check_database_path refused anything else
        _catalog_ours(path)


def _catalog_ours(path: Path) -> None:
    """Refuse the existing database ``path`` when it is another program's
    (:func:`_not_foreign`). Under another process's write lock its catalog cannot be read now:
    the command's own :func:`connect` waits for the lock and asks then."""
    try:
        conn = duckdb.connect(str(path), read_only=True)
    except duckdb.Error as exc:
        if is_lock_conflict(exc):
            return
        raise DatabaseError(explain_open_error(path, exc)) from exc
    try:
        _not_foreign(conn, _table_names(conn))
    except DatabaseError as exc:
        raise DatabaseError(f"{path}: {exc}") from exc
    finally:
        conn.close()


def explain_open_error(path: Path, exc: BaseException) -> str:
    """What a failure to open the database is, in one line: locked by another process, a
    read-only file system, no permission, or DuckDB's own words."""
    text = str(exc)
    low = text.lower()
    if "lock" in low and ("conflicting" in low or "could not set lock" in low):
        return (f"the database {path} is locked by another process writing it "
                f"(it holds the write lock): {text.splitlines()[0]}")
    if "read-only file system" in low:
        return f"the database {path} is on a read-only file system: it cannot be written"
    if "permission denied" in low:
        return f"no permission to write the database {path}"
    if "no space left" in low:
        return f"no space left on the device of the database {path}"
    first = text.splitlines()[0] if text else type(exc).__name__
    return f"cannot open the database {path}: {first}"


def is_lock_conflict(exc: BaseException) -> bool:
    low = str(exc).lower()
    return "lock" in low and ("conflicting" in low or "could not set lock" in low)


def sweep_spill_files(path: Path) -> None:
    """Remove the temporary files DuckDB spilled next to the database (``<db>.tmp/``) that a
    killed writer left behind. Called once the write lock is held: no other process can be
    spilling there, and this connection spills only later, on demand."""
    spill = path.with_name(path.name + ".tmp")
    if not spill.is_dir() or spill.is_symlink():
        return
    for leftover in spill.glob("duckdb_temp_*"):
        if leftover.is_file() and not leftover.is_symlink():
            leftover.unlink(missing_ok=True)
    with suppress(OSError):
        spill.rmdir()  # only when empty


STAGE_PREFIX = "trickbook-stage-"
"""The name of a staging folder in the system's temporary folder (an in-memory database)."""


def stage_prefix(db: Path) -> str:
    """The name a staging folder of the database file ``db`` starts with (it sits beside it)."""
    return f".{db.name}.stage-"


def sweep_stage_folders(path: Path) -> None:
    """Remove the staging folders (``Staging``) that killed processes left next to the
    database ``path``. Called once the write lock is held: DuckDB lets one process write a
    database, so while it holds the database open for writing every such folder is stale."""
    for stale in path.parent.glob(stage_prefix(path) + "*"):
        if stale.is_dir() and not stale.is_symlink():
            shutil.rmtree(stale, ignore_errors=True)


def database_file(conn: duckdb.DuckDBPyConnection) -> Path | None:
    """The file of the connection's database (``None``: in memory)."""
    rows = conn.execute(
        "SELECT path FROM duckdb_databases() WHERE database_name = current_database()"
    ).fetchall()
    return Path(rows[0][0]) if rows and rows[0][0] else None


def connect(db_path: str | Path, *, read_only: bool = False, wait: float = LOCK_WAIT,
            waiting: Callable[[float], None] | None = None, existing: bool = False,
            ) -> duckdb.DuckDBPyConnection:
    """Open the database; read-write opens create it and its tables, unless ``existing``: a
    command that works on what trickbook stored (``score``, ``players``, ``analyse``) refuses a
    database without trickbook's tables (empty, or another program's) rather than add them, as
    a read-only open does (:func:`_ours`).

    Other processes (dashboards) may hold it read-only; open read-write only while writing. While
    another process holds the lock, a writer tries again for ``wait`` seconds, calling
    ``waiting(seconds waited)`` each time; every failure is a :class:`DatabaseError` saying what
    it is."""
    path = Path(db_path)
    if str(db_path) != ":memory:":
        check_database_path(path)
    if not read_only and str(db_path) != ":memory:":
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseError(f"cannot create the folder of the database {path}: "
                                f"{exc.strerror or exc}") from exc
        check_folder_writable(path)
    start = time.monotonic()
    while True:
        try:
            conn = duckdb.connect(str(path), read_only=read_only)
            break
        except duckdb.Error as exc:
            waited = time.monotonic() - start
            if not is_lock_conflict(exc) or waited >= wait:
                raise DatabaseError(explain_open_error(path, exc)) from exc
            if waiting is not None:
                waiting(waited)
            time.sleep(LOCK_POLL)
    if read_only or existing:
        conn = _ours(conn, path)
    if read_only:
        return conn
    sweep_spill_files(path)
    sweep_stage_folders(path)
    try:
        conn.execute("SET checkpoint_threshold = ?", [CHECKPOINT_THRESHOLD])
        create_tables(conn)
    except (duckdb.Error, DatabaseError) as exc:
        conn.close()
        T.stop_if_interrupted(exc)  # a Ctrl-C DuckDB met in an upgrade (rolled back): a stop
        if isinstance(exc, DatabaseError):
            raise DatabaseError(f"{path}: {exc}") from exc
        raise DatabaseError(explain_open_error(path, exc)) from exc
    return conn


def _ours(conn: duckdb.DuckDBPyConnection, path: Path) -> duckdb.DuckDBPyConnection:
    """A database opened to be read, when it holds trickbook's tables: another program's
    (:func:`_not_foreign`) or an empty one is a :class:`DatabaseError` saying which."""
    if str(path) == ":memory:":
        return conn
    have = _table_names(conn)
    try:
        _not_foreign(conn, have)
        if not have:
            raise DatabaseError("an empty database (no tables): run `trickbook ingest` into "
                                "it first")
    except DatabaseError as exc:
        conn.close()
        raise DatabaseError(f"{path}: {exc}") from exc
    return conn


def frame(rows: list[dict[str, object]], schema: dict[str, pl.DataType]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=schema, orient="row")


def log_state(conn: duckdb.DuckDBPyConnection, source: str, sha256: str
              ) -> tuple[str | None, bool, str | None]:
    """What ``ingest_log`` says of a file about to be read, in one query: the sha256 of the
    source's latest ingest (a file reverted to an earlier version is read again, so that the
    quarantine rows of the version in between are replaced), whether any version of the source
    is logged, and another source already ingested with this content (a copy under another
    name or folder: sources are identified by their content)."""
    rows = conn.execute(
        f"""SELECT arg_max(sha256, ingested_at) FILTER (WHERE source = $1),
                   count(*) FILTER (WHERE source = $1),
                   min(source) FILTER (WHERE sha256 = $2 AND source <> $1)
            FROM {T.INGEST_LOG} WHERE source = $1 OR sha256 = $2""", [source, sha256]).fetchall()
    latest, versions, copy = rows[0] if rows else (None, 0, None)
    return (None if latest is None else str(latest), bool(versions),
            None if copy is None else str(copy))


def last_read(conn: duckdb.DuckDBPyConnection, source: str) -> datetime | None:
    """When ``source`` was last ingested (``None``: never)."""
    rows = conn.execute(f"SELECT max(ingested_at) FROM {T.INGEST_LOG} WHERE source = ?",
                        [source]).fetchall()
    return rows[0][0] if rows else None


def holds_conflicts(conn: duckdb.DuckDBPyConnection, source: str) -> bool:
    """Whether the source's quarantine holds conflicts with an earlier version (a read without
    ``--replace``; one with it takes this version even though its content is unchanged)."""
    rows = conn.execute(
        f"SELECT count(*) FROM {T.QUARANTINE} WHERE source = ? AND code IN (?, ?)",
        [source, str(Code.GAME_CONFLICT), str(Code.DEAL_CONFLICT)]).fetchall()
    return bool(rows[0][0])


def log_ingest(conn: duckdb.DuckDBPyConnection, log: dict[str, object],
               new_source: bool = False) -> None:
    """The ingest log row of a file read. A file reverted to a version logged before updates
    that version's row (the key is ``source, sha256``): it becomes the latest, with the
    quarantine count of this read, and the deals stored by either read counted as stored
    (the records this read found stored already are its duplicates). ``new_source``: no
    version of the source was logged before (:func:`log_state`), so there is no row to update."""
    if new_source:
        T.insert(conn, T.INGEST_LOG, frame([log], INGEST_LOG_SCHEMA))
        return
    rows = conn.execute(
        f"SELECT records, stored FROM {T.INGEST_LOG} WHERE source = ? AND sha256 = ?",
        [log["source"], log["sha256"]]).fetchall()
    if not rows:
        T.insert(conn, T.INGEST_LOG, frame([log], INGEST_LOG_SCHEMA))
        return
    records = int(log["records"])  # type: ignore[call-overload]
    stored = min(records - int(log["quarantined"]),  # type: ignore[call-overload]
                 int(rows[0][1]) + int(log["stored"]))  # type: ignore[call-overload]
    conn.execute(
        f"UPDATE {T.INGEST_LOG} SET records = ?, stored = ?, duplicates = ?, quarantined = ?, "
        "ingested_at = ? WHERE source = ? AND sha256 = ?",
        [records, stored, records - stored - int(log["quarantined"]),  # type: ignore[call-overload]
         log["quarantined"], log["ingested_at"], log["source"], log["sha256"]])


def latest_version(conn: duckdb.DuckDBPyConnection, sources: list[str],
                   other_than: str | None = None) -> str | None:
    """The sha256 of the latest ingest of any of ``sources`` but ``other_than`` (``None``:
    none ingested)."""
    rows = conn.execute(f"SELECT arg_max(sha256, ingested_at) FROM {T.INGEST_LOG} "
                        "WHERE list_contains(?, source) AND sha256 IS DISTINCT FROM ?",
                        [sources, other_than]).fetchall()
    return None if not rows or rows[0][0] is None else str(rows[0][0])


def superseded_since(conn: duckdb.DuckDBPyConnection, sha256: str) -> list[str]:
    """The sources of the later versions that superseded the content ``sha256`` (rows of
    ``superseded`` whose ``previous`` it is) since it was last read, under any source; the
    latest first."""
    rows = conn.execute(
        f"""SELECT source FROM {T.SUPERSEDED} WHERE previous = $1 AND ingested_at >
                (SELECT max(ingested_at) FROM {T.INGEST_LOG} WHERE sha256 = $1)
            GROUP BY source ORDER BY max(ingested_at) DESC, source""", [sha256]).fetchall()
    return [str(r[0]) for r in rows]


def logged_sources_ending(conn: duckdb.DuckDBPyConnection, tail: str) -> list[str]:
    """The logged sources whose path ends in ``tail``."""
    rows = conn.execute(f"SELECT DISTINCT source FROM {T.INGEST_LOG} "
                        "WHERE ends_with(source, ?) ORDER BY 1", [tail]).fetchall()
    return [str(r[0]) for r in rows]


def logged_sources_like(conn: duckdb.DuckDBPyConnection, pattern: str) -> list[str]:
    """The logged sources ``LIKE pattern`` (``_`` any one character, ``%`` any run)."""
    rows = conn.execute(f"SELECT DISTINCT source FROM {T.INGEST_LOG} "
                        "WHERE source LIKE ? ORDER BY 1", [pattern]).fetchall()
    return [str(r[0]) for r in rows]


def sources_of_games(conn: duckdb.DuckDBPyConnection, game_ids: Iterable[str]) -> set[str]:
    """The sources of the stored game lines and deals of ``game_ids``. Stored deals belong to
    stored games, so the deals are asked for only when some of the games are stored (a file of
    new games costs one look-up in ``games``)."""
    ids = sorted(set(game_ids))
    games = conn.execute(
        f"SELECT game_id, source FROM {T.GAMES} WHERE game_id IN (SELECT unnest(?::VARCHAR[]))",
        [ids]).fetchall() if ids else []
    if not games:
        return set()
    rows = conn.execute(
        f"SELECT DISTINCT source FROM {T.DEALS} WHERE game_id IN (SELECT unnest(?::VARCHAR[]))",
        [sorted({str(g) for g, _ in games})]).fetchall()
    return {str(s) for _, s in games} | {str(r[0]) for r in rows}


def deal_origin(conn: duckdb.DuckDBPyConnection, game_id: str, deal_no: int,
                other_than: str | None = None) -> tuple[str, int, str | None, str] | None:
    """``(source, line, sha256 of the source's latest version but ``other_than``, record)`` of
    a stored deal."""
    rows = conn.execute(
        f"""SELECT d.source, d.line,
                   (SELECT arg_max(l.sha256, l.ingested_at) FROM {T.INGEST_LOG} l
                    WHERE l.source = d.source AND l.sha256 IS DISTINCT FROM ?), d.record
            FROM {T.DEALS} d WHERE d.game_id = ? AND d.deal_no = ?""",
        [other_than, game_id, deal_no]).fetchall()
    if not rows:
        return None
    source, line, sha, record = rows[0]
    return str(source), int(line or 0), None if sha is None else str(sha), str(record)


def game_origin(conn: duckdb.DuckDBPyConnection, game_id: str, other_than: str | None = None,
                ) -> tuple[str, int, str | None, str] | None:
    """``(source, line, sha256 of the source's latest version but ``other_than``, record)`` of
    a stored game."""
    rows = conn.execute(
        f"""SELECT g.source, g.line,
                   (SELECT arg_max(l.sha256, l.ingested_at) FROM {T.INGEST_LOG} l
                    WHERE l.source = g.source AND l.sha256 IS DISTINCT FROM ?), g.record::VARCHAR
            FROM {T.GAMES} g WHERE g.game_id = ?""", [other_than, game_id]).fetchall()
    if not rows:
        return None
    source, line, sha, record = rows[0]
    return str(source), int(line or 0), None if sha is None else str(sha), str(record)


def deal_tables(conn: duckdb.DuckDBPyConnection) -> list[str]:
    """Every table of the database keyed by a deal (``game_id`` and ``deal_no`` columns):
    ``deals``, each ``deals_<variant>``, and the rows derived from a deal (settlements,
    transfers, the review of play, the analyses' tables), whichever command wrote them."""
    rows = conn.execute(
        """SELECT c.table_name FROM information_schema.columns c
           JOIN information_schema.tables t USING (table_catalog, table_schema, table_name)
           WHERE t.table_type = 'BASE TABLE' AND t.table_schema = 'main'
             AND t.table_catalog = current_database()
             AND c.column_name IN ('game_id', 'deal_no')
           GROUP BY c.table_name HAVING count(*) = 2 ORDER BY 1""").fetchall()
    return [str(r[0]) for r in rows]


def delete_deals(conn: duckdb.DuckDBPyConnection, ids: Iterable[tuple[str, int]]) -> None:
    """Remove stored deals ``(game_id, deal_no)`` and every row keyed by them
    (:func:`deal_tables`): a superseded or dropped version leaves nothing derived from it."""
    keys = sorted(set(ids))
    if not keys:
        return
    probe = pl.DataFrame(keys, schema={"game_id": pl.String(), "deal_no": pl.Int32()},
                         orient="row")
    gone = probe.to_arrow()
    for table in deal_tables(conn):
        over_rows(conn.from_arrow(gone), "_trickbook_gone",
                  f"DELETE FROM {table} WHERE (game_id, deal_no) IN "
                  "(SELECT (game_id, deal_no) FROM _trickbook_gone)")


def dropped_deals(conn: duckdb.DuckDBPyConnection, sources: list[str], keys: list[str],
                  change: str) -> dict[str, tuple[str, str]]:
    """``(source, version)`` of the latest row of ``superseded`` recording ``change`` from any
    of ``sources`` for each deal key (``<game_id>#<deal_no>``) of ``keys`` it names."""
    rows = conn.execute(
        f"SELECT record_key, arg_max(source, ingested_at), arg_max(version, ingested_at) "
        f"FROM {T.SUPERSEDED} WHERE change = ? AND list_contains(?, source) "
        "AND list_contains(?, record_key) GROUP BY record_key",
        [change, sources, keys]).fetchall()
    return {str(k): (str(s), str(v)) for k, s, v in rows}


def source_deals(conn: duckdb.DuckDBPyConnection, sources: list[str], game_id: str | None = None,
                 ) -> list[tuple[str, int, int, str]]:
    """``(game_id, deal_no, line, source)`` of the deals stored from any of
    ``sources`` (of one game, when given)."""
    where, args = "list_contains(?, source)", [sources]
    if game_id is not None:
        where, args = where + " AND list_contains(?, game_id)", [sources, [game_id]]
    rows = conn.execute(f"SELECT game_id, deal_no, line, source FROM {T.DEALS} "
                        f"WHERE {where} ORDER BY game_id, deal_no", args).fetchall()
    return [(str(g), int(n), int(li or 0), str(s)) for g, n, li, s in rows]


def deal_records(conn: duckdb.DuckDBPyConnection,
                 ids: Iterable[tuple[str, int]]) -> dict[tuple[str, int], str]:
    """The stored record (canonical JSON) of each deal ``(game_id, deal_no)`` of ``ids``."""
    keys = sorted(set(ids))
    if not keys:
        return {}
    probe = pl.DataFrame(keys, schema={"game_id": pl.String(), "deal_no": pl.Int32()},
                         orient="row")
    rows = over_rows(conn.from_arrow(probe.to_arrow()), "_trickbook_wanted",
                     f"SELECT d.game_id, d.deal_no, d.record FROM {T.DEALS} d "
                     "JOIN _trickbook_wanted w USING (game_id, deal_no)")
    return {(str(g), int(n)): str(r) for g, n, r in rows}


def delete_game(conn: duckdb.DuckDBPyConnection, game_id: str) -> None:
    """Remove a stored game's row (a superseded game line; its deals are the caller's)."""
    conn.execute(f"DELETE FROM {T.GAMES} WHERE game_id = ?", [game_id])


def game_deals(conn: duckdb.DuckDBPyConnection, game_ids: Iterable[str]
               ) -> dict[str, list[tuple[int, str, int, str]]]:
    """Per game, its stored deals in ``deal_no`` order as ``(deal_no, source, line, record)``."""
    ids = sorted(set(game_ids))
    found: dict[str, list[tuple[int, str, int, str]]] = {g: [] for g in ids}
    if not ids:
        return found
    rows = conn.execute(
        f"SELECT game_id, deal_no, source, line, record::VARCHAR FROM {T.DEALS} "
        "WHERE game_id IN (SELECT unnest(?::VARCHAR[])) ORDER BY game_id, deal_no", [ids]
    ).fetchall()
    for gid, no, source, line, record in rows:
        found[str(gid)].append((int(no), str(source), int(line or 0), str(record)))
    return found


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


SMALL_PROBE = 5_000
"""Deals at most looked up with their ids bound as two lists, in one statement: cheaper for a
small file's deals than the Arrow join of :func:`deal_keys` (which a larger probe takes): a
statement of about 1 ms, where the join's relations cost about 7 ms (``bench bridge``, "LIN
files", and a folder of small JSON Lines files)."""

Known = Literal["deal_key", "record"]
"""What :func:`deal_keys` tells of each known deal: its key, or its canonical JSON."""


def _bound_deal_keys(conn: duckdb.DuckDBPyConnection, game_ids: list[str],
                     deal_nos: list[int], what: Known) -> list[tuple[str, int, str]]:
    """``game_id, deal_no`` and ``what`` of the stored deals among the pairs of ``game_ids``
    and ``deal_nos`` (bound as two lists)."""
    return conn.execute(
        f"""SELECT d.game_id, d.deal_no, d.{what} FROM {T.DEALS} d
            JOIN (SELECT unnest($1::VARCHAR[]) AS game_id, unnest($2::INTEGER[]) AS deal_no)
            USING (game_id, deal_no)""", [game_ids, deal_nos]).fetchall()


def deal_keys(
    conn: duckdb.DuckDBPyConnection, probe: pl.DataFrame, staged: list[str] | None = None,
    held: list[pa.Table] | None = None, what: Known = "deal_key",
) -> pl.DataFrame:
    """``game_id, deal_no, deal_key`` (or ``record``: ``what``) of the deals of ``probe`` (its
    ``game_id, deal_no``) that are stored, or staged in the Parquet files ``staged`` or the
    Arrow tables ``held`` (one join, built as DuckDB relations: file names and rows are passed,
    never spliced into SQL; a probe of at most :data:`SMALL_PROBE` deals with nothing staged
    binds its ids instead)."""
    schema = pl.Schema({"game_id": pl.String(), "deal_no": pl.Int32(), what: pl.String()})
    if not staged and not held and probe.height <= SMALL_PROBE:
        rows = _bound_deal_keys(conn, probe["game_id"].to_list(), probe["deal_no"].to_list(),
                                what)
        return pl.DataFrame(rows, schema=schema, orient="row")
    keys = ["game_id", "deal_no", what]
    known = conn.table(T.DEALS).select(*keys)
    if staged:
        known = known.union(conn.read_parquet(staged).select(*keys))  # UNION ALL
    if held:
        known = known.union(conn.from_arrow(pa.concat_tables([t.select(keys) for t in held])))
    probe_rows = conn.from_arrow(probe.select("game_id", "deal_no").to_arrow())
    table = known.join(probe_rows, "game_id, deal_no").select(*keys).to_arrow_table()
    found = pl.from_arrow(table)
    assert isinstance(found, pl.DataFrame)
    return found.cast(schema)


LOAD_MEMORY_LIMIT = "64MiB"
"""DuckDB's memory limit while a file's staged rows are loaded (the previous limit is restored
after): with it DuckDB writes the new row groups to the database file as it goes instead of
holding the whole file's rows in memory until the commit."""

LOAD_SETTINGS: dict[str, object] = {"memory_limit": LOAD_MEMORY_LIMIT, "threads": 1}
"""DuckDB settings while a file's staged rows are loaded (the previous values are restored
after; ``memory_limit`` only for a database on disk). One thread: the load of 100,000
score-sheet deals from Arrow took about 0.06 s with one thread and 0.07-0.11 s with two on the
2-core development machine (docs/ingest.md "Speed"), and 1,000,000 deals from Parquet were no
slower."""

LOAD_SETTINGS_FROM = 4 << 20
"""Bytes of rows held in memory from which a load applies ``LOAD_SETTINGS`` (a spilled load
always does): below it the rows are in memory already and one thread inserts them in no time,
so the five statements of changing and restoring the settings would cost more than the load."""

HOLD_BYTES = 64 << 20
"""Bytes of staged rows (their Arrow buffers) a file keeps in memory; once a file's staged rows
would pass it, all of them go to Parquet files (``Staging``). 100,000 score-sheet deals take
about 40 MB."""


class Staging:
    """The new rows of one file's big tables (``deals``, ``deals_<variant>``), kept batch by
    batch until the end of the file and then loaded into their tables with one
    ``INSERT ... SELECT`` each, inside the file's transaction.

    While they fit in :data:`HOLD_BYTES` they stay in memory as Arrow tables and are loaded
    from there (no Parquet round trip); once they would pass it, the held ones and every later
    batch are written to Parquet in a private temporary folder, so memory stays bounded. One
    bulk statement lets DuckDB write the rows to the database file under
    :data:`LOAD_MEMORY_LIMIT`, where appending batch after batch to one open transaction keeps
    them all in memory: the process's memory stays flat whatever the file's size. The duplicate
    look-ups of a batch (:meth:`deal_keys`) see the held and the spilled rows alike.

    The folder sits next to the database file (``.<db name>.stage-*``; in the system's temporary
    folder for an in-memory database), is made only when rows spill, and is removed by
    :meth:`close`. A killed process leaves it behind, never anything in the database;
    :func:`connect` removes such leftovers (:func:`sweep_stage_folders`)."""

    def __init__(self, conn: duckdb.DuckDBPyConnection | None = None,
                 hold_bytes: int | None = None) -> None:
        self._conn = conn
        self._where: tuple[Path | None, str] | None = None
        """The folder and name prefix of a spill (:meth:`_place`, asked only when rows spill)."""
        self._dir: Path | None = None
        self.hold_bytes = HOLD_BYTES if hold_bytes is None else hold_bytes
        self.held: dict[str, list[pa.Table]] = {}
        """Staged rows kept in memory, per table, in staging order."""
        self.files: dict[str, list[str]] = {}
        """Staged Parquet files, per table, in staging order (``held`` is empty once a file's
        rows spill)."""
        self._held_games: dict[str, list[frozenset[str]]] = {}
        self._games: dict[str, list[frozenset[str]]] = {}
        self._bytes = 0
        self._saved: dict[str, object] = {}
        """The settings to restore, while :meth:`load` has changed them."""

    def add(self, table: str, rows: pl.DataFrame) -> None:
        if rows.height == 0:
            return
        games = frozenset(rows["game_id"].unique().to_list())
        rows = rows.with_columns(pl.col(pl.Enum, pl.Categorical).cast(pl.String()))
        if self._dir is None:
            arrow = rows.to_arrow(compat_level=pl.CompatLevel.newest())  # no copy of strings
            if self._bytes + arrow.nbytes <= self.hold_bytes:
                self.held.setdefault(table, []).append(arrow)
                self._held_games.setdefault(table, []).append(games)
                self._bytes += arrow.nbytes
                return
            # over the budget: what is held goes to disk first (so each table keeps its order),
            # and so does every later batch
            root, prefix = self._place()
            self._dir = Path(tempfile.mkdtemp(prefix=prefix, dir=root))
            for name, held in self.held.items():
                for piece, of in zip(held, self._held_games[name], strict=True):
                    self._write(name, pl.from_arrow(piece), of)  # type: ignore[arg-type]
            self.held, self._held_games, self._bytes = {}, {}, 0
        self._write(table, rows, games)

    def _write(self, table: str, rows: pl.DataFrame, games: frozenset[str]) -> None:
        assert self._dir is not None
        files = self.files.setdefault(table, [])
        path = self._dir / f"{table}-{len(files):06d}.parquet"
        rows.write_parquet(path, compression="lz4", statistics=True)
        files.append(str(path))
        self._games.setdefault(table, []).append(games)

    def _place(self) -> tuple[Path | None, str]:
        """Where spilled rows go: next to the database file (``.<db name>.stage-*``), or in
        the system's temporary folder for an in-memory database."""
        if self._where is None:
            db = database_file(self._conn) if self._conn is not None else None
            self._where = ((None, STAGE_PREFIX) if db is None
                           else (db.parent, stage_prefix(db)))
        return self._where

    def files_with(self, table: str, game_ids: Iterable[str]) -> list[str]:
        """The staged files of ``table`` holding rows of any of ``game_ids`` (a batch's deals are
        looked up in these only, so the lookups do not grow with the file)."""
        return _holding(self.files.get(table, []), self._games.get(table, []), set(game_ids))

    def held_with(self, table: str, game_ids: Iterable[str]) -> list[pa.Table]:
        """The staged in-memory tables of ``table`` holding rows of any of ``game_ids``."""
        return _holding(self.held.get(table, []), self._held_games.get(table, []),
                        set(game_ids))

    def load(self, conn: duckdb.DuckDBPyConnection, group: Group | None = None) -> None:
        """Insert every staged table (by column name) into the database, one statement each
        (a table's rows of at most ``model.tables.SMALL_ROWS`` bound as lists, read as its
        declared columns). In a ``group``, the settings of a large load stay lowered until the
        group ends (once per group: setting ``threads`` restarts DuckDB's threads)."""
        names = [*self.held, *(t for t in self.files if t not in self.held)]
        if not names:
            return
        held = sum(t.nbytes for pieces in self.held.values() for t in pieces)
        if self.files or held >= LOAD_SETTINGS_FROM:
            if group is None:
                lower(conn, self._saved)
            else:
                group.lower()
        known = tables()
        for table in names:
            staged = []
            if table in self.held:
                rows, declared = _stack(self.held[table]), known.get(table)
                if rows.num_rows > T.SMALL_ROWS or declared is None or not T.bind_rows(
                        conn, table, rows.to_pydict(), declared.columns):  # a small file's
                    staged.append(conn.from_arrow(rows))
            if table in self.files:
                staged.append(conn.read_parquet(self.files[table]))
            for part in staged:  # held or spilled: a file's rows of a table are one or the other
                over_rows(part, "_trickbook_staged",
                          f"INSERT INTO {table} BY NAME SELECT * FROM _trickbook_staged")
        self._restore(conn)
        self._forget()

    def _forget(self) -> None:
        self.held, self.files, self._held_games, self._games = {}, {}, {}, {}
        self._bytes = 0

    def _restore(self, conn: duckdb.DuckDBPyConnection) -> None:
        restore(conn, self._saved)

    def close(self, conn: duckdb.DuckDBPyConnection | None = None) -> None:
        """Drop the staged rows and remove the staged files; after a failed :meth:`load` (the
        caller has rolled back), give ``conn`` its settings back."""
        if conn is not None:
            self._restore(conn)
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None
        self._forget()


def lower(conn: duckdb.DuckDBPyConnection, saved: dict[str, object]) -> None:
    """Apply ``LOAD_SETTINGS`` for a load, keeping in ``saved`` the values to restore."""
    settings = dict(LOAD_SETTINGS)
    if database_file(conn) is None:  # an in-memory database cannot write its rows out
        del settings["memory_limit"]
    for name, value in settings.items():
        before = conn.execute("SELECT current_setting(?)", [name]).fetchall()[0][0]
        saved[name] = before
        conn.execute(f"SET {name} = ?", [value])


def restore(conn: duckdb.DuckDBPyConnection, saved: dict[str, object]) -> None:
    """Give back the settings :func:`lower` kept."""
    while saved:
        name, value = saved.popitem()
        conn.execute(f"SET {name} = ?", [value])


def _stack(tables: list[pa.Table]) -> pa.Table:
    """One Arrow table of ``tables``, their columns matched by name (the fast and the reference
    paths build a table's rows with their columns in different orders)."""
    return pa.concat_tables(tables, promote_options="default")


_X = TypeVar("_X")


def _holding(staged: list[_X], games: list[frozenset[str]], wanted: set[str]) -> list[_X]:
    return [s for s, held in zip(staged, games, strict=True) if not held.isdisjoint(wanted)]


def clear_quarantine(conn: duckdb.DuckDBPyConnection, source: str) -> None:
    """Drop a source's earlier quarantine rows: a new ingest of it replaces them."""
    conn.execute(f"DELETE FROM {T.QUARANTINE} WHERE source = ?", [source])
    conn.execute(f"DELETE FROM {REPAIRS} WHERE source = ?", [source])




MERGED_SHOWN = 5
"""Different issues a merged row spells out; the rest are counted."""


def merged_message(parts: list[str], records: int | None = None) -> str:
    """The message of a quarantine row holding the issues of ``records`` records (default
    ``len(parts)``; fewer where some are issues of the file, which hold none): each
    different issue once with how many records have it (``(x69)``), the first
    ``MERGED_SHOWN`` of them, then how many more there are."""
    times = Counter(parts)
    shown = [p if times[p] == 1 else f"{p} (x{times[p]})" for p in list(times)[:MERGED_SHOWN]]
    more = len(times) - len(shown)
    n = len(parts) if records is None else records
    return ((T.MERGED.format(n=n) if n else "") + " | ".join(shown)
            + (f" | and {more} more different issues" if more else ""))


def replace_quarantine_message(conn: duckdb.DuckDBPyConnection, source: str, line: int,
                               message: str) -> None:
    conn.execute(f"UPDATE {T.QUARANTINE} SET message = ? WHERE source = ? AND line = ?",
                 [bounded(message, MESSAGE_LIMIT), source, line])


def mark_pending(conn: duckdb.DuckDBPyConnection, game_ids: Iterable[str]) -> None:
    ids = sorted(set(game_ids))
    if ids:
        conn.execute(
            f"INSERT OR IGNORE INTO {T.PENDING} SELECT unnest(?::VARCHAR[])", [ids]
        )



class Group:
    """One transaction for several files (group commit, docs/ingest.md "Group commit"). Each
    file's rows, quarantine and log row go in as the file is read; the rescore marks and the
    people of new names, which nothing read in the group depends on, wait for the commit (one
    statement each for the whole group). A file is all in or all out because the group is:
    when any of it fails, its caller rolls the group back and stores its files again one per
    transaction (``ingest.pipeline.ingest_paths``)."""

    def __init__(self, conn: duckdb.DuckDBPyConnection) -> None:
        self.conn = conn
        self.open = False
        self.games: set[str] = set()
        """The games the group's files touched."""
        self.saved: dict[str, object] = {}
        """The settings to restore once the group ends, while a large load lowered them."""

    def lower(self) -> None:
        """``LOAD_SETTINGS`` until the group ends (``Staging.load``)."""
        if not self.saved:
            lower(self.conn, self.saved)

    def begin(self) -> None:
        """Start the group's transaction, unless an earlier file of the group did."""
        if not self.open:
            self.conn.execute("BEGIN")
            self.open = True

    def stored(self, games: Iterable[str]) -> None:
        """A file of the group is in, having touched ``games``."""
        self.games.update(games)

    def commit(self) -> None:
        """Mark the group's games pending, register their new names, and commit; settings a
        load lowered (:meth:`lower`) are given back after the commit, whose checkpoint writes
        the group's rows under them (with the whole memory limit it kept some 8 MiB resident
        per MB of a large PBN file)."""
        if not self.open:
            return
        mark_pending(self.conn, self.games)
        players.register(self.conn, self.games)
        try:
            self.conn.execute("COMMIT")
        finally:
            restore(self.conn, self.saved)
        self.open, self.games = False, set()

    def rollback(self) -> None:
        """Drop every file of the group (a connection DuckDB invalidated has nothing to roll
        back)."""
        if self.open:
            self.open, self.games = False, set()
            with suppress(duckdb.Error):
                self.conn.execute("ROLLBACK")
        with suppress(duckdb.Error):
            restore(self.conn, self.saved)
