"""``model.tables.insert`` binds a small frame's columns as lists and scans a larger one through
Arrow: for every table the project declares, both paths store the same rows (values, nulls and
types), whatever the rows hold (generated from the columns' types)."""

from __future__ import annotations

import importlib
import json
import pkgutil
from collections.abc import Iterator
from datetime import UTC, timedelta
from typing import Any

import duckdb
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from model import variants
from model.schema import Table, int_range
from model.tables import SMALL_ROWS, bind_rows, insert, scan_rows
from scoring import registry

PACKAGES = ("model", "ingest", "scoring", "sim")
"""The packages that declare and write tables (the dashboards only read them)."""


def _tables_in(value: object) -> Iterator[Table]:
    if isinstance(value, Table):
        yield value
    elif isinstance(value, dict | tuple | list):
        for item in value.values() if isinstance(value, dict) else value:
            if isinstance(item, Table):
                yield item


def declared() -> list[Table]:
    """Every table declared in the project: each module's tables (alone or in a dict, tuple or
    list), each variant's and each settlement's own."""
    found: dict[int, Table] = {}
    for package in PACKAGES:
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            if not info.name.endswith("__main__"):
                for value in vars(importlib.import_module(info.name)).values():
                    found.update((id(t), t) for t in _tables_in(value))
    found.update((id(t), t) for t in variants.tables().values())
    found.update((id(t), t) for s in registry.REGISTERED for t in s.tables)
    return sorted(found.values(), key=lambda t: t.name)


TABLES = declared()


def values(dtype: pl.DataType, json_text: bool = False) -> st.SearchStrategy[Any]:
    """Any value of a column of ``dtype`` (``json_text``: a JSON column's text)."""
    bounds = int_range(dtype)
    text = st.text(st.characters(codec="utf-8"), max_size=6)
    if json_text:
        scalar = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False,
                                                                        allow_infinity=False)
        return st.recursive(scalar | text, lambda inner: st.lists(inner, max_size=3)
                            | st.dictionaries(text, inner, max_size=3),
                            max_leaves=6).map(json.dumps)
    if bounds is not None:
        return st.integers(*bounds)
    if isinstance(dtype, pl.Enum):
        return st.sampled_from(dtype.categories.to_list())
    if isinstance(dtype, pl.String | pl.Categorical):
        return text
    if isinstance(dtype, pl.Boolean):
        return st.booleans()
    if isinstance(dtype, pl.Float32 | pl.Float64):
        return st.floats(width=32 if isinstance(dtype, pl.Float32) else 64)
    if isinstance(dtype, pl.Datetime):
        return st.datetimes(timezones=st.just(UTC) if dtype.time_zone else st.none())
    if isinstance(dtype, pl.Date):
        return st.dates()
    if isinstance(dtype, pl.List):
        inner = dtype.inner if isinstance(dtype.inner, pl.DataType) else dtype.inner()
        return st.lists(st.none() | values(inner), max_size=3)
    raise AssertionError(f"no values for the column type {dtype!r}: teach this test")


@st.composite
def frames(draw: st.DrawFn, table: Table) -> pl.DataFrame:
    """Rows of ``table``: each column present or left out (when it may be null; not every one),
    and all null, never null, or either, by row; a row whose key an earlier row has is dropped."""
    height = draw(st.integers(1, 6))
    columns: dict[str, list[Any]] = {}
    for name, dtype in table.columns.items():
        given = values(dtype, table.sql.get(name) == "JSON")
        if name in table.required or name in table.key:
            columns[name] = draw(st.lists(given, min_size=height, max_size=height))
            continue
        last = not columns and name == list(table.columns)[-1]  # a frame keeps a column
        nulls = draw(st.sampled_from(("all", "none", "some") if last else
                                     ("absent", "all", "none", "some")))
        if nulls == "absent":
            continue
        cell = {"all": st.none(), "none": given, "some": st.none() | given}[nulls]
        columns[name] = draw(st.lists(cell, min_size=height, max_size=height))
    frame = pl.DataFrame(columns, schema={n: table.columns[n] for n in columns}, strict=True)
    return frame.unique(subset=list(table.key), keep="first", maintain_order=True) \
        if table.key else frame


def stored(conn: duckdb.DuckDBPyConnection, table: str) -> tuple[object, ...]:
    """A table's column types and its rows in order, each value as its ``repr`` (so a NaN equals
    a NaN, and ``-0.0`` differs from ``0.0``)."""
    cursor = conn.execute(f"SELECT * FROM {table} ORDER BY rowid")
    rows = [tuple(repr(v) for v in row) for row in cursor.fetchall()]
    return [(d[0], str(d[1])) for d in cursor.description], rows


def test_every_declared_table_is_found() -> None:
    """The stable tables, each variant's, a settlement's own and the simulator's."""
    names = {t.name for t in TABLES}
    assert set(variants.tables()) <= names
    assert {"event_results", "whists", "balance_runs", "open_hand"} <= names


Databases = tuple[duckdb.DuckDBPyConnection, ...]


@pytest.fixture(scope="module")
def databases() -> Iterator[Databases]:
    """Three in-memory databases: for lists bound from a frame (``insert``), for lists bound
    from an Arrow table (a file's staged rows, ``ingest.store.Staging.load``), and for the
    Arrow scan."""
    found = tuple(duckdb.connect() for _ in range(3))
    yield found
    for conn in found:
        conn.close()


