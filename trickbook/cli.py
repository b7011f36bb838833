"""The ``trickbook`` command line (``docs/cli.md``).

Commands: ingest, score, schema, report, check, dashboard.

Output for people goes to stdout; progress bars and notes go to stderr, so ``report --format csv``
and ``schema`` can be piped.
"""

from __future__ import annotations

import csv
import importlib
import json
import signal
import sys
from enum import StrEnum
from pathlib import Path
from types import FrameType
from typing import Annotated, Any

import duckdb
import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ingest.pipeline import FileReport, StrictError, ingest_paths
from ingest.pipeline import Progress as IngestProgress

DEFAULT_DB = Path("data/trickbook.duckdb")
PROGRESS_MIN_BYTES = 1 << 20
"""Inputs smaller than this (1 MiB in all) show no progress bar."""

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Hand histories, settlement and statistics for trick-taking games.")
out = Console(soft_wrap=True)
err = Console(stderr=True)

DbOption = Annotated[Path, typer.Option("--db", help="The DuckDB database file.")]


class Format(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"


class Report(StrEnum):
    standings = "standings"
    quarantine = "quarantine"


class _StopFlag:
    """First Ctrl-C: finish the current file, then stop. Second: abort it (rolled back)."""

    def __init__(self) -> None:
        self.requested = False

    def __call__(self) -> bool:
        return self.requested

    def handler(self, signum: int, frame: FrameType | None) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True
        err.print("[yellow]stopping after the current file (Ctrl-C again to abort it)[/]")


def _print_report(r: FileReport) -> None:
    if r.skipped:
        out.print(f"{r.source}: skipped ({r.skipped})")
        return
    out.print(f"{r.source}: {r.records} read, {r.stored} stored, {r.duplicates} duplicates, "
              f"{r.quarantined} quarantined")
    for issue in r.issues[:5]:
        out.print(f"  {issue.line}: {issue.code}: {issue.message}", markup=False)
    if r.quarantined > 5:
        out.print(f"  ... see `trickbook report quarantine` for all {r.quarantined}")
    if r.score_error:
        err.print(f"  scoring failed, games kept for the next run: {r.score_error}",
                  markup=False)


@app.command()
def ingest(
    paths: Annotated[list[Path], typer.Argument(help="Files, folders or globs.")],
    db: DbOption = DEFAULT_DB,
    strict: Annotated[bool, typer.Option(help="Stop at the first problem (exit 1).")] = False,
) -> None:
    """Read, validate and store records; then rescore the games they touched."""
    stop = _StopFlag()
    previous = signal.signal(signal.SIGINT, stop.handler)
    total = sum(p.stat().st_size for p in paths if p.is_file())
    bar = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[n]}"),
                   TimeRemainingColumn(), console=err, transient=True,
                   disable=total < PROGRESS_MIN_BYTES and all(p.is_file() for p in paths))
    task = bar.add_task("ingest", total=None, n="")

    def tick(p: IngestProgress) -> None:
        bar.update(task, total=p.total_bytes, completed=p.done_bytes,
                   description=f"{p.file_no}/{p.files} {Path(p.source).name}",
                   n=f"{p.records:,} records")

    try:
        with bar:
            reports = ingest_paths(paths, db, strict=strict, progress=tick, should_stop=stop)
    except StrictError as exc:
        err.print(f"strict: {exc}", markup=False)
        raise typer.Exit(1) from exc
    except duckdb.IOException as exc:
        err.print(f"cannot open {db} for writing (is another process using it?): {exc}",
                  markup=False)
        raise typer.Exit(2) from exc
    except KeyboardInterrupt as exc:
        err.print("interrupted: the file in progress was rolled back; finished files are stored")
        raise typer.Exit(130) from exc
    finally:
        signal.signal(signal.SIGINT, previous)
    for r in reports:
        _print_report(r)
    failed = _after_load_checks(db)
    if strict and failed:
        raise typer.Exit(1)
    if stop.requested:
        err.print("stopped early: run the same command again to ingest the remaining files")
        raise typer.Exit(130)


