"""Opening the trickbook database for the dashboards: read-only, one short connection per run.

DuckDB lets one process write a database file or any number of processes read it, never both at
once: a writer (``trickbook ingest``) takes the file lock while it runs. The dashboards therefore
never keep a connection open between two runs of a page. A page opens the file **read-only**
(:func:`read_only`) and closes it again: within one run of the app (:func:`one_per_run`, around
the page in ``app.py``) the first query that misses the cache opens it and every later query of
that run reuses the connection, closed when the run ends; outside such a run each batch of
queries opens and closes its own. An ingest started from a shell takes the lock between two runs,
and a write from a page (:func:`release`, called before it) closes the run's connection first.
When the lock is held, opening is retried for a short while (``TRICKBOOK_DB_RETRY_SECONDS``,
default 3 s); if the writer still holds it the page shows :class:`DatabaseBusy`'s message instead
of a traceback, and the next rerun tries again.

The pages read the ``deal_outcomes`` view (``model/views.py``), which every rescore writes into
the database; a database written before the view existed gets a session-only temporary one.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb

from dashboards.text import quoted
from model import tables as model_tables
from model.views import ensure_views
from scoring.registry import tables

DB_ENV = "TRICKBOOK_DB"
"""Environment variable naming the database file the app reads (set by ``dashboards.serve``)."""
DEFAULT_DB = Path("data/trickbook.duckdb")
RETRY_ENV = "TRICKBOOK_DB_RETRY_SECONDS"
DEFAULT_RETRY_SECONDS = 3.0


class DatabaseError(RuntimeError):
    """The database cannot be read; the message says why, in words for a user."""


class DatabaseMissing(DatabaseError):
    pass


class DatabaseBusy(DatabaseError):
    pass


def db_path() -> Path:
    """The database file the app reads: ``$TRICKBOOK_DB`` or ``data/trickbook.duckdb``."""
    return Path(os.environ.get(DB_ENV) or DEFAULT_DB)


def db_version(path: Path) -> float:
    """A value that changes whenever the file is written (cache key for ``st.cache_data``)."""
    try:
        stat = path.stat()
    except OSError:
        return -1.0
    wal = path.with_name(path.name + ".wal")
    wal_mtime = wal.stat().st_mtime if wal.exists() else 0.0
    return max(stat.st_mtime, wal_mtime) + stat.st_size * 1e-12


def retry_time() -> float:
    """How long a reader retries a locked file (``TRICKBOOK_DB_RETRY_SECONDS``)."""
    try:
        return max(0.0, float(os.environ.get(RETRY_ENV, DEFAULT_RETRY_SECONDS)))
    except ValueError:
        return DEFAULT_RETRY_SECONDS


def is_lock_error(exc: duckdb.Error) -> bool:
    """Another connection holds the file (another process, or this one with other settings)."""
    text = str(exc).lower()
    return "lock" in text or "conflicting" in text or "different configuration" in text


class _Run(threading.local):
    """The connections held by the current run of the app, per thread (a session's script
    runs in its own thread); ``None`` outside :func:`one_per_run`."""

    held: dict[Path, duckdb.DuckDBPyConnection] | None = None
    retry_seconds: float | None = None


_RUN = _Run()


@contextmanager
def one_per_run(retry_seconds: float | None = None) -> Iterator[None]:
    """Within the block, :func:`read_only` hands out one connection per file, opened by the
    first query and closed when the block ends (one open instead of one per query: opening the
    file and checking its views costs more than most of a page's queries). ``retry_seconds``
    overrides how long the block's opens wait for a writer's lock (:func:`retry_time`)."""
    outer = _RUN.held
    _RUN.held = {} if outer is None else outer
    _RUN.retry_seconds = retry_seconds if outer is None else _RUN.retry_seconds
    try:
        yield
    finally:
        if outer is None:
            release()
            _RUN.held = None
            _RUN.retry_seconds = None


def release() -> None:
    """Close the connections this thread's run holds (before it writes the file itself); a
    later query of the run opens the file again."""
    held = _RUN.held or {}
    while held:
        held.popitem()[1].close()


@contextmanager
def read_only(
    path: Path, retry_seconds: float | None = None
) -> Iterator[duckdb.DuckDBPyConnection]:
    """A read-only connection to ``path`` for one batch of queries, closed on exit, or, within
    :func:`one_per_run`, the run's connection (kept open for the run's next query).

    Raises :class:`DatabaseMissing` when the file does not exist (a read-only open would not
    create it) and :class:`DatabaseBusy` when a writer keeps the lock longer than the retry time.
    """
    held = _RUN.held
    if held is not None:
        if path not in held:
            wait = _RUN.retry_seconds if retry_seconds is None else retry_seconds
            held[path] = _open(path, wait)
        yield held[path]
        return
    con = _open(path, retry_seconds)
    try:
        yield con
    finally:
        con.close()


FILL_IT = ("upload files on the Upload page, or ingest them with `trickbook ingest FILES --db "
           "PATH`, PATH being the `--db` the dashboard was started with")
"""How a user fills the database the pages read (its path is the server's, never shown)."""


def _open(path: Path, retry_seconds: float | None) -> duckdb.DuckDBPyConnection:
    if path.is_dir():
        raise DatabaseError(f"{quoted(path.name)} is a folder, not a database file: start the "
                            "dashboard with `--db` naming a DuckDB file (a new name makes one)")
    if not path.is_file():
        raise DatabaseMissing(f"no database {quoted(path.name)} yet: {FILL_IT}")
    wait = retry_time() if retry_seconds is None else retry_seconds
    deadline = time.monotonic() + wait
    delay = 0.05
    while True:
        try:
            con = duckdb.connect(str(path), read_only=True)
            break
        except duckdb.Error as exc:
            if not is_lock_error(exc):
                raise DatabaseError(f"cannot read the database {quoted(path.name)}: "
                                    f"{str(exc).replace(str(path), path.name)}") from exc
            if time.monotonic() >= deadline:
                raise DatabaseBusy(
                    f"the database {quoted(path.name)} is being written (an ingest holds the "
                    "lock); the page will show the new data once it finishes: reload in a moment"
                ) from exc
            time.sleep(delay)
            delay = min(delay * 2, 0.5)
    try:
        con.execute("SET TimeZone = 'UTC'")
        con.execute("SET enable_progress_bar = false")
        # a missing table is the database's fault, not a Python name's of the page that asks
        con.execute("SET python_enable_replacements = false")
        if not _holds_tables(con):
            raise DatabaseMissing(
                f"the database {quoted(path.name)} holds no trickbook tables yet: {FILL_IT}")
        ensure_views(con)
    except BaseException:
        con.close()
        raise
    return con


def _holds_tables(con: duckdb.DuckDBPyConnection) -> bool:
    """The file has tables (an empty DuckDB file has none). Which ones is the pages' to say: a
    table of records.md section 2 missing from a file written before it existed, or from a file
    of balance studies alone, is named by ``dashboards.common.query``."""
    found = con.execute("SELECT count(*) FROM duckdb_tables() WHERE NOT temporary").fetchone()
    return bool(found and found[0])


def columns_lacking(path: Path) -> list[str]:
    """The declared columns (``scoring.registry.tables``) that the database's tables lack, as
    ``table.column``: tables an older trickbook made before the column was declared (a command
    that writes adds them, ``ingest/store.py`` ``create_tables``; a rescore makes
    ``event_results`` anew)."""
    with read_only(path) as con:
        lacking = model_tables.columns_lacking(con, tables())
    return [f"{name}.{column}" for name, columns in lacking.items() for column in columns]
