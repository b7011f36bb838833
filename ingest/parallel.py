"""Parallel ingest: worker processes read and validate, this process writes (docs/ingest.md,
"Parallel ingest").

A worker ingests one file, or one part of a large JSON Lines file, with the single-process
pipeline (:func:`ingest.pipeline.ingest_file`) against an empty in-memory database, and hands
back the rows it would store (Arrow tables: the new deals and ``deals_<variant>`` rows as they
were staged, never loaded into that database; :class:`Handed`), its report, its progress and the
ids of the games it looked up. The writer (:func:`reading`, given to ``ingest_paths``) takes the
files in their turn and inserts each file's rows in one transaction, as a single process would
(a file read in parts part by part, as the parts come): it parses and validates nothing.

Those rows are the ones a single process stores whenever the real database holds none of the
games the file looked up: then every look-up of the file (its games, its deals, a conflict's
origin) has the same answer in both databases, since stored deals belong to stored games. A part
of a file knows the games stored by the file's earlier parts (the game lines before it,
:class:`EarlierGames`), as if they were stored. Where a look-up might differ (a deal whose game
is stored, a game line stored before, the same deal number in two parts of a file), the writer
reads that file itself, exactly as without workers. The workers run on a process pool or a Dask
cluster; whichever runs them, the result is that of a single process.
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pyarrow as pa

from ingest import sheets, store
from ingest.formats import not_text
from ingest.jsonl import READER, JsonlReader, parse_line
from ingest.pipeline import (
    BATCH,
    BATCH_CHARS,
    KEEP_ISSUES,
    FileIngest,
    FileReport,
    Reading,
    failed_report,
    file_size,
    ingest_file,
    one_by_one,
    precheck,
)
from ingest.source import Issue, Raw
from ingest.text import HEAD, wide
from ingest.validate import Accepted, StoredGame, Validator, VariantLookup
from ingest.versions import clear_replaced_quarantine, has_earlier, lineage
from model import tables as T
from model import variants as registry
from model.variant import UnknownVariant

PART_BYTES = 8 << 20
"""A JSON Lines file of at least twice this size is cut into parts of about this size (each part
has the fixed costs of a file), at most :data:`PARTS_PER_WORKER` per worker: the writer stores
each part as it comes while the workers read the next ones, and only the parts being read or
waiting to be stored are in memory."""
WHOLE_BYTES = 2 * PART_BYTES
"""The largest file a worker reads whole: a worker keeps every new row of what it reads in
memory until the writer stores them (:class:`Handed`, never spilled), so a larger file that is
not cut into parts (any format but JSON Lines) is read by the writer, as one process reads it,
its rows spilled to Parquet past ``store.HOLD_BYTES``. Read in a worker, a 100 MB PBN file kept
about 1.3 GB resident."""
PARTS_PER_WORKER = 4
"""Parts of one file per worker at most: each part scans the file before it for game lines
(:class:`EarlierGames`), so the scans of a file grow with the square of its parts."""
WORKER_MODULES = ("ingest.worker",)
"""What the fork server of the workers imports (``sim.pool.pool_imap``'s ``preload``)."""
KEPT_BACK = (T.INGEST_LOG, T.PENDING, T.PLAYERS, T.PLAYER_NAMES, T.UPGRADES)
"""Tables a worker fills that the writer fills itself (its log row, the rescore marks, and the
people of new names, which depend on the names stored before), and the marks of the upgrades
its scratch database was made with (the writer's database has its own)."""


@dataclass(frozen=True)
class Part:
    """What a worker reads: a file, or the lines from byte ``start`` to ``stop`` of one."""

    path: str
    sha256: str
    start: int = 0
    stop: int | None = None
    """``None``: the whole file, read by its own reader."""
    lines_before: int = 0
    batch: int = BATCH
    fast: bool = True
    replace: bool = False
    variants: VariantLookup | None = None


@dataclass
class PartResult:
    """A worker's outcome: the report, the rows to store (by table), the ids of the games looked
    up and of the games of the file's earlier parts it knew, and the progress ticks
    ``(records, bytes)`` in order."""

    report: FileReport
    tables: dict[str, pa.Table] = field(default_factory=dict)
    asked: frozenset[str] = frozenset()
    known: frozenset[str] = frozenset()
    ticks: list[tuple[int, int]] = field(default_factory=list)


TaskMap = Callable[[Callable[[Part], PartResult], list[Part]], Iterator[PartResult]]
"""Runs the worker function on each part and yields the results in the parts' order (a process
pool: ``sim.pool.pool_imap``; a Dask cluster: ``sim.pool.dask_imap``); closing the iterator
stops the workers."""


def read_part(part: Part) -> PartResult:
    """A worker: the part ingested against an empty in-memory database, the games of the file's
    earlier parts known as if stored. Never raises: a failure is the file's ``failed`` report,
    with its reason."""
    path = Path(part.path)
    ticks: list[tuple[int, int]] = []
    asked: set[str] = set()
    handed: list[Handed] = []

    def lookup(stored: StoredGame) -> StoredGame:
        def ask(game_id: str) -> tuple[str, str] | None:
            asked.add(game_id)
            return earlier.game(game_id) if game_id in earlier else stored(game_id)

        return ask

    def staging(conn: duckdb.DuckDBPyConnection) -> Handed:
        handed.append(Handed(conn, checked_tables(part.variants)))
        return handed[-1]

    try:
        earlier = EarlierGames(path, part.start, part.variants)
        with scratch() as (conn, group):
            done: Future[str] = Future()
            done.set_result(part.sha256)
            reader = None if part.stop is None else READER.part(part.start, part.stop,
                                                               part.lines_before)
            report = ingest_file(conn, path, variants=part.variants,
                                 on_record=lambda records, read: ticks.append((records, read)),
                                 batch=part.batch, fast=part.fast, sha256=done,
                                 replace=part.replace, reader=reader, lookup=lookup,
                                 staging=staging, group=group, memo=learnt(part))
            tables = stored_rows(conn, handed[0].rows if handed else {})
    except Exception as exc:
        report = failed_report(path, exc)
        report.error = None  # the exception may not travel; its reason does
        return PartResult(report)
    return PartResult(report, tables, frozenset(asked), frozenset(earlier.lines), ticks)


class Handed(store.Staging):
    """A worker's staging: the file's new ``deals`` and ``deals_<variant>`` rows are kept as
    the Arrow tables they were staged as (in memory: they travel to the writer anyway) and
    handed over, not loaded into the worker's database, so that only the writer loads them.
    A file with deals of a variant whose game-level check reads the stored deals
    (``Variant.check_game``, run after the load) is loaded as in one process."""

    def __init__(self, conn: duckdb.DuckDBPyConnection, checked: frozenset[str]) -> None:
        super().__init__(conn, hold_bytes=1 << 62)  # never spilled to Parquet
        self.checked = checked
        """The ``deals_<variant>`` tables of the variants with a game-level check."""
        self.rows: dict[str, pa.Table] = {}
        """The rows handed over, per table, in staging order."""

    def load(self, conn: duckdb.DuckDBPyConnection, group: store.Group | None = None) -> None:
        if not self.checked.isdisjoint(self.held):
            super().load(conn, group)
            return
        self.rows = {table: pa.concat_tables(held, promote_options="default")
                     for table, held in self.held.items()}


def checked_tables(variants: VariantLookup | None) -> frozenset[str]:
    """The ``deals_<variant>`` tables of the registered variants with a game-level check (as
    ``variants`` gives them; one it does not know has no rows to check)."""
    lookup = variants or registry.variant
    found = []
    for name in registry.names():
        with suppress(UnknownVariant):
            if (v := lookup(name)).check_game is not None:
                found.append(v.deals_table)
    return frozenset(found)


_SCRATCH = threading.local()
"""A worker thread's scratch database (:func:`scratch`)."""


@contextmanager
def scratch() -> Iterator[tuple[duckdb.DuckDBPyConnection, store.Group]]:
    """An empty in-memory database with every table, for one part, and the open transaction
    the part is read in, rolled back after it: the database is made once per worker thread and
    kept from part to part (making its tables costs about as much as reading a small file).
    It runs on one DuckDB thread: a connection kept open then has no threads of its own, which
    a process forked from this one would inherit. A part that fails drops the database."""
    conn = getattr(_SCRATCH, "conn", None)
    if conn is None:
        conn = store.connect(":memory:")
        conn.execute("SET threads = 1")
        _SCRATCH.conn = conn
    group = store.Group(conn)
    group.begin()
    try:
        yield conn, group
    except BaseException:
        _SCRATCH.conn = None
        with suppress(duckdb.Error):
            conn.close()
        raise
    group.rollback()


def learnt(part: Part) -> sheets.Memo:
    """The score-sheet verdicts this worker thread learnt from the parts of the same file it
    read before (a verdict depends only on a game's content and a line's shape,
    ``sheets.Memo``): a part does not judge again what an earlier one judged. Another file (or
    the same read with other variants) starts afresh."""
    key = (part.sha256, part.variants)
    kept = getattr(_SCRATCH, "memo", None)
    if kept is None or kept[0] != key:
        kept = _SCRATCH.memo = (key, sheets.Memo())
    return kept[1]


def stored_rows(conn: duckdb.DuckDBPyConnection, handed: dict[str, pa.Table]
                ) -> dict[str, pa.Table]:
    """Every table's rows in the order stored (in the part's open transaction), and the rows
    ``handed`` over unloaded."""
    wanted = [t for t in store.tables() if t not in KEPT_BACK and t not in handed]
    counts = conn.execute(" UNION ALL ".join(  # table names are constants, never data
        f"SELECT '{t}', count(*) FROM (SELECT 1 FROM {t} LIMIT 1)" for t in wanted)).fetchall()
    rows = {}
    for table in (str(t) for t, n in counts if n):
        rows[table] = conn.sql(f"SELECT * FROM {table} ORDER BY rowid").to_arrow_table()
    return rows | {table: found for table, found in handed.items() if found.num_rows}


class EarlierGames:
    """The game lines of a file before byte ``stop`` (the file's earlier parts), found by one
    scan (:func:`game_lines`) and grouped by game id; a game is validated only when a part asks
    for it, as the pipeline validates it (its lines in order: the first accepted is the game
    stored; a game depends on no deal and on no other game)."""

    def __init__(self, path: Path, stop: int, variants: VariantLookup | None) -> None:
        self.variants = variants
        self.lines: dict[str, list[Raw]] = {}
        """The game lines of each game id, in file order."""
        self.found: dict[str, tuple[str, str] | None] = {}
        for line, text in game_lines(path, stop) if stop else ():
            if line == 1:  # the reader skips a byte order mark at the file's start only
                text = text.removeprefix("\ufeff")
            raw = parse_line(str(path), line, text.rstrip("\r"))
            if isinstance(raw, Raw) and raw.data.get("record") == "game" and isinstance(
                    game_id := raw.data.get("game_id"), str):
                self.lines.setdefault(game_id, []).append(raw)

    def __contains__(self, game_id: str) -> bool:
        return game_id in self.lines

    def game(self, game_id: str) -> tuple[str, str] | None:
        """``(variant, record)`` of the game the earlier parts store, or ``None``."""
        if game_id not in self.found:
            validator = Validator(variants=self.variants)
            accepted = (validator.validate(raw) for raw in self.lines[game_id])
            self.found[game_id] = next(((a.variant.name, a.canonical) for a in accepted
                                        if isinstance(a, Accepted) and not a.duplicate), None)
        return self.found[game_id]


# --- planning: which parts of which files ---------------------------------------------------


def game_lines(path: Path, stop: int | None = None) -> Iterator[tuple[int, str]]:
    """``(line, text)`` of each line of a UTF-8 JSON Lines file (up to byte ``stop``, a line's
    start) that may be a game line (holds ``"game"``), read in blocks; a line that is not UTF-8
    is left out (the reader quarantines it)."""
    line = 1  # the line at ``at``
    rest = b""
    left = path.stat().st_size if stop is None else stop
    with path.open("rb") as fh:
        while True:
            block = fh.read(min(1 << 24, left))
            left -= len(block)
            data = rest + block
            cut = data.rfind(b"\n") + 1 if block else len(data)
            data, rest = data[:cut], data[cut:]
            at = 0
            while (hit := data.find(b'"game"', at)) >= 0:
                start = data.rfind(b"\n", 0, hit) + 1
                end = data.find(b"\n", hit)
                end = len(data) if end < 0 else end
                line += data.count(b"\n", at, start)
                try:
                    text = data[start:end].decode("utf-8")
                except UnicodeDecodeError:
                    pass
                else:
                    yield line, text
                at = end
            line += data.count(b"\n", at)
            if not block:
                return


def batch_ends(path: Path, batch: int) -> list[int]:
    """The last line of each batch the pipeline reads a JSON Lines file in (``read_lines``)."""
    ends = []
    for items in READER.read_lines(path, batch, BATCH_CHARS):
        last = items[-1]
        ends.append(last.line if isinstance(last, Issue) else last[0])
    return ends


def line_starts(path: Path, lines: list[int]) -> list[int]:
    """The byte where the line after each of ``lines`` (ascending) starts: line ends are
    counted a stretch of ``1 << 16`` bytes at a time, and looked for one by one only in the
    stretch where a wanted line ends."""
    found: list[int] = []
    seen = 0  # line ends before ``at + k``
    at = 0
    with path.open("rb") as fh:
        while len(found) < len(lines) and (block := fh.read(1 << 24)):
            k = 0
            while len(found) < len(lines) and k < len(block):
                want = lines[len(found)] - seen
                ends = block.count(b"\n", k, k + (1 << 16))
                if ends < want:
                    seen, k = seen + ends, k + (1 << 16)
                    continue
                for _ in range(want):
                    k = block.find(b"\n", k) + 1
                seen += want
                found.append(at + k)
            at += len(block)
    return found


def cuts(path: Path, pieces: int, batch: int = BATCH) -> list[tuple[int, int, int]]:
    """``(start, stop, lines before)`` of at most ``pieces`` parts of about the same size, each
    cut where a batch of a single-process read ends: a part is read in the same batches, so its
    issues, counts and progress come in the same order."""
    ends = batch_ends(path, batch)[:-1]
    starts = line_starts(path, ends)
    size = path.stat().st_size
    chosen: list[tuple[int, int]] = [(0, 0)]
    for k in range(1, pieces):  # the batch's end nearest to each k-th of the file
        wanted = size * k // pieces
        near = bisect_left(starts, wanted)
        at = min((i for i in (near - 1, near) if 0 <= i < len(starts)),
                 key=lambda i: abs(starts[i] - wanted), default=None)
        if at is not None and chosen[-1][0] < starts[at] < size:
            chosen.append((starts[at], ends[at]))
    chosen.append((size, 0))
    return [(a, b, before) for (a, before), (b, _) in pairwise(chosen)]


def split(path: Path, sha256: str, pieces: int, **options: Any) -> list[Part]:
    """The parts of a JSON Lines file (the whole file when it is read in one batch)."""
    found = cuts(path, pieces, options.get("batch", BATCH))
    if len(found) == 1:
        return [Part(str(path), sha256, **options)]
    return [Part(str(path), sha256, start, stop, before, **options)
            for start, stop, before in found]


def splittable(path: Path, reader_name: str | None, part_bytes: int) -> bool:
    """A UTF-8 JSON Lines file of at least two parts' size (a file that is not text is read
    whole, as its one issue: ``ingest.pipeline.refused``)."""
    if reader_name != JsonlReader.name:
        return False
    with path.open("rb") as fh:
        head = fh.read(HEAD + 1)
    return (path.stat().st_size >= 2 * part_bytes and wide(head) is None
            and not_text(path.name, head) is None)


def plan(files: list[Path], conn: duckdb.DuckDBPyConnection, workers: int, part_bytes: int,
         hashes: dict[Path, str] | None = None, **options: Any) -> dict[Path, list[Part]]:
    """The parts of each file to read ahead: none for a file skipped already (unchanged, a copy,
    missing, no reader), nor for the first file of several (the writer reads it while the
    workers start), nor for a large file that is not cut (``parts_of``). ``hashes`` gets the
    sha256 of each file hashed."""
    def checked_alone(path: Path) -> FileReport:
        try:
            with conn.cursor() as own:  # a connection per thread
                return precheck(own, path)[0]
        except Exception:  # unreadable: the writer reads it, and fails it as one process does
            return FileReport(str(path))

    with ThreadPoolExecutor(max(1, workers)) as hashing:  # hashlib lets go of the GIL
        checked = list(hashing.map(checked_alone, files))
    parts: dict[Path, list[Part]] = {}
    for path, report in zip(files, checked, strict=True):
        if hashes is not None and report.sha256 is not None:
            hashes[path] = report.sha256
        if report.skipped is None and report.sha256 is not None:
            with suppress(OSError):  # gone meanwhile: the writer reads it (and reports it)
                parts[path] = parts_of(path, report, workers, part_bytes, options)
    first = next(iter(parts), None)
    if len(parts) > 1 and first is not None and len(parts[first]) == 1:
        del parts[first]  # read here while the workers start
    return parts


def parts_of(path: Path, report: FileReport, workers: int, part_bytes: int,
             options: dict[str, Any]) -> list[Part]:
    """A file's parts: parts of a large JSON Lines file, the whole file, or none for a file
    the writer reads itself (one not cut into parts of :data:`WHOLE_BYTES` or more)."""
    assert report.sha256 is not None
    found = [Part(str(path), report.sha256, **options)]
    if options.get("fast", True) and splittable(path, report.reader, part_bytes):
        pieces = min(path.stat().st_size // part_bytes, PARTS_PER_WORKER * workers)
        found = split(path, report.sha256, pieces, **options)
    return [] if len(found) == 1 and path.stat().st_size >= WHOLE_BYTES else found


# --- the writer ---------------------------------------------------------------------------------


AUTO_BYTES = 64 << 20
"""Without ``--workers``, input smaller than this is read in the command's process: starting
a fork server and its workers costs more CPU than reading it (``bench parallel``)."""


def reading(map_tasks: TaskMap, workers: int, part_bytes: int = PART_BYTES,
            min_bytes: int = 0) -> Reading:
    """``ingest_paths(..., reading=reading(map_tasks, workers))``: the files read ahead by
    ``workers`` workers (through ``map_tasks``), each stored here in its turn. One worker, or
    strict mode (``ingest_paths`` stops at the first issue), or input under ``min_bytes`` in
    all, reads here one file at a time.
    The workers start with the run: a cluster that cannot be reached ends the run."""

    @contextmanager
    def ahead(files: list[Path], conn: duckdb.DuckDBPyConnection,
              options: dict[str, Any]) -> Iterator[FileIngest]:
        if workers <= 1 or options.get("strict") or sum(map(file_size, files)) < min_bytes:
            with one_by_one(files, conn, options) as load:
                yield load
            return
        keep = {k: options[k] for k in ("batch", "fast", "replace", "variants") if k in options}
        hashes: dict[Path, str] = {}
        parts = plan(files, conn, workers, part_bytes, hashes, **keep)
        tasks = [p for found in parts.values() for p in found]
        writer = Writer(parts, map_tasks(read_part, tasks) if tasks else iter(()), hashes)
        try:
            yield writer
        finally:
            writer.close()

    return ahead


class Writer:
    """Takes the workers' results in the files' order and stores each part of a file as it
    comes, in the file's transaction (or reads a file here when its rows may differ from a
    single process's)."""

    def __init__(self, parts: dict[Path, list[Part]], results: Iterator[PartResult],
                 hashes: dict[Path, str] | None = None) -> None:
        self.parts = parts
        """The parts of each file the workers read (in order)."""
        self.results = results
        self.hashes = hashes or {}
        """The sha256 of each file the plan hashed (``ingest_paths`` hashes no file again)."""

    def __call__(self, conn: duckdb.DuckDBPyConnection, path: Path, **options: Any
                 ) -> FileReport:
        return self.ingest(conn, path, **options)

    @property
    def in_parts(self) -> frozenset[Path]:
        """The files read in several parts: each is committed alone (``ingest_paths``), so
        that its parts are stored as they come (:func:`commit`)."""
        return frozenset(path for path, parts in self.parts.items() if len(parts) > 1)

    def ingest(self, conn: duckdb.DuckDBPyConnection, path: Path, **options: Any
               ) -> FileReport:
        """:func:`ingest_file` of ``path``, from the workers' results."""
        parts = self.parts.get(path, [])
        if not parts:
            return self.read_here(conn, path, **options)
        results = FileResults(self.results, len(parts))
        try:
            report = self.stored(conn, path, parts, results, options)
        except WorkersGone as gone:  # one died, the cluster went away
            self.parts = {}  # the files after this one are read here
            return failed_report(path, gone.reason)
        except Exception as exc:  # the file fails (``ingest_paths``); the next gets its own
            T.stop_if_interrupted(exc)  # a Ctrl-C DuckDB met ends the run: no result awaited
            self.drain(results)
            raise
        self.drain(results)
        return report if report is not None else self.read_here(conn, path, **options)

    def drain(self, results: FileResults) -> None:
        """Take the results of a file's parts not taken (so that the next file gets its own);
        when the workers are gone, the files after this one are read here. A Ctrl-C takes
        none: the run ends."""
        try:
            results.drain()
        except WorkersGone:
            self.parts = {}

    @staticmethod
    def stored(conn: duckdb.DuckDBPyConnection, path: Path, parts: list[Part],
               results: Iterable[PartResult], options: dict[str, Any]) -> FileReport | None:
        """The file stored from the workers' rows, or skipped; ``None`` when the writer must
        read it itself: a named source (its name is not the path), a new version of a source
        (read against the earlier one), or rows that may differ from a single process's."""
        if options.get("source") is not None:
            return None
        report, _ = precheck(conn, path, parts[0].sha256, replace=options.get("replace", False))
        if report.skipped is not None:
            return report
        if not report.new_source and has_earlier(conn, report.source, report.sha256):
            return None
        try:
            return commit(conn, parts, results, options.get("on_record"), options.get("group"),
                          new_source=report.new_source)
        except NotExact:
            return None
        except PartFailed as failed:
            return failed.report

    @staticmethod
    def read_here(conn: duckdb.DuckDBPyConnection, path: Path, **options: Any) -> FileReport:
        """A file read by the writer itself, as by a single process."""
        return ingest_file(conn, path, **options)

    def close(self) -> None:
        close = getattr(self.results, "close", None)
        if close is not None:
            close()  # stops the workers (Ctrl-C, an error)


class WorkersGone(Exception):
    """The workers' results cannot be had: a worker died, or the cluster went away."""

    def __init__(self, reason: Exception) -> None:
        super().__init__(str(reason))
        self.reason = reason


class NotExact(Exception):
    """A part's rows may differ from those a single process stores (:class:`Exact`)."""


class PartFailed(Exception):
    """A worker could not read a part: the file is ``failed``, with the part's reason."""

    def __init__(self, report: FileReport) -> None:
        super().__init__(report.failed)
        self.report = report


class FileResults:
    """The results of a file's ``count`` parts, taken from the workers' one at a time (a part
    is stored while the workers read the next ones); those not taken are taken by
    :meth:`drain`."""

    def __init__(self, results: Iterator[PartResult], count: int) -> None:
        self.results = results
        self.left = count

    def __iter__(self) -> Iterator[PartResult]:
        while self.left:
            self.left -= 1
            try:
                found = next(self.results)
            except Exception as exc:
                self.left = 0  # nothing more comes
                raise WorkersGone(exc) from exc
            yield found

    def drain(self) -> None:
        for _ in self:
            pass


class Exact:
    """Whether the rows of each part of a file, taken in order, are those a single process
    stores now: the part read the file that was hashed; no game it looked up or stores is
    stored, but by the file's earlier parts; it knew (as game lines before it) the games of
    earlier parts it looked up; and no earlier part stores one of its deal numbers. Stored
    deals belong to stored games, so every other look-up has the same answer here as in its
    worker."""

    def __init__(self, conn: duckdb.DuckDBPyConnection, sha256: str) -> None:
        self.conn = conn
        self.sha256 = sha256
        self.earlier: set[str] = set()
        """The games the earlier parts store."""
        self.deals: pl.DataFrame | None = None
        """The ``(game_id, deal_no)`` the earlier parts store."""

    def __call__(self, result: PartResult) -> bool:
        if result.report.sha256 != self.sha256 or (result.asked - result.known) & self.earlier:
            return False
        games = result.tables.get(T.GAMES)
        storing = set(games["game_id"].to_pylist()) if games is not None else set()
        fresh = (result.asked | storing) - self.earlier  # the earlier ones are stored by now
        if any(v is not None for v in store.stored_games(self.conn, fresh).values()):
            return False
        if T.DEALS in result.tables:
            ids = pl.DataFrame(result.tables[T.DEALS].select(["game_id", "deal_no"])).unique()
            if self.deals is not None and not ids.join(
                    self.deals, on=["game_id", "deal_no"], how="semi").is_empty():
                return False
            self.deals = ids if self.deals is None else pl.concat([self.deals, ids])
        self.earlier |= storing
        return True


def checked(conn: duckdb.DuckDBPyConnection, sha256: str,
            results: Iterable[PartResult]) -> Iterator[PartResult]:
    """The results of a file's parts as they come, each checked (:class:`Exact`): raises
    :class:`PartFailed` or :class:`NotExact` at the first that fails or is not exact."""
    exact = Exact(conn, sha256)
    for result in results:
        if result.report.failed:
            raise PartFailed(result.report)
        if not exact(result):
            raise NotExact(result.report.source)
        yield result


def merged(results: list[PartResult]) -> FileReport:
    """One report of a file's parts (their counts added, in the parts' order)."""
    first = results[0].report
    report = FileReport(first.source, first.reader, first.sha256)
    for r in (result.report for result in results):
        report.records += r.records
        report.stored += r.stored
        report.duplicates += r.duplicates
        report.quarantined += r.quarantined
        report.file_issues += r.file_issues
        report.conflicts += r.conflicts
        report.replaced += r.replaced
        report.repaired += r.repaired
        report.games |= r.games
        report.issues += r.issues[:KEEP_ISSUES - len(report.issues)]
    return report


def commit(conn: duckdb.DuckDBPyConnection, parts: list[Part], results: Iterable[PartResult],
           on_record: Callable[[int, int], None] | None, group: store.Group | None = None,
           new_source: bool = False) -> FileReport:
    """Store a file's parts and its log row in one transaction, or in ``group``'s (as
    ``ingest_file`` does); progress goes as the workers reported it. In its own transaction
    each part is stored as it comes (checked by :func:`checked`: a part that fails or is not
    exact rolls the file back and raises); in a group, whose other files share the
    transaction, every part is checked before any is stored. A part's rows are let go once
    stored. ``new_source``: no version of the source is logged (``precheck``)."""
    own = group is None
    coming = checked(conn, parts[0].sha256, results)
    if not own:
        coming = iter(list(coming))
    now = datetime.now(UTC)
    staging = store.Staging(conn)  # the load of one process: one statement a table a part
    group = group or store.Group(conn)
    group.begin()
    taken: list[PartResult] = []
    try:
        clear_replaced_quarantine(conn, lineage(conn, parts[0].path), new_source)
        for result in coming:
            _tick(taken, result, len(parts), on_record)
            taken.append(result)
            for table, rows in result.tables.items():
                staging.held[table] = [stamped(rows, now)]
            staging.load(conn, group)
            result.tables = {}  # loaded: a part's rows are not held until the file's commit
        report = merged(taken)
        store.log_ingest(conn, report.logged(now), new_source)
        group.stored(report.games)
        if own:
            group.commit()
    except BaseException:
        if own:
            group.rollback()
        raise
    finally:
        with suppress(duckdb.Error):
            staging.close(conn)
    return report


def _tick(taken: list[PartResult], result: PartResult, parts: int,
          on_record: Callable[[int, int], None] | None) -> None:
    """A part's progress as the file's: after the records and bytes of the parts before it
    (``taken``); a part's last tick repeats its last batch's (the file's end), said only by
    the file's last part."""
    if on_record is None:
        return
    records = sum(r.report.records for r in taken)
    read = sum(r.ticks[-1][1] for r in taken if r.ticks)
    ticks = result.ticks if len(taken) + 1 == parts else result.ticks[:-1]
    for r, done in ticks:
        on_record(records + r, read + done)


def stamped(rows: pa.Table, now: datetime) -> pa.Table:
    """``rows`` with their ``ingested_at`` set to the commit's time (the writer's clock)."""
    if "ingested_at" not in rows.column_names:
        return rows
    at = rows.column_names.index("ingested_at")
    column = pa.array([now] * rows.num_rows, type=rows.schema.field(at).type)
    return rows.set_column(at, "ingested_at", column)
