"""The ``trickbook`` command line (``docs/cli.md``).

Commands: ingest, score, schema, report, check, export, analyse, dashboard, players, simulate,
balance.

Output for people goes to stdout; progress bars and notes go to stderr, so ``report --format csv``
and ``schema`` can be piped.
"""

from __future__ import annotations

import csv
import importlib
import json
import os
import signal
import sys
import threading
import traceback
from contextlib import suppress
from enum import StrEnum
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from model.problems import counted
from trickbook.console import (
    INTERRUPTED,
    SHOWN_CHARS,
    Commands,
    err,
    must_exist,
    not_a_database,
    one_line,
    out,
    progress_bar,
    run_or_stop,
    shown,
    waiting_note,
)
from trickbook.players import app as players_app

if TYPE_CHECKING:  # the command bodies import what they use, so that --help starts fast
    import duckdb

    from ingest.pipeline import FileReport, Reading, StrictError
    from ingest.pipeline import Progress as IngestProgress

DEFAULT_DB = Path("data/trickbook.duckdb")
PROGRESS_MIN_BYTES = 1 << 20
"""Inputs smaller than this (1 MiB in all) show no progress bar."""

class _App(Commands):
    """The command: an unexpected exception is one line on stderr and exit 1, never a
    traceback (``--debug`` shows it). Once the command has ended (and said how), Ctrl-C is
    ignored while the process exits: one that came then (a thread still hashing a file, the
    workers being stopped) killed the process by the signal, with nothing said."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().__call__(*args, **kwargs)
        except Exception as exc:
            if _debug_wanted():
                raise
            sys.stderr.write(f"trickbook: {_one_line(exc)} (run with --debug for the "
                             "traceback)\n")
            sys.exit(1)
        finally:
            if threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGINT, signal.SIG_IGN)


def _debug_wanted() -> bool:
    return DEBUG["on"] or "--debug" in sys.argv[1:2]


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


DEBUG = {"on": False}
"""Set by ``trickbook --debug``: print tracebacks."""

app = _App(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
           rich_markup_mode=None,
           help="Hand histories, settlement and statistics for trick-taking games.")


@app.callback()
def _options(debug: Annotated[bool, typer.Option(
        "--debug", help="Show the traceback of an unexpected error.")] = False) -> None:
    DEBUG["on"] = debug


def _db_error(exc: BaseException) -> typer.Exit:
    """One line for a database that cannot be used (``ingest.store.DatabaseError``), exit 2:
    a control character of its path escaped, as a file's name is (``console.one_line``)."""
    err.print(one_line(exc), markup=False)
    if DEBUG["on"]:
        err.print_exception()
    return typer.Exit(2)

DbOption = Annotated[Path, typer.Option("--db", help="The DuckDB database file.")]
PathsArgument = Annotated[list[Path], typer.Argument(help="Files, folders or globs.",
                                                     readable=False)]
"""Paths to ingest; an unreadable one is reported by the pipeline, not refused by typer."""


