"""``trickbook players``: list, merge and rename the people behind the names (``ingest/players.py``,
docs/cli.md). The command bodies import what they use, so that ``trickbook --help`` stays fast."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from model.problems import counted
from trickbook.console import Commands, err, must_exist, one_line, out, shown, waiting_note

if TYPE_CHECKING:
    import duckdb

app = Commands(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None,
                  help="The people behind the names at the table: list, merge, rename.")

T = TypeVar("T")
DbOption = Annotated[Path, typer.Option("--db", help="The DuckDB database file.")]
DEFAULT_DB = Path("data/trickbook.duckdb")
PersonArg = Annotated[str, typer.Argument(
    help="A person: his id, <variant>:<name>, his shown name or a name of his at the table.")]


def _open(db: Path, write: bool = True) -> duckdb.DuckDBPyConnection:
    """The database for writing, every name at its tables given a person (a database made
    before the people tables gets them here), or for reading only (``write=False``: a listing,
    which ``people`` reads the same either way); exit 2 with what is wrong when it cannot be."""
    from ingest.players import register
    from ingest.store import DatabaseError, connect

    must_exist(db)
    try:
        conn = connect(db, read_only=not write, waiting=waiting_note(db), existing=True)
    except DatabaseError as exc:
        err.print(shown(exc), markup=False)
        raise typer.Exit(2) from exc
    if write:
        register(conn)
    return conn


def _apply(db: Path, action: Callable[[duckdb.DuckDBPyConnection], T], write: bool = True) -> T:
    """``action`` on the opened database; an unknown or ambiguous person is one line, exit 1."""
    from ingest.players import PersonError

    conn = _open(db, write)
    try:
        return action(conn)
    except PersonError as exc:
        err.print(shown(exc), markup=False)
        raise typer.Exit(1) from exc
    finally:
        with suppress(Exception):
            conn.close()


@app.command("list")
def list_people(db: DbOption = DEFAULT_DB) -> None:
    """Every person: id, shown name, his names per variant, his settled deals."""
    from ingest.players import people

    table = _apply(db, people, write=False)  # a listing only reads: a read-only file will do
    if table.is_empty():
        out.print("no players yet")
        return
    for row in table.iter_rows(named=True):
        out.print(f"{one_line(row['person'])}  [{one_line(row['person_id'])}]  "
                  f"{counted(row['deals'], 'deal')}  names: "
                  + ", ".join(one_line(name) for name in row["names"]), markup=False,
                  highlight=False)


@app.command()
def merge(keep: PersonArg, other: PersonArg, db: DbOption = DEFAULT_DB) -> None:
    """Make OTHER's names KEEP's: one person from now on (running it again changes nothing)."""
    from ingest.players import merge as merge_people

    moved = _apply(db, lambda conn: merge_people(conn, keep, other))
    if moved:
        out.print(f"merged: {moved} name(s) of {other!r} now belong to {keep!r}", markup=False)
    else:
        out.print(f"{keep!r} and {other!r} are one person already: nothing changed",
                  markup=False)


@app.command()
def rename(who: PersonArg, name: Annotated[str, typer.Argument(help="The new shown name.")],
           db: DbOption = DEFAULT_DB) -> None:
    """Show the person WHO as NAME on every page (his names at the table stay as they are)."""
    from ingest.players import labels_of
    from ingest.players import rename as rename_person

    pid, labels = _apply(db, lambda conn: (rename_person(conn, who, name),
                                           labels_of(conn, name.strip())))
    out.print(f"{pid} is shown as {name.strip()!r}", markup=False)
    if len(labels) > 1:
        out.print(f"{len(labels)} people are shown as {name.strip()!r} now; the pages tell them "
                  f"apart as {', '.join(map(repr, labels))} (`trickbook players merge` makes "
                  "them one person)", markup=False)
