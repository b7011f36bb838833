"""What the commands print to, and their check that a database exists."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


def must_exist(db: Path) -> None:
    """Exit 2 naming ``db`` when there is no database there: a command that reads or rescores
    stored games does not make an empty one where a mistyped path points."""
    if not db.exists():
        err.print(f"no database at {db} (run `trickbook ingest` first)", markup=False)
        raise typer.Exit(2)