class Format(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"


class ExportFormat(StrEnum):
    ppn = "ppn"
    pbn = "pbn"


class Report(StrEnum):
    standings = "standings"
    quarantine = "quarantine"


class _StoppedWaiting(KeyboardInterrupt):
    """Ctrl-C while ``ingest`` waited for another process's lock: nothing was read."""


class _StopFlag:
    """First Ctrl-C: finish the current file, then stop (before the first file: read none).
    Second: abort it (rolled back)."""

    def __init__(self) -> None:
        self.requested = False
        self.started = False
        """Whether a file has started (``ingest_paths`` asks before each file)."""

    def __call__(self) -> bool:
        self.started = self.started or not self.requested
        return self.requested

    def handler(self, signum: int, frame: FrameType | None) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True
        if self.started:
            err.print("[yellow]stopping after the current file (Ctrl-C again to abort it)[/]")
        else:
            err.print("[yellow]stopping before the first file (Ctrl-C again to stop at once)[/]")


def _print_report(r: FileReport) -> None:
    from ingest.store import bounded
    from ingest.versions import put_back_note

    source = one_line(r.source)
    if r.skipped:
        note = f"; {put_back_note(r.source, r.replaced_by)}" if r.replaced_by else ""
        out.print(f"{source}: skipped ({one_line(r.skipped + note)})", markup=False)
        return
    if r.failed:
        err.print(f"{source}: not stored: {shown(r.failed)}", markup=False)
        if DEBUG["on"] and r.error is not None:
            err.print("".join(traceback.format_exception(r.error)), markup=False)
        return
    replaced = f" ({r.replaced:,} replacing an earlier version)" if r.replaced else ""
    if r.dropped:
        replaced += (f", {counted(r.dropped, 'deal')} of the earlier version not in this one "
                     + ("removed" if r.removed else "kept as conflicts"))
    out.print(f"{source}: {_counts(r.records, r.stored, r.duplicates, r.quarantined, replaced)}"
              f"{_of_file(r.file_issues)}", markup=False)
    if r.replaced_by:
        out.print(f"  put back: it stands again in place of {one_line(r.replaced_by)}, which "
                  "had replaced it", markup=False)
    elif r.earlier_files:
        out.print(f"  a new version of {', '.join(map(one_line, r.earlier_files))} (a file of "
                  "its name whose games it holds)", markup=False)
    if note := r.in_part():
        out.print(f"  {note}", markup=False)
    if r.repaired:
        out.print(f"  {counted(r.repaired, 'deal')} repaired as read (each repair is in the "
                  "repairs table)", markup=False)
    for issue in sorted(r.issues, key=lambda i: i.line)[:5]:  # as they stand in the file
        out.print(f"  {issue.line}: {issue.code}: "
                  f"{bounded(one_line(issue.message), SHOWN_CHARS)}", markup=False)
    if r.quarantined + r.file_issues > 5:
        out.print("  ... see `trickbook report quarantine` for all "
                  f"{r.quarantined + r.file_issues:,}")
    if r.score_error:
        err.print(f"  not scored, kept for the next run: {shown(r.score_error)}",
                  markup=False)


@app.command()
def ingest(
    paths: PathsArgument,
    db: DbOption = DEFAULT_DB,
    strict: Annotated[bool, typer.Option(help="Stop at the first problem (exit 1).")] = False,
    replace: Annotated[bool, typer.Option(
        help="A changed file supersedes its earlier version: its game lines and deals "
             "replace the stored ones and the deals it dropped are removed (else each is a "
             "conflict).")] = False,
    workers: Annotated[int | None, typer.Option(
        min=1, help="Processes that read and validate files while this one stores them "
                    "(default: every core when the input is 64 MiB or more, else 1; 1 reads "
                    "here; a large JSON Lines file is cut into this many parts).")] = None,
    cluster: Annotated[str | None, typer.Option(
        help="Dask scheduler address (tcp://HOST:8786): its workers read and validate.")] = None,
) -> None:
    """Read, validate and store records; then rescore the games they touched."""
    _start_ingest(db, cluster)
    from rich.progress import BarColumn, TextColumn, TimeRemainingColumn

    from ingest.pipeline import StrictError, ingest_paths
    from ingest.store import DatabaseError
    from scoring.store import score_pending
    from sim.pool import ClusterUnreachable

    stop = _StopFlag()
    previous = signal.signal(signal.SIGINT, stop.handler)
    total = sum(_size(p) for p in paths)
    bar = progress_bar(TextColumn("{task.description}"), BarColumn(),
                       TextColumn("{task.fields[n]}"), TimeRemainingColumn(),
                       disable=total < PROGRESS_MIN_BYTES and _all_files(paths))
    task = bar.add_task("ingest", total=None, n="")

    def tick(p: IngestProgress) -> None:
        bar.update(task, total=p.total_bytes, completed=p.done_bytes,
                   description=f"{p.file_no}/{p.files} {escape(Path(p.source).name)}",
                   n=f"{p.records:,} records")

    note = waiting_note(db)

    def waiting(seconds: float) -> None:  # Ctrl-C while another process holds the lock
        if stop.requested:
            raise _StoppedWaiting
        note(seconds)

    try:
        with bar:
            reports = ingest_paths(
                paths, db, strict=strict, progress=tick, should_stop=stop, score=score_pending,
                waiting=waiting, replace=replace, reading=_reading(workers, cluster))
    except ClusterUnreachable as exc:  # met before the first file is read
        err.print(f"ingest: {exc}; nothing was read", markup=False)
        raise typer.Exit(2) from exc
    except StrictError as exc:
        raise _strict_stop(exc) from exc
    except DatabaseError as exc:
        raise _db_error(exc) from exc
    except _StoppedWaiting as exc:
        err.print("interrupted while waiting for another process's lock: nothing was read")
        raise typer.Exit(130) from exc
    except KeyboardInterrupt as exc:
        _say_interrupted(exc)
        _say_unsettled(db)
        raise typer.Exit(130) from exc
    finally:
        signal.signal(signal.SIGINT, previous)
    if stop.requested and not reports:  # before the first file: not "nothing to ingest"
        err.print("stopped before any file was read")
        raise typer.Exit(130)
    _print_reports(reports, paths)
    failed = _checks_after_ingest(db)
    if (strict and failed) or any(r.failed or r.score_error or _not_found(r) for r in reports):
        raise typer.Exit(1)
    if stop.requested:
        _stopped(reports, paths)


INGEST_MODULES = ("rich.progress", "ingest.pipeline", "ingest.store", "ingest.parallel",
                  "scoring.store", "sim.pool")
"""What ``ingest`` imports before it reads a file (seconds: the command's start-up)."""


def _start_ingest(db: Path, cluster: str | None) -> None:
    """What ``ingest`` does before it opens a file: import the pipeline (:data:`INGEST_MODULES`),
    refuse a ``--db`` that cannot be a database (``store.check_database_path``), reach the
    ``--cluster``. A Ctrl-C meanwhile ends the command, exit 130, saying that nothing was read
    or stored (docs/cli.md), not the words of a command stopped midway."""
    try:
        for module in INGEST_MODULES:
            importlib.import_module(module)
        from ingest.store import DatabaseError, check_database_path

        try:
            check_database_path(db)  # refused before anything is read
        except DatabaseError as exc:
            raise _db_error(exc) from exc
        _reach(cluster, "ingest: {}; nothing was read")  # even when no file needs reading
    except KeyboardInterrupt as exc:
        err.print("interrupted before reading any file: nothing changed")
        raise typer.Exit(INTERRUPTED) from exc


def _strict_stop(exc: StrictError) -> typer.Exit:
    """Strict mode's stop: the files stored before it (the user sees what was written), then
    its issue; exit 1."""
    for r in exc.stored:
        _print_report(r)
    err.print(f"strict: {exc}", markup=False)
    return typer.Exit(1)


def _reach(cluster: str | None, said: str) -> None:
    """Exit 2 with ``said`` (the reason in its ``{}``) when ``cluster`` is named and cannot be
    reached (``sim.pool.connect``), before a command does any work or creates its database."""
    from sim.pool import ClusterUnreachable, connect

    if cluster is None:
        return
    try:
        connect(cluster).close()
    except ClusterUnreachable as exc:
        err.print(said.format(exc), markup=False)
        raise typer.Exit(2) from exc


def _reading(workers: int | None, cluster: str | None) -> Reading:
    """Who reads the files of ``ingest`` (``ingest.parallel.reading``): the Dask cluster named,
    whatever the size of the input; else ``workers`` local processes; else, by default, every
    core from 64 MiB of input (``AUTO_BYTES``) and this process below."""
    from functools import partial

    from ingest.parallel import AUTO_BYTES, WORKER_MODULES, reading
    from sim.pool import dask_imap, pool_imap

    n = workers or os.cpu_count() or 1
    if cluster is not None:  # at least two parts of a large file (one would be read here)
        return reading(partial(dask_imap, scheduler=cluster), max(n, 2))
    return reading(partial(pool_imap, workers=n, start="forkserver", preload=WORKER_MODULES), n,
                   min_bytes=0 if workers else AUTO_BYTES)


def _say_interrupted(exc: KeyboardInterrupt) -> None:
    """What a second Ctrl-C left of the files (``ingest.pipeline.Interrupted``, read from the
    database once it had rolled back): the files rolled back, those stored before the stop
    came, and the files before them."""
    from ingest.pipeline import Interrupted

    if not isinstance(exc, Interrupted):  # while the files were found, the database opened
        err.print("interrupted before any file was read: nothing was stored")
        return
    said = []
    if exc.rolled_back:
        first, more = one_line(exc.rolled_back[0]), len(exc.rolled_back) - 1
        said.append(f"{first} was rolled back" + (
            f", with {counted(more, 'file')} read since the last commit" if more else "")
            + f": nothing of {'them' if more else 'it'} is stored")
    if exc.stored:
        said.append(f"{_names(exc.stored)} {'is' if len(exc.stored) == 1 else 'are'} stored "
                    "(committed before the Ctrl-C)")
    if exc.unsure:
        said.append(f"whether {_names(exc.unsure)} is stored could not be told: run the same "
                    "command again (a file stored is skipped as unchanged)")
    if not said:  # between files, or while the run settled games left from before
        err.print("interrupted between files: " + (
            f"the {counted(exc.before, 'file')} read are stored" if exc.before
            else "no file was stored"), markup=False)
        return
    if exc.before:
        said.append(f"the {counted(exc.before, 'file')} before are stored")
    err.print(f"interrupted: {'; '.join(said)}", markup=False)


def _names(sources: list[str]) -> str:
    """``a.jsonl``, ``a.jsonl and b.jsonl``, ``a.jsonl, b.jsonl and 3 more files``."""
    shown_ = [one_line(s) for s in sources[:2]]
    if len(sources) > 2:
        return f"{shown_[0]}, {shown_[1]} and {counted(len(sources) - 2, 'more file')}"
    return " and ".join(shown_)


def _say_unsettled(db: Path) -> None:
    """After a second Ctrl-C: the games it left stored and not settled (it came while their
    files were being settled), and how to settle them."""
    import duckdb

    from model.tables import PENDING, has_table

    if not db.exists():  # stopped before the database was made: nothing stored, nothing to say
        return
    with suppress(duckdb.Error, typer.Exit):
        conn = _read_only(db)
        try:
            waiting = conn.execute(f"SELECT count(*) FROM {PENDING}").fetchone() \
                if has_table(conn, PENDING) else None
        finally:
            conn.close()
        if waiting and waiting[0]:
            err.print(f"{counted(waiting[0], 'game')} stored and not settled: the next "
                      f"ingest settles {'it' if waiting[0] == 1 else 'them'}, or run "
                      f"`trickbook score --db {db}`", markup=False)


def _stopped(reports: list[FileReport], paths: list[Path]) -> None:
    """After a first Ctrl-C: exit 130 when files were left unread; one that came during the
    last file left none."""
    from ingest.pipeline import files_to_read

    if len(reports) < len(files_to_read(paths)):
        err.print("stopped early: run the same command again to ingest the remaining files")
        raise typer.Exit(130)
    err.print("Ctrl-C came during the last file: every file is read")


def _print_reports(reports: list[FileReport], paths: list[Path]) -> None:
    """Each file's report, then the run's total when it read several files; or that no file
    of ``paths`` is one of the formats read."""
    for r in reports:
        _print_report(r)
    if len(reports) > 1:
        out.print(_total(reports), markup=False)
    if not reports:
        out.print(f"nothing to ingest: no file in {', '.join(one_line(str(p)) for p in paths)} "
                  "is one of the formats read (docs/ingest.md)", markup=False)


def _total(reports: list[FileReport]) -> str:
    """``13 files: 390 read, 272 stored, 2 duplicates, 116 quarantined (1 skipped)``: the
    counts of the files read, and how many were skipped or not stored."""
    read, stored, duplicates, quarantined = (sum(getattr(r, count) for r in reports) for count in
                                             ("records", "stored", "duplicates", "quarantined"))
    aside = [f"{n:,} {what}" for n, what in (
        (sum(bool(r.skipped) for r in reports), "skipped"),
        (sum(bool(r.failed) for r in reports), "not stored")) if n]
    return (f"{counted(len(reports), 'file')}: {_counts(read, stored, duplicates, quarantined)}"
            + _of_file(sum(r.file_issues for r in reports))
            + (f" ({', '.join(aside)})" if aside else ""))


def _counts(read: int, stored: int, duplicates: int, quarantined: int, replaced: str = "") -> str:
    """``36 read, 36 stored, 0 duplicates, 0 quarantined``: a file's or a run's counts."""
    return (f"{read:,} read, {stored:,} stored{replaced}, {counted(duplicates, 'duplicate')}, "
            f"{quarantined:,} quarantined")


def _of_file(issues: int) -> str:
    """``, and 1 issue of the file``: issues that belong to no record (text outside any
    record, a file that is not text), quarantined and not counted as records read."""
    return f", and {counted(issues, 'issue')} of the file" if issues else ""


def _not_found(report: FileReport) -> bool:
    """A path that is not there (a mistyped name), cannot be read or is not a file, or a table
    no reader takes (``no reader: ...``, its records not read): the command exits 1."""
    return (report.skipped or "").startswith(("missing", "unreadable", "not a regular file",
                                              "no reader:"))


def _all_files(paths: list[Path]) -> bool:
    """Whether every path names a file (not a folder or a glob, nor one that cannot be told)."""
    from ingest.formats import is_file

    return all(map(is_file, paths))


def _size(path: Path) -> int:
    try:
        return path.stat().st_size if path.is_file() else 0
    except OSError:
        return 0


def _read_only(db: Path) -> duckdb.DuckDBPyConnection:
    """The database opened read-only; exit 2 with a message when it cannot be."""
    from ingest.store import DatabaseError, connect

    try:
        return connect(db, read_only=True, waiting=waiting_note(db))
    except DatabaseError as exc:
        raise _db_error(exc) from exc


def _writable(db: Path) -> duckdb.DuckDBPyConnection:
    """The database opened for writing (waiting for another writer's lock); exit 2 with what is
    wrong when it cannot be."""
    from ingest.store import DatabaseError, connect

    try:
        return connect(db, waiting=waiting_note(db), existing=True)
    except DatabaseError as exc:
        raise _db_error(exc) from exc


def _checks_after_ingest(db: Path) -> bool:
    """:func:`_after_load_checks` after ``ingest``; a Ctrl-C while they run ends the command
    with what is so (the files reported above are stored), exit 130."""
    done, result = run_or_stop(_after_load_checks, db)
    if done:
        return bool(result)
    err.print("interrupted during the data checks: the files reported above are stored; "
              f"`trickbook check --db {one_line(db)}` runs the checks", markup=False)
    raise typer.Exit(INTERRUPTED) from result


def _after_load_checks(db: Path) -> bool:
    """Run the data checks (scoring/checks.py) after a load; True when one fails."""
    from scoring.checks import run_checks

    if not db.exists():
        return False
    conn = _read_only(db)
    try:
        failures = run_checks(conn)
    finally:
        conn.close()
    for f in failures:
        err.print(("finding: " if f.finding else "data check failed: ") + str(f), markup=False)
    return any(not f.finding for f in failures)


@app.command()
def score(db: DbOption = DEFAULT_DB) -> None:
    """Recompute every settlement from the stored deals."""
    import duckdb

    from ingest.store import explain_open_error
    from model.tables import PENDING
    from scoring.store import rescore

    must_exist(db)
    conn = _writable(db)
    try:
        conn.execute("BEGIN")
        result = rescore(conn, None, transaction=False)
        conn.execute(f"DELETE FROM {PENDING}")
        conn.execute("COMMIT")
    except (duckdb.Error, OSError) as exc:  # a full disk, a file system turned read-only
        with suppress(duckdb.Error):
            conn.execute("ROLLBACK")
        err.print(f"nothing was changed: {explain_open_error(db, exc)}", markup=False)
        if DEBUG["on"]:
            err.print_exception()
        raise typer.Exit(2) from exc
    finally:
        with suppress(duckdb.Error):
            conn.close()
    out.print(f"{counted(result.games, 'game')} settled: "
              f"{counted(result.settlements, 'settlement row')}, "
              f"{counted(result.transfers, 'transfer')}, {counted(result.standings, 'standing')}")
    for name in result.unsettled_variants:
        err.print(f"no settlement registered for variant {name!r}: its games are not scored",
                  markup=False)


@app.command()
def schema() -> None:
    """Print the JSON Schema of the records: games and deals of every registered variant."""
    sys.stdout.write(json.dumps(records_schema(), indent=2, ensure_ascii=False) + "\n")


def records_schema() -> dict[str, Any]:
    """One JSON Schema document: ``{"games": {variant: ...}, "deals": {variant: ...}}``."""
    from model.variants import names, variant

    games = {n: variant(n).game_model.model_json_schema() for n in names()}
    deals = {n: variant(n).deal_model.model_json_schema() for n in names()}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "trickbook canonical records (records.md section 1)",
        "description": "One JSON object per line: a game line, or a deal line of a known game.",
        "games": games,
        "deals": deals,
    }


