"""A database made before each variant spelled its calls as records.md 1.2 writes them (``6S``,
bridge ``X``: ``DealBase.spelled_call``) keeps its deals' calls as typed (``6s``, ``Dbl``), and
``deal_key``s other than the same deals read now. Opened to be written, it is upgraded once
(``ingest/upgrades.py``, docs/ingest.md "Databases made before"): a changed version of its file
then changes only what it changed. The old database is made here by writing the old spelling
into the stored deals, as the reader before stored a file typed so."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from ingest import store, upgrades
from ingest.pipeline import ingest_paths
from model import tables as T
from model.identity import canonical, deal_key
from scoring.checks import run_checks
from tests.ctrl_c import STOPPED, able_to_stop
from tests.ingest.test_columnar import simulated

TYPED = {"X": "Dbl", "XX": "Rdbl"}
"""Bridge's doubles as a score sheet may write them (records.md 1.2 writes ``X``, ``XX``)."""


def _typed(line: str) -> str:
    """A deal line with its calls as typed at a table: ``6s``, ``pass``, ``Dbl``."""
    deal = json.loads(line)
    for call in deal.get("auction") or ():
        call["call"] = TYPED.get(call["call"], call["call"].lower())
    return json.dumps(deal)


def _stored(db: Path) -> list[tuple[object, ...]]:
    with duckdb.connect(str(db), read_only=True) as conn:
        return conn.execute("SELECT game_id, deal_no, deal_key, record::VARCHAR FROM deals "
                            "ORDER BY ALL").fetchall()


def _as_made_before(db: Path, typed: dict[tuple[str, int], str]) -> None:
    """Make ``db`` what the reader before the spelling stored from the file: each deal's record
    with its calls as ``typed`` (the canonical JSON of the deal as read, calls untouched) and its
    ``deal_key`` of that; no upgrade applied."""
    with duckdb.connect(str(db)) as conn:
        for game_id, deal_no, record in conn.execute(
                "SELECT game_id, deal_no, record::VARCHAR FROM deals").fetchall():
            deal = json.loads(record)
            deal["auction"] = json.loads(typed[game_id, deal_no])["auction"]
            text = canonical(deal)
            conn.execute("UPDATE deals SET record = ?, deal_key = ? WHERE game_id = ? AND "
                         "deal_no = ?", [text, deal_key(game_id, text), game_id, deal_no])
        conn.execute(f"DROP TABLE {T.UPGRADES}")


def _old_database(tmp_path: Path, variant: str) -> tuple[Path, Path, list[str], list[str]]:
    """A database as the reader before stored ``variant``'s file of typed calls; the file, its
    game lines and its deal lines."""
    games, deals = simulated(variant)
    typed = [_typed(d) for d in deals]
    assert typed != deals
    source, db = tmp_path / "week.jsonl", tmp_path / "old.duckdb"
    source.write_text("\n".join([*games, *typed]) + "\n", encoding="utf-8")
    (first,) = ingest_paths([source], db)
    assert first.stored == len(games) + len(deals) and not first.issues
    by_deal = {(json.loads(t)["game_id"], json.loads(t)["deal_no"]): t for t in typed}
    _as_made_before(db, by_deal)
    return source, db, games, typed


@pytest.mark.parametrize("replace", [False, True], ids=["conflicts", "replace"])
@pytest.mark.parametrize("variant", ["greek-prefa", "bridge-rubber"])
def test_a_changed_version_read_into_a_database_made_before(
        tmp_path: Path, variant: str, replace: bool) -> None:
    """The changed version drops the file's last deal. Read into the database made before, each
    unchanged deal with a call typed ``6s`` was a ``deal-conflict`` ("has other content than
    the one stored"), or with ``--replace`` a deal replaced by itself. Now they are
    duplicates and the dropped deal is the one change (records.md 1.2, docs/ingest.md)."""
    source, db, games, typed = _old_database(tmp_path, variant)
    source.write_text("\n".join([*games, *typed[:-1]]) + "\n", encoding="utf-8")
    (report,) = ingest_paths([source], db, replace=replace)
    assert report.duplicates == len(games) + len(typed) - 1 and report.stored == 0
    assert report.replaced == 0
    assert [i.code for i in report.issues] == ([] if replace else ["deal-conflict"])
    assert report.dropped == 1
    with duckdb.connect(str(db), read_only=True) as conn:
        changes = conn.execute(f"SELECT change FROM {T.SUPERSEDED}").fetchall()
    assert changes == ([("deal dropped",)] if replace else [])


