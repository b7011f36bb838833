"""A Ctrl-C that lands inside a DuckDB statement, made on purpose at the step a test chooses:
the statement calls a function that interrupts its own connection, as DuckDB does when SIGINT
comes while it runs one. The statement fails with DuckDB's ``InterruptException`` and aborts
its transaction, so that the clean-up after it fails too (``TransactionException: Current
transaction is aborted``), as it did for the user; no signal and no timing is involved."""

from __future__ import annotations

from contextlib import suppress

import duckdb

CTRL_C = "trickbook_test_ctrl_c"
"""The function that interrupts the connection it runs on."""
STOPPED = f"SELECT {CTRL_C}(range) FROM range(1)"
"""A query interrupted on a connection that knows :data:`CTRL_C` (:func:`able_to_stop`)."""


def able_to_stop(conn: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """``conn``, knowing :data:`CTRL_C`."""
    with suppress(duckdb.NotImplementedException):  # made known to it before
        conn.create_function(CTRL_C, lambda x: (conn.interrupt(), x)[1], ["BIGINT"], "BIGINT")
    return conn


class Signalled:
    """``rows`` (a relation of a connection :func:`able_to_stop`) whose next statement meets a
    Ctrl-C as DuckDB's check of signals words it: the statement is stopped (its transaction
    aborted), the dropping of its view fails with ``TransactionException``, and the stop
    behind that is ``RuntimeError: Query interrupted``, not a ``duckdb.Error``: what the
    user's run raised (:data:`STOPPED` alone gives DuckDB's ``InterruptException``)."""

    def __init__(self, rows: duckdb.DuckDBPyRelation) -> None:
        self.rows = rows

    def query(self, name: str, sql: str) -> duckdb.DuckDBPyRelation:
        with suppress(duckdb.InterruptException):  # stopped: the transaction is aborted
            self.rows.query(name, STOPPED).fetchall()
        try:
            raise RuntimeError("Query interrupted")
        except RuntimeError:
            raise duckdb.TransactionException(ABORTED) from None


ABORTED = "TransactionContext Error: Current transaction is aborted (please ROLLBACK)"
"""What DuckDB says of a statement in a transaction a stopped statement aborted."""