QUERIES = {
    Report.standings: (  # cash to two places: a Balkan third reads 46.33, not 46.333333333333336
        "SELECT game_id, player, variant, round(cash, 2) + 0.0 AS cash, deals_played, finished "
        "FROM standings ORDER BY game_id, cash DESC, player"
    ),
    Report.quarantine: (
        "SELECT source, line, record_key, code, message, raw FROM quarantine "
        "ORDER BY source, line"
    ),
}


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet takes as the start of a formula in a CSV cell (OWASP, "CSV Injection")."""


def safe_cell(value: object) -> object:
    """A CSV cell that no spreadsheet runs: text starting ``= + - @`` (or a tab or carriage
    return) gets a leading ``'``, so a player named ``=HYPERLINK(...)`` stays a name; its
    control characters are written as ``\\x1b`` (:func:`shown`: a NUL ends a CSV reader's
    line, an escape sequence recolours the terminal). Numbers are written as they are."""
    if not isinstance(value, str):
        return value
    return ("'" if value.startswith(FORMULA_STARTS) else "") + shown(value)


@app.command()
def report(
    what: Annotated[Report, typer.Argument(help="standings or quarantine")],
    db: DbOption = DEFAULT_DB,
    format: Annotated[Format, typer.Option("--format", help="table, csv or json")] = Format.table,
) -> None:
    """Print stored standings or the quarantined records."""
    from rich.table import Column, Table
    from rich.text import Text

    must_exist(db)
    conn = _read_only(db)
    try:
        cur = conn.execute(QUERIES[what])
        columns = [d[0] for d in cur.description or []]
        rows = cur.fetchall()
    finally:
        conn.close()
    if what is Report.standings:
        columns, rows = _with_units(columns, rows)
    if format is Format.json:
        sys.stdout.write(json.dumps([dict(zip(columns, r, strict=True)) for r in rows],
                                    ensure_ascii=False, default=str, indent=1) + "\n")
    elif format is Format.csv:
        w = csv.writer(sys.stdout, lineterminator="\n")
        w.writerow(columns)
        w.writerows([safe_cell(v) for v in r] for r in rows)
    else:
        # a narrow terminal folds a long game id onto more lines, not cuts each to one prefix
        table = Table(*(Column(c, overflow="fold") for c in columns),
                      title=f"{what.value} ({counted(len(rows), 'row')})")
        for r in rows:  # cells are the records' text, never console markup
            table.add_row(*(Text(table_cell(v)) for v in r))
        out.print(table)


def table_cell(value: object) -> str:
    """A cell of ``report --format table``: a number with a fraction to two places (cash reads
    ``49.00`` beside ``58.67``, not ``49.0``), text with its control characters shown."""
    if value is None:
        return ""
    return f"{value:.2f}" if isinstance(value, float) else shown(value)


def _with_units(columns: list[str], rows: list[tuple[Any, ...]]
                ) -> tuple[list[str], list[tuple[Any, ...]]]:
    """A ``unit`` column after ``cash``: each variant settles in its own unit (chips, soup
    points, whists, points), never to be added to another's."""
    from model.variants import REGISTERED

    units = {v.name: v.cash_unit for v in REGISTERED}
    at, of = columns.index("cash") + 1, columns.index("variant")
    return ([*columns[:at], "unit", *columns[at:]],
            [(*r[:at], units.get(r[of]), *r[at:]) for r in rows])


