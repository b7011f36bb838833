"""A bridge board is one deal per table and session (ingest/bridge_records.py ``GameGroups``):
read again, in a repeated row, a file pasted twice or a corrected copy, it is the same deal, a
duplicate or a conflict, never a new one (records.md 2: re-ingesting changes nothing)."""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import pytest

from ingest.pipeline import FileReport, ingest_paths
from tests.conftest import DATA, ROOT
from tests.ingest.fakes import FakeSettlement, fake_scorer

TRAVELLERS = ROOT / "data" / "samples" / "bridge" / "club-pairs-travellers.csv"
NAMED = DATA / "pbn-tournaments-slovesnov" / "Aulpll23.pbn"
"""48 boards, each with its four players named (data/README.md)."""


def ingest(db: Path, path: Path, replace: bool = False) -> FileReport:
    (report,) = ingest_paths([path], db, score=fake_scorer(FakeSettlement()), replace=replace)
    assert report.records == report.stored + report.duplicates + report.quarantined, report
    return report


def count(db: Path, sql: str) -> int:
    conn = duckdb.connect(str(db), read_only=True)
    try:
        return int(conn.execute(sql).fetchone()[0])  # type: ignore[index]
    finally:
        conn.close()


def test_a_repeated_traveller_row_is_a_duplicate_and_a_changed_one_a_conflict(
        tmp_path: Path) -> None:
    header, first, *rest = TRAVELLERS.read_text().splitlines()
    changed = first.rsplit(",", 3)[0] + ",AS,9,-50"  # board 1 of the same pairs, one down
    p = tmp_path / "t.csv"
    p.write_text("\n".join([header, first, *rest, first, first, changed]) + "\n")
    r = ingest(tmp_path / "t.duckdb", p)
    assert r.duplicates == 2
    assert [(i.line, i.code) for i in r.issues] == [(len(rest) + 5, "deal-conflict")]
    assert "deal 1 of game" in r.issues[0].message
    assert count(tmp_path / "t.duckdb", "SELECT count(*) FROM deals") == len(rest) + 1


def test_a_pbn_file_pasted_twice_stores_its_boards_once(tmp_path: Path) -> None:
    text = NAMED.read_text(encoding="latin-1")
    p = tmp_path / "twice.pbn"
    p.write_text(text + "\n" + text, encoding="latin-1")
    r = ingest(tmp_path / "t.duckdb", p)
    boards = len(re.findall(r"^\[Board ", text, flags=re.M))
    assert count(tmp_path / "t.duckdb", "SELECT count(*) FROM deals") == boards
    assert r.duplicates >= boards and r.quarantined == 0


def test_a_corrected_pbn_without_one_board_changes_only_that_board(tmp_path: Path) -> None:
    """The weekly file sent again with board 5 taken out (both its rooms): every other board is
    the same deal, so only board 5 is told apart (kept as a conflict, or removed with
    ``replace``)."""
    text = NAMED.read_text(encoding="latin-1")
    games = re.split(r"\n(?=\[Event )", text)
    kept = [g for g in games if '[Board "5"]' not in g]
    gone = len(games) - len(kept)
    assert gone == 2
    db = tmp_path / "t.duckdb"
    p = tmp_path / "week.pbn"
    p.write_text(text, encoding="latin-1")
    ingest(db, p)
    before = count(db, "SELECT count(*) FROM deals")
    p.write_text("\n".join(kept), encoding="latin-1")
    r = ingest(db, p)
    assert (r.dropped, r.quarantined) == (gone, 0)
    assert count(db, "SELECT count(*) FROM deals") == before
    r = ingest(db, p, replace=True)
    assert count(db, "SELECT count(*) FROM deals") == before - gone


def named_boards(*boards: str) -> str:
    """The first game of ``NAMED`` (its players named) once per Board value of ``boards``, each
    with another result, so no two are the same deal."""
    first = re.split(r"\n(?=\[Event )", NAMED.read_text(encoding="latin-1"))[1]
    out = []
    for i, board in enumerate(boards):
        game = re.sub(r'\[Board "[^"]*"\]', f'[Board "{board}"]', first, count=1)
        game = re.sub(r'\[Score "[^"]*"\]\n', "", game)  # the stated score would not agree
        out.append(re.sub(r'\[Result "[^"]*"\]', f'[Result "{6 + i}"]', game, count=1))
    return "\n".join(out)


def test_a_board_without_a_number_takes_no_numbered_boards_place(tmp_path: Path) -> None:
    """Board 2, then a board whose number is not known (``?``), then board 4: three deals, the
    unknown one numbered after the highest so far (it used to take 2, a conflict)."""
    p = tmp_path / "mix.pbn"
    p.write_text(named_boards("2", "?", "4"), encoding="latin-1")
    r = ingest(tmp_path / "t.duckdb", p)
    assert r.quarantined == 0
    numbers = duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True).execute(
        "SELECT deal_no FROM deals ORDER BY 1").fetchall()
    assert numbers == [(2,), (3,), (4,)]


@pytest.mark.parametrize("board", ["1.5", "-1", "0", "x"])
def test_a_board_number_that_is_not_one_is_the_games_issue(tmp_path: Path, board: str) -> None:
    p = tmp_path / "bad.pbn"
    p.write_text(named_boards("1", board), encoding="latin-1")
    r = ingest(tmp_path / "t.duckdb", p)
    assert r.quarantined == 1 and r.issues[0].code == "parse" and "Board" in r.issues[0].message
    assert count(tmp_path / "t.duckdb", "SELECT count(*) FROM deals") == 1
