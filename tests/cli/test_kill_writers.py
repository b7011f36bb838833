"""Atomicity of the writers ``trickbook score`` and ``trickbook analyse`` (issue 14, 8; the
ingest one is ``tests/ingest/test_kill.py``): each is killed with SIGKILL in the middle of its
unit of work, between two of its writes; the database then holds all or nothing of that unit,
its data checks pass, and running the command again completes it (the same rows as a run never
killed).

The child runs the real command with the one writer of rows (``model.tables.insert``, as the
module under test imported it) wrapped: after its ``n``-th write the child prints ``mid-write``
and waits on its standard input, which never comes; the test kills it once that line is read. No
timing is involved."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner, Result

from ingest.pipeline import ingest_paths
from scoring.checks import run_checks
from scoring.store import score_pending
from tests.conftest import ROOT
from tests.ingest.fakes import FakeSettlement, fake_scorer
from tests.sim.review.conftest import simulated_db
from trickbook.cli import app

CHILD = textwrap.dedent("""
    import importlib
    import sys

    module, after, args = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    writer = importlib.import_module(module)
    real = writer.insert
    calls = 0

    def insert(conn, table, rows):
        global calls
        n = real(conn, table, rows)
        calls += 1
        if calls == after:
            print("mid-write", table, flush=True)
            sys.stdin.readline()  # never answered: the test kills the process here
        return n

    writer.insert = insert
    from trickbook.cli import app

    app(args, prog_name="trickbook")
""")

SCORE_TABLES = ("settlements", "transfers", "standings", "rescore_pending")
REVIEW_TABLES = ("deal_review", "card_review", "decision_review")


def rows(db: Path, tables: tuple[str, ...]) -> dict[str, list[tuple[object, ...]]]:
    conn = duckdb.connect(str(db), read_only=True)
    try:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY ALL").fetchall() for t in tables}
    finally:
        conn.close()


def failing_checks(db: Path) -> list[str]:
    conn = duckdb.connect(str(db), read_only=True)
    try:
        return [f.check for f in run_checks(conn) if not f.finding]
    finally:
        conn.close()


def kill_mid_write(module: str, after: int, *args: str) -> str:
    """Run ``trickbook ARGS`` with ``module``'s writes wrapped; SIGKILL it after its
    ``after``-th write (once it says so). Returns the table it had just written."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-c", CHILD, module, str(after), *args],
                             cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
    assert child.stdout is not None
    said = ""
    for line in child.stdout:
        if line.startswith("mid-write"):
            said = line.split()[1]
            break
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert said, "the command ended before its write could be interrupted"
    return said


def rerun(*args: str) -> Result:
    """``trickbook ARGS`` run again after the kill, in this process: what it completes is in
    the database, whichever process writes it (only the killed run needs a process of its
    own)."""
    return CliRunner().invoke(app, list(args))


@pytest.mark.slow
def test_sigkill_mid_score_keeps_all_or_nothing_and_a_rerun_completes(tmp_path: Path) -> None:
    samples = [ROOT / "data" / "samples" / "league.jsonl",
               ROOT / "data" / "samples" / "balkan"]
    db, clean = tmp_path / "killed.duckdb", tmp_path / "clean.duckdb"
    # scored by a stand-in settlement: `trickbook score` replaces every row of it
    ingest_paths(samples, db, score=fake_scorer(FakeSettlement()))
    ingest_paths(samples, clean, score=score_pending)
    before, checks = rows(db, SCORE_TABLES), failing_checks(db)
    assert before["settlements"] and before != rows(clean, SCORE_TABLES)

    # killed after the settlements are written, before the transfers and standings
    assert kill_mid_write("scoring.store", 1, "score", "--db", str(db)) == "settlements"
    assert rows(db, SCORE_TABLES) == before and failing_checks(db) == checks

    done = rerun("score", "--db", str(db))
    assert done.exit_code == 0, done.output
    after = rows(db, SCORE_TABLES)
    assert after == rows(clean, SCORE_TABLES) and not after["rescore_pending"]
    assert failing_checks(db) == []


@pytest.mark.slow
def test_sigkill_mid_analyse_keeps_all_or_nothing_and_a_rerun_completes(tmp_path: Path) -> None:
    fresh = simulated_db(tmp_path / "fresh.duckdb", games=1, deals=6, variants=("greek-prefa",))
    db, clean = tmp_path / "killed.duckdb", tmp_path / "clean.duckdb"
    db.write_bytes(fresh.read_bytes())
    clean.write_bytes(fresh.read_bytes())
    args = ("analyse", "--play", "--workers", "1")

    # killed after a batch's deal_review rows are written, before its card_review rows
    said = kill_mid_write("sim.review.store", 1, *args, "--db", str(db))
    assert said == "deal_review"
    conn = duckdb.connect(str(db), read_only=True)
    try:
        reviewed = conn.execute("SELECT count(*) FROM deal_review").fetchone()
        cards = conn.execute("SELECT count(*) FROM card_review").fetchone()
    finally:
        conn.close()
    assert reviewed == (0,) and cards == (0,)  # the batch is all or nothing: nothing
    assert failing_checks(db) == []

    for path in (db, clean):
        done = rerun(*args, "--db", str(path))
        assert done.exit_code == 0, done.output
    assert rows(db, REVIEW_TABLES) == rows(clean, REVIEW_TABLES)
    assert rows(db, ("open_hand",)) == rows(clean, ("open_hand",))
    assert rows(db, ("deal_review",))["deal_review"]
