"""A table declared once: its columns as a polars schema, its DuckDB DDL generated from them.

Every stable table (``model/tables.py``) and every variant's flat ``deals_<variant>`` table
(``model/<variant>/frame.py``) is a :class:`Table`. Writers build their frames with
``table.schema``; the database is created from ``table.ddl``; nothing else spells a column type.

    >>> t = Table("scores", {"game_id": pl.String(), "points": pl.Int16()}, required=("game_id",),
    ...           key=("game_id",))
    >>> print(t.ddl)
    CREATE TABLE IF NOT EXISTS scores (
        game_id VARCHAR NOT NULL,
        points SMALLINT,
        PRIMARY KEY (game_id)
    )
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import polars as pl

_SQL_TYPES: dict[type[pl.DataType], str] = {
    pl.String: "VARCHAR",
    pl.Enum: "VARCHAR",
    pl.Categorical: "VARCHAR",
    pl.Boolean: "BOOLEAN",
    pl.Int8: "TINYINT",
    pl.Int16: "SMALLINT",
    pl.Int32: "INTEGER",
    pl.Int64: "BIGINT",
    pl.UInt8: "UTINYINT",
    pl.UInt16: "USMALLINT",
    pl.UInt32: "UINTEGER",
    pl.UInt64: "UBIGINT",
    pl.Float32: "FLOAT",
    pl.Float64: "DOUBLE",
    pl.Date: "DATE",
}


def sql_type(dtype: pl.DataType) -> str:
    """The DuckDB type of a polars type (an Enum is stored as its text)."""
    if isinstance(dtype, pl.List):
        inner = dtype.inner
        return f"{sql_type(inner if isinstance(inner, pl.DataType) else inner())}[]"
    if isinstance(dtype, pl.Datetime):
        return "TIMESTAMPTZ" if dtype.time_zone else "TIMESTAMP"
    for kind, name in _SQL_TYPES.items():
        if isinstance(dtype, kind):
            return name
    raise TypeError(f"no DuckDB type for polars {dtype!r}")


class KeyRepeated(ValueError):
    """Rows that repeat a table's key (:meth:`Table.check_key`)."""


@dataclass(frozen=True)
class Table:
    """One table: ``columns`` in order, the ``required`` ones NOT NULL, an optional primary
    ``key`` (its columns NOT NULL); ``sql`` overrides a column's DuckDB type (``JSON``) and
    ``zstd`` names the columns stored with zstd compression.

    ``indexed``: DuckDB keeps the key as a PRIMARY KEY, whose index refuses a repeated key. A
    table whose rows are only ever replaced a game at a time (the settlement tables) is declared
    without it: each frame is checked before it is inserted instead (:meth:`check_key`), and
    the insert costs about a third of what it costs into an indexed table."""

    name: str
    columns: Mapping[str, pl.DataType]
    required: tuple[str, ...] = ()
    key: tuple[str, ...] = ()
    sql: Mapping[str, str] = field(default_factory=dict)
    zstd: tuple[str, ...] = ()
    indexed: bool = True

    def __post_init__(self) -> None:
        unknown = {*self.required, *self.key, *self.sql, *self.zstd} - set(self.columns)
        if unknown:
            raise ValueError(f"table {self.name}: no column {', '.join(sorted(unknown))}")

    @property
    def schema(self) -> dict[str, pl.DataType]:
        """The columns as a polars schema (a fresh dict: callers may extend it)."""
        return dict(self.columns)

    @property
    def ddl(self) -> str:
        """``CREATE TABLE IF NOT EXISTS`` with every column, in order."""
        lines = [f"    {name} {self._column_sql(name, dtype)}"
                 for name, dtype in self.columns.items()]
        if self.key and self.indexed:
            lines.append(f"    PRIMARY KEY ({', '.join(self.key)})")
        body = ",\n".join(lines)
        return f"CREATE TABLE IF NOT EXISTS {self.name} (\n{body}\n)"

    def optional(self, column: str) -> bool:
        """Whether ``column`` may be null: one a table made before it was declared gains
        (:meth:`add_column`)."""
        return column not in self.required and column not in self.key

    def add_column(self, column: str) -> str:
        """``ALTER TABLE`` adding the optional ``column`` to a table made before it was
        declared (its rows hold null there, as a new row that does not give it)."""
        if not self.optional(column):
            raise ValueError(f"table {self.name}: {column} is not optional")
        dtype = self.columns[column]
        return (f"ALTER TABLE {self.name} ADD COLUMN IF NOT EXISTS {column} "
                f"{self.sql.get(column) or sql_type(dtype)}")

    def _column_sql(self, name: str, dtype: pl.DataType) -> str:
        text = self.sql.get(name) or sql_type(dtype)
        if name in self.required or name in self.key:
            text += " NOT NULL"
        if name in self.zstd:
            text += " USING COMPRESSION zstd"
        return text

    @cached_property
    def integer_ranges(self) -> dict[str, tuple[int, int]]:
        """:func:`integer_ranges` of the columns, worked out once per table (read only)."""
        return integer_ranges(self.columns)

    def check_key(self, frame: pl.DataFrame) -> None:
        """Refuse ``frame`` when two of its rows share the table's key (what the PRIMARY KEY
        refuses; a frame holds whole games, whose earlier rows are deleted before it is
        inserted)."""
        if self.key and frame.height and frame.select(self.key).is_duplicated().any():
            raise KeyRepeated(f"{self.name}: rows repeat a key ({', '.join(self.key)})")

    def empty(self) -> pl.DataFrame:
        return pl.DataFrame(schema=self.schema)


def int_range(dtype: object) -> tuple[int, int] | None:
    """The values an integer column holds (``None`` for other columns); a polars type or its
    class (the range is the class's)."""
    kind = dtype if isinstance(dtype, type) else type(dtype)
    if not issubclass(kind, pl.DataType) or not kind.is_integer():
        return None
    bits: int = {"Int8": 8, "Int16": 16, "Int32": 32, "UInt8": 8, "UInt16": 16,
                 "UInt32": 32}.get(kind.__name__, 64)
    if kind.is_signed_integer():
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def integer_ranges(columns: Mapping[str, object]) -> dict[str, tuple[int, int]]:
    """The integer columns of ``columns`` with the values each holds, worked out once per set of
    column names and types (cached by each column's polars class: an integer type's range is
    its class's, and a class hashes at once, where hashing a polars type instance costs more
    than the check). Read only: the dict is shared."""
    return _integer_ranges(tuple((name, kind if isinstance(kind, type) else type(kind))
                                 for name, kind in columns.items()))


@lru_cache(maxsize=256)
def _integer_ranges(kinds: tuple[tuple[str, type], ...]) -> dict[str, tuple[int, int]]:
    return {name: bounds for name, kind in kinds if (bounds := int_range(kind)) is not None}
