"""What the commands print to, their check that a database exists, and that an output file is
not one."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import Progress, ProgressColumn

out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


def progress_bar(*columns: str | ProgressColumn, disable: bool = False) -> Progress:
    """A progress bar on stderr that is gone once done; off when stderr is not a terminal (a
    log file or a pipe), where it drew nothing but left an empty line."""
    return Progress(*columns, console=err, transient=True,
                    disable=disable or not err.is_terminal)


def must_exist(db: Path) -> None:
    """Exit 2 naming ``db`` when there is no database there: a command that reads or rescores
    stored games does not make an empty one where a mistyped path points."""
    if not db.exists():
        err.print(f"no database at {db} (run `trickbook ingest` first)", markup=False)
        raise typer.Exit(2)


def not_a_database(out_file: Path) -> None:
    """Exit 2 naming ``out_file`` when it is a DuckDB database (``--out`` of an export or a
    simulation, given the ``--db`` path by mistake, would overwrite every stored game); any other
    file is overwritten, as an output is."""
    from ingest.store import DUCKDB_MAGIC

    try:
        with out_file.open("rb") as fh:
            head = fh.read(12)
    except OSError:  # absent, a folder, unreadable: the write says why
        return
    if head[8:12] == DUCKDB_MAGIC:
        err.print(f"{out_file} is a DuckDB database: --out does not overwrite one (name a new "
                  "file)", markup=False)
        raise typer.Exit(2)


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM (``kill PID``, a service stopping) taken as Ctrl-C while the block runs: the
    command stops its workers and keeps what it keeps on Ctrl-C. Killed so before, a simulation
    left its worker processes running, blocked on a pipe to a parent that was gone. A worker
    forked meanwhile inherits the handler: there SIGTERM ends the process (how a pool stops
    its workers)."""
    owner = os.getpid()

    def as_ctrl_c(signum: int, _frame: object) -> None:
        if os.getpid() != owner:  # a worker forked meanwhile: stopped by its pool, it must end
            signal.signal(signum, signal.SIG_DFL)
            signal.raise_signal(signum)
        signal.raise_signal(signal.SIGINT)

    previous = signal.signal(signal.SIGTERM, as_ctrl_c)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
