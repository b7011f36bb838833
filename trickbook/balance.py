"""``trickbook balance``: the command over ``sim.balance`` (``docs/balance-study.md``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import polars as pl

from sim import SimulationError
from sim.balance import Study, store_study, studied, study, sweep
from sim.drivers import PREFERENCE, simulator
from sim.flags import alternatives
from sim.run import read_rules
from trickbook.simulate import MAX_DEALS_PER_GAME, MAX_GAMES, option


def balance_command(
    variant: Annotated[str, option("--variant", f"Variant of arm a ({', '.join(PREFERENCE)}).")],
    rules_a: Annotated[Path | None, option("--rules-a", "JSON house rules of arm a.")] = None,
    rules_b: Annotated[Path | None, option("--rules-b", "JSON house rules of arm b.")] = None,
    variant_b: Annotated[
        str | None, option("--variant-b", "Variant of arm b (default: the same).")
    ] = None,
    games: Annotated[int, option("--games", "Games in each arm.", min=1, max=MAX_GAMES)] = 1000,
    deals_per_game: Annotated[int, option("--deals-per-game", "Deals in each game (at most).",
                                          min=1, max=MAX_DEALS_PER_GAME)] = 10,
    seed: Annotated[int, option("--seed", "Seed: both arms play the same deals.")] = 0,
    play: Annotated[str, option("--play", "Card play: heuristic or dd.")] = "heuristic",
    db: Annotated[Path, option("--db", "The DuckDB database.")] = Path("data/trickbook.duckdb"),
    workers: Annotated[int | None, option("--workers", "Local processes (default: all).",
                                          min=1)] = None,
    sweep_flags: Annotated[
        bool, option("--sweep", "Study every house-rule flag against --rules-a (one run each).")
    ] = False,
) -> None:
    """Paired simulations under two rule sets or variants (docs/balance-study.md).

    Stores the estimates with 95% confidence intervals in the balance_* tables and prints the
    paired effects."""
    import typer
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn
    from rich.table import Table

    from ingest.store import DatabaseError, check_writable
    from trickbook.console import err, out, progress_bar, terminate_as_interrupt

    try:
        check_writable(db)  # before the study's work, not after it
        arm_a, arm_b = _arms(variant, rules_a, None if sweep_flags else variant_b or variant,
                             rules_b, play)
        arms = 1 + len(alternatives(variant)) if sweep_flags else 2
        with progress_bar(TextColumn("simulating games"), BarColumn(),
                          MofNCompleteColumn()) as bar, terminate_as_interrupt():
            task = bar.add_task("games", total=arms * games)

            def tick(done: int) -> None:
                bar.update(task, advance=done)

            if sweep_flags:
                studies, skipped = sweep(variant, games, deals_per_game, base=arm_a, seed=seed,
                                         play=play, workers=workers, progress=tick)
            else:
                one = study(variant, arm_a, arm_b, games, deals_per_game, seed=seed, play=play,
                            variant_b=variant_b, workers=workers, progress=tick)
    except (SimulationError, DatabaseError) as exc:
        err.print(f"balance: {exc}", markup=False)
        raise typer.Exit(2) from exc
    except KeyboardInterrupt as exc:
        err.print("balance: interrupted; nothing is stored (a study is stored whole, once both "
                  "arms are simulated)", markup=False)
        raise typer.Exit(130) from exc
    try:
        for _, s in studies if sweep_flags else [("", one)]:
            store_study(db, s)
    except DatabaseError as exc:
        err.print(f"balance: the study is not stored: {exc}", markup=False)
        raise typer.Exit(2) from exc
    if sweep_flags:
        _print_sweep(out, studies)
        for note in skipped:
            err.print(f"skipped {note}", markup=False)
        return
    s = one
    table = Table(title=f"balance run {s.run_id}: b - a per deal (95% CI over games)")
    for col in ("effect", "n", "estimate", "95% CI"):
        table.add_column(col)
    for r in s.metrics.filter(pl.col("arm") == "b-a").iter_rows(named=True):
        ci = "-" if r["lo"] is None else f"[{r['lo']:.3f}, {r['hi']:.3f}]"
        table.add_row(r["key"], str(r["n"]), _estimate(r["estimate"]), ci)
    out.print(table)


def _arms(variant: str, rules_a: Path | None, variant_b: str | None, rules_b: Path | None,
          play: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Each arm's house rules, read and checked field by field before the first deal, each
    arm's variant one balance studies (``sim.balance.studied``); ``variant_b`` None: arm b is
    the sweep's, its rules not played."""
    arm_a, arm_b = read_rules(rules_a, variant), read_rules(rules_b, variant_b or variant)
    simulator(studied(variant), arm_a, play)
    if variant_b is not None:
        simulator(studied(variant_b), arm_b, play)
    return arm_a, arm_b


def _print_sweep(out: Any, studies: list[tuple[str, Study]]) -> None:
    from rich.table import Table

    table = Table(title="effect of each flag, b - a per deal (95% CI over games)")
    table.add_column("flag", overflow="fold")  # the flag whole, over lines if it must
    for col in ("run", "declarer\nmoney", "95% CI", "contract\nchanged"):
        table.add_column(col, no_wrap=True, justify="left" if col == "run" else "right")
    for label, s in studies:
        e = {r["key"]: r for r in s.metrics.filter(pl.col("arm") == "b-a").iter_rows(named=True)}
        money, changed = e["declarer money"], e["contract changed"]
        ci = "-" if money["lo"] is None else f"[{money['lo']:.3f}, {money['hi']:.3f}]"
        table.add_row(label, s.run_id, _estimate(money["estimate"]), ci,
                      _estimate(changed["estimate"]))
    out.print(table)


def _estimate(value: float | None) -> str:
    """An estimate as printed; ``-`` for none (no deal to estimate it from)."""
    return "-" if value is None else f"{value:.3f}"