@app.command()
def check(db: DbOption = DEFAULT_DB) -> None:
    """Run the data checks; exit 1 when one fails (findings alone do not fail)."""
    from scoring.checks import run_checks

    must_exist(db)
    conn = _read_only(db)
    try:
        failures = run_checks(conn)
    finally:
        conn.close()
    for f in failures:
        out.print(str(f), markup=False)
    if any(not f.finding for f in failures):
        raise typer.Exit(1)
    out.print("all checks hold")


@app.command()
def dashboard(
    db: DbOption = DEFAULT_DB,
    port: Annotated[int, typer.Option(min=1, max=65535,
                                      help="Port of the Streamlit server.")] = 8501,
) -> None:
    """Serve the Streamlit dashboards on the database: pages read it read-only; Upload and Entry
    write through ingest (with `TRICKBOOK_WRITE_TOKEN` or a login when one is configured)."""
    try:
        serve = importlib.import_module("dashboards.serve")
    except ModuleNotFoundError as exc:
        err.print("the dashboards are not installed (dashboards/serve.py is missing)")
        raise typer.Exit(2) from exc
    raise typer.Exit(int(serve.main(db, port) or 0))


def exported_by(format: ExportFormat) -> list[str]:
    """The variants whose games ``format`` writes (each variant's ``export_format``)."""
    from model.variants import REGISTERED

    return [v.name for v in REGISTERED if v.export_format == format.value]


