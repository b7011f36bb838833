"""The ``trickbook`` command line (``docs/cli.md``).

Commands: ingest, score, schema, report, check, export, analyse, dashboard, simulate, balance.

Output for people goes to stdout; progress bars and notes go to stderr, so ``report --format csv``
and ``schema`` can be piped.
"""

from __future__ import annotations

import csv
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
from scoring.store import score_pending
from trickbook.balance import balance_command
from trickbook.simulate import simulate_command

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


class ExportFormat(StrEnum):
    ppn = "ppn"
    pbn = "pbn"


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
            reports = ingest_paths(
                paths, db, strict=strict, progress=tick, should_stop=stop, score=score_pending
            )
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
    from model.tables import PENDING
    from scoring.store import rescore

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
    from dashboards import serve

    raise typer.Exit(int(serve.main(db, port) or 0))


BRIDGE_VARIANTS = ("bridge-rubber", "bridge-duplicate")


def pbn_text(conn: duckdb.DuckDBPyConnection, game_ids: list[str] | None = None) -> str:
    """The stored bridge games (``ingest/pbn_write.py``) as one PBN file; ``game_ids`` limits
    the export."""
    from ingest.pbn_write import dumps
    from model.bridge.records import BridgeDeal, BridgeGame

    sql = "SELECT game_id, record::VARCHAR FROM games WHERE list_contains(?, variant)"
    params: list[Any] = [list(BRIDGE_VARIANTS)]
    if game_ids is not None:
        sql += " AND list_contains(?, game_id)"
        params.append(game_ids)
    records: list[tuple[BridgeGame, BridgeDeal]] = []
    for gid, rec in conn.execute(sql + " ORDER BY game_id", params).fetchall():
        game = BridgeGame.model_validate_json(rec)
        deals = conn.execute("SELECT record::VARCHAR FROM deals WHERE game_id = ? "
                             "ORDER BY deal_no", [gid]).fetchall()
        records += [(game, BridgeDeal.model_validate_json(d[0])) for d in deals]
    return dumps(records)


def _ppn_games(conn: duckdb.DuckDBPyConnection) -> tuple[list[str], list[str]]:
    """Balkan games whose every deal has its cards (PPN can write them), and the others."""
    rows = conn.execute(
        """SELECT g.game_id, bool_and(coalesce(d.has_cards, TRUE)) FROM games g
           LEFT JOIN deals d ON d.game_id = g.game_id WHERE g.variant = 'balkan'
           GROUP BY g.game_id ORDER BY g.game_id""").fetchall()
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
    from ingest.ppn import export_games
    from ingest.ppn_codec import PpnError

    if not db.exists():
        err.print(f"no database at {db} (run `trickbook ingest` first)")
        raise typer.Exit(2)
    conn = _read_only(db)
    ids = list(game) if game else None
    variants_of = BRIDGE_VARIANTS if format is ExportFormat.pbn else ("balkan",)
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
        text = pbn_text(conn, ids) if format is ExportFormat.pbn else export_games(conn, ids)
    except PpnError as exc:
        err.print(f"cannot write PPN: {exc}", markup=False)
        raise typer.Exit(1) from exc
    finally:
        conn.close()
    if not text.strip() or (format is ExportFormat.pbn and not found):
        err.print(f"no {format.value} games to export (variant {', '.join(variants_of)})")
    if out_file is None:
        sys.stdout.write(text if text.endswith("\n") or not text else text + "\n")
    else:
        out_file.write_text(text if text.endswith("\n") or not text else text + "\n",
                            encoding="utf-8")
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
    from ingest.store import connect
    from sim.analysis import analyse_open_hand

    if not db.exists():
        err.print(f"no database at {db} (run `trickbook ingest` first)")
        raise typer.Exit(2)
    conn = connect(db)
    failed = False
    try:
        try:
            from scoring.bridge.dd import DdsUnavailable
            from scoring.bridge.dd import analyse as dd_analyse

            out.print(f"bridge: {dd_analyse(conn)} deals analysed double-dummy (dd_tables)")
        except DdsUnavailable as exc:
            err.print(f"bridge: double-dummy analysis unavailable: {exc}", markup=False)
            failed = True
        report = analyse_open_hand(conn)
        out.print(f"preference: {report.analysed} deals solved open-hand (open_hand), "
                  f"{len(report.skipped)} skipped")
        for game_id, deal_no, reason in report.skipped[:5]:
            out.print(f"  {game_id}#{deal_no}: {reason}", markup=False)
        interrupted = play and _review_play(conn, workers, cluster)
    finally:
        conn.close()
    if interrupted:
        raise typer.Exit(130)
    if failed:
        raise typer.Exit(1)


def _review_play(conn: duckdb.DuckDBPyConnection, workers: int | None, cluster: str | None
                 ) -> bool:
    """``analyse --play``: review the deals not reviewed yet with a progress bar; True when
    Ctrl-C stopped it (the batches written stay stored)."""
    from sim.review.run import review_database

    bar = Progress(TextColumn("review"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                   TimeRemainingColumn(), console=err, transient=True)
    task = bar.add_task("review", total=None)
    with bar:
        report = review_database(
            conn, workers=workers, scheduler=cluster,
            on_start=lambda n: bar.update(task, total=n),
            on_progress=lambda n: bar.advance(task, n),
        )
    out.print(f"play: {report.reviewed} deals reviewed ({report.cards} cards: card_review, "
              f"decision_review), {len(report.skipped)} skipped")
    if report.interrupted:
        err.print("interrupted: the deals reviewed so far are stored; rerun to continue")
    return report.interrupted


app.command("simulate")(simulate_command)
app.command("balance")(balance_command)


def main() -> None:
    app()

