"""``ingest_paths(names=...)``: a file stored and logged under a source name, so that each version
of a source may be a file of its own (docs/ingest.md, "API"; the Entry page's writer)."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from ingest.pipeline import ingest_paths
from scoring.store import score_pending
from tests.conftest import DATA
from tests.ingest.conftest import SAMPLES

GAME = {"record": "game", "game_id": "named/1", "variant": "greek-prefa",
        "players": ["Ana", "Ben", "Cy"]}
DEAL = {"record": "deal", "game_id": "named/1", "deal_no": 1, "dealer": "Ana",
        "declarer": "Ben", "contract": "6S", "defence": {"Ana": "play", "Cy": "play"},
        "tricks": {"Ana": 2, "Ben": 6, "Cy": 2}}


def _file(path: Path, *records: dict[str, object]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def _rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def test_a_named_file_is_logged_and_stored_under_its_name(tmp_path: Path) -> None:
    db = tmp_path / "db.duckdb"
    first = _file(tmp_path / "v1.jsonl", GAME, DEAL)
    (report,) = ingest_paths([first], db, names={first: "entry/named/1"}, score=score_pending)
    assert (report.source, report.stored) == ("entry/named/1", 2)
    assert _rows(db, "SELECT DISTINCT source FROM deals") == [("entry/named/1",)]
    assert _rows(db, "SELECT source FROM ingest_log") == [("entry/named/1",)]


def test_versions_in_files_of_their_own_supersede_with_replace(tmp_path: Path) -> None:
    db = tmp_path / "db.duckdb"
    first = _file(tmp_path / "v1.jsonl", GAME, DEAL)
    second = _file(tmp_path / "v2.jsonl", GAME, {**DEAL, "tricks": {"Ana": 3, "Ben": 5, "Cy": 2}})
    ingest_paths([first], db, names={first: "named"}, score=score_pending)
    (report,) = ingest_paths([second], db, names={second: "named"}, replace=True,
                             score=score_pending)
    assert (report.stored, report.replaced, report.quarantined) == (1, 1, 0)
    (record,) = _rows(db, "SELECT record::VARCHAR FROM deals")
    assert json.loads(str(record[0]))["tricks"]["Ben"] == 5
    assert len(_rows(db, "SELECT sha256 FROM ingest_log WHERE source = 'named'")) == 2
    assert _rows(db, "SELECT count(*) FROM deals_greek") == [(1,)]
    assert _rows(db, "SELECT count(*) FROM quarantine") == [(0,)]


SOURCED = ("deals", "games", "ingest_log", "quarantine", "repairs")
"""The tables whose rows name their source."""


@pytest.mark.parametrize("fast", [True, False])
@pytest.mark.parametrize("src", [SAMPLES / "bad-lines.jsonl", SAMPLES / "club-sheet-2026-11-22.csv",
                                 DATA / "endplay-fixtures" / "pbn" / "example1.pbn"],
                         ids=["jsonl", "csv", "pbn"])
def test_a_file_read_under_another_name_stores_that_name(tmp_path: Path, src: Path,
                                                         fast: bool) -> None:
    """``ingest_paths``'s ``names`` (how the Entry page stores its records): every row the file
    gives names the source it was read under, never its path, on the reference path as on the
    fast paths, for JSON Lines and the other readers alike."""
    db = tmp_path / "t.duckdb"
    (report,) = ingest_paths([src], db, names={src: "club-7/week-48"}, fast=fast)
    assert report.stored and report.source == "club-7/week-48"
    assert _rows(db, "SELECT count(*) FROM quarantine") == [(report.quarantined,)]
    for table in SOURCED:
        assert _rows(db, f"SELECT count(*) FROM {table} WHERE source <> 'club-7/week-48'") \
            == [(0,)], table
