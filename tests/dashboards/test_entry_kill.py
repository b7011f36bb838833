"""Atomicity of the Entry page's writer (``dashboards.entry.write``): a process writing a deal
(or a correction of one) is killed with SIGKILL at each stage of the write; the database then
holds the deal entirely (its ``deals`` row, its ``deals_greek`` row and its ``ingest_log``
version) or not at all, and writing it again gives exactly a clean run's data (records.md 2).

The child stops itself at a named stage and says so; the test kills it only once it has read
that line, so nothing depends on timing (``anywhere`` kills it as soon as the write begins:
either outcome is accepted, and both are checked)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import duckdb
import pytest

from dashboards import entry
from model.variants import variant
from scoring.checks import run_checks
from tests.conftest import ROOT
from tests.dashboards import fixture_db as fx
from tests.ingest.test_pipeline import snapshot

GAME = "kill/1"
FIRST = {"record": "deal", "game_id": GAME, "deal_no": 1, "dealer": "Ana", "declarer": "Ben",
         "contract": "6S", "defence": {"Ana": "play", "Cy": "play"},
         "tricks": {"Ana": 2, "Ben": 6, "Cy": 2}}
CORRECTED = {**FIRST, "tricks": {"Ana": 3, "Ben": 5, "Cy": 2}}

CHILD = textwrap.dedent("""
    import json, sys, time
    from pathlib import Path
    from dashboards import entry
    from ingest import store

    db, point, record = Path(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])

    def halt():
        print("halted", flush=True)
        time.sleep(600)

    if point == "saved":  # the version's file is written; ingest has not begun
        entry.ingest_paths = lambda *args, **kwargs: halt()
    elif point == "transaction":  # the deal's rows and its log row written, not committed
        mark_pending = store.mark_pending
        def marked(conn, games):
            mark_pending(conn, games)
            halt()
        store.mark_pending = marked
    elif point == "scoring":  # committed; the game not yet settled again
        score_pending, calls = entry.score_pending, []
        def scoring(conn):
            calls.append(conn)
            if len(calls) > 1:  # the first call finishes an earlier run (ingest_paths)
                halt()
            return score_pending(conn)
        entry.score_pending = scoring
    print("writing", flush=True)
    print(entry.write(db, record).text, flush=True)
    print("halted", flush=True)  # `anywhere` may find the write done
    time.sleep(600)
""")


def _game() -> dict[str, Any]:
    return entry.game_record(variant("greek-prefa"), GAME, ["Ana", "Ben", "Cy"], {}, None, None)


def _deal(db: Path) -> tuple[list[str], int, list[str]]:
    """The deal's stored records, its ``deals_greek`` rows and the versions logged for it."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        records = [r[0] for r in con.execute(
            "SELECT record::VARCHAR FROM deals WHERE game_id = ? AND deal_no = 1", [GAME]
        ).fetchall()]
        flat = con.execute("SELECT count(*) FROM deals_greek WHERE game_id = ? AND deal_no = 1",
                           [GAME]).fetchone()
        logged = [r[0] for r in con.execute(
            "SELECT sha256 FROM ingest_log WHERE source = ? ORDER BY ingested_at",
            [entry.source_of(FIRST)]).fetchall()]
        return records, int(flat[0]) if flat else 0, logged
    finally:
        con.close()


def _failed_checks(db: Path) -> set[str]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {f.check for f in run_checks(con) if not f.finding}
    finally:
        con.close()


def _prepare(db: Path, correction: bool) -> Path:
    db.parent.mkdir(parents=True)
    fx.build(db)
    for record in [_game(), *([FIRST] if correction else [])]:
        assert entry.write(db, record).ok
    return db


@pytest.mark.slow
@pytest.mark.parametrize("correction", [False, True], ids=["new", "correction"])
@pytest.mark.parametrize("point", ["saved", "transaction", "scoring", "anywhere"])
def test_sigkill_mid_entry_stores_the_deal_entirely_or_not_at_all(
        point: str, correction: bool, tmp_path: Path) -> None:
    typed = CORRECTED if correction else FIRST
    db = _prepare(tmp_path / "killed" / "db.duckdb", correction)
    before, failing = _deal(db), _failed_checks(db)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(db), point, json.dumps(typed)],
                             cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    wanted = "writing" if point == "anywhere" else "halted"
    said = []
    for text in child.stdout:
        said.append(text.strip())
        if text.strip() == wanted:
            break
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert said[-1:] == [wanted], f"the child stopped before {wanted!r}: {said}"

    records, flat, logged = _deal(db)
    new = [json.loads(r) for r in records] == [{k: v for k, v in typed.items() if k != "record"}]
    if new:  # entirely: the deal, its flat row and its version in the log
        assert flat == 1 and len(logged) == len(before[2]) + 1
    else:  # not at all: the database as before the write
        assert (records, flat, logged) == before
    expected = {"saved": False, "transaction": False, "scoring": True}.get(point)
    assert expected is None or new == expected
    if not new:
        assert _failed_checks(db) <= failing

    assert entry.write(db, typed).ok  # the scorer saves the deal again
    clean = _prepare(tmp_path / "clean" / "db.duckdb", correction)
    assert entry.write(clean, typed).ok
    assert snapshot(db) == snapshot(clean)
    assert _failed_checks(db) == _failed_checks(clean)