def _read_only(db: Path) -> duckdb.DuckDBPyConnection:
    """The database opened read-only; exit 2 with a message when it cannot be."""
    try:
        return duckdb.connect(str(db), read_only=True)
    except duckdb.Error as exc:
        err.print(f"cannot open {db}: {exc}", markup=False)
        raise typer.Exit(2) from exc


def _after_load_checks(db: Path) -> bool:
    """Run the data checks (scoring/checks.py) after a load; True when one fails."""
    from scoring.checks import run_checks

    if not db.exists():
        return False
    conn = duckdb.connect(str(db), read_only=True)
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
    from ingest.store import connect
    from scoring.store import PENDING, rescore

    conn = connect(db)
    try:
        conn.execute("BEGIN")
        result = rescore(conn, None, transaction=False)
        conn.execute(f"DELETE FROM {PENDING}")
        conn.execute("COMMIT")
    finally:
        conn.close()
    out.print(f"{result.games} games settled: {result.settlements} settlement rows, "
              f"{result.transfers} transfers, {result.standings} standings")
    for name in result.unsettled_variants:
        err.print(f"no settlement registered for variant {name!r}: its games are not scored")


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
    Report.standings: (
        "SELECT game_id, player, variant, cash, deals_played, finished FROM standings "
        "ORDER BY game_id, cash DESC, player"
    ),
    Report.quarantine: (
        "SELECT source, line, record_key, code, message, raw FROM quarantine "
        "ORDER BY source, line"
    ),
}


@app.command()
def report(
    what: Annotated[Report, typer.Argument(help="standings or quarantine")],
    db: DbOption = DEFAULT_DB,
    format: Annotated[Format, typer.Option("--format", help="table, csv or json")] = Format.table,
) -> None:
    """Print stored standings or the quarantined records."""
    if not db.exists():
        err.print(f"no database at {db} (run `trickbook ingest` first)")
        raise typer.Exit(2)
    conn = _read_only(db)
    try:
        cur = conn.execute(QUERIES[what])
        columns = [d[0] for d in cur.description or []]
        rows = cur.fetchall()
    finally:
        conn.close()
    if format is Format.json:
        sys.stdout.write(json.dumps([dict(zip(columns, r, strict=True)) for r in rows],
                                    ensure_ascii=False, default=str, indent=1) + "\n")
    elif format is Format.csv:
        w = csv.writer(sys.stdout, lineterminator="\n")
        w.writerow(columns)
        w.writerows(rows)
    else:
        table = Table(*columns, title=f"{what.value} ({len(rows)} rows)")
        for r in rows:
            table.add_row(*("" if v is None else str(v) for v in r))
        out.print(table)


@app.command()
def check(db: DbOption = DEFAULT_DB) -> None:
    """Run the data checks; exit 1 when one fails (findings alone do not fail)."""
    from scoring.checks import run_checks

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
    port: Annotated[int, typer.Option(help="Port of the Streamlit server.")] = 8501,
) -> None:
    """Serve the Streamlit dashboards on the database (read-only)."""
    try:
        serve = importlib.import_module("dashboards.serve")
    except ModuleNotFoundError as exc:
        err.print("the dashboards are not installed (dashboards/serve.py is missing)")
        raise typer.Exit(2) from exc
    code = serve.main(db, port)
    if code:
        raise typer.Exit(int(code))


EXTRA_COMMANDS = (
    ("simulate", "trickbook.simulate", "simulate_command"),
    ("balance", "trickbook.balance", "balance_command"),
)
"""Commands that other areas keep in their own modules: one line each."""


def _register_extra_commands() -> None:
    for name, module, attr in EXTRA_COMMANDS:
        try:
            command = getattr(importlib.import_module(module), attr)
        except ModuleNotFoundError as exc:
            if exc.name == module:
                continue  # that area is not installed
            raise
        app.command(name)(command)


_register_extra_commands()


def main() -> None:
    app()


app.command("simulate")(importlib.import_module("trickbook.simulate").simulate_command)
app.command("balance")(importlib.import_module("trickbook.balance").balance_command)
