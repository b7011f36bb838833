"""``trickbook simulate``: the command over ``sim.run`` (``docs/simulation.md``)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

from model.problems import counted
from sim import SimulationError
from sim.drivers import PLAYS, SIMULATED
from sim.pool import ClusterUnreachable
from sim.run import Plan, read_rules, simulate

MAX_GAMES = 1_000_000
"""Most games a run may ask for (each arm of a study): the run's plan lists them."""
MAX_DEALS_PER_GAME = 10_000
"""Most deals a game may ask for: a game is dealt that many whatever its rules end it at (the
deals after its end are dropped), so a larger number only costs time and memory."""


def option(flag: str, text: str, *aliases: str, **limits: Any) -> Any:
    """A typer option with its help text (and other names, and bounds, ``min=1``), typer
    imported when the command is (``trickbook balance`` shares it)."""
    import typer

    return typer.Option(flag, *aliases, help=text, **limits)


def simulate_command(
    variant: Annotated[str, option(
        "--variant", f"Variant to simulate ({', '.join(SIMULATED)}).")],
    games: Annotated[int, option("--games", "Number of games.", min=1, max=MAX_GAMES)] = 100,
    deals_per_game: Annotated[int, option("--deals-per-game", "Deals in each game (at most; a "
                                          "game ends where its rules end it).", min=1,
                                          max=MAX_DEALS_PER_GAME)] = 20,
    rules: Annotated[Path | None, option("--rules", "JSON file with the house rules.")] = None,
    seed: Annotated[int, option("--seed", "Seed of the run: the same seed, the same records.")] = 0,
    play: Annotated[str, option("--play", "Card play: heuristic or dd (open-hand solver).")] = (
        "heuristic"
    ),
    players: Annotated[int | None, option(
        "--players", "Players at the table, where the variant's simulator offers a choice "
        "(e.g. 3 or 4 in a Russian game, the dealer sitting out).")] = None,
    out: Annotated[Path | None, option("--out", "Write canonical JSONL here.")] = None,
    db: Annotated[Path | None, option("--db", "Write into this DuckDB database.")] = None,
    cluster: Annotated[str | None, option(
        "--cluster", "Dask scheduler address (tcp://HOST:8786): its workers simulate.",
        "--scheduler")] = None,
    workers: Annotated[int | None, option("--workers", "Local processes (default: all cores).",
                                          min=1)] = None,
    parts_dir: Annotated[
        Path | None, option("--parts-dir", "Shared directory for the cluster's Parquet parts.")
    ] = None,
) -> None:
    """Simulate hand histories with bots at every seat (docs/simulation.md)."""
    import typer
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn

    from ingest.store import DatabaseError, check_writable
    from trickbook.console import err, not_a_database, progress_bar, terminate_as_interrupt

    try:
        if (out is None) == (db is None):
            raise SimulationError("give exactly one of --out (JSON Lines) and --db")
        if out is not None:
            not_a_database(out)
        if db is not None:
            check_writable(db)  # before the first deal, not when the first batch is stored
        options = {} if players is None else {"players": players}
        plan = Plan(variant, games, deals_per_game, seed, read_rules(rules, variant), play, options)
        if play not in PLAYS:
            raise SimulationError(f"--play must be one of {', '.join(PLAYS)}, got {play!r}")
        bar = progress_bar(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(),
                           TextColumn("{task.fields[rate]} deals/s"), kept=True)
        task = bar.add_task("deals", total=games * deals_per_game, rate="-")
        start, count = [time.perf_counter()], [0]

        def begin() -> None:  # the output is open and the cluster reached
            start[0] = time.perf_counter()
            bar.start()

        def tick(_games: int, deals: int) -> None:
            count[0] += deals
            rate = count[0] / max(time.perf_counter() - start[0], 1e-9)
            bar.update(task, advance=deals, rate=f"{rate:,.0f}")

        try:
            with terminate_as_interrupt():
                report = simulate(plan, out=out, db=db, scheduler=cluster, workers=workers,
                                  parts_dir=parts_dir, on_start=begin, on_progress=tick)
        finally:
            bar.stop()
    except (SimulationError, DatabaseError, ClusterUnreachable) as exc:
        err.print(f"simulate: {exc}", markup=False)
        raise typer.Exit(2) from exc
    except OSError as exc:  # --out: a full disk, a folder, no permission
        if out is None:
            raise
        err.print(f"simulate: cannot write {out}: {exc.strerror or exc}", markup=False)
        raise typer.Exit(2) from exc
    where = str(out if out is not None else db)
    err.print(f"{counted(report.deals, 'deal')} in {counted(report.games, 'game')} -> {where} "
              f"({report.rate:,.0f} deals/s)", markup=False)
    if report.unscored:
        err.print(f"not settled (no settlement registered): {', '.join(report.unscored)}")
    if report.interrupted:
        err.print("interrupted: the partitions finished before Ctrl-C are stored")
        raise typer.Exit(130)