def test_the_upgrade_stores_what_a_new_database_stores_once(tmp_path: Path) -> None:
    """The upgraded deals are those the file gives a new database, byte for byte and key for
    key; the upgrade is marked, so it runs once, and a reread of the file is unchanged."""
    source, db, _, _ = _old_database(tmp_path, "greek-prefa")
    fresh = tmp_path / "new.duckdb"
    ingest_paths([source], fresh)
    assert _stored(db) != _stored(fresh)
    store.connect(db).close()
    assert _stored(db) == _stored(fresh)
    with duckdb.connect(str(db), read_only=True) as conn:
        marks = conn.execute(f"SELECT upgrade, deals FROM {T.UPGRADES} ORDER BY rowid").fetchall()
    assert [name for name, _ in marks] == list(upgrades.UPGRADES) and marks[0][1] > 0
    (again,) = ingest_paths([source], db)
    assert again.skipped == "unchanged" and _stored(db) == _stored(fresh)
    with duckdb.connect(str(fresh), read_only=True) as conn:
        assert conn.execute(f"SELECT upgrade, deals FROM {T.UPGRADES} ORDER BY rowid"
                            ).fetchall() == [(name, 0) for name in upgrades.UPGRADES]


def test_a_ctrl_c_in_the_upgrade_leaves_the_database_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C that DuckDB meets in a statement of the upgrade is a stop (``KeyboardInterrupt``,
    not "cannot use the database"): the upgrade is rolled back, unmarked, and the next writer
    applies it."""
    _, db, _, _ = _old_database(tmp_path, "greek-prefa")
    before = _stored(db)
    real = upgrades._respell_calls

    def stopped(conn: duckdb.DuckDBPyConnection) -> int:
        real(conn)
        able_to_stop(conn).execute(STOPPED).fetchall()
        return 0

    monkeypatch.setitem(upgrades.UPGRADES, upgrades.CALLS_SPELLED, stopped)
    with pytest.raises(KeyboardInterrupt):
        store.connect(db)
    assert _stored(db) == before
    monkeypatch.undo()
    store.connect(db).close()
    assert _stored(db) != before


@pytest.mark.parametrize("respelled_before", [False, True], ids=["at-once", "respelled-before"])
def test_the_upgrade_clears_the_conflicts_an_earlier_read_quarantined(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, respelled_before: bool) -> None:
    """A changed version (its last deal dropped, its first deal given an alert) read into the
    database made before by a trickbook without the upgrade quarantined each unchanged deal as
    a ``deal-conflict`` (its calls spelled now, the stored ones as typed). The upgrade
    ``conflicts judged again`` judges them again: the unchanged deals are duplicates and leave
    the quarantine, counted so in the file's ``ingest_log`` row; the deal really changed and
    the deals dropped stay conflicts, and the data checks of the log hold (records.md 2). So it
    does where a trickbook with ``calls spelled`` alone respelled the database first."""
    source, db, games, typed = _old_database(tmp_path, "bridge-rubber")
    changed = json.loads(typed[0])
    changed["alerts"] = {"0": "strong"}
    lines = [*games, json.dumps(changed), *typed[1:-1]]
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with monkeypatch.context() as old:  # the trickbook before: no upgrade at the open
        old.setattr(upgrades, "apply", lambda conn, made_now: None)
        (report,) = ingest_paths([source], db)
    assert [i.code for i in report.issues].count("deal-conflict") == len(typed) - 1
    if respelled_before:
        with monkeypatch.context() as earlier:
            earlier.setattr(upgrades, "UPGRADES", {
                upgrades.CALLS_SPELLED: upgrades.UPGRADES[upgrades.CALLS_SPELLED]})
            store.connect(db).close()
        with duckdb.connect(str(db), read_only=True) as conn:
            assert conn.execute(f"SELECT count(*) FROM {T.QUARANTINE}").fetchone() == (
                len(typed) - 1,)
    store.connect(db).close()
    with duckdb.connect(str(db), read_only=True) as conn:
        held = conn.execute(f"SELECT line, code FROM {T.QUARANTINE} ORDER BY line").fetchall()
        log = conn.execute(f"SELECT records, stored, duplicates, quarantined FROM {T.INGEST_LOG} "
                           "ORDER BY ingested_at DESC LIMIT 1").fetchone()
        failed = [f.check for f in run_checks(conn) if "ingest" in f.check
                  or "quarantine" in f.check]
    assert held == [(0, "deal-conflict"), (len(games) + 1, "deal-conflict")]
    assert log == (len(lines), 0, len(lines) - 1, 1)
    assert failed == []