def bind_both_ways(table: str, frame: pl.DataFrame, databases: Databases) -> None:
    """Store ``frame`` in ``table`` of each of the three databases, its own way."""
    types = dict(zip(frame.columns, frame.dtypes, strict=True))
    by_frame, by_arrow_lists, by_scan = databases
    assert bind_rows(by_frame, table, frame.to_dict(as_series=False), types), \
        "a column type is not bound"
    assert bind_rows(by_arrow_lists, table, frame.to_arrow().to_pydict(), types)
    scan_rows(by_scan, table, frame)


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.name)
@settings(deadline=None, max_examples=10)
@given(data=st.data())
def test_bound_lists_store_what_the_arrow_scan_stores(
        table: Table, databases: Databases, data: st.DataObject) -> None:
    frame = data.draw(frames(table))
    for conn in databases:
        conn.execute(f"DROP TABLE IF EXISTS {table.name}")
        conn.execute(table.ddl)
    bind_both_ways(table.name, frame, databases)
    by_frame, by_arrow_lists, by_scan = (stored(conn, table.name) for conn in databases)
    assert by_frame == by_scan
    assert by_arrow_lists == by_scan


FRAME_TYPES = (pl.Int8(), pl.Int16(), pl.Int32(), pl.Int64(), pl.UInt8(), pl.UInt64(),
               pl.Float32(), pl.Float64(), pl.Boolean(), pl.String(), pl.Enum(["a", "b"]),
               pl.Date(), pl.Datetime("us"), pl.Datetime("ms", "UTC"), pl.List(pl.Float32()))
"""Column types a frame may have, whatever its table's columns are."""


@pytest.mark.parametrize("dtype", FRAME_TYPES, ids=str)
@settings(deadline=None, max_examples=10)
@given(data=st.data())
def test_a_bound_column_is_read_as_its_frame_type(
        dtype: pl.DataType, databases: Databases, data: st.DataObject) -> None:
    """Stored as text, a value shows the type it was read as: a ``Float32`` column's values,
    bound uncast, would be read as ``DOUBLE`` and written with all their binary digits."""
    cells = data.draw(st.lists(st.none() | values(dtype), min_size=1, max_size=4))
    frame = pl.DataFrame({"value": cells}, schema={"value": dtype})
    for conn in databases:
        conn.execute("CREATE OR REPLACE TABLE texts (value VARCHAR)")
    bind_both_ways("texts", frame, databases)
    by_frame, by_arrow_lists, by_scan = (stored(conn, "texts") for conn in databases)
    assert by_frame == by_scan
    assert by_arrow_lists == by_scan


def test_a_float32_column_is_read_as_float() -> None:
    """Read as ``DOUBLE`` (uncast), ``Float32`` 0.1 would be stored as 0.10000000149011612."""
    conn = duckdb.connect()
    conn.execute("CREATE TABLE t (a VARCHAR, b DOUBLE)")
    insert(conn, "t", pl.DataFrame({"a": [0.1], "b": [0.5]}, schema={"a": pl.Float32(),
                                                                    "b": pl.Float32()}))
    assert conn.execute("SELECT * FROM t").fetchall() == [("0.1", 0.5)]


def test_insert_binds_a_small_frame_and_scans_a_larger_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    conn = duckdb.connect()
    conn.execute("CREATE TABLE t (a BIGINT, b VARCHAR, c VARCHAR)")
    ways: list[str] = []
    monkeypatch.setattr("model.tables.bind_rows", lambda *a: ways.append("lists") or True)
    monkeypatch.setattr("model.tables.scan_rows", lambda *a: ways.append("arrow"))
    for height in (0, 1, SMALL_ROWS, SMALL_ROWS + 1):
        frame = pl.DataFrame({"a": range(height), "b": [None] * height})
        assert insert(conn, "t", frame) == height
    assert ways == ["lists", "lists", "arrow"]


def test_a_column_type_without_a_duckdb_name_goes_through_arrow() -> None:
    conn = duckdb.connect()
    conn.execute("CREATE TABLE t (a BIGINT, d VARCHAR)")
    frame = pl.DataFrame({"a": [1, 2], "d": [timedelta(days=1), None]})
    assert not bind_rows(conn, "t", frame.to_dict(as_series=False), dict(frame.schema))
    assert conn.execute("SELECT count(*) FROM t").fetchall() == [(0,)]
    assert insert(conn, "t", frame) == 2
    assert conn.execute("SELECT a, d IS NULL FROM t ORDER BY a").fetchall() == [
        (1, False), (2, True)]


def test_columns_all_null_are_left_out_and_stored_null() -> None:
    conn = duckdb.connect()
    conn.execute("CREATE TABLE t (a BIGINT, b VARCHAR)")
    frame = pl.DataFrame({"a": [None, None], "b": [None, None]},
                         schema={"a": pl.Int64(), "b": pl.Null()})
    assert insert(conn, "t", frame) == 2
    assert conn.execute("SELECT * FROM t").fetchall() == [(None, None), (None, None)]


@pytest.mark.parametrize("height", [1, SMALL_ROWS + 1])
def test_or_ignore_keeps_the_stored_row_of_a_key_both_ways(height: int) -> None:
    """``insert(..., or_ignore=True)``, bound or scanned: a row whose key is stored is left out
    and the stored one kept (how new people are added, ``ingest/players.py``)."""
    conn = duckdb.connect()
    try:
        conn.execute("CREATE TABLE t (k VARCHAR PRIMARY KEY, v VARCHAR)")
        conn.execute("INSERT INTO t VALUES ('0', 'stored')")
        frame = pl.DataFrame({"k": [str(i) for i in range(height)], "v": ["new"] * height})
        insert(conn, "t", frame, or_ignore=True)
        assert conn.execute("SELECT v FROM t WHERE k = '0'").fetchall() == [("stored",)]
        assert conn.execute("SELECT count(*) FROM t").fetchall() == [(height,)]
        with pytest.raises(duckdb.ConstraintException):
            insert(conn, "t", frame)
    finally:
        conn.close()
