"""A Ctrl-C at each step of ``trickbook ingest`` (docs/cli.md, docs/ingest.md "Strict mode,
interruption, concurrency"): the command ends in exit 130 with words that say what the
database holds, never a DuckDB error. Each stop is made at its step, in a statement
(``tests/ctrl_c.py``) or as the ``KeyboardInterrupt`` of the signal's handler, never by a
timed signal."""

from __future__ import annotations

import duckdb
import pyarrow as pa
import pytest
import typer

from model.tables import interrupted
from tests.ctrl_c import STOPPED, able_to_stop


def test_an_error_of_duckdb_s_after_a_stop_is_the_stop() -> None:
    """A stopped statement aborts its transaction, and DuckDB's dropping of the statement's
    view then fails with "Current transaction is aborted": that error is the stop
    (``model.tables.interrupted``); an error of trickbook's own after one is not."""
    conn = able_to_stop(duckdb.connect())
    conn.execute("BEGIN")
    conn.register("_view", pa.table({"a": [1]}))
    with pytest.raises(duckdb.TransactionException) as aborted:
        try:
            conn.sql(STOPPED).pl()
        finally:
            conn.unregister("_view")
    assert interrupted(aborted.value)
    assert not interrupted(duckdb.TransactionException("Current transaction is aborted"))
    try:
        raise typer.Exit(130) from KeyboardInterrupt()
    except typer.Exit as exc:
        assert not interrupted(exc)