def _ppn_games(conn: duckdb.DuckDBPyConnection) -> tuple[list[str], list[str]]:
    """Games PPN writes whose every deal has its cards (PPN can write them), and the others."""
    rows = conn.execute(
        """SELECT g.game_id, bool_and(coalesce(d.has_cards, TRUE)) FROM games g
           LEFT JOIN deals d ON d.game_id = g.game_id WHERE list_contains(?, g.variant)
           GROUP BY g.game_id ORDER BY g.game_id""", [exported_by(ExportFormat.ppn)]).fetchall()
    return [g for g, ok in rows if ok], [g for g, ok in rows if not ok]


@app.command()
def export(
    format: Annotated[ExportFormat, typer.Option("--format", help="ppn (Balkan) or pbn (bridge)")],
    game: Annotated[list[str] | None, typer.Option(
        "--game", help="Export only this game id (repeatable); default every game.")] = None,
    out_file: Annotated[Path | None, typer.Option(
        "--out", help="Write to this file instead of stdout.")] = None,
    db: DbOption = DEFAULT_DB,
) -> None:
    """Write stored games as PPN (Balkan games) or PBN (bridge games)."""
    from ingest import pbn_write, ppn
    from ingest.ppn_codec import PpnError

    must_exist(db)
    if out_file is not None:
        not_a_database(out_file)
    conn = _read_only(db)
    ids = list(game) if game else None
    variants_of = exported_by(format)
    try:
        found = {r[0] for r in conn.execute(
            "SELECT game_id FROM games WHERE list_contains(?, variant)",
            [list(variants_of)]).fetchall()}
        missing = sorted(set(ids or ()) - found)
        if missing:
            err.print(f"no {format.value} game (variant {', '.join(variants_of)}) with id "
                      f"{', '.join(map(repr, missing))}", markup=False)
            raise typer.Exit(1)
        if format is ExportFormat.ppn and ids is None:
            ids, without_cards = _ppn_games(conn)
            for gid in without_cards:
                err.print(f"skipped {gid}: PPN needs the cards of every deal", markup=False)
        writer = pbn_write if format is ExportFormat.pbn else ppn
        text = writer.export_games(conn, ids)
    except PpnError as exc:
        err.print(f"cannot write PPN: {exc}", markup=False)
        raise typer.Exit(1) from exc
    finally:
        conn.close()
    if not text.strip() or (format is ExportFormat.pbn and not found):
        err.print(f"no {format.value} games to export (variant {', '.join(variants_of)})",
                  markup=False)
    if out_file is None:
        sys.stdout.write(text if text.endswith("\n") or not text else text + "\n")
    else:
        try:
            out_file.write_text(text if text.endswith("\n") or not text else text + "\n",
                                encoding="utf-8")
        except OSError as exc:  # a folder, a missing folder, no permission, a full disk
            err.print(f"cannot write {out_file}: {exc.strerror or exc}", markup=False)
            raise typer.Exit(2) from exc
        err.print(f"wrote {out_file}", markup=False)


