"""Settlement rows replace a game's rows in one transaction (records.md 2: the keys of
``settlements``, ``transfers`` and ``standings``; scoring/store.py)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
import pytest

from ingest import store
from ingest.pipeline import ingest_paths
from model import tables as T
from model.schema import KeyRepeated
from scoring.registry import REGISTERED
from scoring.settlement import Settled
from scoring.store import rescore
from tests.ingest.conftest import SAMPLES
from tests.ingest.fakes import FakeSettlement, fake_scorer, fake_settlements, scorer

RESULTS = (T.SETTLEMENTS, T.TRANSFERS, T.STANDINGS)
WRITTEN = {**{name: T.TABLES[name] for name in RESULTS},
           **{t.name: t for s in REGISTERED for t in s.tables}}
"""Every table a rescore replaces a game at a time: the shared result tables and each
settlement's own (Russian ``whists``)."""


@pytest.mark.parametrize("name", list(WRITTEN))
def test_a_result_table_keeps_its_key_without_an_index(name: str) -> None:
    """records.md 2 gives each result table a key: its columns are NOT NULL, and a frame that
    repeats it is refused, though DuckDB keeps no PRIMARY KEY index of it."""
    table = WRITTEN[name]
    assert table.key and not table.indexed and "PRIMARY KEY" not in table.ddl
    conn = duckdb.connect()
    conn.execute(table.ddl)
    nullable = {r[0] for r in conn.execute(f"DESCRIBE {name}").fetchall() if r[2] == "YES"}
    assert not nullable & set(table.key)
    row = {c: 1 if t.is_integer() else 1.0 if t.is_float() else True if t == pl.Boolean()
           else "x" for c, t in table.columns.items()}
    one = pl.DataFrame([row], schema=table.schema, orient="row")
    table.check_key(one)
    with pytest.raises(KeyRepeated):
        table.check_key(pl.concat([one, one]))
    table.check_key(pl.concat([one, one.with_columns(pl.lit("y").alias(table.key[-1]))]))


class Twice(FakeSettlement):
    """The fake settlement with one of its ``table`` rows written twice."""

    def __init__(self, table: str) -> None:
        super().__init__()
        self.table = table

    def settle(self, games: pl.DataFrame, deals: pl.DataFrame) -> Settled:
        out = super().settle(games, deals)
        frames = {T.SETTLEMENTS: out.settlements, T.TRANSFERS: out.transfers,
                  T.STANDINGS: out.standings}
        frames[self.table] = pl.concat([frames[self.table], frames[self.table].head(1)])
        return Settled(frames[T.SETTLEMENTS], frames[T.TRANSFERS], frames[T.STANDINGS])


@pytest.mark.parametrize("name", RESULTS)
def test_a_settlement_that_repeats_a_key_changes_nothing(tmp_path: Path, name: str) -> None:
    """A rescore whose settlement repeats a key fails and is rolled back: the rows stored
    before it stay as they were."""
    db = tmp_path / "t.duckdb"
    fake = FakeSettlement()
    ingest_paths([SAMPLES / "league.jsonl"], db, score=fake_scorer(fake))
    conn = store.connect(db)
    try:
        before = {t: conn.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in RESULTS}
        assert before[name]
        with pytest.raises(KeyRepeated):
            rescore(conn, settlements=lambda variant: Twice(name))
        assert {t: conn.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall()
                for t in RESULTS} == before
    finally:
        conn.close()


class FailsOn(FakeSettlement):
    """The fake settlement, failing whenever it is asked to settle ``game``."""

    def __init__(self, game: str) -> None:
        super().__init__()
        self.game = game

    def settle(self, games: pl.DataFrame, deals: pl.DataFrame) -> Settled:
        if self.game in games["game_id"].to_list():
            raise OverflowError("a number too large for its column")
        return super().settle(games, deals)


def test_a_game_that_cannot_be_settled_keeps_only_itself_pending(tmp_path: Path) -> None:
    """One game the settlement fails on stays pending with its reason named on the file's
    report; every other game of the file is settled (scoring/store.py ``score_pending``),
    and so are the games of every later ingest."""
    db = tmp_path / "t.duckdb"
    bad = "club-7/2026-11-15/table-1"
    fake = FailsOn(bad)
    [report] = ingest_paths([SAMPLES / "league.jsonl"], db, score=scorer(fake_settlements(fake)))
    assert report.score_error == f"game {bad!r}: OverflowError: a number too large for its column"
    conn = store.connect(db, read_only=True)
    try:
        assert conn.execute(f"SELECT game_id FROM {T.PENDING}").fetchall() == [(bad,)]
        settled = {r[0] for r in conn.execute(f"SELECT DISTINCT game_id FROM {T.SETTLEMENTS}")
                   .fetchall()}
        games = {r[0] for r in conn.execute(f"SELECT game_id FROM {T.GAMES}").fetchall()}
    finally:
        conn.close()
    assert settled == games - {bad} and len(settled) >= 3