@app.command()
def analyse(
    db: DbOption = DEFAULT_DB,
    play: Annotated[bool, typer.Option("--play", help="Also review every card and decision "
                                       "open-hand (card_review, decision_review).")] = False,
    cluster: Annotated[str | None, typer.Option("--cluster", help="Review on the Dask "
                                                "scheduler at this address.")] = None,
    workers: Annotated[int | None, typer.Option("--workers", min=1, help="Local processes "
                                                "(default: every core).")] = None,
) -> None:
    """Double-dummy tables and par of bridge deals with four hands (optional ``dds`` extra);
    open-hand declarer tricks of Preference deals with every hand (``open_hand`` table); with
    ``--play``, the review of play (docs/review.md)."""
    from sim.analysis import analyse_open_hand

    for flag, given in (("--cluster", cluster), ("--workers", workers)):
        if given is not None and not play:
            raise typer.BadParameter("it is for the review of play: add --play",
                                     param_hint=f"'{flag}'")
    must_exist(db)
    _reach(cluster, "analyse: {}; nothing was analysed")  # before the hours of analysis
    conn = _writable(db)
    failed = False
    try:
        try:
            from scoring.bridge.dd import DdsUnavailable
            from scoring.bridge.dd import analyse as dd_analyse

            out.print(f"bridge: {counted(dd_analyse(conn), 'deal')} analysed double-dummy "
                      "(dd_tables)")
        except DdsUnavailable as exc:
            err.print(f"bridge: double-dummy analysis unavailable: {exc}", markup=False)
            failed = True
        report = analyse_open_hand(conn)
        out.print(f"preference: {counted(report.analysed, 'deal')} solved open-hand (open_hand), "
                  f"{len(report.skipped)} skipped")
        for game_id, deal_no, reason in report.skipped[:SHOWN_SKIPPED]:
            out.print(f"  {game_id}#{deal_no}: {reason}", markup=False)
        if len(report.skipped) > SHOWN_SKIPPED:
            out.print(f"  and {len(report.skipped) - SHOWN_SKIPPED:,} more")
        interrupted = play and _review_play(conn, workers, cluster)
    finally:
        conn.close()
    if interrupted:
        raise typer.Exit(130)
    if failed:
        raise typer.Exit(1)


SHOWN_SKIPPED = 5
"""Deals ``analyse`` names with why they were not solved; the others are counted."""


def _review_play(conn: duckdb.DuckDBPyConnection, workers: int | None, cluster: str | None
                 ) -> bool:
    """``analyse --play``: review the deals not reviewed yet with a progress bar; True when
    Ctrl-C stopped it (the batches written stay stored)."""
    from rich.progress import BarColumn, TextColumn, TimeRemainingColumn

    from sim.review.run import review_database

    bar = progress_bar(TextColumn("review"), BarColumn(),
                       TextColumn("{task.completed}/{task.total}"), TimeRemainingColumn())
    task = bar.add_task("review", total=None)
    with bar:
        report = review_database(
            conn, workers=workers, scheduler=cluster,
            on_start=lambda n: bar.update(task, total=n),
            on_progress=lambda n: bar.advance(task, n),
        )
    out.print(f"play: {counted(report.reviewed, 'deal')} reviewed "
              f"({counted(report.cards, 'card')}: card_review, "
              f"decision_review), {len(report.skipped):,} skipped")
    if report.interrupted:
        err.print("interrupted: the deals reviewed so far are stored; rerun to continue")
    return report.interrupted


EXTRA_COMMANDS = (
    ("simulate", "trickbook.simulate", "simulate_command",
     "Simulate games of a variant and store them (docs/simulation.md)."),
    ("balance", "trickbook.balance", "balance_command",
     "Compare two rule sets by simulation (docs/balance-study.md)."),
)
"""Commands that other areas keep in their own modules: one line each (name, module, function,
one-line help). Their modules are imported only when the command runs, so ``trickbook --help``
stays fast."""


def _lazy_command(name: str, module: str, attr: str, summary: str) -> None:
    """Register ``name`` as a stand-in that imports ``module`` when it runs and hands it the
    rest of the command line (its own ``--help`` included)."""

    @app.command(name, help=summary, add_help_option=False, context_settings={
        "ignore_unknown_options": True, "allow_extra_args": True})
    def run(ctx: typer.Context) -> None:
        try:
            command = getattr(importlib.import_module(module), attr)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            err.print(f"`trickbook {name}` is not installed ({module} is missing)")
            raise typer.Exit(2) from exc
        single = typer.Typer(add_completion=False, pretty_exceptions_enable=False,
                             rich_markup_mode=None)
        single.command(name)(command)
        single(args=ctx.args, prog_name=f"trickbook {name}")


for _extra in EXTRA_COMMANDS:
    _lazy_command(*_extra)

app.add_typer(players_app, name="players")


def main() -> None:
    app()
